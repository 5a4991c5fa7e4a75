/**
 * Base58Check encoding (Bitcoin's alphabet), as zcashd's EncodeBase58Check writes t-addresses.
 *
 * Written by hand because it is on getblock verbosity 2's hot path: every transparent output
 * prints its address, and an explorer asks for each block once, so a cache rarely holds it.
 * bs58check is slow there (two pure-JS SHA-256 runs and a byte-at-a-time base conversion);
 * here the checksum comes from the caller (the address table computes them in WebAssembly, a
 * transaction's new ones together, crypto/address-checksums.ts), and the conversion is a handful of multiply-adds (bench/addresses.ts). Decoding, which only
 * parses request parameters, stays with bs58check.
 */

const ALPHABET_CODES = Uint8Array.from('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', (c) => c.charCodeAt(0));

/**
 * The conversion, exact in float arithmetic: the input is read as base-2^24 limbs L_k, each
 * limb's weight 2^(24·e) is known in base 58^4 (a table per input length), and
 * Σ L_k · weight_k is accumulated per base-58^4 position, then carried once. Every product is
 * below 2^24 · 58^4 < 2^47.5, so up to 32 limbs (96 bytes) sum below 2^53. Dividing the whole
 * number by 58^4 pass after pass took about 1.5 times as long for an address: each pass is a
 * chain of dependent divisions.
 */
const LIMB_BYTES = 3;
const CHUNK = 58 * 58 * 58 * 58;
const DIGITS_PER_CHUNK = 4;
/** The longest input: 32 limbs. An address is 26 bytes (prefix, hash, checksum). */
export const BASE58_MAX_INPUT = 96;

interface Weights {
  /** Limbs of the input. */
  limbs: number;
  /** Base-58^4 positions of the result. */
  positions: number;
  /** weight[k · positions + j]: position j of the weight of limb k (big-endian limb order). */
  weight: Float64Array;
  /** How many positions of limb k's weight are not zero. */
  span: Uint8Array;
}

const weightsByLength: (Weights | undefined)[] = [];

function weightsFor(n: number): Weights {
  let w = weightsByLength[n];
  if (w !== undefined) return w;
  const limbs = Math.ceil(n / LIMB_BYTES);
  // One spare position for the carry out of the top.
  const positions = Math.ceil(base58MaxLength(n) / DIGITS_PER_CHUNK) + 1;
  const weight = new Float64Array(limbs * positions);
  const span = new Uint8Array(limbs);
  for (let k = 0; k < limbs; k++) {
    let v = 1n << BigInt(24 * (limbs - 1 - k));
    let j = 0;
    for (; v > 0n; j++, v /= BigInt(CHUNK)) weight[k * positions + j] = Number(v % BigInt(CHUNK));
    span[k] = j;
  }
  weightsByLength[n] = w = { limbs, positions, weight, span };
  return w;
}

/** Scratch space; encoding is synchronous, so one set serves every call. */
const bytes = new Uint8Array(BASE58_MAX_INPUT);
const sums = new Float64Array(Math.ceil(base58MaxLength(BASE58_MAX_INPUT) / DIGITS_PER_CHUNK) + 1);
/** The result's characters, least significant first. */
const chars = new Uint8Array(sums.length * DIGITS_PER_CHUNK);

const PAIR = 58 * 58;
const ZERO_CODE = ALPHABET_CODES[0]!;
/** The characters of v < 58², least significant digit first: the low byte is v % 58's, the high byte ⌊v / 58⌋'s. */
const PAIR_CODES = Uint16Array.from({ length: PAIR }, (_, v) => ALPHABET_CODES[v % 58]! | (ALPHABET_CODES[Math.floor(v / 58)]! << 8));

/** The most characters the Base58 of `n` bytes can have (log58(256) < 1.3658). */
function base58MaxLength(n: number): number {
  return Math.ceil(n * 1.3658);
}

/**
 * The Base58 of `source[start, start + length)` followed by `tail[tailStart, tailStart +
 * tailLength)` (a checksum), as ASCII bytes into `out` from `at`; returns their count.
 */
