import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_DATADIR, loadNodeConfig, parseConfFile, parseZcashArgs } from '../../src/config.js';
import { bindAddresses, buildAllowList } from '../../src/rpc/http/server.js';

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
    expect(c.rpcThreads).toBe(8);
    expect(c.rpcAllowIp).toEqual(['192.168.1.0/255.255.255.0', '10.0.0.0/8']);
    expect(c.rpcCookieFile).toBe(join(base, 'testnet3', '.cookie'));
    expect(c.getBoolArg('testnet', false)).toBe(true);
  });

  it('uses zcashd defaults per network, and ~/.zecrpc as the data dir', () => {
    expect(DEFAULT_DATADIR).toBe(join(homedir(), '.zecrpc'));
    const m = loadNodeConfig([`-datadir=${join(dir, 'b')}`]);
    expect([m.rpcPort, m.rpcThreads, m.rpcWorkQueue, m.rpcServerTimeout, m.rpcPassword]).toEqual([8232, 4, 16, 30, undefined]);
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
    expect(() => loadNodeConfig([d, '-upstream=ftp://x'])).toThrow(ConfigError);
    expect(() => loadNodeConfig([d, `-conf=${join(dir, 'missing.conf')}`])).toThrow(/does not exist/);
    // Section lines are accepted as zcashd reads them; a line that is not name=value is not.
    expect(() => parseConfFile('good=1\n[main]\n', 'zcash.conf')).not.toThrow();
    expect(() => parseConfFile('good=1\nbad line\n', 'zcash.conf')).toThrow(
      "Error reading configuration file zcash.conf: the options configuration file contains an invalid line 'bad line'",
    );
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
    const list = buildAllowList(['10.1.2.3', '192.168.0.0/16', '172.16.0.0/255.240.0.0', 'fd00::/8']);
    expect(list.check('127.0.0.1', 'ipv4')).toBe(true);
    expect(list.check('127.255.0.9', 'ipv4')).toBe(true);
    expect(list.check('::1', 'ipv6')).toBe(true);
    expect(list.check('10.1.2.3', 'ipv4')).toBe(true);
    expect(list.check('10.1.2.4', 'ipv4')).toBe(false);
    expect(list.check('192.168.44.1', 'ipv4')).toBe(true);
    expect(list.check('172.31.255.255', 'ipv4')).toBe(true);
    expect(list.check('172.32.0.0', 'ipv4')).toBe(false);
    expect(list.check('fd12::1', 'ipv6')).toBe(true);
    expect(() => buildAllowList(['not-an-ip'])).toThrow('Invalid -rpcallowip subnet specification: not-an-ip');
    expect(() => buildAllowList(['10.0.0.0/255.0.255.0'])).toThrow(/Invalid -rpcallowip/);
  });
});
