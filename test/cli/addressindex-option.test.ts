// `-addressindex` (default 1) on the commands that open a chain store: how it parses, that
// `zecrpc import -addressindex=0` creates a store without the index, that `zecrpc serve` serves
// such a store only with the same option, and that the flags whose methods read the index are
// refused at start with it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runImport } from '../../src/cli/import.js';
import { runVerify } from '../../src/cli/verify.js';
import { checkOptions } from '../../src/cli/options.js';
import { startNode } from '../../src/cli/serve.js';
import { addressIndexOption, ConfigError, loadNodeConfig, parseZcashArgs } from '../../src/config.js';
import { AddressIndexMismatchError, checkStoreIntegrity, openChainStore } from '../../src/store/index.js';
import { keys } from '../../src/store/layout.js';
import { REGTEST_REORG_DIR, hex, regtestReorg, tempDir } from '../support/store.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (cleanups.length) await cleanups.pop()!();
});

function dataDir(label: string): string {
  const dir = tempDir(label);
  cleanups.push(dir.remove);
  return dir.path;
}

async function rpc(port: number, auth: string, method: string, params: unknown[] = []): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    headers: { authorization: 'Basic ' + Buffer.from(auth).toString('base64') },
    body: JSON.stringify({ jsonrpc: '1.0', id: 'a', method, params }),
  });
  return res.text();
}

/** `zecrpc import` of the regtest reorganization vectors (base, then the branch that takes over). */
async function importVectors(datadir: string, ...options: string[]): Promise<void> {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const files = [join(REGTEST_REORG_DIR, 'base.hex'), join(REGTEST_REORG_DIR, 'branch.hex')];
  await runImport([`-datadir=${datadir}`, '-regtest', ...options, '--hex', ...files, '--progress', 'silent']);
  vi.restoreAllMocks();
}

