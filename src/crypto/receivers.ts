/**
 * The checks zcashd's Rust parser runs on a unified address's shielded receivers before it
 * accepts the address (zcashd v6.12.2 src/rust/src/address_ffi.rs `into_cpp`):
 *
 * - Sapling, sapling-crypto 0.5 `PaymentAddress::from_bytes`: pk_d decodes as a point of
 *   Jubjub's prime-order subgroup (ZIP 216 canonical, torsion-free) other than the identity,
 *   and the diversifier has a base g_d = DiversifyHash(d) (GroupHash over "Zcash_gd" is not a
 *   small-order point).
 * - Orchard, orchard 0.11 `Address::from_raw_address_bytes`: pk_d decodes as a Pallas point
 *   other than the identity; every diversifier is valid.
 */
import { jubjub, jubjub_groupHash } from '@noble/curves/misc.js';
import { isCanonicalJubjubPoint, isValidPallasPoint } from './curves.js';

const DIVERSIFY_PERSONALIZATION = new TextEncoder().encode('Zcash_gd');

/** A raw (43-byte) Sapling receiver that sapling-crypto accepts. */
export function isValidSaplingReceiver(raw: Uint8Array): boolean {
  if (raw.length !== 43) return false;
  const pkd = raw.subarray(11, 43);
  if (!isCanonicalJubjubPoint(pkd)) return false;
  try {
    const point = jubjub.Point.fromBytes(pkd);
    if (point.is0() || !point.isTorsionFree()) return false;
    jubjub_groupHash(raw.subarray(0, 11), DIVERSIFY_PERSONALIZATION);
  } catch {
    // fromBytes refused the encoding, or the diversifier's group hash has no valid point.
    return false;
  }
  return true;
}

/** A raw (43-byte) Orchard receiver that the orchard crate accepts. */
export function isValidOrchardReceiver(raw: Uint8Array): boolean {
  if (raw.length !== 43) return false;
  const pkd = raw.subarray(11, 43);
  // The identity's only canonical encoding is all zeros.
  return isValidPallasPoint(pkd) && pkd.some((b) => b !== 0);
}
