import { pedersenHashToPoint } from './pedersen-hash.js';

/** Depth of the Sapling note commitment tree (MerkleDepth^Sapling). */
export const SAPLING_TREE_DEPTH = 32;
/** Bits taken from each 32-byte child: I2LEBSP_255, so bit 255 of the raw value is ignored. */
export const SAPLING_NODE_BITS = 255;
/** Bits encoding the height in front of the children. */
export const SAPLING_LAYER_BITS = 6;

/**
 * The 516-bit MerkleCRH^Sapling message: I2LEBSP_6(MerkleDepth − 1 − layer) ‖ I2LEBSP_255(left) ‖
 * I2LEBSP_255(right), one bit per element.
 */
export function saplingMerkleMessage(layer: number, left: Uint8Array, right: Uint8Array): Uint8Array {
  checkLayer(layer);
  checkNode(left, 'left');
  checkNode(right, 'right');
  const bits = new Uint8Array(SAPLING_LAYER_BITS + 2 * SAPLING_NODE_BITS);
  const height = SAPLING_TREE_DEPTH - 1 - layer;
  for (let i = 0; i < SAPLING_LAYER_BITS; i++) bits[i] = (height >> i) & 1;
  for (let i = 0; i < SAPLING_NODE_BITS; i++) {
    bits[SAPLING_LAYER_BITS + i] = (left[i >> 3]! >> (i & 7)) & 1;
    bits[SAPLING_LAYER_BITS + SAPLING_NODE_BITS + i] = (right[i >> 3]! >> (i & 7)) & 1;
  }
  return bits;
}

/**
 * MerkleCRH^Sapling(layer, left, right) (protocol spec §5.4.1.3): the u-coordinate of the
 * Pedersen hash of {@link saplingMerkleMessage}, as 32 little-endian bytes. Two leaves combine at
 * layer 31. Inputs are raw 32-byte little-endian node values.
 */
export function saplingMerkleHash(layer: number, left: Uint8Array, right: Uint8Array): Uint8Array {
  const u = pedersenHashToPoint(saplingMerkleMessage(layer, left, right)).toAffine().x;
  return bigintToLe32(u);
}

export function bigintToLe32(value: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let v = value;
  for (let i = 0; i < 32; i++, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}

function checkLayer(layer: number): void {
  if (!Number.isInteger(layer) || layer < 0 || layer >= SAPLING_TREE_DEPTH) {
    throw new RangeError(`Sapling MerkleCRH layer must be an integer in [0, ${SAPLING_TREE_DEPTH}), got ${layer}`);
  }
}

function checkNode(node: Uint8Array, name: string): void {
  if (node.length !== 32) throw new RangeError(`Sapling tree node ${name} must be 32 bytes, got ${node.length}`);
}
