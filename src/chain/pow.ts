/**
 * Proof-of-work arithmetic zcashd's RPC shows: compact targets (nBits), per-block work for
 * `chainwork`, and `difficulty` (spec block-and-chain-state.md §2.6–2.7). No Equihash or
 * target checking happens here — the store only needs the numbers, not validation.
 */
import type { NetworkParams } from './network.js';

const TWO_256 = 1n << 256n;

export interface CompactTarget {
  target: bigint;
  /** Sign bit set with a non-zero mantissa (arith_uint256::SetCompact pfNegative). */
  negative: boolean;
  /** The target does not fit in 256 bits (SetCompact pfOverflow). */
  overflow: boolean;
}

/** arith_uint256::SetCompact: the 256-bit target encoded by `bits`, with its error flags. */
export function compactToTarget(bits: number): CompactTarget {
  const b = bits >>> 0;
  const exponent = b >>> 24;
  const mantissa = b & 0x007fffff;
  const target = exponent <= 3 ? BigInt(mantissa >>> (8 * (3 - exponent))) : BigInt(mantissa) << BigInt(8 * (exponent - 3));
  const negative = mantissa !== 0 && (b & 0x00800000) !== 0;
  const overflow = mantissa !== 0 && (exponent > 34 || (mantissa > 0xff && exponent > 33) || (mantissa > 0xffff && exponent > 32));
  // SetCompact keeps only 256 bits; an overflowing target is reported, never used.
  return { target: target % TWO_256, negative, overflow };
}

/**
 * GetBlockProof: floor(2^256 / (target + 1)), or 0 when the target is negative, overflows
 * or is zero (such a header can never be valid, so it adds no work).
 */
export function blockWork(bits: number): bigint {
  const { target, negative, overflow } = compactToTarget(bits);
  if (negative || overflow || target === 0n) return 0n;
  return TWO_256 / (target + 1n);
}

/** Chain work as zcashd prints it (`chainwork`): 64 lowercase big-endian hex digits. */
export function chainWorkHex(work: bigint): string {
  return work.toString(16).padStart(64, '0');
}

/**
 * GetDifficulty of a block's own nBits, relative to the network's compact powLimit. The
 * operations are IEEE doubles in zcashd's exact order (one division, then repeated ×/÷ 256)
 * so the printed `%.16g` digits match. The 0x00ffffff mask deliberately includes the sign bit,
 * as zcashd does. Zero mantissa gives Infinity, like the C++ division.
 */
export function difficultyFromBits(bits: number, network: NetworkParams): number {
  const powLimit = network.powLimitBits >>> 0;
  const b = bits >>> 0;
  let shift = b >>> 24;
  const limitShift = powLimit >>> 24;
  let diff = (powLimit & 0x00ffffff) / (b & 0x00ffffff);
  while (shift < limitShift) {
    diff *= 256;
    shift++;
  }
  while (shift > limitShift) {
    diff /= 256;
    shift--;
  }
  return diff;
}
