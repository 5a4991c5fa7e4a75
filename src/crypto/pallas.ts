/**
 * The Pallas curve y² = x³ + 5 over F_p (Zcash protocol spec §5.4.9.6), built on @noble/curves'
 * generic short-Weierstrass code because @noble/curves 2.x does not export the Pasta curves.
 */
import { Field } from '@noble/curves/abstract/modular.js';
import { weierstrass } from '@noble/curves/abstract/weierstrass.js';

/** Base field modulus p. */
export const PALLAS_P = 0x40000000000000000000000000000000224698fc094cf91b992d30ed00000001n;
/** Group order q (the cofactor is 1). */
export const PALLAS_Q = 0x40000000000000000000000000000000224698fc0994a8dd8c46eb2100000001n;
export const PALLAS_B = 5n;

export const Fp = Field(PALLAS_P);

/** Pallas points; (−1, 2) is the conventional generator (−1 + 5 = 4 = 2²). */
export const PallasPoint = weierstrass({
  p: PALLAS_P,
  n: PALLAS_Q,
  h: 1n,
  a: 0n,
  b: PALLAS_B,
  Gx: PALLAS_P - 1n,
  Gy: 2n,
});
export type PallasPoint = InstanceType<typeof PallasPoint>;

/** 32 bytes little-endian → integer (all 256 bits). */
export function leBytesToBigint(bytes: Uint8Array): bigint {
  let v = 0n;
  for (let i = 31; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i]!);
  return v;
}

/** Integer < 2^256 → 32 bytes little-endian. */
export function bigintToLeBytes(v: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/**
 * Zcash point encoding (§5.4.9.7): x as 255-bit little-endian with bit 255 = the low bit of y;
 * the identity is 32 zero bytes.
 */
export function encodeAffine(x: bigint, y: bigint): Uint8Array {
  const out = bigintToLeBytes(x);
  if ((y & 1n) === 1n) out[31]! |= 0x80;
  return out;
}

export function encodePallasPoint(point: PallasPoint): Uint8Array {
  if (point.is0()) return new Uint8Array(32);
  const { x, y } = point.toAffine();
  return encodeAffine(x, y);
}

/** Extract_P (§5.4.9.7): the x-coordinate, and 0 for the identity. */
export function extractP(point: PallasPoint): bigint {
  return point.is0() ? 0n : point.toAffine().x;
}
