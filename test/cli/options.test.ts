import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertDatadirExists, ConfigError, interpretBool, loadNodeConfig, parseConfFile, parseZcashArgs } from '../../src/config.js';
import { checkOptions, isHelpFlag, isVersionFlag } from '../../src/cli/options.js';
import { convertParams } from '../../src/cli/rpc-params.js';
import { writePretty } from '../../src/json/pretty.js';

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('zcash.conf as zcashd v6.12.2 reads it (boost config_file_iterator + ReadConfigFile)', () => {
  it('accepts section lines; the names below them get the section prefix and are never read', () => {
    const opts = parseConfFile('rpcport=1\n[main]\nrpcport=2\n[test.]\nrpcuser=x\n', 'zcash.conf');
    expect(opts.get('rpcport')).toEqual(['1']);
    expect(opts.get('main.rpcport')).toEqual(['2']);
    expect(opts.get('test.rpcuser')).toEqual(['x']);
    expect(opts.has('rpcuser')).toBe(false);
  });

  it('strips # comments anywhere, trims names and values, keeps empty values', () => {
    const opts = parseConfFile('  rpcuser = alice # who\n# whole line\n\nrpcpassword=\nrpcallowip=10.0.0.0/8#x\r\n', 'c');
    expect(opts.get('rpcuser')).toEqual(['alice']);
    expect(opts.get('rpcpassword')).toEqual(['']);
    expect(opts.get('rpcallowip')).toEqual(['10.0.0.0/8']);
  });

  it('refuses a line without "=", and a repeated name unless zcashd allows repeating it', () => {
    expect(() => parseConfFile('testnet\n', '/d/zcash.conf')).toThrow(
      "Error reading configuration file /d/zcash.conf: the options configuration file contains an invalid line 'testnet'",
    );
    expect(() => parseConfFile('rpcport=1\nrpcport=2\n', 'c')).toThrow("Option '-rpcport' is duplicated, which is not allowed.");
    expect(parseConfFile('rpcallowip=1.2.3.4\nrpcallowip=5.6.7.8\nrpcbind=a\nrpcbind=b\n', 'c').get('rpcallowip')).toEqual([
      '1.2.3.4',
      '5.6.7.8',
    ]);
    // the same name in two sections is two names
    expect(parseConfFile('[main]\nrpcport=1\n[test]\nrpcport=2\n', 'c').get('test.rpcport')).toEqual(['2']);
  });

  it('turns noX into X=0 and noX=0 into X=1 (InterpretNegativeSetting), on the command line and in the file', () => {
    expect(parseConfFile('notestnet=1\nnodebug=0\n', 'c')).toEqual(
      new Map([
        ['testnet', ['0']],
        ['debug', ['1']],
      ]),
    );
    expect(parseZcashArgs(['-nodebug', '-noregtest=0']).options).toEqual(
      new Map([
        ['debug', ['0']],
        ['regtest', ['1']],
      ]),
    );
    expect([interpretBool(''), interpretBool('0'), interpretBool('1'), interpretBool('abc'), interpretBool('2x')]).toEqual([
      true,
      false,
      true,
      false,
      true,
    ]);
  });

  it('a data directory with a [main] section in its zcash.conf loads, and the section changes nothing', () => {
    const base = join(dir, 'sections');
    loadNodeConfig([`-datadir=${base}`]);
    writeFileSync(join(base, 'zcash.conf'), 'regtest=1\n[main]\nrpcport=1\n[test]\nrpcport=2\n');
    const c = loadNodeConfig([`-datadir=${base}`]);
    expect(c.network.name).toBe('regtest');
    expect(c.rpcPort).toBe(18232);
  });
});

describe('data directory check', () => {
  it('refuses a -datadir that does not exist, with zcashd words; accepts an existing one', () => {
    const missing = join(dir, 'no-such-dir');
    expect(() => assertDatadirExists([`-datadir=${missing}`])).toThrow(
      new ConfigError(`Error: Specified data directory "${missing}" does not exist.`),
    );
    expect(() => assertDatadirExists([`-datadir=${dir}`])).not.toThrow();
    expect(() => assertDatadirExists(['-regtest'])).not.toThrow();
  });
});

