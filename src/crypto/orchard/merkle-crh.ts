/**
 * MerkleCRH^Orchard (Zcash protocol spec §5.4.1.3), the reference implementation:
 * MerkleCRH(layer, left, right) = SinsemillaHash("z.cash:Orchard-MerkleCRH",
 *   I2LEBSP_10(MerkleDepth − 1 − layer) ‖ I2LEBSP_255(left) ‖ I2LEBSP_255(right)),
 * with ⊥ mapped to 0 (as the orchard crate does). Values are raw 32-byte little-endian.
 */
import { bigintToLeBytes, extractP, type PallasPoint } from '../pallas.js';
import { sinsemillaChunks, sinsemillaHashChunksToPoint, sinsemillaQ } from './sinsemilla.js';

export const ORCHARD_MERKLE_DEPTH = 32;
export const MERKLE_CRH_DOMAIN = 'z.cash:Orchard-MerkleCRH';
/** Uncommitted^Orchard = the field element 2. */
export const ORCHARD_UNCOMMITTED: Uint8Array = bigintToLeBytes(2n);

let merkleQ: PallasPoint | undefined;

/** Q("z.cash:Orchard-MerkleCRH"), cached. */
export function merkleCrhQ(): PallasPoint {
  merkleQ ??= sinsemillaQ(MERKLE_CRH_DOMAIN);
  return merkleQ;
}

/** MerkleCRH^Orchard(layer, left, right): two leaves combine at layer 31 (depth − 1). */
export function orchardMerkleHash(layer: number, left: Uint8Array, right: Uint8Array): Uint8Array {
  if (!Number.isInteger(layer) || layer < 0 || layer >= ORCHARD_MERKLE_DEPTH) {
    throw new RangeError(`Orchard MerkleCRH layer ${layer} is outside 0..${ORCHARD_MERKLE_DEPTH - 1}`);
  }
  return merkleCrhAtHeight(ORCHARD_MERKLE_DEPTH - 1 - layer, left, right);
}

/** I2LEBSP_n of a little-endian byte string's low n bits. */
function lowBits(value: Uint8Array, n: number): number[] {
  const bits: number[] = [];
  for (let i = 0; i < n; i++) bits.push((value[i >>> 3]! >>> (i & 7)) & 1);
  return bits;
}

/**
 * MerkleCRH with the 10-bit prefix given directly as the children's height (0..1023), which is
 * what trees of any depth use (zcash-test-vectors' depth-4 trees included).
 */
export function merkleCrhAtHeight(height: number, left: Uint8Array, right: Uint8Array): Uint8Array {
  const heightBits: number[] = [];
  for (let i = 0; i < 10; i++) heightBits.push((height >>> i) & 1);
  const bits = [...heightBits, ...lowBits(left, 255), ...lowBits(right, 255)];
  const point = sinsemillaHashChunksToPoint(merkleCrhQ(), sinsemillaChunks(bits));
  return bigintToLeBytes(point === undefined ? 0n : extractP(point));
}
