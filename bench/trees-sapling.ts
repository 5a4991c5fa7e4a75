/**
 * Sapling note-commitment tree hashing (MerkleCRH^Sapling, Pedersen hash over Jubjub): µs per
 * tree node for the literal BigInt definition, the pure BigInt SAPLING_HASHER (one table point
 * per chunk) and the WebAssembly hasher, measured in the same run,
 * plus the WebAssembly table build time (wall clock, including the 32 empty roots) and the
 * window-size trade-off.
 *
 *   npx tsx bench/trees-sapling.ts
 *
 * "combineMany" hashes one tree level of 4096 pairs in one call (the batched path a tree append
 * takes); "combine" hashes one pair per call; "combine(x, E_h)" is a left child next to an empty
 * subtree; "root" is a tree root over 1,234,567 leaves from its frontier (32 dependent combines,
 * as IncrementalMerkleTree.root() does), reported per combine.
 */
import { DEFAULT_WINDOW_CHUNKS, FastSaplingHasher, SAPLING_HASHER, saplingMerkleHash } from '../src/crypto/sapling/index.js';
import type { MerkleHasher } from '../src/state/trees/hasher.js';

/** Each case runs ROUNDS times for ROUND_SECONDS; the best round counts (the machine is shared). */
const ROUNDS = 3;
const ROUND_SECONDS = 0.15;

function pseudoRandomPairs(count: number): Uint8Array {
  const out = new Uint8Array(64 * count);
  let s = 0x9e3779b9 | 0;
  for (let i = 0; i < out.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = s & 0xff;
  }
  // Children are field elements in a real tree: keep them below 2^254 < q.
  for (let i = 31; i < out.length; i += 32) out[i]! &= 0x3f;
  return out;
}

/**
 * µs of process CPU time per node for `op` (which hashes `nodesPerOp` nodes): CPU time rather
 * than wall time, so other processes on the machine inflate it less.
 */
function usPerNode(op: () => void, nodesPerOp: number): number {
  op(); // warm-up: JIT and lazy tables
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    let nodes = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    do {
      op();
      nodes += nodesPerOp;
    } while (performance.now() - started < ROUND_SECONDS * 1000);
    const used = process.cpuUsage(cpu);
    best = Math.min(best, (used.user + used.system) / nodes);
  }
  return best;
}

interface Timing {
  many: number;
  one: number;
  emptyRight: number;
  root: number;
}

function measure(hasher: MerkleHasher, levelPairs: number): Timing {
  const pairs = pseudoRandomPairs(levelPairs);
  const left = pairs.subarray(0, 32);
  const right = pairs.subarray(32, 64);
  const empty = hasher.emptyRoots;
  let height = 0;
  // The frontier of a tree whose newest leaf is at position p: an ommer wherever p has a 1 bit.
  const position = 1_234_566;
  const ommers = Array.from({ length: 32 }, (_, h) => pairs.subarray((64 * h + 32) % pairs.length, ((64 * h + 32) % pairs.length) + 32));
  const root = (): void => {
    let cur = left;
    for (let h = 0, p = position; h < 32; h++, p = Math.floor(p / 2)) {
      cur = p % 2 === 1 ? hasher.combine(h, ommers[h]!, cur) : hasher.combine(h, cur, empty[h]!);
    }
  };
  return {
    many: usPerNode(() => hasher.combineMany(height++ & 31, pairs, levelPairs), levelPairs),
    one: usPerNode(() => hasher.combine(height++ & 31, left, right), 1),
    emptyRight: usPerNode(() => {
      const h = height++ & 31;
      hasher.combine(h, left, empty[h]!);
    }, 1),
    root: usPerNode(root, 32),
  };
}

function row(label: string, t: Timing, extra: string): string {
  const f = (v: number): string => (v >= 100 ? v.toFixed(0) : v.toFixed(2)).padStart(7);
  return `${label.padEnd(30)} ${f(t.many)} ${f(t.one)} ${f(t.emptyRight)} ${f(t.root)}   ${extra}`;
}

const rows: string[] = [
  `${'µs per node'.padEnd(30)} ${'many'.padStart(7)} ${'combine'.padStart(7)} ${'x, E_h'.padStart(7)} ${'root'.padStart(7)}`,
];
{
  // The literal definition (one scalar multiplication per segment): the naive baseline.
  const pairs = pseudoRandomPairs(1);
  let height = 0;
  const literal = usPerNode(() => saplingMerkleHash(31 - (height++ & 31), pairs.subarray(0, 32), pairs.subarray(32, 64)), 1);
  rows.push(`${'literal definition (BigInt)'.padEnd(30)} ${'-'.padStart(7)} ${literal.toFixed(0).padStart(7)}`);
}
const pure = measure(SAPLING_HASHER, 16);
rows.push(row('pure BigInt (SAPLING_HASHER)', pure, ''));

for (const chunks of [3, 4, 5]) {
  const fast = new FastSaplingHasher(chunks);
  const build = fast.tableBuildSeconds;
  const t = measure(fast, 4096);
  const label = `wasm, ${chunks}-chunk windows${chunks === DEFAULT_WINDOW_CHUNKS ? ' (default)' : ''}`;
  rows.push(row(label, t, `tables ${(build * 1000).toFixed(0)} ms, ${tableMegabytes(chunks).toFixed(1)} MB; many ${(pure.many / t.many).toFixed(0)}× pure`));
}
console.log(rows.join('\n'));

/** Table memory: 64 height start points (4 coordinates of 36 bytes) + per window 2^(3k−1) entries of 96 bytes. */
function tableMegabytes(chunks: number): number {
  let bytes = 64 * 4 * 36;
  for (let c = 2; c < 172; c += chunks) bytes += 2 ** (3 * Math.min(chunks, 172 - c) - 1) * 96;
  return bytes / 2 ** 20;
}
