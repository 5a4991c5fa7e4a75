/**
 * A block's chain state for getblock/getblockheader, read from the store: what ConnectBlock
 * stored for a connected block, or what zcashd knows of a block it never connected (§2.4, §3.2),
 * and the `trees` presence rule (§4): a size is shown only when the active chain's coins view
 * holds a tree for the block's root.
 */
import { headerDerivedRoots } from '../../../chain/commitment-era.js';
import type { NetworkParams } from '../../../chain/network.js';
import { decodeBlock } from '../../../codec/block.js';
import { STORED_BLOCK_ACCEPTANCE } from '../../../codec/tx/acceptance.js';
import { connectedBlockView, unconnectedBlockView, type BlockStateView } from '../../../state/block-view.js';
import { treeAtAnchor } from '../../../state/chain-state.js';
import { SHIELDED_POOL_ENTRIES, type ShieldedPoolId } from '../../../state/pools.js';
import { defaultPoolHashers } from '../../../state/hashers.js';
import { blockPoolDeltas, type PoolDeltas, type PoolTotals } from '../../../state/value-pools.js';
import type { BlockIndexEntry, ChainStoreReader } from '../../../store/types.js';
import { MAX_REORG_DEPTH } from '../../../store/undo.js';

/**
 * How far back a side branch is followed to its connected ancestor before its totals count as
 * unknown: a branch deeper than a reorganization may reach can never become active, and each
 * step decodes a block on the request's thread.
 */
const MAX_SIDE_BRANCH_WALK = MAX_REORG_DEPTH + 1;

async function treeSizeAt(store: ChainStoreReader, pool: ShieldedPoolId, root: Uint8Array): Promise<number | null> {
  return treeAtAnchor(defaultPoolHashers()[pool], root, await store.treeStateAt(pool, root), pool)?.size ?? null;
}

/**
 * The shielded totals after `hash` as zcashd accumulates them on body receipt: the nearest
 * connected ancestor's totals plus the deltas of the unconnected blocks after it.
 */
async function bodyTotals(store: ChainStoreReader, hash: Uint8Array, network: NetworkParams): Promise<PoolTotals | null> {
  const pending: PoolDeltas[] = [];
  let cursor = hash;
  for (let i = 0; i < MAX_SIDE_BRANCH_WALK; i++) {
    const record = await store.blockState(cursor);
    if (record) {
      const totals = { ...record.totals };
      for (const d of pending) {
        for (const id of ['sprout', ...SHIELDED_POOL_ENTRIES.map((p) => p.id as ShieldedPoolId), 'lockbox'] as const) {
          // A pool registered after the record was written held nothing before.
          const total = totals[id] === undefined ? 0n : totals[id];
          totals[id] = total === null ? null : total + (d[id] ?? 0n);
        }
      }
      return totals;
    }
    const entry = await store.blockIndex(cursor);
    const bytes = entry?.haveData ? await store.blockBytes(cursor) : null;
    if (!entry || !bytes || entry.height === 0) return null;
    pending.push(blockPoolDeltas(decodeBlock(bytes, STORED_BLOCK_ACCEPTANCE), network, entry.height, null));
    cursor = entry.prevHash;
  }
  return null;
}

/** The chain-state members of a connected block (all from its stored record), or null if it was never connected. */
export async function connectedBlockStateView(store: ChainStoreReader, entry: BlockIndexEntry): Promise<BlockStateView | null> {
  const record = await store.blockState(entry.hash);
  return record ? connectedBlockView(record, store.network, (pool, root) => treeSizeAt(store, pool, root)) : null;
}

/** getblock's chain-state members for a block whose bytes are `bytes`, or null if the store keeps no chain state. */
export async function blockStateView(store: ChainStoreReader, entry: BlockIndexEntry, bytes: Uint8Array): Promise<BlockStateView | null> {
  const sizeAt = (pool: ShieldedPoolId, root: Uint8Array): Promise<number | null> => treeSizeAt(store, pool, root);
  const record = await store.blockState(entry.hash);
  if (record) return connectedBlockView(record, store.network, sizeAt);
  if (!(await store.chainStateTip())) return null;
  const parentTotals = entry.height === 0 ? null : await bodyTotals(store, entry.prevHash, store.network);
  return unconnectedBlockView(decodeBlock(bytes, STORED_BLOCK_ACCEPTANCE), entry.height, store.network, parentTotals, sizeAt);
}

/** getblockheader's `finalsaplingroot`: the stored root, or what AddToBlockIndex keeps for a never-connected block. */
export async function finalSaplingRootOf(store: ChainStoreReader, entry: BlockIndexEntry): Promise<Uint8Array | null> {
  const record = await store.blockState(entry.hash);
  if (record) return record.saplingRoot;
  if (!(await store.chainStateTip())) return null;
  return headerDerivedRoots(store.network, entry.height, entry.header.subarray(68, 100)).finalSaplingRoot ?? new Uint8Array(32);
}
