import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { ConfigError, DEFAULT_DATADIR, loadNodeConfig, parseConfFile, parseZcashArgs, rpcServerSettings } from '../../src/config.js';
import { parseAllowList, peerAllowed } from '../../src/rpc/http/allow-ip.js';
import { bindAddresses, splitHostPort } from '../../src/rpc/http/server.js';

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('zcashd-style options', () => {
  it('parses -name=value, -name, -noname and leaves other arguments alone', () => {
    const { options, rest } = parseZcashArgs([
      '-datadir=/x',
      '-testnet',
      '-nolisten',
      '--rpcport=9',
      'file.hex',
      '-',
      '-rpcauth=a:b$c',
      '-rpcauth=d:e$f',
    ]);
    expect(options.get('datadir')).toEqual(['/x']);
    expect(options.get('testnet')).toEqual(['']);
    expect(options.get('listen')).toEqual(['0']);
    expect(options.get('rpcport')).toEqual(['9']);
    expect(options.get('rpcauth')).toEqual(['a:b$c', 'd:e$f']);
    expect(rest).toEqual(['file.hex', '-']);
  });

  it('reads zcash.conf; the command line wins, repeatable options collect from both', () => {
    const base = join(dir, 'a');
    const first = loadNodeConfig([`-datadir=${base}`]); // creates the directory
    expect(first.network.name).toBe('mainnet');
    writeFileSync(
      join(base, 'zcash.conf'),
      '# comment\ntestnet=1\nrpcport=19000\nrpcuser=conf-user\nrpcpassword=conf-pass\nrpcallowip=10.0.0.0/8\nrpcbind=10.0.0.1\n  rpcthreads = 8  # trailing comment\n',
    );
    const c = loadNodeConfig([`-datadir=${base}`, '-rpcport=19001', '-rpcallowip=192.168.1.0/255.255.255.0']);
    expect(c.network.name).toBe('testnet');
    expect(c.datadir).toBe(join(base, 'testnet3'));
    expect(c.rpcPort).toBe(19001);
    expect(c.rpcUser).toBe('conf-user');
    expect(c.rpcPassword).toBe('conf-pass');
    expect(rpcServerSettings(c).threads).toBe(8);
    expect(c.rpcAllowIp).toEqual(['192.168.1.0/255.255.255.0', '10.0.0.0/8']);
    expect(c.rpcCookieFile).toBe(join(base, 'testnet3', '.cookie'));
    expect(c.getBoolArg('testnet', false)).toBe(true);
  });

  it('uses zcashd defaults per network, and ~/.zecrpc as the data dir', () => {
    expect(DEFAULT_DATADIR).toBe(join(homedir(), '.zecrpc'));
    const m = loadNodeConfig([`-datadir=${join(dir, 'b')}`]);
    const s = rpcServerSettings(m);
    expect([m.rpcPort, s.threads, s.workQueue, s.serverTimeout, m.rpcPassword]).toEqual([8232, 4, 16, 30, undefined]);
    expect(loadNodeConfig([`-datadir=${join(dir, 'b')}`, '-testnet']).rpcPort).toBe(18232);
    const r = loadNodeConfig([`-datadir=${join(dir, 'b')}`, '-regtest']);
    expect([r.rpcPort, r.datadir]).toEqual([18232, join(dir, 'b', 'regtest')]);
    // an empty -rpcpassword means cookie mode, as in zcashd
    expect(loadNodeConfig([`-datadir=${join(dir, 'b')}`, '-rpcpassword=']).rpcPassword).toBeUndefined();
  });

  it('reports bad values clearly', () => {
    const d = `-datadir=${join(dir, 'c')}`;
    expect(() => loadNodeConfig([d, '-testnet', '-regtest'])).toThrow('Invalid combination of -regtest and -testnet.');
    expect(() => loadNodeConfig([d, '-rpcport=http'])).toThrow("Invalid value for -rpcport: 'http' (expected an integer)");
    expect(() => loadNodeConfig([d, '-rpcport=70000'])).toThrow('Invalid value for -rpcport: 70000 (must be between 0 and 65535)');
    expect(() => rpcServerSettings(loadNodeConfig([d, '-upstream=ftp://x']))).toThrow(ConfigError);
    expect(() => loadNodeConfig([d, `-conf=${join(dir, 'missing.conf')}`])).toThrow(/does not exist/);
    // Section lines are accepted as zcashd reads them; a line that is not name=value is not.
    expect(() => parseConfFile('good=1\n[main]\n', 'zcash.conf')).not.toThrow();
    expect(() => parseConfFile('good=1\nbad line\n', 'zcash.conf')).toThrow(
      "Error reading configuration file zcash.conf: the options configuration file contains an invalid line 'bad line'",
    );
  });
});

