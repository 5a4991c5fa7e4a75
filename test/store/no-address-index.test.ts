// A store created without the address index (ChainStoreOptions.addressIndex false, `-addressindex=0`):
// the same chain, imported as `zecrpc import` imports it, leaves exactly the rows of a store with the
// index minus the index's own, through reorganizations across blocks with transparent spends; it
// serves the same blocks and transactions; and a store is opened only with what it was created with.
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { describe, expect, it } from 'vitest';
import { MAINNET, REGTEST } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHexReversed } from '../../src/codec/hex.js';
import { defaultPoolHashers } from '../../src/state/hashers.js';
import { AddressIndex } from '../../src/store/indexes/address-index.js';
import { ChainStateIndex } from '../../src/store/indexes/chain-state-index.js';
import { TxIndex } from '../../src/store/indexes/tx-index.js';
import { AddressIndexMismatchError, checkStoreIntegrity, openChainStore, type ChainStore } from '../../src/store/index.js';
import { keys } from '../../src/store/layout.js';
import { storedAddressIndexChoice } from '../../src/store/address-index-record.js';
import { encodeVersionRecord } from '../../src/store/migrations/index.js';
import { scanStore } from '../../src/store/scan.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { NO_EXPERIMENTAL_FEATURES } from '../../src/rpc/methods/control/experimental-features.js';
import type { RpcMethod } from '../../src/rpc/method.js';
import { buildChain, regtestGenesis } from '../../test-vectors/regtest-builder.js';
import { SHIELDED_REGTEST } from '../../test-vectors/regtest-shielded.js';
import { callMethod } from '../support/call.js';
import { startAtSaplingCheckpoint, tempDir } from '../support/store.js';
import { dumpStoreIndex } from '../support/store-io.js';
import { shieldedArrivalOrder } from '../support/shielded-arrival.js';
import { suiteTempDirs } from '../support/suite-dirs.js';

/** The address index's prefixes (`d`, `a`, `p`, `s`, `S`) as the first byte of a hex key. */
const ADDRESS_PREFIXES = new Set(keys.addressIndexPrefixes.map((p) => p.toString(16).padStart(2, '0')));
const RECORD = keys.noAddressIndex().toString('hex');
const prefixOf = (hexKey: string): string => hexKey.slice(0, 2);

/** Every row of a closed store but the address index's (and the record saying it keeps none). */
function withoutAddressRows(dump: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...dump].filter(([k]) => !ADDRESS_PREFIXES.has(prefixOf(k)) && k !== RECORD));
}

/** How many rows of each address-index prefix a dump holds. */
function addressRowCounts(dump: ReadonlyMap<string, string>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const k of dump.keys()) if (ADDRESS_PREFIXES.has(prefixOf(k))) counts[prefixOf(k)] = (counts[prefixOf(k)] ?? 0) + 1;
  return counts;
}

function expectSameRows(got: ReadonlyMap<string, string>, expected: ReadonlyMap<string, string>): void {
  expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [k, v] of expected) if (got.get(k) !== v) expect({ key: k, value: got.get(k) }).toEqual({ key: k, value: v });
}

const method = (methods: readonly RpcMethod[], name: string): RpcMethod => methods.find((m) => m.name === name)!;