describe('options each command accepts', () => {
  const opts = (...args: string[]) => parseZcashArgs(args).options;
  it('accepts its own options', () => {
    expect(() =>
      checkOptions(opts('-datadir=/x', '-regtest', '-rpcport=1', '-debug=rpc', '-loglevel=warn', '-upstream=http://h/'), 'serve'),
    ).not.toThrow();
    // zcashd v6.12.2's start-up acknowledgement, in every copied zcashd command line
    expect(() => checkOptions(opts('-i-am-aware-zcashd-will-be-replaced-by-zebrad-and-zallet-in-2025=1'), 'serve')).not.toThrow();
    expect(() => checkOptions(opts('-datadir=/x', '-testnet', '-conf=c'), 'import')).not.toThrow();
    expect(() => checkOptions(opts('-rpcconnect=h', '-rpcwait', '-stdin', '-rpcclienttimeout=5'), 'cli')).not.toThrow();
  });

  it('refuses unknown, zcashd-only and other commands’ options with a clear message', () => {
    expect(() => checkOptions(opts('-foo=1'), 'serve')).toThrow(
      "Error: zecrpc serve does not take -foo (unknown option). See 'zecrpc serve -help'.",
    );
    expect(() => checkOptions(opts('-daemon'), 'serve')).toThrow(
      /zecrpc serve does not take -daemon \(a zcashd option zecrpc does not take: zecrpc does not fork/,
    );
    expect(() => checkOptions(opts('-rpcport=1'), 'import')).toThrow(
      "Error: zecrpc import does not take -rpcport (it is an option of zecrpc serve and zecrpc-cli). See 'zecrpc import -help'.",
    );
    expect(() => checkOptions(opts('-rpcconnect=h'), 'serve')).toThrow('it is an option of zecrpc-cli');
  });

  it('recognises zcashd help and version switches', () => {
    expect(['-?', '-h', '-help', '--help', '--h'].every(isHelpFlag)).toBe(true);
    expect(['-hex', 'help', '-helpme'].some(isHelpFlag)).toBe(false);
    expect(['-version', '--version'].every(isVersionFlag)).toBe(true);
  });
});

describe("zcash-cli's parameter conversion (rpc/common.h table, RPCConvertValues)", () => {
  const params = (method: string, ...words: string[]) => {
    const r = convertParams(method, words);
    if ('failure' in r) throw new Error(r.failure.message);
    return writePretty(r.params, 0);
  };
  const failure = (method: string, ...words: string[]) => {
    const r = convertParams(method, words);
    return 'failure' in r ? r.failure.message : null;
  };

  it('keeps string parameters verbatim and parses JSON ones', () => {
    expect(params('getblock', '00040fe8', '2')).toBe('["00040fe8",2]');
    expect(params('getblock', '12800')).toBe('["12800"]');
    expect(params('getblockhash', '5')).toBe('[5]');
    expect(params('getrawtransaction', 'ab', '1', 'cd')).toBe('["ab",1,"cd"]');
    expect(params('getblockhashes', '1477641360', '1477641360', '{"noOrphans":true,"logicalTimes":true}')).toBe(
      '[1477641360,1477641360,{"noOrphans":true,"logicalTimes":true}]',
    );
    expect(params('decoderawtransaction', 'null')).toBe('["null"]');
    expect(params('help')).toBe('[]');
  });

  it('a nullable string becomes null only for the word null', () => {
    expect(params('z_shieldcoinbase', 'a', 'b', '0.1', '5', 'null')).toBe('["a","b",0.1,5,null]');
    expect(params('z_shieldcoinbase', 'a', 'b', '0.1', '5', 'AllowRevealedSenders')).toBe('["a","b",0.1,5,"AllowRevealedSenders"]');
  });

  it("fails with zcashd's texts (qa/rpc-tests/errors.py, src/test/rpc_tests.cpp, rpc_wallet_tests.cpp)", () => {
    expect(failure('gettxoutsetinfo', '1')).toBe('Too many parameters for method `gettxoutsetinfo`. Needed exactly 0, but received 1');
    expect(failure('getblockhashes', '1477641360', '1477641360', '{"noOrphans":True,"logicalTimes":false}')).toBe(
      'Error parsing JSON: {"noOrphans":True,"logicalTimes":false}',
    );
    expect(failure('z_mergetoaddress', '**', 'tm1')).toBe('Error parsing JSON: **');
    expect(failure('getblock')).toBe('Not enough parameters for method `getblock`. Needed at least 1 and at most 2, but received 0');
    expect(failure('getblockhash', 'abc')).toBe('Error parsing JSON: abc');
    expect(failure('nosuchmethod')).toBe('Unknown RPC method, nosuchmethod');
    expect(failure('toString')).toBe('Unknown RPC method, toString');
  });
});