describe('options as zcashd v6.12.2 reads them (util/system.cpp ParseParameters, ReadConfigFile)', () => {
  const conf = (name: string, text: string): string => {
    const base = join(dir, name);
    mkdirSync(base, { recursive: true });
    writeFileSync(join(base, 'zcash.conf'), text);
    return `-datadir=${base}`;
  };

  it("takes a single-valued option's last value on the command line, and its first in the file", () => {
    // `notestnet` and `testnet` are different names to the duplicate check, the same option after it.
    expect(loadNodeConfig([conf('first-wins', 'notestnet=1\ntestnet=1\n')]).network.name).toBe('mainnet');
    expect(loadNodeConfig([conf('first-wins-2', 'testnet=1\nnotestnet=1\n')]).network.name).toBe('testnet');
    const d = conf('cli-last', 'rpcport=1000\n');
    expect(loadNodeConfig([d, '-rpcport=2000', '-rpcport=3000']).rpcPort).toBe(3000);
    expect(loadNodeConfig([d]).rpcPort).toBe(1000);
  });

  it('collects every repeatable value from both, the command line first (-debug, -uacomment as well)', () => {
    const c = loadNodeConfig([conf('multi', 'uacomment=a\ndebug=rpc\n'), '-uacomment=b', '-debug=net']);
    expect(c.getArgs('uacomment')).toEqual(['b', 'a']);
    expect(c.getArgs('debug')).toEqual(['net', 'rpc']);
  });

  it('moves to a data directory the file names, as zcashd re-reads it after the file', () => {
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    const confFile = join(dir, 'etc-zcash.conf');
    writeFileSync(confFile, `datadir=${elsewhere}\nregtest=1\n`);
    const c = loadNodeConfig([`-conf=${confFile}`]); // the usual `-conf=/etc/zcash.conf` set-up
    expect([c.baseDatadir, c.datadir, c.rpcCookieFile, c.confPath]).toEqual([
      elsewhere,
      join(elsewhere, 'regtest'),
      join(elsewhere, 'regtest', '.cookie'),
      confFile,
    ]);
    // the command line's -datadir wins over the file's
    const d = join(dir, 'moves');
    mkdirSync(d, { recursive: true });
    expect(loadNodeConfig([`-conf=${confFile}`, `-datadir=${d}`]).baseDatadir).toBe(d);
    const missing = join(dir, 'no-such-dir');
    writeFileSync(confFile, `datadir=${missing}\n`);
    expect(() => loadNodeConfig([`-conf=${confFile}`])).toThrow(`Error: Specified data directory "${missing}" does not exist.`);
  });

  it('names a configuration file it cannot read', () => {
    // /proc/self/mem is there, and reading it from its start fails (EIO), whoever runs the test
    expect(() => loadNodeConfig([conf('unreadable', ''), '-conf=/proc/self/mem'])).toThrow(
      'Error: Configuration file /proc/self/mem cannot be read (EIO)',
    );
  });

  it.skipIf(!existsSync('/dev/zero'))('stops reading a configuration file at 16 MiB instead of running out of memory', () => {
    expect(() => loadNodeConfig([conf('endless', ''), '-conf=/dev/zero'])).toThrow(
      new ConfigError(
        'Error: Configuration file /dev/zero cannot be read (/dev/zero is larger than 16777216 bytes, too large for a configuration file)',
      ),
    );
  });

  it('reads a directory named as the configuration file as an empty file, as zcashd does', () => {
    const d = conf('conf-dir', 'testnet=1\n');
    expect(loadNodeConfig([d, `-conf=${dir}`]).network.name).toBe('mainnet');
    expect(loadNodeConfig([d, '-conf=']).network.name).toBe('mainnet'); // the data directory itself
  });

  it("leaves the server's settings to the server: a shared zcash.conf zcashd accepts loads for every command", () => {
    const c = loadNodeConfig([conf('server-only', 'rpcthreads=0\nrpcworkqueue=0\nrpcservertimeout=0\n')]);
    // zcashd raises the thread count and queue depth to 1 (httpserver.cpp) and libevent reads a 0 timeout as none
    expect(rpcServerSettings(c)).toEqual({ threads: 1, workQueue: 1, serverTimeout: 0, upstream: undefined });
    expect(rpcServerSettings(loadNodeConfig([conf('many-threads', 'rpcthreads=2000\n')])).threads).toBe(2000);
    // a timer cannot wait longer than 2^31 - 1 ms
    expect(() => rpcServerSettings(loadNodeConfig([conf('long-timeout', 'rpcservertimeout=3000000\n')]))).toThrow(
      'Error: Invalid value for -rpcservertimeout: 3000000 (must be between 0 and 2147483)',
    );
    // a value that cannot mean anything still fails, but only where it is read
    const bad = loadNodeConfig([conf('server-bad', 'rpcthreads=many\nupstream=localhost:8232\n')]);
    expect(() => rpcServerSettings(bad)).toThrow(
      "Error: Invalid value for -upstream: 'localhost:8232' (expected an http:// or https:// URL)",
    );
    expect(() => rpcServerSettings({ getArg: (n) => (n === 'rpcthreads' ? 'many' : undefined) })).toThrow(
      "Error: Invalid value for -rpcthreads: 'many' (expected an integer)",
    );
  });
});

