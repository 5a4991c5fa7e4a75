/**
 * What getblock prints about a block's chain state, decided per zcashd's rules (spec
 * block-and-chain-state.md §2.4, §3.2, §4): a connected block shows what ConnectBlock stored; a
 * block that was never connected shows only what the header and the body give, and zeros where
 * zcashd keeps null fields.
 */
import { headerDerivedRoots } from '../chain/commitment-era.js';
import { isUpgradeActive, type NetworkParams } from '../chain/network.js';
import type { Block } from '../codec/block.js';
import type { BlockChainState } from './chain-state.js';
import { addPoolTotals, blockPoolDeltas, blockValuePools, type BlockValuePools, type PoolTotals } from './value-pools.js';

/** Plain data (structured-cloneable: it may travel to a rendering worker). */
export interface BlockStateView {
  finalSaplingRoot: Uint8Array;
  /** Printed (not reversed) from NU5 on; null before. */
  finalOrchardRoot: Uint8Array | null;
  chainHistoryRoot: Uint8Array;
  authDataRoot: Uint8Array;
  /** `anchor`: the Sprout root after the block. */
  anchor: Uint8Array;
  pools: BlockValuePools;
  /** `trees` members: the tree size at the block's root, or null when zcashd's coins view has no tree for it. */
  saplingTreeSize: number | null;
  orchardTreeSize: number | null;
}

/** Size of the tree whose root is `root` in the active chain's coins view, or null if it holds none. */
export type TreeSizeAt = (pool: 'sapling' | 'orchard', root: Uint8Array) => Promise<number | null>;

const ZERO32 = new Uint8Array(32);

/** A connected block: everything ConnectBlock stored. */
export async function connectedBlockView(record: BlockChainState, treeSizeAt: TreeSizeAt): Promise<BlockStateView> {
  return {
    finalSaplingRoot: record.saplingRoot,
    finalOrchardRoot: record.orchardRoot,
    chainHistoryRoot: record.chainHistoryRoot,
    authDataRoot: record.authDataRoot,
    anchor: record.sproutRoot,
    pools: blockValuePools(record.totals, record.deltas),
    saplingTreeSize: await treeSizeAt('sapling', record.saplingRoot),
    orchardTreeSize: record.orchardRoot ? await treeSizeAt('orchard', record.orchardRoot) : null,
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
  const totals = addPoolTotals(
    parentTotals ?? { chainSupply: null, transparent: null, sprout: null, sapling: null, orchard: null, lockbox: null },
    body,
  );
  const pools = blockValuePools({ ...totals, transparent: null, chainSupply: null }, body);
  return {
    finalSaplingRoot,
    finalOrchardRoot: nu5 ? ZERO32 : null,
    chainHistoryRoot,
    authDataRoot: ZERO32,
    anchor: ZERO32,
    pools,
    saplingTreeSize: await treeSizeAt('sapling', finalSaplingRoot),
    orchardTreeSize: nu5 ? await treeSizeAt('orchard', ZERO32) : null,
  };
}
