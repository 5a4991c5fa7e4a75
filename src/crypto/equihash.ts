/**
 * Equihash solution verification, as zcashd v6.12.2 runs it on every header
 * (CheckEquihashSolution → the Rust `equihash` crate's is_valid_solution).
 *
 * A solution for (n, k) is 2^k indices of n/(k+1)+1 bits, packed big-endian. Index i selects
 * an n-bit slice of BLAKE2b(personal "ZcashPoW" ‖ le32(n) ‖ le32(k), digest (512/n)·n/8 bytes)
 * over input ‖ le32(i / (512/n)). Each hash is cut into k+1 "digits" of n/(k+1) bits. The
 * indices form a binary tree: the two halves of every subtree of 2^j leaves must agree on
 * digit j−1 of their XORs (so the subtree's first j digits XOR to zero), the left half's first
 * index must be the smaller, the halves must share no index, and the XOR of all hashes must
 * be zero. The tree is walked depth first, left before right, and each node's checks run in
 * the crate's order (digit, order, distinctness), so the first failure reported is the one
 * zcashd would log.
 *
 * Speed: the input (the 140-byte header prefix) is the same for every index, so its full
 * 128-byte blocks are compressed once per header and only the last block — the input tail,
 * the 4-byte counter and the padding — is compressed per index: one BLAKE2b compression per
 * index instead of two. Those last blocks are compressed in WebAssembly two indices at a time,
 * one in each 64-bit lane of SIMD vectors (assembly/equihash.ts), a batch of leaves ahead of the
 * walk; blake2b-wasm's compression function, one index a call, is the fallback where that
 * module is missing, and @noble/hashes where WebAssembly is. bench/equihash.ts compares them.
 */
import { blake2b as nobleBlake2b } from '@noble/hashes/blake2.js';
import { instantiateBlake2bWasm, type Blake2bModule } from './blake2b.js';
import {
  checkBatch,
  counterCrossesBlocks,
  createEquihashDigester,
  EQUIHASH_DIGEST_STRIDE,
  type EquihashDigester,
} from './equihash-wasm.js';

/** Why a solution was rejected; the names follow the equihash crate's error kinds. */
export type EquihashFailure =
  /** (n, k) is not a parameter set the crate accepts. */
  | 'invalid-parameters'
  /** The solution is not 2^k·(n/(k+1)+1)/8 bytes long. */
  | 'wrong-solution-size'
  /** Two sibling subtrees disagree on the digit their level must cancel. */
  | 'invalid-collision'
  /** A right subtree's first index is smaller than its left sibling's. */
  | 'out-of-order'
  /** Two sibling subtrees share an index. */
  | 'duplicate-indices'
  /** The XOR of all selected hashes is not zero. */
  | 'nonzero-root';

export type EquihashResult =
  | { ok: true }
  | {
      ok: false;
      reason: EquihashFailure;
      /** Where it failed: the subtree's leaf range (solution positions), or the sizes. */
      detail: string;
    };

const OK: EquihashResult = Object.freeze({ ok: true });

/**
 * Parameter sets the crate accepts: n a multiple of 8 and of k+1, 3 ≤ k < n, and digits of at
 * least 8 bits (its bit expansion asserts that).
 */
export function isValidEquihashParams(n: number, k: number): boolean {
  return (
    Number.isInteger(n) &&
    Number.isInteger(k) &&
    n > 0 &&
    n % 8 === 0 &&
    k >= 3 &&
    k < n &&
    n % (k + 1) === 0 &&
    n / (k + 1) >= 8 &&
    // A digit must fit the 32-bit accumulators used below (the crate asserts the same bound).
    n / (k + 1) + 8 <= 32 &&
    n <= 512
  );
}

/** Encoded solution length in bytes: 2^k indices of n/(k+1)+1 bits. */
export function equihashSolutionSize(n: number, k: number): number {
  return ((1 << k) * (n / (k + 1) + 1)) / 8;
}

/**
 * The 2^k indices of an encoded solution (big-endian bit packing). The caller checks the
 * length first (`equihashSolutionSize`).
 */
