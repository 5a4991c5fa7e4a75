// Curve constants and hand-built encodings for the point/field checks, computed here from the
// curve equations in transaction-format.md §1.8a (no code shared with src/codec/curves.ts).
import { jubjub } from '@noble/curves/misc.js';

export const Q_JUBJUB = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
export const D_JUBJUB = 0x2a9318e74bfa2b48f5fd9207e6bd7fd4292d7f6d37579d2601065fd6d6343eb1n;
export const P_PALLAS = 0x40000000000000000000000000000000224698fc094cf91b992d30ed00000001n;

export function le32(v: bigint, signBit = false): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((v >> BigInt(8 * i)) & 0xffn);
  if (signBit) out[31]! |= 0x80;
  return out;
}

function pow(b: bigint, e: bigint, m: bigint): bigint {
  let r = 1n;
  b %= m;
  for (; e > 0n; e >>= 1n, b = (b * b) % m) if (e & 1n) r = (r * b) % m;
  return r;
}

/** Euler's criterion (x ≠ 0). */
function isResidue(x: bigint, p: bigint): boolean {
  return pow(x, (p - 1n) / 2n, p) === 1n;
}

/** u² for a Jubjub v: (v² − 1)/(d·v² + 1). */
function jubjubU2(v: bigint): bigint {
  const q = Q_JUBJUB;
  const v2 = (v * v) % q;
  return (((v2 - 1n + q) % q) * pow((D_JUBJUB * v2 + 1n) % q, q - 2n, q)) % q;
}

/** The smallest v ≥ `from` whose u² is a non-zero non-residue: not on the curve for either sign. */
export function offCurveJubjubV(from = 2n): bigint {
  for (let v = from; ; v++) {
    const u2 = jubjubU2(v);
    if (u2 !== 0n && !isResidue(u2, Q_JUBJUB)) return v;
  }
}

/** The smallest v ≥ `from` that is on the curve (u² a non-zero residue). */
export function onCurveJubjubV(from = 2n): bigint {
  for (let v = from; ; v++) {
    const u2 = jubjubU2(v);
    if (u2 !== 0n && isResidue(u2, Q_JUBJUB)) return v;
  }
}

/** The smallest x ≥ `from` for which x³ + 5 is a non-residue: no Pallas point has that x. */
export function offCurvePallasX(from = 1n): bigint {
  for (let x = from; ; x++) {
    const rhs = (x * x * x + 5n) % P_PALLAS;
    if (rhs !== 0n && !isResidue(rhs, P_PALLAS)) return x;
  }
}

export function onCurvePallasX(from = 1n): bigint {
  for (let x = from; ; x++) {
    const rhs = (x * x * x + 5n) % P_PALLAS;
    if (rhs !== 0n && isResidue(rhs, P_PALLAS)) return x;
  }
}

/**
 * The 8 canonical encodings of Jubjub's torsion points (order dividing 8): r·P for a point P
 * outside the prime-order subgroup generates the cyclic 8-torsion group.
 */
export function jubjubSmallOrderEncodings(): Uint8Array[] {
  const r = jubjub.Point.Fn.ORDER;
  let torsion: InstanceType<typeof jubjub.Point> | undefined;
  for (let v = 2n; !torsion; v++) {
    const u2 = jubjubU2(v);
    if (u2 === 0n || !isResidue(u2, Q_JUBJUB)) continue;
    const p = jubjub.Point.fromBytes(le32(v));
    const t = p.multiplyUnsafe(r - 1n).add(p);
    // keep it only if its order is exactly 8
    if (!t.double().double().equals(jubjub.Point.ZERO)) torsion = t;
  }
  const out: Uint8Array[] = [];
  let acc = jubjub.Point.ZERO;
  for (let k = 0; k < 8; k++) {
    out.push(acc.toBytes());
    acc = acc.add(torsion);
  }
  return out;
}
