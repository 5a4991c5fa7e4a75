// BLAKE2b compression (RFC 7693) of two independent messages at once: each v128 holds the same
// word of both states, lane 0 one message's and lane 1 the other's.
//
// Why two messages and not one: a single state as two vectors a row leaves only two dependent
// chains per step, and WebAssembly SIMD has no 64-bit rotate (three instructions for 24, 16 and
// 63), so the scalar compression in blake2b.ts, four independent G a step, is faster for one
// message. Two messages give every vector instruction two G of useful work and need no
// diagonalization shuffles. Users hash many same-shaped inputs (Equihash: one last block per index).

import { IV0, IV1, IV2, IV3, IV4, IV5, IV6, IV7 } from './iv';

/** Chaining values: word i of both states at H2 + 16·i. */
export const H2: usize = memory.data(128, 16);
/** Message words, interleaved: word i of both blocks at M2 + 16·i (lane 0 first). */
export const M2: usize = memory.data(256, 16);

/** H2 set to both lanes' BLAKE2b initial state: digest length, no key, fanout 1, depth 1, personalization. */
export function initBoth(digestLength: i32, personalLo: u64, personalHi: u64): void {
  v128.store(H2, i64x2.splat(IV0 ^ 0x01010000 ^ <u64>digestLength));
  v128.store(H2, i64x2.splat(IV1), 16);
  v128.store(H2, i64x2.splat(IV2), 32);
  v128.store(H2, i64x2.splat(IV3), 48);
  v128.store(H2, i64x2.splat(IV4), 64);
  v128.store(H2, i64x2.splat(IV5), 80);
  v128.store(H2, i64x2.splat(IV6 ^ personalLo), 96);
  v128.store(H2, i64x2.splat(IV7 ^ personalHi), 112);
}

/** M2 filled from the 128-byte blocks at `a` (lane 0) and `b` (lane 1). */
export function interleave(a: usize, b: usize): void {
  const a0 = v128.load(a, 0), b0 = v128.load(b, 0);
  v128.store(M2, i64x2.shuffle(a0, b0, 0, 2), 0);
  v128.store(M2, i64x2.shuffle(a0, b0, 1, 3), 16);
  const a1 = v128.load(a, 16), b1 = v128.load(b, 16);
  v128.store(M2, i64x2.shuffle(a1, b1, 0, 2), 32);
  v128.store(M2, i64x2.shuffle(a1, b1, 1, 3), 48);
  const a2 = v128.load(a, 32), b2 = v128.load(b, 32);
  v128.store(M2, i64x2.shuffle(a2, b2, 0, 2), 64);
  v128.store(M2, i64x2.shuffle(a2, b2, 1, 3), 80);
  const a3 = v128.load(a, 48), b3 = v128.load(b, 48);
  v128.store(M2, i64x2.shuffle(a3, b3, 0, 2), 96);
  v128.store(M2, i64x2.shuffle(a3, b3, 1, 3), 112);
  const a4 = v128.load(a, 64), b4 = v128.load(b, 64);
  v128.store(M2, i64x2.shuffle(a4, b4, 0, 2), 128);
  v128.store(M2, i64x2.shuffle(a4, b4, 1, 3), 144);
  const a5 = v128.load(a, 80), b5 = v128.load(b, 80);
  v128.store(M2, i64x2.shuffle(a5, b5, 0, 2), 160);
  v128.store(M2, i64x2.shuffle(a5, b5, 1, 3), 176);
  const a6 = v128.load(a, 96), b6 = v128.load(b, 96);
  v128.store(M2, i64x2.shuffle(a6, b6, 0, 2), 192);
  v128.store(M2, i64x2.shuffle(a6, b6, 1, 3), 208);
  const a7 = v128.load(a, 112), b7 = v128.load(b, 112);
  v128.store(M2, i64x2.shuffle(a7, b7, 0, 2), 224);
  v128.store(M2, i64x2.shuffle(a7, b7, 1, 3), 240);
}

/**
 * One compression of M2 into H2 in both lanes, with the same byte counter and last-block flag
 * for both. All 12 rounds are written out with RFC 7693's σ applied by hand, as in blake2b.ts.
 * Rotations by 24 and 16 are shifts (a byte shuffle's mask is rebuilt at every use by V8),
 * by 32 a lane shuffle, by 63 an add.
 */
