// A store started at mainnet 419201 from zcashd's Sapling tree state there (roots.json), then
// fed the real block 419202: the Sapling root it computes equals 419202's header, getblock and
// z_gettreestate show the tree zcashd shows, and what the store cannot know (transparent value,
// supply, difficulty without older headers) is reported unknown rather than invented.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex } from '../../src/codec/hex.js';
import { type JsonNumber, type JsonObject, parseJson } from '../../src/json/index.js';
import type { RpcMethod } from '../../src/rpc/method.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { openChainStore, type ChainStore } from '../../src/store/index.js';
import { scanStore } from '../../src/store/scan.js';
import { errorOf, resultOf } from '../support/call.js';
import { readHexVector, readJsonVector } from '../support/vectors.js';
import { startAtSaplingCheckpoint, tempDir } from '../support/store.js';

interface Roots {
  roots: { network: string; height: number; pool: string; rpc_hex: string; internal_hex: string }[];
  sapling_treestates: { final_state_hex: string }[];
}
const ROOTS = readJsonVector<Roots>('roots.json');
const saplingRoot = (h: number): (typeof ROOTS.roots)[number] =>
  ROOTS.roots.find((r) => r.network === 'mainnet' && r.height === h && r.pool === 'sapling')!;
const block = (h: number): Uint8Array => readHexVector('blocks', 'mainnet', `${h}.hex`);

describe('a store started from the 419201 checkpoint', () => {
  const dir = tempDir('checkpoint');
  const log: string[] = [];
  let store: ChainStore;
  let m: Map<string, RpcMethod>;

  beforeAll(async () => {
    store = await openChainStore({ datadir: dir.path, network: MAINNET, log: (l) => log.push(l) });
    await startAtSaplingCheckpoint(store);
    m = new Map(storeMethods(store).map((x) => [x.name, x]));
  });
  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  it('connects 419202 with its header commitment verified and says what it could not check', () => {
    expect(
      log.some(
        (l) => l.startsWith('not verified: difficulty and median-time-past of block') && l.includes('at 419202: only 3 earlier headers'),
      ),
    ).toBe(true);
  });

  it('getblock 419202: the Sapling root and tree size zcashd prints; unknown pools not monitored', async () => {
    const obj = parseJson(await resultOf(m.get('getblock')!, '["419202"]')) as JsonObject;
    expect(obj.get('finalsaplingroot')).toBe(saplingRoot(419202).rpc_hex);
    expect(obj.get('blockcommitments')).toBe(saplingRoot(419202).rpc_hex);
    const text = await resultOf(m.get('getblock')!, '["419202"]');
    expect(text).toContain('"trees":{"sapling":{"size":7}}');
    expect(text).toContain('"chainSupply":{"monitored":false},');
    expect(text).toContain('{"id":"transparent","monitored":false},');
    // The Sapling delta comes from the block alone (its value balance, negated); the total is
    // unknown because the checkpoint did not supply it.
    expect(text).toContain('{"id":"sapling","monitored":false,"valueDelta":-0.00010000,"valueDeltaZat":-10000}');
  });

  it('z_gettreestate 419202: the Sapling root and a frontier that reproduces it', async () => {
    const obj = parseJson(await resultOf(m.get('z_gettreestate')!, '["419202"]')) as JsonObject;
    expect([obj.get('hash'), (obj.get('height') as JsonNumber).text]).toEqual([decodeBlock(block(419202)).hashHex, '419202']);
    const sapling = (obj.get('sapling') as JsonObject).get('commitments') as JsonObject;
    expect(sapling.get('finalRoot')).toBe(saplingRoot(419202).rpc_hex);
    const { SaplingTree } = await import('../../src/state/trees/pool-trees.js');
    const tree = SaplingTree.fromTreeState(sapling.get('finalState') as string);
    expect([toHex(tree.root()), tree.size]).toEqual([saplingRoot(419202).internal_hex, 7]);
  });

  it('a header-only checkpoint block cannot be read, as zcashd answers for a block without data', async () => {
    expect(await errorOf(m.get('getblock')!, '["419201"]')).toEqual({ code: -32603, message: "Can't read block from disk" });
  });

  it('zecrpc verify finds nothing wrong: its best chain starts at the first checkpoint header, not at genesis', async () => {
    await store.close();
    const report = await scanStore(dir.path, MAINNET);
    expect(report.problems).toEqual([]);
    expect(report.heightsChecked).toBe(4);
    store = await openChainStore({ datadir: dir.path, network: MAINNET });
  });
});

describe('a store started from the 419201 checkpoint and stopped before its next block', () => {
  it('opens again (it has stored no block, so no block-file cursor) and then connects 419202', async () => {
    const dir = tempDir('checkpoint-stopped');
    try {
      const started = await openChainStore({ datadir: dir.path, network: MAINNET });
      await startAtSaplingCheckpoint(started, { connect: false });
      await started.close();
      const store = await openChainStore({ datadir: dir.path, network: MAINNET });
      expect((await store.tip())?.height).toBe(419201);
      expect((await store.addBlock(block(419202))).status).toBe('connected');
      await store.close();
      const reopened = await openChainStore({ datadir: dir.path, network: MAINNET });
      expect((await reopened.tip())?.height).toBe(419202);
      await reopened.close();
      expect((await scanStore(dir.path, MAINNET)).problems).toEqual([]);
    } finally {
      dir.remove();
    }
  });
});
