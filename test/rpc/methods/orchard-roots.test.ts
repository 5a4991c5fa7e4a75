// finalorchardroot and z_gettreestate's Orchard finalRoot in v6.12.2's order (the raw bytes)
// and, with -legacyorchardroot, reversed as zcashd v4.5.0–v5.2.0 printed them: on mainnet
// 1687107 (the first Orchard actions, imported after a checkpoint start at 1687106) and on the
// empty Orchard root (1687106's tree, and a rendered block whose tree is empty).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../../src/chain/network.js';
import { decodeBlock } from '../../../src/codec/block.js';
import { type JsonObject, parseJson } from '../../../src/json/index.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { blockToJson } from '../../../src/render/block.js';
import { defaultPoolHashers } from '../../../src/state/hashers.js';
import { openChainStore, type ChainStore } from '../../../src/store/index.js';
import { tempDir } from '../../support/store.js';
import { readHexVector, readJsonVector } from '../../support/vectors.js';
import { resultOf } from '../../support/call.js';

const block = (h: number): Uint8Array => readHexVector('blocks', 'mainnet', `${h}.hex`);
const ROOTS = readJsonVector<{
  roots: { network: string; height: number; pool: string; internal_hex: string }[];
  empty_roots: Record<string, { internal_hex: string }>;
}>('roots.json');
const ORCHARD_1687107 = ROOTS.roots.find((r) => r.network === 'mainnet' && r.height === 1687107 && r.pool === 'orchard')!.internal_hex;
const EMPTY_ORCHARD = ROOTS.empty_roots.orchard_empty_root_depth32!.internal_hex;
const reversed = (hex: string): string => Buffer.from(hex, 'hex').reverse().toString('hex');

describe('Orchard root byte order', () => {
  const dir = tempDir('orchard-order');
  let store: ChainStore;
  let current: Map<string, RpcMethod>;
  let legacy: Map<string, RpcMethod>;

  beforeAll(async () => {
    store = await openChainStore({ datadir: dir.path, network: MAINNET });
    await store.startFromCheckpoint({
      height: 1687106,
      headers: [decodeBlock(block(1687106)).header.bytes],
      chainWork: 1n << 80n,
      chainTx: null,
      state: { sprout: '000000', sapling: '000000', orchard: '000000', history: 'unknown' },
    });
    expect((await store.addBlock(block(1687107))).status).toBe('connected');
    expect((await store.addBlock(block(1687108))).status).toBe('connected');
    current = new Map(storeMethods(store).map((m) => [m.name, m]));
    legacy = new Map(storeMethods(store, { legacyOrchardRoot: true }).map((m) => [m.name, m]));
  });
  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  it('getblock 1687107: raw bytes by default, reversed with -legacyorchardroot', async () => {
    const root = (m: Map<string, RpcMethod>) =>
      resultOf(m.get('getblock')!, '["1687107"]').then((t) => (parseJson(t) as JsonObject).get('finalorchardroot'));
    expect(await root(current)).toBe(ORCHARD_1687107);
    expect(await root(legacy)).toBe(reversed(ORCHARD_1687107));
    // 1687108 adds no actions: same root, and the tree zcashd finds for it has 2 leaves.
    expect(await resultOf(current.get('getblock')!, '["1687108"]')).toContain('"trees":{"sapling":{"size":');
    expect(await resultOf(current.get('getblock')!, '["1687108"]')).toContain('"orchard":{"size":2}}');
  });

  it('z_gettreestate 1687107: the Orchard finalRoot in both orders, its frontier in the padded layout', async () => {
    const orchard = async (m: Map<string, RpcMethod>) =>
      ((parseJson(await resultOf(m.get('z_gettreestate')!, '["1687107"]')) as JsonObject).get('orchard') as JsonObject).get(
        'commitments',
      ) as JsonObject;
    expect((await orchard(current)).get('finalRoot')).toBe(ORCHARD_1687107);
    expect((await orchard(legacy)).get('finalRoot')).toBe(reversed(ORCHARD_1687107));
    // Two leaves: left and right present, then 31 absent parents (zcashd's legacy Orchard serialization).
    const state = (await orchard(current)).get('finalState') as string;
    expect(state.length).toBe(2 * (33 + 33 + 1 + 31));
  });

  it('the empty Orchard root in both orders', () => {
    const b = decodeBlock(block(1687106));
    const hashers = defaultPoolHashers();
    const empty = hashers.orchard.emptyRoots[32]!;
    expect(Buffer.from(empty).toString('hex')).toBe(EMPTY_ORCHARD);
    const state = {
      finalSaplingRoot: new Uint8Array(32),
      finalOrchardRoot: empty,
      chainHistoryRoot: new Uint8Array(32),
      authDataRoot: new Uint8Array(32),
      anchor: new Uint8Array(32),
      pools: { chainSupply: { monitored: false, chainValue: null, valueDelta: null }, valuePools: [] },
      saplingTreeSize: null,
      orchardTreeSize: 0,
    };
    const ctx = { height: 1687106, confirmations: 1, chainWork: 1n, previousBlockHash: null, nextBlockHash: null, state };
    const json = (legacyOrchardRoot: boolean) =>
      (parseJson(blockToJson(b, 1, { ...ctx, legacyOrchardRoot }, MAINNET)) as JsonObject).get('finalorchardroot');
    expect(json(false)).toBe('ae2935f1dfd8a24aed7c70df7de3a668eb7a49b1319880dde2bbd9031ae5d82f');
    expect(json(true)).toBe('2fd8e51a03d9bbe2dd809831b1497aeb68a6e37ddf707ced4aa2d8dff13529ae');
  });
});
