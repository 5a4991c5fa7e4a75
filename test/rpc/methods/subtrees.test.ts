// z_getsubtreesbyindex: a store started at mainnet 903000 with a Sapling tree two leaves short of
// 2^16, then fed the real block 903001 (3 Sapling outputs): its second output completes subtree
// 0, which the method reports with that block's height; paging, limits and zcashd's gating.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../../src/chain/network.js';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHex } from '../../../src/codec/hex.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { NO_EXPERIMENTAL_FEATURES } from '../../../src/rpc/methods/control/experimental-features.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { defaultPoolHashers } from '../../../src/state/hashers.js';
import { IncrementalMerkleTree } from '../../../src/state/trees/incremental.js';
import { openChainStore, type ChainStore } from '../../../src/store/index.js';
import type { ChainStoreReader } from '../../../src/store/types.js';
import { networkUnderProfile, ZCASHD_6_12_2 } from '../../../src/compat/profiles.js';
import { zGetSubtreesByIndexMethod } from '../../../src/rpc/methods/blockchain/z_getsubtreesbyindex.js';
import { tempDir } from '../../support/store.js';
import { readHexVector } from '../../support/vectors.js';
import { errorOf, resultOf } from '../../support/call.js';

const SUBTREE = 1 << 16;
const block = (h: number): Uint8Array => readHexVector('blocks', 'mainnet', `${h}.hex`);

/** Deterministic leaves below the Jubjub base field modulus (top byte small). */
function syntheticLeaves(count: number): Uint8Array {
  const out = new Uint8Array(count * 32);
  for (let i = 0; i < count; i++) {
    const view = new DataView(out.buffer, i * 32, 32);
    view.setUint32(0, i, true);
    view.setUint32(4, Math.imul(i, 2654435761) >>> 0, true);
  }
  return out;
}

describe('z_getsubtreesbyindex', () => {
  const dir = tempDir('subtrees');
  let store: ChainStore;
  let enabled: Map<string, RpcMethod>;
  let disabled: Map<string, RpcMethod>;
  let expectedRoot: string;

  beforeAll(async () => {
    const hasher = defaultPoolHashers().sapling;
    const prefix = syntheticLeaves(SUBTREE - 2);
    const before = new IncrementalMerkleTree(hasher);
    before.appendMany(prefix);
    const outputs = decodeBlock(block(903001)).transactions.flatMap((t) => (t.data.sapling?.outputs ?? []).map((o) => o.cmu));
    expect(outputs).toHaveLength(3);
    // The subtree's root computed on its own: the 2^16 leaves in a depth-16 bottom-up fold.
    const full = new IncrementalMerkleTree(hasher);
    full.appendMany(prefix);
    const completed = full.appendMany(outputs.slice(0, 2));
    expect(completed.map((c) => c.index)).toEqual([0]);
    expectedRoot = toHex(completed[0]!.root);

    store = await openChainStore({ datadir: dir.path, network: MAINNET });
    await store.startFromCheckpoint({
      height: 903000,
      headers: [decodeBlock(block(903000)).header.bytes],
      chainWork: 1n << 70n,
      chainTx: null,
      state: { sprout: '000000', sapling: before.toTreeState(), orchard: '000000', history: 'unknown' },
    });
    expect((await store.addBlock(block(903001))).status).toBe('connected');
    enabled = new Map(storeMethods(store, { features: { ...NO_EXPERIMENTAL_FEATURES, lightWalletd: true } }).map((m) => [m.name, m]));
    disabled = new Map(storeMethods(store).map((m) => [m.name, m]));
  });
  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  it('reports the completed subtree with the height of the block that completed it', async () => {
    const m = enabled.get('z_getsubtreesbyindex')!;
    expect(await resultOf(m, '["sapling", 0]')).toBe(
      `{"pool":"sapling","start_index":0,"subtrees":[{"root":"${expectedRoot}","end_height":903001}]}`,
    );
    expect(await resultOf(m, '["sapling", 0, 0]')).toBe('{"pool":"sapling","start_index":0,"subtrees":[]}');
    expect(await resultOf(m, '["sapling", 1]')).toBe('{"pool":"sapling","start_index":1,"subtrees":[]}');
    expect(await resultOf(m, '["orchard", 0]')).toBe('{"pool":"orchard","start_index":0,"subtrees":[]}');
    // zcashd keeps start_index in an unsigned 64-bit variable.
    expect(await resultOf(m, '["sapling", -1]')).toBe('{"pool":"sapling","start_index":18446744073709551615,"subtrees":[]}');
    // The completing block's own tree size shows in getblock.
    expect(await resultOf(enabled.get('getblock')!, '["903001"]')).toContain(`"trees":{"sapling":{"size":${SUBTREE + 1}}}`);
  });

  it('rejects other pools and is disabled without -lightwalletd, as zcashd', async () => {
    // The default profile (current) has NU6.3's Ironwood pool; under -compat=6.12.2 it is zcashd's list.
    expect(await errorOf(enabled.get('z_getsubtreesbyindex')!, '["sprout", 0]')).toEqual({
      code: -8,
      message: 'Requested pool must be "sapling", "orchard" or "ironwood"',
    });
    expect(await resultOf(enabled.get('z_getsubtreesbyindex')!, '["ironwood", 0]')).toBe(
      '{"pool":"ironwood","start_index":0,"subtrees":[]}',
    );
    const zcashd = zGetSubtreesByIndexMethod({ network: networkUnderProfile(MAINNET, ZCASHD_6_12_2) } as ChainStoreReader, true);
    for (const pool of ['sprout', 'ironwood'])
      expect(await errorOf(zcashd, JSON.stringify([pool, 0]))).toEqual({
        code: -8,
        message: 'Requested pool must be "sapling" or "orchard"',
      });
    expect(await errorOf(disabled.get('z_getsubtreesbyindex')!, '["sapling", 0]')).toEqual({
      code: -1,
      message:
        "Error: z_getsubtreesbyindex is disabled. Run './zcash-cli help z_getsubtreesbyindex' for instructions on how to enable this feature.",
    });
    expect(disabled.get('z_getsubtreesbyindex')!.help).toContain('\nWARNING: z_getsubtreesbyindex is disabled.\n');
    expect(enabled.get('z_getsubtreesbyindex')!.help).not.toContain('WARNING');
  });
});