describe('a store without the address index (-addressindex=0)', () => {
  const fresh = suiteTempDirs();
  const { blocks, base, expectedTip } = shieldedArrivalOrder();

  /** Imports every block into a new store as `zecrpc import` opens one; the statuses and the datadir. */
  async function imported(addressIndex: boolean, label: string): Promise<{ datadir: string; statuses: string[] }> {
    const datadir = fresh(label);
    const store = await openChainStore({ datadir, network: SHIELDED_REGTEST, groupCommit: true, addressIndex });
    const statuses: string[] = [];
    for (const b of blocks) statuses.push((await store.addBlock(b.bytes)).status);
    expect((await store.tip())?.hash).toEqual(expectedTip.hash);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
    await store.close();
    return { datadir, statuses };
  }

  it('holds, after a group-commit import with two reorganizations, every row of a store with the index but the index', async () => {
    const withIndex = await imported(true, 'with-index');
    const without = await imported(false, 'without-index');
    expect(without.statuses).toEqual(withIndex.statuses);
    expect(withIndex.statuses.filter((s) => s === 'reorganized')).toHaveLength(2);

    const full = await dumpStoreIndex(withIndex.datadir);
    const lean = await dumpStoreIndex(without.datadir);
    // The chain has transparent spends (shielding transactions spend coinbase outputs): the index has rows of every kind.
    const counts = addressRowCounts(full);
    for (const p of ['64', '61', '70', '73', '53']) expect(counts[p] ?? 0).toBeGreaterThan(0);
    expect(full.has(RECORD)).toBe(false);
    expect(addressRowCounts(lean)).toEqual({});
    expect(lean.get(RECORD)).toBeDefined();
    expectSameRows(withoutAddressRows(lean), withoutAddressRows(full));
    // The stores differ by the index's rows and the record alone.
    expect(full.size - (lean.size - 1)).toBe(Object.values(counts).reduce((a, b) => a + b, 0));

    // `zecrpc verify`'s scan finds nothing missing or damaged, the record's checksum included.
    const report = await scanStore(without.datadir, SHIELDED_REGTEST);
    expect(report.problems).toEqual([]);
    expect(report.recordChecksums).toBe(lean.size - 1); // every value but `V`
  }, 120_000);

  it('serves the same getblock and getrawtransaction replies, the same chain state, and the insight methods as disabled', async () => {
    const withIndex = await imported(true, 'serve-with');
    const without = await imported(false, 'serve-without');
    const full = await openChainStore({ datadir: withIndex.datadir, network: SHIELDED_REGTEST });
    const lean = await openChainStore({ datadir: without.datadir, network: SHIELDED_REGTEST, addressIndex: false });
    try {
      expect(full.keepsAddressIndex).toBe(true);
      expect(lean.keepsAddressIndex).toBe(false);
      expect(await lean.chainStateTip()).toEqual(await full.chainStateTip());
      expect(await lean.blockState(expectedTip.hash)).toEqual(await full.blockState(expectedTip.hash));
      const fullMethods = storeMethods(full, { cacheReplies: false });
      const leanMethods = storeMethods(lean, { cacheReplies: false });
      const ctx = { network: SHIELDED_REGTEST };
      const same = async (name: string, params: string) => {
        const a = await callMethod(method(leanMethods, name), params, ctx);
        const b = await callMethod(method(fullMethods, name), params, ctx);
        expect(a).toEqual(b);
        return a;
      };
      let shieldingTxs = 0;
      for (const height of [1, 102, 111, 114, 120, 138, 140]) {
        const hash = toHexReversed((await lean.hashAtHeight(height))!);
        for (const verbosity of [0, 1, 2]) expect('result' in (await same('getblock', `["${hash}", ${verbosity}]`))).toBe(true);
        const txs = decodeBlock((await lean.blockBytes((await lean.hashAtHeight(height))!))!).transactions;
        for (const tx of txs) {
          if (tx.data.vin.length > 0 && !tx.isCoinbase) shieldingTxs++;
          for (const verbose of [0, 1])
            expect('result' in (await same('getrawtransaction', `["${toHexReversed(tx.txid)}", ${verbose}]`))).toBe(true);
        }
      }
      expect(shieldingTxs).toBeGreaterThan(0);
      // Without -insightexplorer / -lightwalletd both answer zcashd's "is disabled", the index never read.
      const taddr = '"tmYXBYJj1K7vhejSec5osXK2QsGa5MTisUQ"';
      const disabled = await same('getaddressbalance', `[${taddr}]`);
      expect(disabled).toEqual({ error: { code: -1, message: expect.stringContaining('getaddressbalance is disabled') } });
      expect(await same('getblockhashes', '[2000000000, 0]')).toEqual({
        error: { code: -1, message: expect.stringContaining('is disabled') },
      });
      // The flags that read the index are refused with such a store; the reader itself refuses to answer.
      expect(() => storeMethods(lean, { features: { ...NO_EXPERIMENTAL_FEATURES, insightExplorer: true } })).toThrow(
        '-insightexplorer reads the address index, which this chain store does not keep (-addressindex=0)',
      );
      expect(() => storeMethods(lean, { features: { ...NO_EXPERIMENTAL_FEATURES, lightWalletd: true } })).toThrow(/-lightwalletd/);
      expect(() => lean.addressIndexReader()).toThrow(/keeps no address index/);
    } finally {
      await full.close();
      await lean.close();
    }
  }, 120_000);

  it('disconnects and reconnects blocks with transparent spends (invalidateblock, reconsiderblock) leaving the same rows as a store with the index', async () => {
    const stores: { datadir: string; store: ChainStore }[] = [];
    for (const addressIndex of [true, false]) {
      const datadir = fresh(`reorg-${addressIndex}`);
      const store = await openChainStore({ datadir, network: SHIELDED_REGTEST, addressIndex });
      for (const b of blocks) await store.addBlock(b.bytes);
      stores.push({ datadir, store });
    }
    // Back below the first shielding spend, then forward again onto the most-work chain.
    for (const { store } of stores) {
      expect(await store.invalidateBlock(base[102]!.hash)).toBe(true);
      expect((await store.tip())?.height).toBe(101);
    }
    const afterDisconnect: Map<string, string>[] = [];
    for (const s of stores) {
      await s.store.close();
      afterDisconnect.push(await dumpStoreIndex(s.datadir));
    }
    expectSameRows(withoutAddressRows(afterDisconnect[1]!), withoutAddressRows(afterDisconnect[0]!));
    expect(addressRowCounts(afterDisconnect[1]!)).toEqual({});
    const after: Map<string, string>[] = [];
    for (const [i, s] of stores.entries()) {
      const store = await openChainStore({ datadir: s.datadir, network: SHIELDED_REGTEST, addressIndex: i === 0 });
      expect(await store.reconsiderBlock(base[102]!.hash)).toBe(true);
      expect((await store.tip())?.hash).toEqual(expectedTip.hash);
      expect((await checkStoreIntegrity(store)).problems).toEqual([]);
      await store.close();
      after.push(await dumpStoreIndex(s.datadir));
    }
    expectSameRows(withoutAddressRows(after[1]!), withoutAddressRows(after[0]!));
    expect(addressRowCounts(after[1]!)).toEqual({});
  }, 120_000);
});

