import { jubjub, jubjub_findGroupHash } from '@noble/curves/misc.js';

/** A Jubjub point as noble's twisted-Edwards class (x = u, y = v in Zcash's naming). */
export type JubjubPoint = InstanceType<typeof jubjub.Point>;

/** The Jubjub base field modulus q (= the BLS12-381 scalar field). */
export const JUBJUB_Q = jubjub.Point.Fp.ORDER;
/** The order r_J of the prime-order subgroup the Pedersen bases live in. */
export const JUBJUB_R = jubjub.Point.Fn.ORDER;
/** Edwards coefficient d = −10240/10241 mod q. */
export const JUBJUB_D = jubjub.Point.CURVE().d;

const PEDERSEN_PERSONALIZATION = new TextEncoder().encode('Zcash_PH');

const bases: JubjubPoint[] = [];

/**
 * The Pedersen hash base I_i = FindGroupHash^J("Zcash_PH", I2LEOSP_32(i − 1)), i ≥ 1. Cached
 * because each one costs a few BLAKE2s calls and a cofactor multiplication.
 */
export function pedersenBase(i: number): JubjubPoint {
  if (!Number.isInteger(i) || i < 1) throw new RangeError(`Pedersen base index must be ≥ 1, got ${i}`);
  let point = bases[i - 1];
  if (point === undefined) {
    const tag = new Uint8Array(4);
    new DataView(tag.buffer).setUint32(0, i - 1, true);
    point = jubjub_findGroupHash(tag, PEDERSEN_PERSONALIZATION) as JubjubPoint;
    bases[i - 1] = point;
  }
  return point;
}
