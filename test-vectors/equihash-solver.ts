/**
 * An Equihash solver (Wagner's generalized birthday algorithm) for the small parameter sets
 * regtest uses, (48, 5), so the synthetic regtest blocks carry real solutions. Test-vector
 * tooling only: it enumerates every solution for one input, deterministically, in plain
 * TypeScript; it is far too slow and memory hungry for (200, 9).
 *
 * The solution rules are the verifier's (src/crypto/equihash.ts): 2^k indices below
 * 2^(n/(k+1)+1); index i selects n-bit slice i mod ⌊512/n⌋ of the BLAKE2b hash of
 * input ‖ le32(⌊i / ⌊512/n⌋⌋), cut into k+1 big-endian digits. Read as a binary tree, the two
 * halves of each 2^j-leaf subtree agree on digit j−1, the left half starts with the smaller
 * index, no index repeats, and all 2^k hashes XOR to zero.
 *
 * Wagner's algorithm builds those trees bottom up: round j pairs every two candidates (subtrees
 * of 2^j leaves whose first j digits XOR to zero) that agree on digit j; the last round pairs
 * candidates that agree on both remaining digits. A candidate is a pair of references into the
 * previous round, so a round costs a few integer operations per pair; repeated indices are
 * rejected once, on the expanded 2^k indices of each final tree (a tree with a repeat can never
 * become valid higher up, so checking late loses nothing), except that two halves with the same
 * first index are rejected at once. No candidate is dropped for any other reason (the usual
 * miner shortcut of discarding all-zero partial XORs would lose rare solutions), so the list is
 * complete, and it is returned sorted so "the first solution" means the same thing however the
 * rounds happen to order their work.
 */
import { equihashHashers, equihashSolutionFromIndices, isValidEquihashParams, type EquihashHasher } from '../src/crypto/equihash.js';

/**
 * One round's candidates: subtrees of 2^round leaves whose first `round` digits XOR to zero.
 * Round 0 holds the leaves themselves (candidate c = index c).
 */
interface Round {
  count: number;
  /** count × (k+1) digit XORs; only digits from `round` on are kept up to date (the earlier ones are zero). */
  digits: Uint32Array;
  /** The subtree's first leaf index (the verifier orders siblings by it). */
  first: Uint32Array;
  /** Children in the previous round, left then right; empty for round 0. */
  left: Uint32Array;
  right: Uint32Array;
}

const hasher: EquihashHasher = equihashHashers.wasm ?? equihashHashers.noble;

/*
 * Buffers reused by every call (solving is synchronous, so no two calls share them): a block
 * needs a few dozen solves, and allocating ~40 typed arrays per solve would cost more than the
 * solve's arithmetic.
 */
const emptyRound = (): Round => ({
  count: 0,
  digits: new Uint32Array(0),
  first: new Uint32Array(0),
  left: new Uint32Array(0),
  right: new Uint32Array(0),
});
let roundPool: Round[] = [];
let bucketStart = new Uint32Array(0);
let bucketFill = new Uint32Array(0);
let bucketOrder = new Uint32Array(0);
let seen = new Uint8Array(0);

function roundsFor(k: number): Round[] {
  while (roundPool.length < k + 1) roundPool = [...roundPool, emptyRound()];
  return roundPool;
}

/** Makes room for `count` candidates of `d` digits, keeping nothing. */
function reserve(r: Round, count: number, d: number): void {
  if (r.first.length < count) {
    const size = Math.max(count, r.first.length * 2);
    r.first = new Uint32Array(size);
    r.left = new Uint32Array(size);
    r.right = new Uint32Array(size);
  }
  if (r.digits.length < count * d) r.digits = new Uint32Array(Math.max(count * d, r.digits.length * 2));
}

/** Largest index width this solver accepts (2^17 initial candidates). */
const MAX_INDEX_BITS = 17;

/**
 * Every Equihash (n, k) solution for `input` (the 140-byte header prefix for block headers),
 * encoded as the header's nSolution bytes, sorted by their index sequences.
 */
export function solveEquihash(n: number, k: number, input: Uint8Array): Uint8Array[] {
  return solveEquihashIndices(n, k, input).map((indices) => equihashSolutionFromIndices(n, k, indices));
}

/** The same solutions as index lists (2^k indices each, solution order). */
export function solveEquihashIndices(n: number, k: number, input: Uint8Array): Uint32Array[] {
  if (!isValidEquihashParams(n, k)) throw new RangeError(`solveEquihash: invalid parameters n=${n}, k=${k}`);
  const digitBits = n / (k + 1);
  if (digitBits + 1 > MAX_INDEX_BITS) throw new RangeError(`solveEquihash: (${n}, ${k}) is too large for this solver`);

  const rounds = roundsFor(k);
  leaves(n, k, input, rounds[0]!);
  // Rounds 0..k−2 collide on one digit each; the last one needs the final two digits equal.
  for (let round = 0; round < k; round++) collide(rounds[round]!, rounds[round + 1]!, k, round, round === k - 1, digitBits);

  const top = rounds[k]!;
  if (seen.length < 2 ** (digitBits + 1)) seen = new Uint8Array(2 ** (digitBits + 1));
  const out: Uint32Array[] = [];
  for (let c = 0; c < top.count; c++) {
    const indices = new Uint32Array(2 ** k);
    expand(rounds, k, c, indices, 0);
    if (allDistinct(indices, seen)) out.push(indices);
  }
  out.sort(compareIndexLists);
  return out;
}

