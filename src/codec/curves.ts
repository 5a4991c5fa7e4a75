/**
 * The curve-point and field-element checks zcashd's Rust parsers run while decoding
 * Sapling and Orchard data (sapling-crypto 0.5 / jubjub 0.10 / pasta_curves 0.5 / orchard 0.11).
 *
 * Decoding only has to decide *whether* an encoding is canonical and on the curve, so it
 * needs a quadratic-residue test, not a square root: a fraction num/den is a square iff
 * num·den is (den ≠ 0). One modular exponentiation per point.
 * Small-order detection (Sapling cv) needs the point itself and uses @noble/curves' Jubjub.
 */
import { jubjub } from '@noble/curves/misc.js';

/** BLS12-381 scalar field = Jubjub base field. */
export const JUBJUB_Q = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
/** Jubjub Edwards d. */
const JUBJUB_D = 0x2a9318e74bfa2b48f5fd9207e6bd7fd4292d7f6d37579d2601065fd6d6343eb1n;
/** Pallas base field. */
export const PALLAS_P = 0x40000000000000000000000000000000224698fc094cf91b992d30ed00000001n;

function modPow(base: bigint, exp: bigint, m: bigint): bigint {
  let result = 1n;
  let b = base % m;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
    e >>= 1n;
  }
  return result;
}

/** True iff `x` (already reduced) is 0 or a quadratic residue mod the odd prime `p`. */
function isSquareOrZero(x: bigint, p: bigint): boolean {
  if (x === 0n) return true;
  return modPow(x, (p - 1n) >> 1n, p) === 1n;
}

/** Little-endian 32 bytes as a bigint, optionally clearing bit 255. */
function leToBigint(b: Uint8Array, clearTopBit = false): bigint {
  let hex = '';
  for (let i = 31; i >= 0; i--) {
    let byte = b[i]!;
    if (i === 31 && clearTopBit) byte &= 0x7f;
    hex += byte < 16 ? '0' + byte.toString(16) : byte.toString(16);
  }
  return BigInt('0x' + hex);
}

/** Fast `LE integer < modulus` check without BigInt for the common case. */
function leLessThan(b: Uint8Array, modulusLe: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) {
    if (b[i]! < modulusLe[i]!) return true;
    if (b[i]! > modulusLe[i]!) return false;
  }
  return false;
}

function bigintToLe(v: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

const JUBJUB_Q_LE = bigintToLe(JUBJUB_Q);
const PALLAS_P_LE = bigintToLe(PALLAS_P);

/** Sapling anchors and cmu: canonical element of the Jubjub base field (no bit masked). */
export function isJubjubBaseField(b: Uint8Array): boolean {
  return leLessThan(b, JUBJUB_Q_LE);
}

/** Orchard nullifier, cmx and anchor: canonical element of the Pallas base field. */
export function isPallasBaseField(b: Uint8Array): boolean {
  return leLessThan(b, PALLAS_P_LE);
}

/**
 * `jubjub::AffinePoint::from_bytes` (ZIP-216 strict): v < q, u² = (v²−1)/(d·v²+1) must be
 * a square, and the encodings of (0, ±1) with the sign bit set are rejected.
 */
export function isCanonicalJubjubPoint(b: Uint8Array): boolean {
  const sign = b[31]! >> 7;
  const top = b[31]! & 0x7f;
  // v must be < q (with bit 255 cleared). Compare with the top byte masked.
  const masked = b[31] === top ? b : Uint8Array.from(b, (x, i) => (i === 31 ? top : x));
  if (!leLessThan(masked, JUBJUB_Q_LE)) return false;
  const v = leToBigint(b, true);
  const q = JUBJUB_Q;
  const v2 = (v * v) % q;
  const num = (v2 - 1n + q) % q;
  const den = (JUBJUB_D * v2 + 1n) % q;
  if (num === 0n) return sign === 0; // u = 0: only the non-negative encoding is canonical
  return isSquareOrZero((num * den) % q, q);
}

/** A canonical Jubjub point whose order divides 8 (8·P = identity). */
export function isJubjubSmallOrder(b: Uint8Array): boolean {
  // Only called on encodings that passed isCanonicalJubjubPoint.
  const p = jubjub.Point.fromBytes(b);
  return p.isSmallOrder();
}

/**
 * `pasta_curves::pallas::Affine::from_bytes`: x < p; x = 0 with sign 0 is the identity;
 * otherwise x³ + 5 must be a non-zero square.
 */
export function isValidPallasPoint(b: Uint8Array): boolean {
  const sign = b[31]! >> 7;
  const top = b[31]! & 0x7f;
  const masked = b[31] === top ? b : Uint8Array.from(b, (x, i) => (i === 31 ? top : x));
  if (!leLessThan(masked, PALLAS_P_LE)) return false;
  const x = leToBigint(b, true);
  if (x === 0n) return sign === 0;
  const p = PALLAS_P;
  const rhs = (((x * x) % p) * x + 5n) % p;
  if (rhs === 0n) return sign === 0;
  return isSquareOrZero(rhs, p);
}
