/**
 * A block's step of the note-commitment trees: its leaves, in block order (Sprout's JoinSplit
 * commitments, then each registered pool's), appended to the trees after its parent, and each
 * changed tree's new root. The state transition (apply-block.ts) runs it; a tree thread
 * (sync/tree-prefetch.ts) runs the same step ahead for blocks an importer has read, and the
 * state transition adopts that thread's trees only where they continue its own: the same size
 * and root before, exactly the leaves it decoded itself (the thread runs this same code).
 */
import type { Block } from '../codec/block.js';
import { bytesEqual } from '../codec/hex.js';
import type { TransactionData } from '../codec/tx/types.js';
import { type PoolHashers, type ShieldedPool, emptyTrees, treeOptions } from './chain-state.js';
import { SHIELDED_POOL_ENTRIES, treePools, type ShieldedPoolId } from './pools.js';
import { IncrementalMerkleTree } from './trees/incremental.js';

/** Each tree's leaves in one block, in block order. */
export type BlockLeaves = Record<ShieldedPool, Uint8Array[]>;

/** The note commitments of the transactions, per tree, in block order. */
export function blockLeaves(transactions: readonly { readonly data: TransactionData }[]): BlockLeaves {
  const leaves = {} as BlockLeaves;
  for (const pool of treePools()) leaves[pool] = [];
  for (const tx of transactions) {
    for (const js of tx.data.joinSplits) leaves.sprout.push(js.commitments[0], js.commitments[1]);
    for (const pool of SHIELDED_POOL_ENTRIES) pool.commitments(tx.data, leaves[pool.id as ShieldedPoolId]);
  }
  return leaves;
}

/**
 * One tree's step computed elsewhere (a tree thread), in a form that crosses threads: the tree
 * it started from (size and root), the leaves it appended, and what it reached.
 */
export interface PrecomputedTreeStep {
  sizeBefore: number;
  rootBefore: Uint8Array;
  /** The leaves appended, 32 bytes each, concatenated. */
  leaves: Uint8Array;
  /** The tree after them, as `toTreeStateBytes('padded')` serializes it. */
  frontier: Uint8Array;
  root: Uint8Array;
  /** The 2^16-leaf subtrees the leaves completed. */
  completed: { index: number; root: Uint8Array }[];
}

/** A block's tree steps computed elsewhere, by pool; a pool the block adds no leaf to is absent. */
export type PrecomputedTrees = Partial<Record<string, PrecomputedTreeStep>>;

export interface BlockTreesStep {
  trees: Record<ShieldedPool, IncrementalMerkleTree>;
  /** Roots this block gave a tree (one per pool whose tree grew). */
  newRoots: { pool: ShieldedPool; root: Uint8Array }[];
  completedSubtrees: { pool: ShieldedPoolId; index: number; root: Uint8Array }[];
  /** Pools whose step was taken from `precomputed` rather than hashed here. */
  adopted: ShieldedPool[];
  /** Pools whose step in `precomputed` did not continue the parent's tree with these leaves, hashed here. */
  refused: ShieldedPool[];
}

/**
 * Appends a block's leaves to the trees after its parent (null: the empty trees of genesis).
 * The parent's trees are not changed. A pool's step in `precomputed` is taken instead of
 * hashing when it starts from the same tree (size and root) and appends exactly these leaves,
 * so the result is the same either way.
 */
export function advanceBlockTrees(
  parentTrees: Readonly<Partial<Record<ShieldedPool, IncrementalMerkleTree>>> | null,
  hashers: PoolHashers,
  leaves: BlockLeaves,
  precomputed: PrecomputedTrees | null = null,
): BlockTreesStep {
  const trees = {} as Record<ShieldedPool, IncrementalMerkleTree>;
  let empty: Record<ShieldedPool, IncrementalMerkleTree> | null = null;
  const newRoots: BlockTreesStep['newRoots'] = [];
  const completedSubtrees: BlockTreesStep['completedSubtrees'] = [];
  const adopted: ShieldedPool[] = [];
  const refused: ShieldedPool[] = [];
  for (const pool of treePools()) {
    // A tip made before a pool was registered has no tree for it: nothing entered it yet.
    const before = parentTrees?.[pool] ?? (empty ??= emptyTrees(hashers))[pool];
    const added = leaves[pool];
    if (added.length === 0) {
      trees[pool] = before.clone();
      continue;
    }
    const step = precomputed?.[pool];
    let completed: { index: number; root: Uint8Array }[];
    if (step && continues(step, before, added)) {
      trees[pool] = IncrementalMerkleTree.fromTreeState(hashers[pool], step.frontier, { ...treeOptions(pool), knownRoot: step.root });
      completed = step.completed;
      adopted.push(pool);
    } else {
      if (step) refused.push(pool);
      trees[pool] = before.clone();
      completed = trees[pool].appendMany(added);
    }
    newRoots.push({ pool, root: trees[pool].root() });
    if (pool !== 'sprout') for (const c of completed) completedSubtrees.push({ pool, index: c.index, root: c.root });
  }
  return { trees, newRoots, completedSubtrees, adopted, refused };
}

/** Whether `step` appended exactly `added` to the tree `before`. */
function continues(step: PrecomputedTreeStep, before: IncrementalMerkleTree, added: readonly Uint8Array[]): boolean {
  if (step.sizeBefore !== before.size || step.leaves.length !== added.length * 32) return false;
  for (let i = 0; i < added.length; i++) if (!bytesEqual(step.leaves.subarray(i * 32, i * 32 + 32), added[i]!)) return false;
  return bytesEqual(step.rootBefore, before.root());
}

/**
 * A block's tree step, run by a tree thread on its own copy of the trees (the same step as
 * `advanceBlockTrees`'): the trees after the block, and what it hands back for each tree that grew.
 */
export function precomputeBlockTrees(
  parentTrees: Record<ShieldedPool, IncrementalMerkleTree>,
  hashers: PoolHashers,
  block: Pick<Block, 'transactions'>,
): { trees: Record<ShieldedPool, IncrementalMerkleTree>; steps: PrecomputedTrees } {
  const leaves = blockLeaves(block.transactions);
  const { trees, completedSubtrees } = advanceBlockTrees(parentTrees, hashers, leaves);
  const steps: PrecomputedTrees = {};
  for (const pool of treePools()) {
    const added = leaves[pool];
    if (added.length === 0) continue;
    const flat = new Uint8Array(added.length * 32);
    added.forEach((leaf, i) => flat.set(leaf, i * 32));
    steps[pool] = {
      sizeBefore: parentTrees[pool].size,
      rootBefore: parentTrees[pool].root(),
      leaves: flat,
      frontier: trees[pool].toTreeStateBytes('padded'),
      root: trees[pool].root(),
      completed: completedSubtrees.filter((c) => c.pool === pool).map(({ index, root }) => ({ index, root })),
    };
  }
  return { trees, steps };
}