describe('opening a store with the other -addressindex', () => {
  const fresh = suiteTempDirs();
  const genesis = regtestGenesis();
  const chain = [genesis, ...buildChain(genesis, 2, 'open')];

  async function created(addressIndex: boolean | undefined): Promise<string> {
    const datadir = fresh(`created-${addressIndex}`);
    const store = await openChainStore({ datadir, network: REGTEST, ...(addressIndex === undefined ? {} : { addressIndex }) });
    for (const b of chain) await store.addBlock(b.bytes);
    await store.close();
    return datadir;
  }

  it('refuses a store that keeps the index when asked for none, saying what it keeps and what to do', async () => {
    const datadir = await created(undefined);
    const refusal = await openChainStore({ datadir, network: REGTEST, addressIndex: false }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(AddressIndexMismatchError);
    expect((refusal as AddressIndexMismatchError).storeKeepsIndex).toBe(true);
    expect((refusal as Error).message).toBe(
      `the chain store at ${join(datadir, 'zecrpc')} was created to keep the address index (with -addressindex=1, the default, ` +
        'or by a zecrpc that always builds it), and -addressindex=0 asks for a store without one. The address index covers ' +
        'every block the store holds (from genesis, or from its checkpoint), so it cannot be added to or removed from an ' +
        'existing store: give -addressindex=1 to every command that opens this store (serve, import, verify), or import into ' +
        'a new -datadir with -addressindex=0.',
    );
    // Refused before anything was written: it opens as before with the default.
    const store = await openChainStore({ datadir, network: REGTEST });
    expect((await store.tip())?.height).toBe(2);
    await store.close();
  });

  it('refuses a store without the index when asked for one (the default)', async () => {
    const datadir = await created(false);
    const refusal = await openChainStore({ datadir, network: REGTEST }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(AddressIndexMismatchError);
    expect((refusal as AddressIndexMismatchError).storeKeepsIndex).toBe(false);
    expect((refusal as Error).message).toBe(
      `the chain store at ${join(datadir, 'zecrpc')} keeps no address index (it was created with -addressindex=0), and ` +
        '-addressindex=1 (the default) asks for one. The address index covers every block the store holds (from genesis, ' +
        'or from its checkpoint), so it cannot be added to or removed from an existing store: give -addressindex=0 to every ' +
        'command that opens this store (serve, import, verify), or import into a new -datadir with -addressindex=1.',
    );
    const store = await openChainStore({ datadir, network: REGTEST, addressIndex: false });
    expect((await store.tip())?.height).toBe(2);
    await store.close();
    expect(addressRowCounts(await dumpStoreIndex(datadir))).toEqual({});
  });

  it('takes a store made before the record existed (none) for one that keeps the index, and refuses it before upgrading it', async () => {
    const dir = tempDir('store-v1-addressindex');
    try {
      cpSync(join(import.meta.dirname, '..', '..', 'test-vectors', 'store-v1'), dir.path, { recursive: true });
      const datadir = join(dir.path, 'regtest');
      const refusal = await openChainStore({ datadir, network: REGTEST, addressIndex: false }).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(AddressIndexMismatchError);
      expect((refusal as AddressIndexMismatchError).storeKeepsIndex).toBe(true);
      // True of a store that has no index yet (its upgrade builds it) as of one that has it.
      expect((refusal as Error).message).toContain(
        'was created to keep the address index (with -addressindex=1, the default, or by a zecrpc that always builds it)',
      );
      const raw = new ClassicLevel<Buffer, Buffer>(join(datadir, 'zecrpc', 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
      expect((await raw.get(keys.version()))!.readUInt32LE(0)).toBe(1);
      await raw.close();
      // With the default it upgrades, the address index built by version 4's replay.
      const store = await openChainStore({ datadir, network: REGTEST });
      expect(store.keepsAddressIndex).toBe(true);
      await store.close();
      expect(addressRowCounts(await dumpStoreIndex(datadir))['53']).toBeGreaterThan(0);
    } finally {
      dir.remove();
    }
  });

  it('never builds the index into a store without it: a migration that would is skipped, the others run', async () => {
    const datadir = await created(false);
    const before = await dumpStoreIndex(datadir);
    const raw = new ClassicLevel<Buffer, Buffer>(join(datadir, 'zecrpc', 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
    await raw.put(keys.version(), encodeVersionRecord(3, REGTEST.name));
    await raw.close();
    // Asked for the index, it is refused before any migration runs.
    await expect(openChainStore({ datadir, network: REGTEST })).rejects.toBeInstanceOf(AddressIndexMismatchError);
    const lines: string[] = [];
    const store = await openChainStore({ datadir, network: REGTEST, addressIndex: false, log: (l) => lines.push(l) });
    await store.close();
    expect(lines).toContain('schema version 4: nothing to build, the store keeps no address index');
    const upgraded = lines.map((l) => /^upgrading the chain store to schema version (\d+):/.exec(l)?.[1]).filter((v) => v !== undefined);
    expect(upgraded).toEqual(['5', '6', '7']);
    expect(lines.some((l) => l.startsWith('schema version 7 reached in '))).toBe(true);
    const after = await dumpStoreIndex(datadir);
    expect(addressRowCounts(after)).toEqual({});
    expectSameRows(after, before);
  });

  it('logs, when it creates a store without the index, what that store gives up; once, and never for a store with it', async () => {
    const lines: string[] = [];
    const datadir = fresh('created-log');
    await (await openChainStore({ datadir, network: REGTEST, addressIndex: false, log: (l) => lines.push(l) })).close();
    expect(lines).toEqual([
      `created the chain store at ${join(datadir, 'zecrpc')} without the address index (-addressindex=0): it cannot serve ` +
        "-insightexplorer, -lightwalletd nor getrawtransaction's spent-index fields, and the index cannot be added to it later",
    ]);
    await (await openChainStore({ datadir, network: REGTEST, addressIndex: false, log: (l) => lines.push(l) })).close();
    expect(lines).toHaveLength(1);
    const withIndex: string[] = [];
    await (await openChainStore({ datadir: fresh('created-log-with'), network: REGTEST, log: (l) => withIndex.push(l) })).close();
    expect(withIndex.filter((l) => l.includes('address index'))).toEqual([]);
  });

  it("zecrpc verify's scan checks the record's checksum as every other value's", async () => {
    const datadir = await created(false);
    expect((await scanStore(datadir, REGTEST)).problems).toEqual([]);
    const raw = new ClassicLevel<Buffer, Buffer>(join(datadir, 'zecrpc', 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
    const stored = (await raw.get(keys.noAddressIndex()))!;
    stored[stored.length - 1]! ^= 0x01;
    await raw.put(keys.noAddressIndex(), stored);
    await raw.close();
    expect((await scanStore(datadir, REGTEST)).problems).toEqual([{ where: 'LevelDB record 4f', problem: 'its checksum does not match' }]);
  });

  it('refuses the address index indexer beside addressIndex: false', async () => {
    await expect(
      openChainStore({ datadir: fresh('indexers'), network: REGTEST, addressIndex: false, indexers: [new AddressIndex()] }),
    ).rejects.toThrow('the address index indexer was given to a store opened without the address index (addressIndex: false)');
  });

  it('refuses indexers without the address index beside addressIndex true (the default), creating nothing', async () => {
    const datadir = fresh('indexers-without');
    const chainState = new ChainStateIndex({ network: REGTEST, hashers: defaultPoolHashers() });
    await expect(openChainStore({ datadir, network: REGTEST, indexers: [new TxIndex(), chainState] })).rejects.toThrow(
      'indexers without the address index were given to a store opened with it (addressIndex true, the default): pass addressIndex: false',
    );
    expect(existsSync(join(datadir, 'zecrpc', 'index'))).toBe(false);
  });

  it('a store started from a checkpoint without the index keeps none, and holds the rows of one with it but the index', async () => {
    const dumps: Map<string, string>[] = [];
    for (const addressIndex of [true, false]) {
      const datadir = fresh(`checkpoint-${addressIndex}`);
      const store = await openChainStore({ datadir, network: MAINNET, addressIndex });
      await startAtSaplingCheckpoint(store);
      await store.close();
      await expect(openChainStore({ datadir, network: MAINNET, addressIndex: !addressIndex })).rejects.toBeInstanceOf(
        AddressIndexMismatchError,
      );
      dumps.push(await dumpStoreIndex(datadir));
    }
    expect(addressRowCounts(dumps[0]!)['53']).toBe(1); // block 419202's timestamp entry
    // Its checkpoint header (no data) has no such entry, and is no sign of a lost record.
    const atCheckpoint = fresh('checkpoint-tip');
    const store = await openChainStore({ datadir: atCheckpoint, network: MAINNET });
    await startAtSaplingCheckpoint(store, { connect: false });
    await store.close();
    expect(await storedAddressIndexChoice(join(atCheckpoint, 'zecrpc'))).toBe(true);
    await (await openChainStore({ datadir: atCheckpoint, network: MAINNET })).close();
    expect(addressRowCounts(dumps[1]!)).toEqual({});
    expect(dumps[1]!.has(RECORD)).toBe(true);
    expectSameRows(withoutAddressRows(dumps[1]!), withoutAddressRows(dumps[0]!));
  });
});
