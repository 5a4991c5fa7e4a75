/**
 * The Sprout note-commitment tree hash (zcashd `SHA256Compress`): the parent of two nodes is
 * the SHA-256 compression function applied once to the 64-byte block left ‖ right, starting
 * from the standard IV, with no padding and no length block; the eight state words are written
 * big-endian. The height is ignored. The uncommitted leaf is 32 zero bytes.
 */
import { SHA256_IV } from '@noble/hashes/_md.js';
import { _SHA256 } from '@noble/hashes/sha2.js';
import { computeEmptyRoots } from '../../crypto/merkle-hasher.js';
import type { MerkleHasher } from './hasher.js';

/** zcashd `INCREMENTAL_MERKLE_TREE_DEPTH`. */
export const SPROUT_TREE_DEPTH = 29;
/** zcashd `INCREMENTAL_MERKLE_TREE_DEPTH_TESTING`: the depth of the merkle_*.json test vectors. */
export const TESTING_TREE_DEPTH = 4;

/**
 * `sha256()` always pads, so it cannot give the bare compression function. @noble/hashes'
 * SHA-256 class keeps its compression step (`process`) and its state words as protected
 * members; a subclass may call them, which reuses noble's tuned round loop instead of a
 * second copy of it. The state is reset to the IV before every block.
 */
class Sha256Compressor extends _SHA256 {
  /** Compresses the 64 bytes at `offset` of `block` and writes 32 bytes at `outOffset` of `out`. */
  compressInto(block: DataView, offset: number, out: Uint8Array, outOffset: number): void {
    const iv = SHA256_IV;
    this.set(iv[0]!, iv[1]!, iv[2]!, iv[3]!, iv[4]!, iv[5]!, iv[6]!, iv[7]!);
    this.process(block, offset);
    writeWordBE(out, outOffset, this.A);
    writeWordBE(out, outOffset + 4, this.B);
    writeWordBE(out, outOffset + 8, this.C);
    writeWordBE(out, outOffset + 12, this.D);
    writeWordBE(out, outOffset + 16, this.E);
    writeWordBE(out, outOffset + 20, this.F);
    writeWordBE(out, outOffset + 24, this.G);
    writeWordBE(out, outOffset + 28, this.H);
  }
}

function writeWordBE(out: Uint8Array, at: number, word: number): void {
  out[at] = word >>> 24;
  out[at + 1] = word >>> 16;
  out[at + 2] = word >>> 8;
  out[at + 3] = word;
}

const compressor = new Sha256Compressor();
/** One reusable input block for single combines: allocating a block and a view per hash tripled its cost. */
const scratch = new Uint8Array(64);
const scratchView = new DataView(scratch.buffer);

/** SHA256Compress(left ‖ right): one compression of one 64-byte block, no padding. */
export function sha256Compress(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (left.length !== 32 || right.length !== 32) throw new RangeError('sha256Compress: inputs must be 32 bytes each');
  scratch.set(left, 0);
  scratch.set(right, 32);
  const out = new Uint8Array(32);
  compressor.compressInto(scratchView, 0, out, 0);
  return out;
}

function sha256CompressMany(pairs: Uint8Array, count: number): Uint8Array {
  if (!Number.isInteger(count) || count < 0 || pairs.length < count * 64) {
    throw new RangeError(`combineMany: ${count} pairs need ${count * 64} bytes, got ${pairs.length}`);
  }
  const out = new Uint8Array(count * 32);
  const inView = new DataView(pairs.buffer, pairs.byteOffset, pairs.byteLength);
  for (let i = 0; i < count; i++) compressor.compressInto(inView, i * 64, out, i * 32);
  return out;
}

/** A Sprout hasher of the given depth (29 on the real chains, 4 for zcashd's test vectors). */
export function createSproutHasher(depth: number): MerkleHasher {
  if (!Number.isInteger(depth) || depth < 1 || depth > 52) throw new RangeError(`Sprout tree depth must be 1..52, got ${depth}`);
  const combine = (_height: number, left: Uint8Array, right: Uint8Array): Uint8Array => sha256Compress(left, right);
  return {
    depth,
    emptyRoots: computeEmptyRoots(depth, new Uint8Array(32), combine),
    combine,
    combineMany: (_height, pairs, count) => sha256CompressMany(pairs, count),
  };
}

export const SPROUT_HASHER: MerkleHasher = createSproutHasher(SPROUT_TREE_DEPTH);
export const SPROUT_TESTING_HASHER: MerkleHasher = createSproutHasher(TESTING_TREE_DEPTH);
