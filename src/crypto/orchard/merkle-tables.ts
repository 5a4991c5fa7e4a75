/**
 * Precomputed points that turn one MerkleCRH^Orchard into 51 point additions.
 *
 * Sinsemilla's step acc ← (acc + S(m)) + acc equals acc ← [2]acc + S(m) whenever the incomplete
 * additions do not hit an exceptional case (which happens with negligible probability), so over
 * the 52 chunks m_0..m_51 of a MerkleCRH message
 *     hash point = [2^52]Q + Σ_i [2^(51−i)] S(m_i).
 * Chunk 0 is the height, fixed per tree level, so C_h = [2^52]Q + [2^51]S(h) is a per-level
 * constant and the rest is one lookup per chunk in T_i[m] = [2^(51−i)] S(m), i = 1..51.
 * assembly/pallas.ts builds the T_i from S by doubling; this module supplies S and [2^52]Q.
 */
import type { PallasPoint } from '../pallas.js';
import { merkleCrhQ } from './merkle-crh.js';
import { sinsemillaS } from './sinsemilla.js';

export const CHUNK_VALUES = 1024;

/** Affine coordinates of S(0..1023). */
export function sinsemillaSAffine(): { x: bigint[]; y: bigint[] } {
  const x: bigint[] = [];
  const y: bigint[] = [];
  for (let m = 0; m < CHUNK_VALUES; m++) {
    const a = sinsemillaS(m).toAffine();
    x.push(a.x);
    y.push(a.y);
  }
  return { x, y };
}

let q52: PallasPoint | undefined;

/** C_h = [2^52]Q + [2^51]S(h) in affine coordinates, for a height (chunk 0 value) 0..1023. */
export function levelConstant(height: number): { x: bigint; y: bigint } {
  if (q52 === undefined) {
    let q = merkleCrhQ();
    for (let i = 0; i < 52; i++) q = q.double();
    q52 = q;
  }
  let s = sinsemillaS(height);
  for (let i = 0; i < 51; i++) s = s.double();
  return q52.add(s).toAffine();
}
