/**
 * Incremental note-commitment tree: what the frontier itself costs on top of its hash.
 * Run: npx tsx bench/trees-append.ts [leaves=200000]
 *
 * With the Sprout hasher (SHA256Compress, ≈ 1 µs a hash) the tree's own bookkeeping is visible:
 * - baseline: the hashes alone — one combineMany over the n − 1 pairs a tree of n leaves needs
 *   (a perfect binary tree of n − 1 internal nodes), no tree;
 * - append × n, appendMany in 100-leaf batches (a block) and in one batch (an import);
 * - hasher calls per level with a counting wrapper (what a batched Sapling/Orchard hasher gets);
 * - root(), toTreeState() and fromTreeState() on a depth-32 tree.
 */
import type { MerkleHasher } from '../src/state/trees/hasher.js';
import { IncrementalMerkleTree } from '../src/state/trees/incremental.js';
import { createSproutHasher } from '../src/state/trees/sprout.js';

const n = Number(process.argv[2] ?? 200_000);
const hasher = createSproutHasher(32);
const leaves = new Uint8Array(n * 32);
for (let i = 0; i < leaves.length; i++) leaves[i] = (i * 2654435761) >>> 24;
const leafArray = Array.from({ length: n }, (_, i) => leaves.subarray(i * 32, i * 32 + 32));

function time(label: string, runs: number, fn: () => void): number {
  fn(); // warm-up
  const samples: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)]!;
  console.log(`${label.padEnd(52)} ${median.toFixed(3).padStart(9)} ms  (median of ${runs})`);
  return median;
}

console.log(`${n.toLocaleString('en')} leaves, SHA256Compress, depth 32\n`);

const pairs = new Uint8Array((n - 1) * 64);
for (let i = 0; i < pairs.length; i++) pairs[i] = leaves[i % leaves.length]!;
const base = time(`baseline: ${(n - 1).toLocaleString('en')} compressions, no tree`, 5, () => {
  hasher.combineMany(0, pairs, n - 1);
});

const one = time('append × n', 5, () => {
  const t = new IncrementalMerkleTree(hasher);
  for (const leaf of leafArray) t.append(leaf);
});
const perBlock = time('appendMany, 100-leaf batches (Uint8Array views)', 5, () => {
  const t = new IncrementalMerkleTree(hasher);
  for (let i = 0; i < n; i += 100) t.appendMany(leaves.subarray(i * 32, Math.min(n, i + 100) * 32));
});
const all = time('appendMany, one batch', 5, () => {
  new IncrementalMerkleTree(hasher).appendMany(leaves);
});
console.log(
  `\noverhead over the baseline: append ×${(one / base).toFixed(2)}, 100-leaf batches ×${(perBlock / base).toFixed(2)}, one batch ×${(all / base).toFixed(2)}`,
);

let combineCalls = 0;
let combineManyCalls = 0;
const counting: MerkleHasher = {
  depth: hasher.depth,
  emptyRoots: hasher.emptyRoots,
  combine: (h, l, r) => (combineCalls++, hasher.combine(h, l, r)),
  combineMany: (h, p, c) => (combineManyCalls++, hasher.combineMany(h, p, c)),
};
const counted = new IncrementalMerkleTree(counting);
counted.appendMany(leaves);
console.log(`hasher calls for one batch of ${n.toLocaleString('en')}: combineMany ${combineManyCalls}, combine ${combineCalls}`);
combineCalls = combineManyCalls = 0;
for (let i = 0; i < 1000; i++) counted.appendMany(leaves.subarray(i * 100 * 32, (i + 1) * 100 * 32));
console.log(
  `hasher calls for 1,000 batches of 100: combineMany ${combineManyCalls} (${(combineManyCalls / 1000).toFixed(1)} a batch), combine ${combineCalls}\n`,
);

const full = new IncrementalMerkleTree(hasher);
full.appendMany(leaves);
time('root() (32 hashes, cache cleared by an append)', 2000, () => {
  full.append(leafArray[0]!);
  full.root();
});
const state = full.toTreeState();
time('toTreeState()', 2000, () => {
  full.toTreeState();
});
time('fromTreeState()', 2000, () => {
  IncrementalMerkleTree.fromTreeState(hasher, state);
});