export function equihashIndices(n: number, k: number, solution: Uint8Array): Uint32Array {
  const width = n / (k + 1) + 1;
  const out = new Uint32Array(1 << k);
  unpackBits(solution, 0, solution.length, width, out, 0);
  return out;
}

/** Packs 2^k indices into the solution encoding (the inverse of `equihashIndices`). */
export function equihashSolutionFromIndices(n: number, k: number, indices: ArrayLike<number>): Uint8Array {
  const width = n / (k + 1) + 1;
  const out = new Uint8Array(equihashSolutionSize(n, k));
  let acc = 0;
  let bits = 0;
  let at = 0;
  for (let i = 0; i < indices.length; i++) {
    // Fewer than 8 bits are pending, so acc stays below 2^(width+7): exact as a double.
    acc = acc * 2 ** width + (indices[i]! % 2 ** width);
    bits += width;
    while (bits >= 8) {
      bits -= 8;
      out[at++] = Math.floor(acc / 2 ** bits) & 0xff;
      acc %= 2 ** bits;
    }
  }
  return out;
}

/**
 * Reads consecutive big-endian `width`-bit values from bytes [from, to) into `out` from `at`.
 * The accumulator never holds more than width+7 bits, so width ≤ 25 stays within 32 bits.
 */
function unpackBits(bytes: Uint8Array, from: number, to: number, width: number, out: Uint32Array, at: number): void {
  const mask = width === 32 ? 0xffffffff : (1 << width) - 1;
  let acc = 0;
  let bits = 0;
  for (let p = from; p < to; p++) {
    acc = ((acc << 8) | bytes[p]!) >>> 0;
    bits += 8;
    while (bits >= width) {
      bits -= width;
      out[at++] = (acc >>> bits) & mask;
      acc &= (1 << bits) - 1;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Hashing backends: BLAKE2b of input ‖ le32(counter) for many counters over one input.

/** Hashes one input with many 4-byte counters; `digest` returns a view valid until the next call. */
export interface EquihashHasher {
  readonly name: string;
  /** Starts a new input with this (n, k)'s personalization and digest length. */
  begin(n: number, k: number, input: Uint8Array): void;
  digest(counter: number): Uint8Array;
  /**
   * Backends that gain from batching: the digests of `counters[0..count)` (count ≤ maxBatch),
   * that of counters[j] at j × EQUIHASH_DIGEST_STRIDE of the returned view, valid until the next call.
   */
  digestMany?(counters: Uint32Array, count: number): Uint8Array;
  readonly maxBatch?: number;
}

type Blake2bWasm = Blake2bModule;

/*
 * Layout of this module's own WebAssembly instance (nothing else uses it, so its memory
 * never grows and the views below stay valid):
 *   0..64     parameter block read by blake2b_init
 *   CTX..+216 context as blake2b.wat defines it: block buffer (128), h (64), t, c, f (u64 each)
 *   MID..+64  chaining value after the input's full blocks
 * blake2b_compress reads the block buffer and rewrites only h, so the last block (input tail,
 * counter, zero padding), t and the final flag are written once per input; per counter only
 * h is reset and the 4 counter bytes change.
 */
const CTX = 64;
const MID = 512;
const BLOCK = 128;

function createWasmHasher(wasm: Blake2bWasm): EquihashHasher {
  const noble = createNobleHasher();
  let viaNoble = false;
  const mem = new Uint8Array(wasm.memory.buffer);
  const view = new DataView(wasm.memory.buffer);
  // h as 16 u32 words, for a reset without a native call per counter.
  const words = new Uint32Array(wasm.memory.buffer);
  const H_WORD = (CTX + BLOCK) >> 2;
  const MID_WORD = MID >> 2;
  const compress = wasm.blake2b_compress;
  let counterAt = 0;
  let out = mem.subarray(CTX + BLOCK, CTX + BLOCK + 64);

  return {
    name: 'blake2b-wasm',
    begin(n, k, input) {
      viaNoble = counterCrossesBlocks(input.length);
      if (viaNoble) return noble.begin(n, k, input);
      const digestLen = ((512 / n) | 0) * (n / 8);
      mem.fill(0, 0, CTX + 216);
      mem[0] = digestLen;
      mem[2] = 1; // fanout
      mem[3] = 1; // depth
      mem.set(personalizationFor(n, k), 48);
      wasm.blake2b_init(CTX, digestLen);
      // Compress every full block that cannot be the last one (the counter always follows).
      let off = 0;
      while (input.length - off + 4 > BLOCK) {
        mem.set(input.subarray(off, off + BLOCK), CTX);
        off += BLOCK;
        view.setUint32(CTX + 192, off, true);
        compress(CTX);
      }
      mem.copyWithin(MID, CTX + BLOCK, CTX + BLOCK + 64);
      const tail = input.length - off;
      mem.fill(0, CTX, CTX + BLOCK);
      mem.set(input.subarray(off), CTX);
      counterAt = CTX + tail;
      const total = input.length + 4;
      view.setUint32(CTX + 192, total >>> 0, true);
      view.setUint32(CTX + 196, Math.floor(total / 0x100000000), true);
      view.setInt32(CTX + 208, -1, true); // last-block flag
      view.setInt32(CTX + 212, -1, true);
      out = mem.subarray(CTX + BLOCK, CTX + BLOCK + digestLen);
    },
    digest(counter) {
      if (viaNoble) return noble.digest(counter);
      for (let w = 0; w < 16; w++) words[H_WORD + w] = words[MID_WORD + w]!;
      view.setUint32(counterAt, counter, true);
      compress(CTX);
      return out;
    },
  };
}

function createNobleHasher(): EquihashHasher {
  let base = nobleBlake2b.create({ dkLen: 50 });
  const counterBytes = new Uint8Array(4);
  const counterView = new DataView(counterBytes.buffer);
  return {
    name: '@noble/hashes',
    begin(n, k, input) {
      const dkLen = ((512 / n) | 0) * (n / 8);
      base = nobleBlake2b.create({ dkLen, personalization: personalizationFor(n, k) });
      base.update(input);
    },
    digest(counter) {
      counterView.setUint32(0, counter, true);
      return base.clone().update(counterBytes).digest();
    },
  };
}

/** assembly/equihash.ts: a batch of counters a call, two per compression. */
function createBatchHasher(d: EquihashDigester): EquihashHasher {
  const one = new Uint32Array(1);
  const noble = createNobleHasher();
  const nobleOut = new Uint8Array(d.maxBatch * EQUIHASH_DIGEST_STRIDE);
  let viaNoble = false;
  let digestLength = 0;
  return {
    name: 'WebAssembly SIMD, two indices a compression',
    maxBatch: d.maxBatch,
    begin(n, k, input) {
      digestLength = ((512 / n) | 0) * (n / 8);
      viaNoble = counterCrossesBlocks(input.length);
      if (viaNoble) noble.begin(n, k, input);
      else d.begin(personalizationFor(n, k), digestLength, input);
    },
    digest(counter) {
      if (viaNoble) return noble.digest(counter);
      one[0] = counter;
      return d.digestMany(one, 1).subarray(0, digestLength);
    },
    digestMany(counters, count) {
      if (!viaNoble) return d.digestMany(counters, count);
      checkBatch(counters, count, d.maxBatch);
      for (let j = 0; j < count; j++) nobleOut.set(noble.digest(counters[j]!), j * EQUIHASH_DIGEST_STRIDE);
      return nobleOut;
    },
  };
}

const personalizations = new Map<number, Uint8Array>();

/** "ZcashPoW" ‖ le32(n) ‖ le32(k). */
function personalizationFor(n: number, k: number): Uint8Array {
  const key = n * 65536 + k;
  let p = personalizations.get(key);
  if (!p) {
    p = new Uint8Array(16);
    p.set([0x5a, 0x63, 0x61, 0x73, 0x68, 0x50, 0x6f, 0x57]); // "ZcashPoW"
    const v = new DataView(p.buffer);
    v.setUint32(8, n, true);
    v.setUint32(12, k, true);
    personalizations.set(key, p);
  }
  return p;
}

// A separate instance of blake2b-wasm's module (loaded synchronously: no top-level await, so
// CommonJS consumers can require the package): its memory layout is this file's own.
const wasmModule: Blake2bWasm | null = instantiateBlake2bWasm();
const digester = createEquihashDigester();

/** The backends, for the benchmark and the cross-check test. */
export const equihashHashers: {
  readonly batch: EquihashHasher | null;
  readonly wasm: EquihashHasher | null;
  readonly noble: EquihashHasher;
} = {
  batch: digester ? createBatchHasher(digester) : null,
  wasm: wasmModule ? createWasmHasher(wasmModule) : null,
  noble: createNobleHasher(),
};

const defaultHasher: EquihashHasher = equihashHashers.batch ?? equihashHashers.wasm ?? equihashHashers.noble;

// ---------------------------------------------------------------------------------------------
// Verification.

/** Scratch reused across calls (verification is synchronous, so never shared by two calls). */
let indexScratch = new Uint32Array(512);
/** Counters of the leaves of one batch, for a hasher with digestMany. */
let counterScratch = new Uint32Array(512);
/** The walk's stack: one row of k+1 digit XORs per pending subtree. */
let stackDigits = new Uint32Array(10 * 10);
let stackLevel = new Int32Array(10);
let stackFirst = new Int32Array(10);
/** Seen-index bitmap for the duplicate pre-scan, cleared after each use. */
let seen = new Uint8Array(1 << 18);

/**
 * Verifies `solution` for `input` (the 140-byte header prefix: version … nBits ‖ nonce) under
 * (n, k). Mainnet/testnet use (200, 9), regtest (48, 5).
 *
 * The tree is checked in post-order with an explicit stack, which is the crate's depth-first
 * order: leaf p is hashed after every node left of it has been validated, and a node is
 * validated as soon as its right half is complete (the way an MMR merges equal peaks).
 */
export function verifyEquihash(
  n: number,
  k: number,
  input: Uint8Array,
  solution: Uint8Array,
  hasher: EquihashHasher = defaultHasher,
): EquihashResult {
  if (!isValidEquihashParams(n, k)) {
    return { ok: false, reason: 'invalid-parameters', detail: `n=${n}, k=${k}` };
  }
  const expectedSize = equihashSolutionSize(n, k);
  if (solution.length !== expectedSize) {
    return { ok: false, reason: 'wrong-solution-size', detail: `${solution.length} bytes, expected ${expectedSize}` };
  }

  const leaves = 1 << k;
  const d = k + 1;
  const digitBits = n / d;
  if (indexScratch.length < leaves) indexScratch = new Uint32Array(leaves);
  if (stackDigits.length < (k + 1) * d) {
    stackDigits = new Uint32Array((k + 1) * d);
    stackLevel = new Int32Array(k + 1);
    stackFirst = new Int32Array(k + 1);
  }
  const indices = indexScratch;
  unpackBits(solution, 0, solution.length, digitBits + 1, indices, 0);
  // With all indices distinct no node can fail the distinctness check, so it is skipped.
  const distinct = allDistinct(indices, leaves, digitBits + 1);

  hasher.begin(n, k, input);
  const perHash = (512 / n) | 0;
  const sliceBytes = n / 8;
  // Locals, not the module-level bindings, inside the hot loop.
  const digits = stackDigits;
  const levels = stackLevel;
  const firsts = stackFirst;
  // A batching hasher digests the leaves of a batch before the walk reaches them, in solution
  // order: the walk, and so the first failure reported, is the same either way.
  const batch = hasher.digestMany !== undefined ? Math.min(leaves, hasher.maxBatch ?? 1) : 0;
  if (counterScratch.length < batch) counterScratch = new Uint32Array(batch);
  const batchCounters = counterScratch;
  let batchDigests: Uint8Array | null = null;
  let top = -1;
  for (let p = 0; p < leaves; p++) {
    const index = indices[p]!;
    let digest: Uint8Array;
    let from = (index % perHash) * sliceBytes;
    if (batch > 0) {
      const j = p % batch;
      if (j === 0) {
        const count = Math.min(batch, leaves - p);
        for (let q = 0; q < count; q++) batchCounters[q] = (indices[p + q]! / perHash) | 0;
        batchDigests = hasher.digestMany!(batchCounters, count);
      }
      digest = batchDigests!;
      from += j * EQUIHASH_DIGEST_STRIDE;
    } else {
      digest = hasher.digest((index / perHash) | 0);
    }
    top++;
    if (digitBits === 20) unpack20(digest, from, digits, top * d);
    else unpackBits(digest, from, from + sliceBytes, digitBits, digits, top * d);
    levels[top] = 0;
    firsts[top] = p;

    while (top > 0 && levels[top - 1] === levels[top]) {
      const level = levels[top]! + 1;
      const first = firsts[top - 1]!;
      const second = firsts[top]!;
      const l = (top - 1) * d;
      const r = top * d;
      const digit = level - 1;
      if (digits[l + digit] !== digits[r + digit]) {
        return failure('invalid-collision', first, level, `digit ${digit} differs between the halves`);
      }
      if (indices[second]! < indices[first]!) {
        return failure('out-of-order', first, level, 'the right half starts with a smaller index');
      }
      if (!distinct && sharesIndex(indices, first, second, second - first)) {
        return failure('duplicate-indices', first, level, 'the halves share an index');
      }
      // Digits below `level` are zero in the merged node; only the rest need combining.
      for (let t = level; t < d; t++) digits[l + t] = digits[l + t]! ^ digits[r + t]!;
      levels[top - 1] = level;
      top--;
    }
  }
  // Digits 0..k−1 of the root cancelled level by level; the last one must be zero too.
  if (digits[d - 1] !== 0) {
    return { ok: false, reason: 'nonzero-root', detail: `digit ${d - 1} of the XOR of all ${leaves} hashes is not zero` };
  }
  return OK;
}

function failure(reason: EquihashFailure, first: number, level: number, what: string): EquihashResult {
  return { ok: false, reason, detail: `subtree at solution positions ${first}..${first + (1 << level) - 1}: ${what}` };
}

/** (200, 9) digits: 25 bytes → ten 20-bit values; every 5 bytes hold exactly two. */
function unpack20(bytes: Uint8Array, from: number, out: Uint32Array, at: number): void {
  for (let p = from, end = from + 25; p < end; p += 5) {
    const b2 = bytes[p + 2]!;
    out[at++] = (bytes[p]! << 12) | (bytes[p + 1]! << 4) | (b2 >>> 4);
    out[at++] = ((b2 & 15) << 16) | (bytes[p + 3]! << 8) | bytes[p + 4]!;
  }
}

/** Whether the 2^k indices are pairwise distinct. */
function allDistinct(indices: Uint32Array, count: number, indexBits: number): boolean {
  const bytes = 1 << Math.max(0, indexBits - 3);
  if (seen.length < bytes) seen = new Uint8Array(bytes);
  const bitmap = seen;
  let distinct = true;
  let i = 0;
  for (; i < count; i++) {
    const v = indices[i]!;
    const bit = 1 << (v & 7);
    if (bitmap[v >>> 3]! & bit) {
      distinct = false;
      break;
    }
    bitmap[v >>> 3] = bitmap[v >>> 3]! | bit;
  }
  // Clear only the bytes that were touched, so the next call starts from an empty bitmap.
  for (let j = 0; j < i; j++) bitmap[indices[j]! >>> 3] = 0;
  return distinct;
}

function sharesIndex(indices: Uint32Array, first: number, second: number, half: number): boolean {
  for (let a = first; a < first + half; a++) {
    const v = indices[a]!;
    for (let b = second; b < second + half; b++) if (indices[b] === v) return true;
  }
  return false;
}
