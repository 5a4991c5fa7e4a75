/**
 * Worker thread for bench/trees.ts: builds one pool's WebAssembly hasher, says "ready", and on
 * every "go" imports the given leaves block by block into a fresh mainnet-sized tree, answering
 * with the wall time of that work.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { defaultOrchardHasher } from '../../src/crypto/orchard/index.js';
import { defaultSaplingHasher } from '../../src/crypto/sapling/index.js';
import { blockSizes, importBlocks, randomNodes, treeAtSize } from './tree-work.js';

export interface TreeJob {
  pool: 'sapling' | 'orchard';
  leaves: number;
  sizes: number[];
  startSize: number;
}

const job = workerData as TreeJob;
const port = parentPort!;
const hasher = job.pool === 'sapling' ? defaultSaplingHasher().hasher : defaultOrchardHasher().hasher;
const leaves = randomNodes(job.leaves, job.pool === 'sapling' ? 11 : 13);
const sizes = blockSizes(job.sizes, job.leaves);
importBlocks(treeAtSize(hasher, job.startSize), leaves.subarray(0, 32 * 64), blockSizes([8], 64)); // warm-up
port.postMessage({ type: 'ready' });
port.on('message', () => {
  const t0 = performance.now();
  const run = importBlocks(treeAtSize(hasher, job.startSize), leaves, sizes);
  port.postMessage({ type: 'done', wallMs: performance.now() - t0, run });
});
