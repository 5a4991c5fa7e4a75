/**
 * What getblock prints about a block's chain state, decided per zcashd's rules (spec
 * block-and-chain-state.md §2.4, §3.2, §4): a connected block shows what ConnectBlock stored; a
 * block that was never connected shows only what the header and the body give, and zeros where
 * zcashd keeps null fields.
 */
import { headerDerivedRoots } from '../chain/commitment-era.js';
import { isUpgradeActive, type NetworkParams } from '../chain/network.js';
import type { Block } from '../codec/block.js';
import { recordPoolRoot, type BlockChainState } from './chain-state.js';
import { poolMemberNames, SHIELDED_POOL_ENTRIES, type ExtensionPoolId, type ShieldedPoolId, type ZcashdPoolId } from './pools.js';
import {
  addPoolTotals,
  blockPoolDeltas,
  blockValuePools,
  unknownPoolTotals,
  type BlockValuePools,
  type PoolTotals,
} from './value-pools.js';

/**
 * The `trees` members, one per registered pool (`saplingTreeSize`, `orchardTreeSize`, …): the
 * tree size at the block's root, or null when zcashd's coins view has no tree for it.
 */
export type PoolTreeSizes = { [K in ZcashdPoolId as `${K}TreeSize`]: number | null } & {
  [K in ExtensionPoolId as `${K}TreeSize`]?: number | null;
};

/** A registered pool's `trees` size in a view (null: not printed, or a view made before the pool was registered). */
export function treeSizeOf(view: BlockStateView, pool: string): number | null {
  return (view as unknown as Record<string, number | null | undefined>)[poolMemberNames(pool).treeSize] ?? null;
}

/** Plain data (structured-cloneable: it may travel to a rendering worker). */
export interface BlockStateView extends PoolTreeSizes {
  finalSaplingRoot: Uint8Array;
  /** Printed (not reversed) from NU5 on; null before. */
  finalOrchardRoot: Uint8Array | null;
  chainHistoryRoot: Uint8Array;
  authDataRoot: Uint8Array;
  /** `anchor`: the Sprout root after the block. */
  anchor: Uint8Array;
  pools: BlockValuePools;
}

/** Size of the tree whose root is `root` in the active chain's coins view, or null if it holds none. */
export type TreeSizeAt = (pool: ShieldedPoolId, root: Uint8Array) => Promise<number | null>;

const ZERO32 = new Uint8Array(32);

/** A connected block: everything ConnectBlock stored. */
export async function connectedBlockView(record: BlockChainState, network: NetworkParams, treeSizeAt: TreeSizeAt): Promise<BlockStateView> {
  return {
    finalSaplingRoot: record.saplingRoot,
    finalOrchardRoot: record.orchardRoot,
    chainHistoryRoot: record.chainHistoryRoot,
    authDataRoot: record.authDataRoot,
    anchor: record.sproutRoot,
    pools: blockValuePools(record.totals, record.deltas, { network, height: record.height }),
    ...(await treeSizes((pool) => recordPoolRoot(record, pool), treeSizeAt)),
  };
}

/**
 * A block whose body was received but that was never connected (a side branch): the header
 * roots AddToBlockIndex keeps, zeros for what only ConnectBlock sets, and the shielded pools
 * accumulated on body receipt from `parentTotals` (null when some ancestor is unknown).
 * Transparent and supply are never known for such a block.
 */
export async function unconnectedBlockView(
  block: Block,
  height: number,
  network: NetworkParams,
  parentTotals: PoolTotals | null,
  treeSizeAt: TreeSizeAt,
): Promise<BlockStateView> {
  const nu5 = isUpgradeActive(network, 'NU5', height);
  // What the header does not decide is a tree's root, which a never-connected block prints as zero.
  const roots = headerDerivedRoots(network, height, block.header.commitments);
  const finalSaplingRoot = roots.finalSaplingRoot ?? ZERO32;
  const chainHistoryRoot = roots.chainHistoryRoot ?? ZERO32;
  const body = blockPoolDeltas(block, network, height, null);
  const totals = addPoolTotals(parentTotals ?? unknownPoolTotals(), body);
  const pools = blockValuePools({ ...totals, transparent: null, chainSupply: null }, body, { network, height });
  // The roots a never-connected block's index entry holds: Sapling's from the header (era
  // rule above), the others zero from their upgrade on (ConnectBlock never set them).
  return {
    finalSaplingRoot,
    finalOrchardRoot: nu5 ? ZERO32 : null,
    chainHistoryRoot,
    authDataRoot: ZERO32,
    anchor: ZERO32,
    pools,
    ...(await treeSizes((pool) => {
      if (pool === 'sapling') return finalSaplingRoot;
      return isUpgradeActive(network, shieldedPoolEntry(pool).upgrade, height) ? ZERO32 : null;
    }, treeSizeAt)),
  };
}

function shieldedPoolEntry(pool: ShieldedPoolId): (typeof SHIELDED_POOL_ENTRIES)[number] {
  return SHIELDED_POOL_ENTRIES.find((p) => p.id === pool)!;
}

/** Each registered pool's `trees` size at its root (`rootOf` null: no root, not printed). */
async function treeSizes(rootOf: (pool: ShieldedPoolId) => Uint8Array | null, treeSizeAt: TreeSizeAt): Promise<PoolTreeSizes> {
  const sizes: Record<string, number | null> = {};
  for (const { id } of SHIELDED_POOL_ENTRIES) {
    const root = rootOf(id as ShieldedPoolId);
    sizes[poolMemberNames(id).treeSize] = root ? await treeSizeAt(id as ShieldedPoolId, root) : null;
  }
  return sizes as PoolTreeSizes;
}