describe("regtest's coinbase reward overrides", () => {
  it('-regtestshieldcoinbase turns on coinbase shielding on regtest whenever it is given, as zcashd reads it', () => {
    const d = `-datadir=${join(dir, 'shield')}`;
    expect(loadNodeConfig([d, '-regtest']).network.coinbaseMustBeShielded).toBe(false);
    expect(loadNodeConfig([d, '-regtest', '-regtestshieldcoinbase']).network.coinbaseMustBeShielded).toBe(true);
    expect(loadNodeConfig([d, '-regtest', '-regtestshieldcoinbase=0']).network.coinbaseMustBeShielded).toBe(true);
    expect(loadNodeConfig([d]).network.coinbaseMustBeShielded).toBe(true);
    expect(loadNodeConfig([d, '-testnet']).network.coinbaseMustBeShielded).toBe(true);
  });

  it('refuses -fundingstream and -onetimelockboxdisbursement from zcash.conf: off regtest in zcashd words, on regtest as unsupported', () => {
    for (const [line, offRegtest] of [
      ['fundingstream=0:1:100:t2UNzUUx8mWBCRYPRezvA363EYXyEpHokyi', 'Error: Funding stream parameters may only be overridden on regtest.'],
      [
        'onetimelockboxdisbursement=0:4dec4df0:100:t2RnBRiqrN1nW4ecZs1Fj3WWjNdnSs4kiX8',
        'Error: One-time lockbox disbursement parameters may only be overridden on regtest.',
      ],
    ] as const) {
      const base = join(dir, `override-${line.slice(0, 4)}`);
      loadNodeConfig([`-datadir=${base}`]);
      writeFileSync(join(base, 'zcash.conf'), `${line}\n`);
      expect(() => loadNodeConfig([`-datadir=${base}`])).toThrow(offRegtest);
      const name = line.slice(0, line.indexOf('='));
      expect(() => loadNodeConfig([`-datadir=${base}`, '-regtest'])).toThrow(
        `Error: -${name} is not supported by zecrpc: it cannot check or print a regtest chain whose coinbases follow it`,
      );
    }
  });
});

