/**
 * GroupHash^P (Zcash protocol spec §5.4.9.8): RFC 9380 hash-to-curve for Pallas, "_RO_" variant,
 * with expand_message_xmd over BLAKE2b-512 and the simplified SWU map onto iso-Pallas followed
 * by the degree-3 isogeny to Pallas. The isogeny constants are the protocol's (zcash-test-vectors
 * orchard/iso_pallas.py lists them as c1..c13).
 */
import { hash_to_field, isogenyMap, mapToCurveSimpleSWU } from '@noble/curves/abstract/hash-to-curve.js';
import { blake2b } from '@noble/hashes/blake2.js';
import { Fp, PALLAS_P, PallasPoint } from '../pallas.js';

/** iso-Pallas: y² = x³ + A'·x + B'. */
export const ISO_PALLAS_A = 0x18354a2eb0ea8c9c49be2d7258370742b74134581a27a59f92bb4b0b657a014bn;
export const ISO_PALLAS_B = 1265n;
const SWU_Z = PALLAS_P - 13n;

const C = [
  0x0e38e38e38e38e38e38e38e38e38e38e4081775473d8375b775f6034aaaaaaabn, // c1
  0x3509afd51872d88e267c7ffa51cf412a0f93b82ee4b994958cf863b02814fb76n, // c2
  0x17329b9ec525375398c7d7ac3d98fd13380af066cfeb6d690eb64faef37ea4f7n, // c3
  0x1c71c71c71c71c71c71c71c71c71c71c8102eea8e7b06eb6eebec06955555580n, // c4
  0x1d572e7ddc099cff5a607fcce0494a799c434ac1c96b6980c47f2ab668bcd71fn, // c5
  0x325669becaecd5d11d13bf2a7f22b105b4abf9fb9a1fc81c2aa3af1eae5b6604n, // c6
  0x1a12f684bda12f684bda12f684bda12f7642b01ad461bad25ad985b5e38e38e4n, // c7
  0x1a84d7ea8c396c47133e3ffd28e7a09507c9dc17725cca4ac67c31d8140a7dbbn, // c8
  0x3fb98ff0d2ddcadd303216cce1db9ff11765e924f745937802e2be87d225b234n, // c9
  0x025ed097b425ed097b425ed097b425ed0ac03e8e134eb3e493e53ab371c71c4fn, // c10
  0x0c02c5bcca0e6b7f0790bfb3506defb65941a3a4a97aa1b35a28279b1d1b42aen, // c11
  0x17033d3c60c68173573b3d7f7d681310d976bbfabbc5661d4d90ab820b12320an, // c12
  0x40000000000000000000000000000000224698fc094cf91b992d30ecfffffde5n, // c13
] as const;
const c = (i: number): bigint => C[i - 1]!;

/**
 * x = (c1x³ + c2x² + c3x + c4) / (x² + c5x + c6), y = y·(c7x³ + c8x² + c9x + c10) / (x³ + c11x² + c12x + c13);
 * @noble/curves takes each polynomial in ascending degree.
 */
const isoToPallas = isogenyMap(Fp, [
  [c(4), c(3), c(2), c(1)],
  [c(6), c(5), 1n],
  [c(10), c(9), c(8), c(7)],
  [c(13), c(12), c(11), 1n],
]);

/** Simplified SWU: a field element → an affine point on iso-Pallas (sgn0 = parity). */
export const mapToIsoPallas: (u: bigint) => { x: bigint; y: bigint } = mapToCurveSimpleSWU(Fp, {
  A: ISO_PALLAS_A,
  B: ISO_PALLAS_B,
  Z: SWU_Z,
});

const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);

function isoMapToPallas(u: bigint): PallasPoint {
  const iso = mapToIsoPallas(u);
  const { x, y } = isoToPallas(iso.x, iso.y);
  // The isogeny sends only the points of its kernel to (0, 0), which is not on Pallas.
  if (x === 0n && y === 0n) return PallasPoint.ZERO;
  return PallasPoint.fromAffine({ x, y });
}

/** GroupHash^P(D, M) with D an ASCII domain such as "z.cash:SinsemillaQ". */
export function groupHashP(domain: string, message: Uint8Array): PallasPoint {
  const [[u0], [u1]] = hash_to_field(message, 2, {
    DST: ascii(`${domain}-pallas_XMD:BLAKE2b_SSWU_RO_`),
    p: PALLAS_P,
    m: 1,
    k: 256,
    expand: 'xmd',
    hash: blake2b,
  }) as [[bigint], [bigint]];
  return isoMapToPallas(u0).add(isoMapToPallas(u1));
}
