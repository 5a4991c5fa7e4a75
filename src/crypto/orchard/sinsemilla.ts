/**
 * Sinsemilla (Zcash protocol spec §5.4.1.9), k = 10: the message is padded to whole 10-bit chunks
 * and acc = Q(D); acc = (acc ⊕ S(m_i)) ⊕ acc for each chunk, with ⊕ the *incomplete* addition
 * that yields ⊥ when its operands share an x-coordinate or one of them is the identity.
 */
import { extractP, type PallasPoint } from '../pallas.js';
import { groupHashP } from './group-hash.js';

export const SINSEMILLA_K = 10;
/** At most c = 253 chunks per message. */
export const SINSEMILLA_MAX_CHUNKS = 253;

/** Q(D) = GroupHash^P("z.cash:SinsemillaQ", D). */
export function sinsemillaQ(domain: string): PallasPoint {
  return groupHashP('z.cash:SinsemillaQ', new TextEncoder().encode(domain));
}

let sTable: PallasPoint[] | undefined;

/** S(j) = GroupHash^P("z.cash:SinsemillaS", I2LEOSP_32(j)), all 1024 computed on first use. */
export function sinsemillaS(j: number): PallasPoint {
  if (sTable === undefined) {
    const table: PallasPoint[] = [];
    const le32 = new Uint8Array(4);
    for (let i = 0; i < 1 << SINSEMILLA_K; i++) {
      le32[0] = i & 0xff;
      le32[1] = i >>> 8;
      table.push(groupHashP('z.cash:SinsemillaS', le32));
    }
    sTable = table;
  }
  return sTable[j]!;
}

/** P ⊕ Q, or undefined (⊥) on the exceptional cases. */
function incompleteAdd(a: PallasPoint, b: PallasPoint): PallasPoint | undefined {
  if (a.is0() || b.is0()) return undefined;
  // Equal x-coordinates ⇔ a = ±b (projective comparison, no inversion).
  if (a.equals(b) || a.equals(b.negate())) return undefined;
  return a.add(b);
}

/** Splits a bit string (LSB-first bits, 0/1) into its zero-padded 10-bit chunk values. */
export function sinsemillaChunks(bits: ArrayLike<number>): number[] {
  const n = Math.ceil(bits.length / SINSEMILLA_K);
  if (n > SINSEMILLA_MAX_CHUNKS) throw new RangeError(`Sinsemilla message of ${bits.length} bits is too long`);
  const chunks: number[] = [];
  for (let i = 0; i < n; i++) {
    let m = 0;
    for (let b = 0; b < SINSEMILLA_K; b++) {
      const at = i * SINSEMILLA_K + b;
      if (at < bits.length && bits[at]) m |= 1 << b;
    }
    chunks.push(m);
  }
  return chunks;
}

/** SinsemillaHashToPoint(D, M) from the chunk values, or undefined for ⊥. */
export function sinsemillaHashChunksToPoint(q: PallasPoint, chunks: ArrayLike<number>): PallasPoint | undefined {
  let acc: PallasPoint | undefined = q;
  for (let i = 0; i < chunks.length && acc !== undefined; i++) {
    const sum = incompleteAdd(acc, sinsemillaS(chunks[i]!));
    acc = sum === undefined ? undefined : incompleteAdd(sum, acc);
  }
  return acc;
}

/** SinsemillaHashToPoint(D, M); M is a bit string (LSB-first), undefined for ⊥. */
export function sinsemillaHashToPoint(domain: string, bits: ArrayLike<number>): PallasPoint | undefined {
  return sinsemillaHashChunksToPoint(sinsemillaQ(domain), sinsemillaChunks(bits));
}

/** SinsemillaHash(D, M) = Extract_P(SinsemillaHashToPoint(D, M)), undefined for ⊥. */
export function sinsemillaHash(domain: string, bits: ArrayLike<number>): bigint | undefined {
  const point = sinsemillaHashToPoint(domain, bits);
  return point === undefined ? undefined : extractP(point);
}
