// Run by tree-prefetch.test.ts in a process of its own (vitest's workers are kept alive by their
// IPC channel, which would hide it): a store waiting on the tree thread must keep the process
// alive, as must one waiting for a warm start. Every block read ahead is answered `unlinked` (their first parent never reached the
// thread), then a gap's seed releases them, and the wait for the next step is all that is left.
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { advanceBlockTrees, blockLeaves } from '../../src/state/block-trees.js';
import type { ShieldedPool } from '../../src/state/chain-state.js';
import { defaultPoolHashers } from '../../src/state/hashers.js';
import type { IncrementalMerkleTree } from '../../src/state/trees/incremental.js';
import type { ChainStore } from '../../src/store/chain.js';
import { TreePrefetcher } from '../../src/sync/tree-prefetch.js';
import { EraChainGenerator } from '../../test-vectors/era-chain.js';
import { eraChainBlocks } from '../../test-vectors/era-shapes.js';

const generator = new EraChainGenerator({ tag: 'tree-steps-exit' });
const built = [generator.genesis];
for (let i = 0; i < 100; i++) built.push(generator.next([]));
for (const { block } of eraChainBlocks(generator, [{ era: 'nu63', blocks: 4 }])) built.push(block);

const after: Record<ShieldedPool, IncrementalMerkleTree>[] = [];
let trees: Record<ShieldedPool, IncrementalMerkleTree> | null = null;
for (const b of built) {
  trees = advanceBlockTrees(trees, defaultPoolHashers(), blockLeaves(decodeBlock(b.bytes, CURRENT_CHAIN_ACCEPTANCE).transactions)).trees;
  after.push(trees);
}
const tipAt = (i: number) =>
  ({ chainStateTip: async () => ({ hash: built[i]!.hash, trees: after[i]! }) }) as unknown as Pick<ChainStore, 'chainStateTip'>;

// A warm start is awaited with nothing else keeping the process alive: the thread must.
const warm = await TreePrefetcher.start(tipAt(100), { warm: true });
await warm.close();
process.stdout.write('warm\n');

const gapAt = 101;
const thread = await TreePrefetcher.start(tipAt(gapAt - 1));
for (const b of built.slice(gapAt + 1)) thread.prefetch(b.bytes);
await thread.settled();
if (thread.take(built[gapAt]!.hash) !== null) throw new Error('block 101 was never handed to the thread');
await thread.seedAfterGap(tipAt(gapAt));
const steps = await thread.take(built[gapAt + 1]!.hash);
process.stdout.write(`${steps ? 'stepped' : 'none'} ${thread.counts.stepped}\n`);
await thread.close();