export function compressBoth(counter: u64, last: bool): void {
  let v0 = v128.load(H2), v1 = v128.load(H2, 16), v2 = v128.load(H2, 32), v3 = v128.load(H2, 48);
  let v4 = v128.load(H2, 64), v5 = v128.load(H2, 80), v6 = v128.load(H2, 96), v7 = v128.load(H2, 112);
  let v8 = i64x2.splat(IV0), v9 = i64x2.splat(IV1), v10 = i64x2.splat(IV2), v11 = i64x2.splat(IV3);
  let v12 = i64x2.splat(IV4 ^ counter), v13 = i64x2.splat(IV5), v14 = i64x2.splat(last ? ~IV6 : IV6), v15 = i64x2.splat(IV7);
  let t: v128;
  // Each pair of lines is G(a, b, c, d, x, y); the first four G of a round mix columns, the last four diagonals.
  // Round 0.
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 0)); t = v128.xor(v12, v0); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 16)); t = v128.xor(v12, v0); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 32)); t = v128.xor(v13, v1); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 48)); t = v128.xor(v13, v1); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 64)); t = v128.xor(v14, v2); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 80)); t = v128.xor(v14, v2); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 96)); t = v128.xor(v15, v3); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 112)); t = v128.xor(v15, v3); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 128)); t = v128.xor(v15, v0); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 144)); t = v128.xor(v15, v0); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 160)); t = v128.xor(v12, v1); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 176)); t = v128.xor(v12, v1); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 192)); t = v128.xor(v13, v2); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 208)); t = v128.xor(v13, v2); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 224)); t = v128.xor(v14, v3); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 240)); t = v128.xor(v14, v3); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  // Round 1.
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 224)); t = v128.xor(v12, v0); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 160)); t = v128.xor(v12, v0); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 64)); t = v128.xor(v13, v1); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 128)); t = v128.xor(v13, v1); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 144)); t = v128.xor(v14, v2); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 240)); t = v128.xor(v14, v2); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 208)); t = v128.xor(v15, v3); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 96)); t = v128.xor(v15, v3); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 16)); t = v128.xor(v15, v0); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 192)); t = v128.xor(v15, v0); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 0)); t = v128.xor(v12, v1); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 32)); t = v128.xor(v12, v1); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 176)); t = v128.xor(v13, v2); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 112)); t = v128.xor(v13, v2); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 80)); t = v128.xor(v14, v3); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 48)); t = v128.xor(v14, v3); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  // Round 2.
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 176)); t = v128.xor(v12, v0); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 128)); t = v128.xor(v12, v0); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 192)); t = v128.xor(v13, v1); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 0)); t = v128.xor(v13, v1); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 80)); t = v128.xor(v14, v2); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 32)); t = v128.xor(v14, v2); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 240)); t = v128.xor(v15, v3); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 208)); t = v128.xor(v15, v3); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 160)); t = v128.xor(v15, v0); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 224)); t = v128.xor(v15, v0); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 48)); t = v128.xor(v12, v1); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 96)); t = v128.xor(v12, v1); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 112)); t = v128.xor(v13, v2); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 16)); t = v128.xor(v13, v2); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 144)); t = v128.xor(v14, v3); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 64)); t = v128.xor(v14, v3); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  // Round 3.
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 112)); t = v128.xor(v12, v0); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 144)); t = v128.xor(v12, v0); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 48)); t = v128.xor(v13, v1); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 16)); t = v128.xor(v13, v1); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 208)); t = v128.xor(v14, v2); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 192)); t = v128.xor(v14, v2); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 176)); t = v128.xor(v15, v3); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 224)); t = v128.xor(v15, v3); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 32)); t = v128.xor(v15, v0); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 96)); t = v128.xor(v15, v0); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 80)); t = v128.xor(v12, v1); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 160)); t = v128.xor(v12, v1); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 64)); t = v128.xor(v13, v2); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 0)); t = v128.xor(v13, v2); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 240)); t = v128.xor(v14, v3); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 128)); t = v128.xor(v14, v3); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  // Round 4.
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 144)); t = v128.xor(v12, v0); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 0)); t = v128.xor(v12, v0); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 80)); t = v128.xor(v13, v1); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 112)); t = v128.xor(v13, v1); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 32)); t = v128.xor(v14, v2); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 64)); t = v128.xor(v14, v2); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 160)); t = v128.xor(v15, v3); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 240)); t = v128.xor(v15, v3); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 224)); t = v128.xor(v15, v0); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 16)); t = v128.xor(v15, v0); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 176)); t = v128.xor(v12, v1); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 192)); t = v128.xor(v12, v1); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 96)); t = v128.xor(v13, v2); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 128)); t = v128.xor(v13, v2); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 48)); t = v128.xor(v14, v3); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 208)); t = v128.xor(v14, v3); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  // Round 5.
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 32)); t = v128.xor(v12, v0); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 192)); t = v128.xor(v12, v0); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 96)); t = v128.xor(v13, v1); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 160)); t = v128.xor(v13, v1); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 0)); t = v128.xor(v14, v2); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 176)); t = v128.xor(v14, v2); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 128)); t = v128.xor(v15, v3); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 48)); t = v128.xor(v15, v3); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 64)); t = v128.xor(v15, v0); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 208)); t = v128.xor(v15, v0); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 112)); t = v128.xor(v12, v1); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 80)); t = v128.xor(v12, v1); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 240)); t = v128.xor(v13, v2); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 224)); t = v128.xor(v13, v2); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 16)); t = v128.xor(v14, v3); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 144)); t = v128.xor(v14, v3); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  // Round 6.
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 192)); t = v128.xor(v12, v0); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 80)); t = v128.xor(v12, v0); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 16)); t = v128.xor(v13, v1); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 240)); t = v128.xor(v13, v1); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 224)); t = v128.xor(v14, v2); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 208)); t = v128.xor(v14, v2); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 64)); t = v128.xor(v15, v3); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 160)); t = v128.xor(v15, v3); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 0)); t = v128.xor(v15, v0); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 112)); t = v128.xor(v15, v0); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 96)); t = v128.xor(v12, v1); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 48)); t = v128.xor(v12, v1); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 144)); t = v128.xor(v13, v2); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 32)); t = v128.xor(v13, v2); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 128)); t = v128.xor(v14, v3); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 176)); t = v128.xor(v14, v3); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  // Round 7.
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 208)); t = v128.xor(v12, v0); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 176)); t = v128.xor(v12, v0); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 112)); t = v128.xor(v13, v1); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 224)); t = v128.xor(v13, v1); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 192)); t = v128.xor(v14, v2); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 16)); t = v128.xor(v14, v2); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 48)); t = v128.xor(v15, v3); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 144)); t = v128.xor(v15, v3); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 80)); t = v128.xor(v15, v0); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 0)); t = v128.xor(v15, v0); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 240)); t = v128.xor(v12, v1); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 64)); t = v128.xor(v12, v1); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 128)); t = v128.xor(v13, v2); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 96)); t = v128.xor(v13, v2); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 32)); t = v128.xor(v14, v3); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 160)); t = v128.xor(v14, v3); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  // Round 8.
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 96)); t = v128.xor(v12, v0); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 240)); t = v128.xor(v12, v0); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 224)); t = v128.xor(v13, v1); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 144)); t = v128.xor(v13, v1); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 176)); t = v128.xor(v14, v2); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 48)); t = v128.xor(v14, v2); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 0)); t = v128.xor(v15, v3); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 128)); t = v128.xor(v15, v3); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 192)); t = v128.xor(v15, v0); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 32)); t = v128.xor(v15, v0); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 208)); t = v128.xor(v12, v1); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 112)); t = v128.xor(v12, v1); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 16)); t = v128.xor(v13, v2); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 64)); t = v128.xor(v13, v2); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 160)); t = v128.xor(v14, v3); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 80)); t = v128.xor(v14, v3); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  // Round 9.
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 160)); t = v128.xor(v12, v0); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 32)); t = v128.xor(v12, v0); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 128)); t = v128.xor(v13, v1); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 64)); t = v128.xor(v13, v1); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 112)); t = v128.xor(v14, v2); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 96)); t = v128.xor(v14, v2); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 16)); t = v128.xor(v15, v3); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 80)); t = v128.xor(v15, v3); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 240)); t = v128.xor(v15, v0); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 176)); t = v128.xor(v15, v0); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 144)); t = v128.xor(v12, v1); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 224)); t = v128.xor(v12, v1); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 48)); t = v128.xor(v13, v2); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 192)); t = v128.xor(v13, v2); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 208)); t = v128.xor(v14, v3); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 0)); t = v128.xor(v14, v3); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  // Round 10.
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 0)); t = v128.xor(v12, v0); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 16)); t = v128.xor(v12, v0); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 32)); t = v128.xor(v13, v1); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 48)); t = v128.xor(v13, v1); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 64)); t = v128.xor(v14, v2); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 80)); t = v128.xor(v14, v2); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 96)); t = v128.xor(v15, v3); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 112)); t = v128.xor(v15, v3); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 128)); t = v128.xor(v15, v0); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 144)); t = v128.xor(v15, v0); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 160)); t = v128.xor(v12, v1); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 176)); t = v128.xor(v12, v1); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 192)); t = v128.xor(v13, v2); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 208)); t = v128.xor(v13, v2); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 224)); t = v128.xor(v14, v3); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 240)); t = v128.xor(v14, v3); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  // Round 11.
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 224)); t = v128.xor(v12, v0); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v4), v128.load(M2, 160)); t = v128.xor(v12, v0); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v12); t = v128.xor(v4, v8); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 64)); t = v128.xor(v13, v1); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v5), v128.load(M2, 128)); t = v128.xor(v13, v1); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v13); t = v128.xor(v5, v9); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 144)); t = v128.xor(v14, v2); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v6), v128.load(M2, 240)); t = v128.xor(v14, v2); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v14); t = v128.xor(v6, v10); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 208)); t = v128.xor(v15, v3); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v7), v128.load(M2, 96)); t = v128.xor(v15, v3); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v15); t = v128.xor(v7, v11); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 16)); t = v128.xor(v15, v0); v15 = i32x4.shuffle(t, t, 1, 0, 3, 2); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v0 = i64x2.add(i64x2.add(v0, v5), v128.load(M2, 192)); t = v128.xor(v15, v0); v15 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v10 = i64x2.add(v10, v15); t = v128.xor(v5, v10); v5 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 0)); t = v128.xor(v12, v1); v12 = i32x4.shuffle(t, t, 1, 0, 3, 2); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v1 = i64x2.add(i64x2.add(v1, v6), v128.load(M2, 32)); t = v128.xor(v12, v1); v12 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v11 = i64x2.add(v11, v12); t = v128.xor(v6, v11); v6 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 176)); t = v128.xor(v13, v2); v13 = i32x4.shuffle(t, t, 1, 0, 3, 2); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v2 = i64x2.add(i64x2.add(v2, v7), v128.load(M2, 112)); t = v128.xor(v13, v2); v13 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v8 = i64x2.add(v8, v13); t = v128.xor(v7, v8); v7 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 80)); t = v128.xor(v14, v3); v14 = i32x4.shuffle(t, t, 1, 0, 3, 2); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 24), i64x2.shl(t, 40));
  v3 = i64x2.add(i64x2.add(v3, v4), v128.load(M2, 48)); t = v128.xor(v14, v3); v14 = v128.or(i64x2.shr_u(t, 16), i64x2.shl(t, 48)); v9 = i64x2.add(v9, v14); t = v128.xor(v4, v9); v4 = v128.or(i64x2.shr_u(t, 63), i64x2.add(t, t));
  v128.store(H2, v128.xor(v128.load(H2, 0), v128.xor(v0, v8)), 0);
  v128.store(H2, v128.xor(v128.load(H2, 16), v128.xor(v1, v9)), 16);
  v128.store(H2, v128.xor(v128.load(H2, 32), v128.xor(v2, v10)), 32);
  v128.store(H2, v128.xor(v128.load(H2, 48), v128.xor(v3, v11)), 48);
  v128.store(H2, v128.xor(v128.load(H2, 64), v128.xor(v4, v12)), 64);
  v128.store(H2, v128.xor(v128.load(H2, 80), v128.xor(v5, v13)), 80);
  v128.store(H2, v128.xor(v128.load(H2, 96), v128.xor(v6, v14)), 96);
  v128.store(H2, v128.xor(v128.load(H2, 112), v128.xor(v7, v15)), 112);
}