describe('-addressindex', () => {
  it('is 1 unless given 0, from the command line or zcash.conf', () => {
    const datadir = dataDir('addressindex-parse');
    const value = (...args: string[]) => addressIndexOption(loadNodeConfig([`-datadir=${datadir}`, ...args]));
    expect(value()).toBe(true);
    expect(value('-addressindex')).toBe(true);
    expect(value('-addressindex=1')).toBe(true);
    expect(value('-addressindex=0')).toBe(false);
    expect(value('-noaddressindex')).toBe(false);
    expect(value('-noaddressindex=1')).toBe(false);
    writeFileSync(join(datadir, 'zcash.conf'), 'addressindex=0\n');
    expect(value()).toBe(false);
    expect(value('-addressindex=1')).toBe(true); // the command line wins
    writeFileSync(join(datadir, 'zcash.conf'), 'noaddressindex=1\n');
    expect(value()).toBe(false);
    writeFileSync(join(datadir, 'zcash.conf'), 'addressindex=1\n');
    expect(value()).toBe(true);
  });

  it('refuses any other form, which zcashd would read as a boolean (true and yes as 0), naming the forms it takes', () => {
    const datadir = dataDir('addressindex-strict');
    const value = (...args: string[]) => addressIndexOption(loadNodeConfig([`-datadir=${datadir}`, ...args]));
    const accepted =
      '-addressindex takes only -addressindex or -addressindex=1 (keep the address index, the default) and -addressindex=0 or ' +
      '-noaddressindex (create the store without it), in zcash.conf addressindex=1, addressindex=0 or noaddressindex=1. ' +
      'The choice stays with the store.';
    for (const given of ['-addressindex=true', '-addressindex=yes', '-addressindex=no', '-addressindex=2', '-addressindex= 1']) {
      expect(() => value(given)).toThrow(new ConfigError(`Error: Invalid value in '${given}': ${accepted}`));
    }
    for (const given of ['-noaddressindex=0', '-noaddressindex=yes', '-noaddressindex=true']) {
      expect(() => value(given)).toThrow(new ConfigError(`Error: Invalid value in '${given}': ${accepted}`));
    }
    // Also beside a valid one, and in zcash.conf.
    expect(() => value('-addressindex=0', '-addressindex=true')).toThrow(ConfigError);
    writeFileSync(join(datadir, 'zcash.conf'), 'addressindex=true\n');
    expect(() => value()).toThrow(new ConfigError(`Error: Invalid value in '-addressindex=true': ${accepted}`));
    writeFileSync(join(datadir, 'zcash.conf'), 'noaddressindex=yes\n');
    expect(() => value()).toThrow(new ConfigError(`Error: Invalid value in '-noaddressindex=yes': ${accepted}`));
  });

  it('is an option of serve, import and verify, not of zecrpc-cli', () => {
    const opts = (...args: string[]) => parseZcashArgs(args).options;
    for (const command of ['serve', 'import', 'verify'] as const) {
      expect(() => checkOptions(opts('-addressindex=0'), command)).not.toThrow();
      expect(() => checkOptions(opts('-noaddressindex'), command)).not.toThrow();
    }
    expect(() => checkOptions(opts('-addressindex=0'), 'cli')).toThrow(
      "Error: zecrpc-cli does not take -addressindex (it is an option of zecrpc serve and zecrpc import and zecrpc verify). See 'zecrpc-cli -help'.",
    );
  });

  it('zecrpc import -addressindex=0 creates a store without the index, which serve opens only with the same option', async () => {
    const base = dataDir('addressindex-import');
    await importVectors(base, '-addressindex=0');
    const datadir = join(base, 'regtest');
    const store = await openChainStore({ datadir, network: loadNodeConfig([`-datadir=${base}`, '-regtest']).network, addressIndex: false });
    const tipHash = regtestReorg().manifest.branch.at(-1)!.hash;
    expect(hex((await store.tip())!.hash)).toBe(tipHash);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
    for (const prefix of keys.addressIndexPrefixes) {
      expect(await store.database.keys({ gte: Buffer.of(prefix), lt: Buffer.of(prefix + 1) }).all()).toEqual([]);
    }
    expect(await store.database.get(keys.noAddressIndex())).toBeDefined();
    await store.close();

    // Importing more, or serving it, without the option is refused by the store, naming the option.
    await expect(importVectors(base)).rejects.toBeInstanceOf(AddressIndexMismatchError);
    const start = (...args: string[]) => startNode([`-datadir=${base}`, '-regtest', '-rpcport=0', ...args], { log: false });
    await expect(start()).rejects.toThrow(
      /keeps no address index \(it was created with -addressindex=0\).*give -addressindex=0 to every command that opens this store/,
    );

    // With it, the store serves; the insight methods answer zcashd's "is disabled", as without the flags.
    const node = await start('-addressindex=0');
    cleanups.push(() => node.shutdown());
    const auth = readFileSync(join(datadir, '.cookie'), 'utf8');
    expect(await rpc(node.server.port, auth, 'getblockhash', [45])).toBe(`{"result":"${tipHash}","error":null,"id":"a"}\n`);
    expect(await rpc(node.server.port, auth, 'getaddressbalance', ['tmYXBYJj1K7vhejSec5osXK2QsGa5MTisUQ'])).toContain(
      "getaddressbalance is disabled. Run './zcash-cli help getaddressbalance' for instructions on how to enable this feature.",
    );
  });

  it('zecrpc verify checks a store only with the -addressindex it was created with, in both directions', async () => {
    const verify = async (base: string, ...args: string[]) => {
      let out = '';
      const status = await runVerify([`-datadir=${base}`, '-regtest', ...args], (s) => void (out += s));
      return { status, out };
    };
    const without = dataDir('addressindex-verify-without');
    await importVectors(without, '-addressindex=0');
    await expect(verify(without)).rejects.toThrow(new AddressIndexMismatchError(join(without, 'regtest', 'zecrpc'), false).message);
    const sound = await verify(without, '-addressindex=0');
    expect(sound.status).toBe(0);
    expect(sound.out).toContain('no damage found');

    const withIndex = dataDir('addressindex-verify-with');
    await importVectors(withIndex);
    await expect(verify(withIndex, '-addressindex=0')).rejects.toBeInstanceOf(AddressIndexMismatchError);
    expect((await verify(withIndex)).status).toBe(0);
    await expect(verify(withIndex, '-addressindex=yes')).rejects.toBeInstanceOf(ConfigError);
  });

  it('serve refuses -insightexplorer or -lightwalletd with -addressindex=0 before opening anything', async () => {
    const base = dataDir('addressindex-flags');
    const start = (...args: string[]) =>
      startNode([`-datadir=${base}`, '-regtest', '-rpcport=0', '-experimentalfeatures', ...args], { log: false });
    await expect(start('-insightexplorer', '-addressindex=0')).rejects.toThrow(
      new ConfigError(
        'Error: -insightexplorer reads the address index, and -addressindex=0 serves a store without one. Drop -insightexplorer, ' +
          'or serve a store that keeps the index (-addressindex=1, the default; a store created with -addressindex=0 cannot get it later: import into a new -datadir).',
      ),
    );
    await expect(start('-insightexplorer', '-lightwalletd', '-noaddressindex')).rejects.toThrow(
      'Error: -insightexplorer and -lightwalletd read the address index, and -addressindex=0 serves a store without one.',
    );
    expect(existsSync(join(base, 'regtest', 'zecrpc'))).toBe(false);
  });

  it('serve refuses -lightwalletd on a store without the index, saying the index cannot be added', async () => {
    const base = dataDir('addressindex-store-flags');
    await importVectors(base, '-noaddressindex');
    const start = (...args: string[]) =>
      startNode([`-datadir=${base}`, '-regtest', '-rpcport=0', '-experimentalfeatures', ...args], { log: false });
    const refusal = await start('-lightwalletd').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as Error).message).toBe(
      `Error: -lightwalletd reads the address index, which the chain store at ${join(base, 'regtest', 'zecrpc')} does not keep ` +
        '(it was created with -addressindex=0, and the index cannot be added to an existing store). Serve it without -lightwalletd ' +
        '(and with -addressindex=0), or import into a new -datadir with the default -addressindex=1 to serve them.',
    );
    // The store is left as it was: it serves as before with the option.
    const node = await start('-addressindex=0');
    await node.shutdown();
  });
});