export function base58EncodeInto(
  source: Uint8Array,
  start: number,
  length: number,
  tail: Uint8Array,
  tailStart: number,
  tailLength: number,
  out: Uint8Array,
  at: number,
): number {
  const n = length + tailLength;
  if (n > BASE58_MAX_INPUT) throw new RangeError(`base58: at most ${BASE58_MAX_INPUT} bytes, got ${n}`);
  for (let i = 0; i < length; i++) bytes[i] = source[start + i]!;
  for (let i = 0; i < tailLength; i++) bytes[length + i] = tail[tailStart + i]!;

  let zeros = 0;
  while (zeros < n && bytes[zeros] === 0) zeros++;

  for (let i = 0; i < zeros; i++) out[at + i] = ZERO_CODE;
  if (n === ADDRESS_BYTES) return zeros + addressCharsInto(out, at + zeros);
  const { limbs, positions, weight, span } = weightsFor(n);
  for (let j = 0; j < positions; j++) sums[j] = 0;
  // Big-endian limbs; the first holds the 1–3 bytes left over.
  let from = 0;
  for (let k = 0; k < limbs; k++) {
    const take = k === 0 ? n - LIMB_BYTES * (limbs - 1) : LIMB_BYTES;
    let limb = 0;
    for (let j = 0; j < take; j++) limb = limb * 256 + bytes[from++]!;
    if (limb === 0) continue;
    const row = k * positions;
    for (let j = 0, end = span[k]!; j < end; j++) sums[j] = sums[j]! + limb * weight[row + j]!;
  }
  return zeros + charsFromSums(out, at + zeros, positions);
}

/** The digits of Σ sums[j] · 58^(4j), j < positions, most significant first and without leading zeros, into `out` from `at`; returns their count. */
function charsFromSums(out: Uint8Array, at: number, positions: number): number {
  // Each position's four digits as two pairs of characters, least significant first.
  let count = 0;
  let carry = 0;
  for (let j = 0; j < positions; j++) {
    const x = sums[j]! + carry;
    carry = Math.floor(x / CHUNK);
    const r = x - carry * CHUNK;
    const high = Math.floor(r / PAIR);
    const low = PAIR_CODES[r - high * PAIR]!;
    const top = PAIR_CODES[high]!;
    chars[count] = low & 0xff;
    chars[count + 1] = low >>> 8;
    chars[count + 2] = top & 0xff;
    chars[count + 3] = top >>> 8;
    count += DIGITS_PER_CHUNK;
  }
  // Positions above the number's magnitude give zero digits.
  while (count > 0 && chars[count - 1] === ZERO_CODE) count--;
  for (let d = 0; d < count; d++) out[at + d] = chars[count - 1 - d]!;
  return count;
}

/** A t-address with its checksum: 2-byte prefix, 20-byte hash, 4 bytes. */
const ADDRESS_BYTES = 26;
const ADDRESS_WEIGHTS = weightsFor(ADDRESS_BYTES);
if (ADDRESS_WEIGHTS.limbs !== 9 || ADDRESS_WEIGHTS.positions !== 10)
  throw new Error('base58: the unrolled address conversion expects 9 limbs and 10 positions');

/**
 * base58EncodeInto's conversion of the 26 bytes of an address in `bytes`, unrolled: its ten
 * positions' sums held in locals, not stored and loaded back for each limb (an output-heavy
 * transaction's addresses are most of its rendering). Same limbs and weights, so the same sums.
 */
function addressCharsInto(out: Uint8Array, at: number): number {
  const w = ADDRESS_WEIGHTS.weight;
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0,
    s4 = 0,
    s5 = 0,
    s6 = 0,
    s7 = 0,
    s8 = 0,
    s9 = 0;
  // Big-endian limbs: the first holds the two bytes left over.
  for (let k = 0; k < 9; k++) {
    const b = 3 * k - 1;
    const limb = k === 0 ? (bytes[0]! << 8) | bytes[1]! : (bytes[b]! << 16) | (bytes[b + 1]! << 8) | bytes[b + 2]!;
    const row = 10 * k;
    s0 += limb * w[row]!;
    s1 += limb * w[row + 1]!;
    s2 += limb * w[row + 2]!;
    s3 += limb * w[row + 3]!;
    s4 += limb * w[row + 4]!;
    s5 += limb * w[row + 5]!;
    s6 += limb * w[row + 6]!;
    s7 += limb * w[row + 7]!;
    s8 += limb * w[row + 8]!;
    s9 += limb * w[row + 9]!;
  }
  sums[0] = s0;
  sums[1] = s1;
  sums[2] = s2;
  sums[3] = s3;
  sums[4] = s4;
  sums[5] = s5;
  sums[6] = s6;
  sums[7] = s7;
  sums[8] = s8;
  sums[9] = s9;
  return charsFromSums(out, at, 10);
}
