import { JUBJUB_R, pedersenBase, type JubjubPoint } from './generators.js';
import { jubjub } from '@noble/curves/misc.js';

/** Chunks of 3 bits per segment (protocol spec §5.4.1.7: c = 63 for Jubjub). */
export const PEDERSEN_CHUNKS_PER_SEGMENT = 63;

/**
 * PedersenHashToPoint("Zcash_PH", M) over a bit string given as one bit per array element
 * (0 or 1), in message order. Plain BigInt arithmetic: the reference the fast paths are tested
 * against.
 */
export function pedersenHashToPoint(bits: ArrayLike<number>): JubjubPoint {
  const chunkCount = Math.ceil(bits.length / 3);
  const bit = (i: number): number => (i < bits.length ? bits[i]! : 0);
  let acc = jubjub.Point.ZERO as JubjubPoint;
  for (let segStart = 0, seg = 1; segStart < chunkCount; segStart += PEDERSEN_CHUNKS_PER_SEGMENT, seg++) {
    const segEnd = Math.min(chunkCount, segStart + PEDERSEN_CHUNKS_PER_SEGMENT);
    let value = 0n;
    for (let c = segStart; c < segEnd; c++) {
      const s0 = bit(3 * c),
        s1 = bit(3 * c + 1),
        s2 = bit(3 * c + 2);
      const enc = BigInt((1 - 2 * s2) * (1 + s0 + 2 * s1));
      value += enc << BigInt(4 * (c - segStart));
    }
    const scalar = ((value % JUBJUB_R) + JUBJUB_R) % JUBJUB_R;
    // multiplyUnsafe: multiply() rejects 0, which a segment value can reduce to.
    acc = acc.add(pedersenBase(seg).multiplyUnsafe(scalar)) as JubjubPoint;
  }
  return acc;
}