describe('-nuparams (regtest upgrade schedule)', () => {
  const d = `-datadir=${join(dir, 'nu')}`;

  it('activates the named upgrades, and the unset earlier ones with them, as zcashd does', () => {
    const c = loadNodeConfig([d, '-regtest', '-nuparams=f5b9230b:10', '-nuparams=c2d6d0b4:20']);
    expect(c.network.activationHeights).toMatchObject({
      Overwinter: 10,
      Sapling: 10,
      Blossom: 10,
      Heartwood: 10,
      Canopy: 20,
      NU5: 20,
      NU6: null,
    });
    expect(loadNodeConfig([d, '-regtest']).network.activationHeights.Sapling).toBeNull();
    // zcash.conf adds to the command line, as for zcashd's other repeatable options.
    const base = join(dir, 'nu-conf');
    loadNodeConfig([`-datadir=${base}`]);
    writeFileSync(join(base, 'zcash.conf'), 'regtest=1\nnuparams=76b809bb:3\n');
    expect(loadNodeConfig([`-datadir=${base}`, '-nuparams=2bb40e60:7']).network.activationHeights).toMatchObject({
      Sapling: 3,
      Blossom: 7,
      Heartwood: null,
    });
  });

  it("refuses what zcashd refuses, with zcashd's messages", () => {
    expect(() => loadNodeConfig([d, '-nuparams=76b809bb:1'])).toThrow(
      'Error: Network upgrade parameters may only be overridden on regtest.',
    );
    expect(() => loadNodeConfig([d, '-regtest', '-nuparams=76b809bb'])).toThrow(
      'Error: Network upgrade parameters malformed, expecting hexBranchId:activationHeight',
    );
    expect(() => loadNodeConfig([d, '-regtest', '-nuparams=76b809bb:x'])).toThrow('Error: Invalid nActivationHeight (x)');
    expect(() => loadNodeConfig([d, '-regtest', '-nuparams=76B809BB:5'])).toThrow('Error: Invalid network upgrade (76B809BB)');
    expect(() => loadNodeConfig([d, '-regtest', '-nuparams=5ba81b19:9', '-nuparams=76b809bb:5'])).toThrow(
      'Error: -nuparams: Sapling activates at 5 but Overwinter activates at 9',
    );
  });
});

