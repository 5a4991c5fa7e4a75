/**
 * Note-commitment tree work as an import does it, shared by bench/trees.ts and its worker
 * threads: a tree at a mainnet-sized position, then per block one appendMany of that block's
 * leaves and one root().
 */
import type { MerkleHasher } from '../../src/state/trees/hasher.js';
import { IncrementalMerkleTree } from '../../src/state/trees/incremental.js';
import { cpuMicros } from './measure.js';

/** `count` pseudo-random 32-byte nodes (xorshift), each below 2^254 so a field element of both curves. */
export function randomNodes(count: number, seed: number): Uint8Array {
  const out = new Uint8Array(32 * count);
  let s = seed | 0 || 0x9e3779b9;
  for (let i = 0; i < out.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = s & 0xff;
  }
  for (let i = 31; i < out.length; i += 32) out[i]! &= 0x3f;
  return out;
}

/**
 * A tree whose next leaf goes to position `size` (a frontier of random nodes, as
 * `fromTreeState` would restore it), so appends carry through as many levels as mainnet's do.
 */
export function treeAtSize(hasher: MerkleHasher, size: number): IncrementalMerkleTree {
  const p = size - 1;
  const nodes = randomNodes(hasher.depth + 1, size);
  const node = (i: number): Uint8Array => nodes.slice(32 * i, 32 * i + 32);
  const parents: (Uint8Array | null)[] = [];
  for (let i = 1; 2 ** i <= p; i++) parents.push(Math.floor(p / 2 ** i) % 2 === 1 ? node(i + 1) : null);
  return IncrementalMerkleTree.fromParts(
    hasher,
    p % 2 === 1 ? { left: node(0), right: node(1), parents } : { left: node(0), right: null, parents },
  );
}

/** Block sizes (leaves per block) cycling through `sizes` until `total` leaves are used. */
export function blockSizes(sizes: readonly number[], total: number): number[] {
  const out: number[] = [];
  for (let used = 0, i = 0; used < total; i++) {
    const k = Math.min(sizes[i % sizes.length]!, total - used);
    out.push(k);
    used += k;
  }
  return out;
}

export interface BlockRun {
  blocks: number;
  leaves: number;
  appendMicros: number;
  rootMicros: number;
}

/**
 * Appends `leaves` block by block (appendMany, then root() as a block's commitment needs); times
 * are process CPU µs (in a worker thread they include the other threads' work too).
 */
export function importBlocks(tree: IncrementalMerkleTree, leaves: Uint8Array, sizes: readonly number[]): BlockRun {
  let at = 0;
  let appendMicros = 0;
  let rootMicros = 0;
  for (const k of sizes) {
    const t0 = cpuMicros();
    tree.appendMany(leaves.subarray(32 * at, 32 * (at + k)));
    const t1 = cpuMicros();
    tree.root();
    rootMicros += cpuMicros() - t1;
    appendMicros += t1 - t0;
    at += k;
  }
  return { blocks: sizes.length, leaves: at, appendMicros, rootMicros };
}
