// A block's tree step (src/state/block-trees.ts) on the real blocks of the vectors: the step a
// tree thread computes on its own copy of the trees, adopted, gives exactly the trees hashing
// the block's leaves here gives, for Sprout's JoinSplit commitments as for every registered pool.
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { advanceBlockTrees, blockLeaves, precomputeBlockTrees } from '../../src/state/block-trees.js';
import { emptyTrees, type ShieldedPool } from '../../src/state/chain-state.js';
import { defaultPoolHashers } from '../../src/state/hashers.js';
import type { IncrementalMerkleTree } from '../../src/state/trees/incremental.js';
import { readHexVector, realBlockFiles } from '../support/vectors.js';

type Trees = Record<ShieldedPool, IncrementalMerkleTree>;
const state = (trees: Trees) =>
  Object.fromEntries(
    Object.entries(trees).map(([pool, t]) => [pool, [t.size, t.toTreeState('padded'), Buffer.from(t.root()).toString('hex')]]),
  );

describe("a block's tree step on real blocks", () => {
  it('adopted from a thread, ends where hashing here ends, Sprout included', () => {
    const hashers = defaultPoolHashers();
    // The vectors' blocks one after the other, as if each were the next block: each tree grows
    // by every block's leaves in turn.
    let here: Trees | null = null;
    let ahead: Trees | null = null;
    let thread: Trees = emptyTrees(hashers);
    const adopted = new Map<string, number>();
    for (const { file } of realBlockFiles()) {
      const block = decodeBlock(readHexVector(...file.split('/')), CURRENT_CHAIN_ACCEPTANCE);
      const leaves = blockLeaves(block.transactions);
      const step = precomputeBlockTrees(thread, hashers, block);
      thread = step.trees;
      const hashed = advanceBlockTrees(here, hashers, leaves);
      const taken = advanceBlockTrees(ahead, hashers, leaves, step.steps);
      expect(taken.refused).toEqual([]);
      for (const pool of taken.adopted) adopted.set(pool, (adopted.get(pool) ?? 0) + 1);
      expect(state(taken.trees)).toEqual(state(hashed.trees));
      expect(taken.newRoots).toEqual(hashed.newRoots);
      expect(taken.completedSubtrees).toEqual(hashed.completedSubtrees);
      here = hashed.trees;
      ahead = taken.trees;
    }
    // Blocks of every pool's era are among the vectors.
    for (const pool of ['sprout', 'sapling', 'orchard']) expect(adopted.get(pool) ?? 0).toBeGreaterThan(0);
    expect(here!.sprout.size).toBeGreaterThan(0);
  });
});