describe('RPC bind addresses and allow-list (rpc-http-json.md §1.1)', () => {
  const cfg = (args: string[]) => loadNodeConfig([`-datadir=${join(dir, 'd')}`, ...args]);
  it('binds loopback only unless -rpcallowip is given; -rpcbind needs -rpcallowip', () => {
    expect(bindAddresses(cfg([]))).toEqual(['127.0.0.1', '::1']);
    expect(bindAddresses(cfg(['-rpcbind=0.0.0.0']))).toEqual(['127.0.0.1', '::1']);
    expect(bindAddresses(cfg(['-rpcallowip=10.1.2.3']))).toEqual(['0.0.0.0', '::']);
    expect(bindAddresses(cfg(['-rpcallowip=10.1.2.3', '-rpcbind=10.1.2.1', '-rpcbind=[::1]:9000']))).toEqual(['10.1.2.1', '[::1]:9000']);
  });

  it('always allows loopback, plus single IPs, CIDR and netmask subnets', () => {
    const list = parseAllowList(['10.1.2.3', '192.168.0.0/16', '172.16.0.0/255.240.0.0', 'fd00::/8']);
    const allowed = (peer: string) => peerAllowed(list, peer);
    expect(['127.0.0.1', '127.255.0.9', '::1', '10.1.2.3', '192.168.44.1', '172.31.255.255', 'fd12::1'].filter(allowed)).toHaveLength(7);
    expect(['10.1.2.4', '172.32.0.0', '::2', 'fe80::1', '8.8.8.8'].filter(allowed)).toEqual([]);
    // a dual-stack socket reports IPv4 peers in their IPv4-mapped form, which zcashd stores them as
    expect(allowed('::ffff:10.1.2.3')).toBe(true);
    expect(allowed('::ffff:10.1.2.4')).toBe(false);
  });

  it("splits -rpcbind values as zcashd's SplitHostPort does", () => {
    const split = (bind: string) => splitHostPort(bind, 8232);
    expect(split('10.0.0.1:8000')).toEqual({ host: '10.0.0.1', port: 8000 });
    expect(split('[fd00::1]:8000')).toEqual({ host: 'fd00::1', port: 8000 });
    expect(split('[fd00::1]')).toEqual({ host: 'fd00::1', port: 8232 });
    expect(split('fd00::1')).toEqual({ host: 'fd00::1', port: 8232 }); // several colons and no brackets: no port
    expect(split('10.0.0.1:+80')).toEqual({ host: '10.0.0.1', port: 80 });
    // not a port from 1 to 65535: all of it is the host, whose bind then fails
    expect(split('127.0.0.3:0')).toEqual({ host: '127.0.0.3:0', port: 8232 });
    expect(split('10.0.0.1:65536')).toEqual({ host: '10.0.0.1:65536', port: 8232 });
    expect(split('10.0.0.1')).toEqual({ host: '10.0.0.1', port: 8232 });
  });

  it("reads -rpcallowip forms as zcashd's CSubNet does, and refuses the rest with its message", () => {
    const allows = (entry: string, peer: string) => peerAllowed(parseAllowList([entry]), peer);
    // brackets around an IPv6 address (LookupHost strips them)
    expect(allows('[fd00::5]', 'fd00::5')).toBe(true);
    expect(allows('[fd00::]/16', 'fd00:1::9')).toBe(true);
    // a netmask that is not contiguous is copied in as it is
    expect(allows('10.0.0.0/255.0.255.0', '10.7.0.9')).toBe(true);
    expect(allows('10.0.0.0/255.0.255.0', '10.7.1.9')).toBe(false);
    // an IPv6 network with an IPv6 netmask
    expect(allows('fe80::/ffff:ffff::', 'fe80::1234')).toBe(true);
    expect(allows('fe80::/ffff:ffff::', 'fe81::1')).toBe(false);
    expect(allows('fe80::/16', 'fe80::1%eth0')).toBe(true); // a link-local peer carries its zone
    expect(allows('fe80::1%eth0', 'fe80::1')).toBe(true); // and so may an entry (getaddrinfo takes it)
    // a Tor entry is taken (CNetAddr::SetSpecial) and stands for its OnionCat address
    expect(allows('expyuzz4wqqyqhjn.onion', '10.0.0.1')).toBe(false);
    expect(allows('expyuzz4wqqyqhjn.onion', 'fd87:d87e:eb43:25df:8a67:3cb4:2188:1d2d')).toBe(true);
    // peers zcashd's CNetAddr::IsValid refuses before any subnet is tried
    expect(allows('2001:db8::/32', '2001:db8::1')).toBe(false);
    expect(allows('0.0.0.0/0', '0.0.0.0')).toBe(false);
    expect(allows('0.0.0.0/0', '255.255.255.255')).toBe(false);
    expect(allows('0.0.0.0/0', '203.0.113.9')).toBe(true);
    // ParseInt32 takes a sign; the network is normalised under the mask
    expect(allows('10.1.2.3/+24', '10.1.2.200')).toBe(true);
    expect(allows('10.1.2.3/-0', '203.0.113.1')).toBe(true);
    expect(allows('10.1.2.3/-0', 'fd00::1')).toBe(false); // an IPv4 /0 still wants the IPv4 prefix
    // getaddrinfo's numeric IPv4 forms
    expect(allows('10.1', '10.0.0.1')).toBe(true);
    expect(allows('0x0a000001', '10.0.0.1')).toBe(true);
    expect(allows('012.0.0.1', '10.0.0.1')).toBe(true); // octal, as inet_aton reads it
    expect(allows('::ffff:10.0.0.1', '10.0.0.1')).toBe(true);
    for (const bad of [
      'not-an-ip',
      '10.0.0.0/33',
      'fd00::/129',
      '10.0.0.0/',
      '1.2.3.4/24/8',
      '256.1.1.1',
      '1:2:3',
      '10.0.0.0/ 8',
      '[10.0.0.1',
      '',
    ]) {
      expect(() => parseAllowList([bad])).toThrow(
        `Invalid -rpcallowip subnet specification: ${bad}. Valid are a single IP (e.g. 1.2.3.4), a network/netmask (e.g. 1.2.3.4/255.255.255.0) or a network/CIDR (e.g. 1.2.3.4/24).`,
      );
    }
  });
});