function leaves(n: number, k: number, input: Uint8Array, out: Round): void {
  const d = k + 1;
  const digitBits = n / d;
  const count = 2 ** (digitBits + 1);
  const perHash = Math.floor(512 / n);
  const sliceBytes = n / 8;
  reserve(out, count, d);
  out.count = count;
  const { digits, first } = out;
  hasher.begin(n, k, input);
  for (let base = 0; base < count; base += perHash) {
    const digest = hasher.digest(base / perHash);
    for (let s = 0; s < perHash && base + s < count; s++) {
      first[base + s] = base + s;
      readDigits(digest, s * sliceBytes, digitBits, d, digits, (base + s) * d);
    }
  }
}

/** `count` consecutive big-endian `bits`-wide values starting at byte `from`. */
function readDigits(bytes: Uint8Array, from: number, bits: number, count: number, out: Uint32Array, at: number): void {
  if (bits === 8) {
    for (let i = 0; i < count; i++) out[at + i] = bytes[from + i]!;
    return;
  }
  let acc = 0;
  let held = 0;
  let p = from;
  for (let i = 0; i < count; i++) {
    while (held < bits) {
      acc = acc * 256 + bytes[p++]!;
      held += 8;
    }
    held -= bits;
    const div = 2 ** held;
    out[at + i] = Math.floor(acc / div);
    acc %= div;
  }
}

/**
 * One Wagner round: bucket the candidates by digit `round` (stable counting sort, so the output
 * order depends only on the input), then join every pair in a bucket — in the last round only
 * pairs whose final digit matches too, so the whole XOR is zero.
 */
function collide(prev: Round, next: Round, k: number, round: number, last: boolean, digitBits: number): void {
  const d = k + 1;
  const src = prev.digits;
  const buckets = 2 ** digitBits;
  if (bucketStart.length < buckets + 1) {
    bucketStart = new Uint32Array(buckets + 1);
    bucketFill = new Uint32Array(buckets);
  }
  if (bucketOrder.length < prev.count) bucketOrder = new Uint32Array(Math.max(prev.count, bucketOrder.length * 2));
  const start = bucketStart;
  const fill = bucketFill;
  const order = bucketOrder;
  start.fill(0, 0, buckets + 1);
  for (let c = 0; c < prev.count; c++) start[src[c * d + round]! + 1]!++;
  for (let b = 0; b < buckets; b++) start[b + 1]! += start[b]!;
  fill.set(start.subarray(0, buckets));
  for (let c = 0; c < prev.count; c++) order[fill[src[c * d + round]!]!++] = c;

  let pairs = 0;
  for (let b = 0; b < buckets; b++) {
    const m = start[b + 1]! - start[b]!;
    pairs += (m * (m - 1)) / 2;
  }
  reserve(next, pairs, d);
  const { digits, first, left, right } = next;
  const firstOf = prev.first;
  let count = 0;
  for (let b = 0; b < buckets; b++) {
    const end = start[b + 1]!;
    for (let x = start[b]!; x < end; x++) {
      const a = order[x]!;
      for (let y = x + 1; y < end; y++) {
        const c = order[y]!;
        if (last && src[a * d + d - 1] !== src[c * d + d - 1]) continue;
        const fa = firstOf[a]!;
        const fc = firstOf[c]!;
        // Equal first indices are a repeat; otherwise the smaller one goes left (the order rule).
        if (fa === fc) continue;
        const aLeft = fa < fc;
        left[count] = aLeft ? a : c;
        right[count] = aLeft ? c : a;
        first[count] = aLeft ? fa : fc;
        for (let t = round + 1; t < d; t++) digits[count * d + t] = src[a * d + t]! ^ src[c * d + t]!;
        count++;
      }
    }
  }
  next.count = count;
}

/** Writes candidate `c` of `rounds[round]`'s leaf indices, left to right, from `at`. */
function expand(rounds: readonly Round[], round: number, c: number, out: Uint32Array, at: number): number {
  if (round === 0) {
    out[at] = c;
    return at + 1;
  }
  const r = rounds[round]!;
  return expand(rounds, round - 1, r.right[c]!, out, expand(rounds, round - 1, r.left[c]!, out, at));
}

/** Whether no index repeats; leaves `seen` all zero again. */
function allDistinct(indices: Uint32Array, seen: Uint8Array): boolean {
  let ok = true;
  let i = 0;
  for (; i < indices.length; i++) {
    if (seen[indices[i]!]) {
      ok = false;
      break;
    }
    seen[indices[i]!] = 1;
  }
  for (let j = 0; j < i; j++) seen[indices[j]!] = 0;
  return ok;
}

function compareIndexLists(a: Uint32Array, b: Uint32Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
