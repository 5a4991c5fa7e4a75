import { jubjub } from '@noble/curves/misc.js';
import { pedersenBase, type JubjubPoint } from './generators.js';
import { bigintToLe32, saplingMerkleMessage } from './merkle-crh.js';
import { PEDERSEN_CHUNKS_PER_SEGMENT } from './pedersen-hash.js';

/** 3-bit chunks in a MerkleCRH^Sapling message: (6 + 2 × 255) / 3. */
const MESSAGE_CHUNKS = 172;

let table: JubjubPoint[][] | undefined;

/**
 * enc(b)·P_c for every chunk position c of the message and chunk value b, where
 * P_c = 16^(c mod 63)·I_(1 + c div 63) and enc(b) = (1 − 2·b₂)·(1 + b₀ + 2·b₁): a Pedersen hash
 * is then one point addition per chunk instead of a scalar multiplication per segment.
 */
function chunkTable(): JubjubPoint[][] {
  if (table !== undefined) return table;
  const rows: JubjubPoint[][] = [];
  let p = jubjub.Point.ZERO as JubjubPoint;
  for (let c = 0; c < MESSAGE_CHUNKS; c++) {
    const j = c % PEDERSEN_CHUNKS_PER_SEGMENT;
    p = j === 0 ? pedersenBase(1 + c / PEDERSEN_CHUNKS_PER_SEGMENT) : (p.double().double().double().double() as JubjubPoint);
    const two = p.double() as JubjubPoint;
    const positive = [p, two, two.add(p) as JubjubPoint, two.double() as JubjubPoint];
    rows.push([...positive, ...positive.map((q) => q.negate() as JubjubPoint)]);
  }
  table = rows;
  return rows;
}

/**
 * MerkleCRH^Sapling(layer, left, right) as saplingMerkleHash computes it, with one table
 * lookup and point addition per chunk (faster than the generic Pedersen hash in plain BigInt arithmetic).
 */
export function saplingMerkleHashByChunks(layer: number, left: Uint8Array, right: Uint8Array): Uint8Array {
  const bits = saplingMerkleMessage(layer, left, right);
  const rows = chunkTable();
  let acc = jubjub.Point.ZERO as JubjubPoint;
  for (let c = 0; c < MESSAGE_CHUNKS; c++) {
    const b = bits[3 * c]! | (bits[3 * c + 1]! << 1) | (bits[3 * c + 2]! << 2);
    acc = acc.add(rows[c]![b]!) as JubjubPoint;
  }
  return bigintToLe32(acc.toAffine().x);
}
