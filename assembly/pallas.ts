// MerkleCRH^Orchard on Pallas in WebAssembly, from precomputed Sinsemilla tables.
//
// With the host's tables T_i[m] = [2^(51−i)]S(m) (i = 1..51, built here by doubling S) and the
// per-level constant C_h = [2^52]Q + [2^51]S(h), one hash is C_h + Σ T_i[m_i] over the 51
// operand chunks m_i of the message (see src/crypto/orchard/merkle-tables.ts for why).
//
// A large batch runs all hashes in lockstep in affine coordinates: each of the 51 steps adds one
// table point to every accumulator and shares one field inversion across the batch (Montgomery's
// trick). A small one accumulates each hash in Jacobian coordinates and shares one inversion at
// the end.
// A hash whose right operand is the empty subtree of its level (most of a root's hashes: the
// frontier padded up to depth 32) starts from P_h = C_h + Σ T_i[m_i] over that operand's 25
// chunks, computed once per level, and adds the 26 chunks the left operand reaches.
// An addition whose operands share an x-coordinate is reported through a flag and not handled
// here; the host recomputes that hash with the reference implementation.
//
// Field elements use ./field/mont29 (9 × 29-bit limbs, Montgomery form, lazy reduction).

import {
  add, batchInvert, CONSTANTS_BYTES, copy, ELEMENT_BYTES, fromBytes, MASK, mul, setModulus, sub, toBytes,
} from './field/mont29';

const E: usize = ELEMENT_BYTES;
/** One affine point: x then y. */
const POINT: usize = 2 * E;
const CHUNK_VALUES: usize = 1024;
const OPERAND_CHUNKS: i32 = 51;
const ROW_BYTES: usize = CHUNK_VALUES * POINT;

// p = 2^254 + c with c < 2^145: the 29-bit limbs of p (limbs 5..7 are 0, limb 8 is 2^22).
const PL0: i64 = 0x1;
const PL1: i64 = 0x9698768;
const PL2: i64 = 0x133e46e6;
const PL3: i64 = 0xd31f812;
const PL4: i64 = 0x224;
const PL8: i64 = 0x400000;
const SMASK: i64 = <i64>MASK;

let constants: usize = 0;
let tables: usize = 0;
let levels: usize = 0;
/** P_h per height (affine), for a right operand the host installed with setPadded. */
let padded: usize = 0;
let scratch: usize = 0;
// Batch buffers, sized by reserve().
let capacity: i32 = 0;
let pairsBuf: usize = 0;
let outBuf: usize = 0;
let flagsBuf: usize = 0;
let chunksBuf: usize = 0;
let xs: usize = 0;
let ys: usize = 0;
let ds: usize = 0;
let prefix: usize = 0;

/** Raw allocation for the host (constants, S points). */
export function alloc(bytes: usize): usize {
  return heap.alloc(bytes);
}

/** Installs the Pallas modulus (block layout as mont29.setModulus) and allocates the tables. */
export function init(constantsPtr: usize): void {
  constants = heap.alloc(CONSTANTS_BYTES);
  memory.copy(constants, constantsPtr, CONSTANTS_BYTES);
  setModulus(constants);
  tables = heap.alloc(<usize>OPERAND_CHUNKS * ROW_BYTES);
  levels = heap.alloc(CHUNK_VALUES * POINT);
  padded = heap.alloc(CHUNK_VALUES * POINT);
  scratch = heap.alloc(16 * E);
}

export function constantsBytes(): usize {
  return CONSTANTS_BYTES;
}

/**
 * r = a mod p, exactly, for normalized limbs a < 2^261: with a = h·2^254 + l, a ≡ l − h·c,
 * which lies in (−p, p), so at most one addition of p. Much cheaper than a multiplication.
 */
function reduceP(r: usize, a: usize): void {
  const top = <i64>load<u32>(a, 32);
  const h = top >> 22;
  let c: i64 = <i64>load<u32>(a, 0) - h * PL0;
  const r0 = c & SMASK; c >>= 29;
  c += <i64>load<u32>(a, 4) - h * PL1;
  const r1 = c & SMASK; c >>= 29;
  c += <i64>load<u32>(a, 8) - h * PL2;
  const r2 = c & SMASK; c >>= 29;
  c += <i64>load<u32>(a, 12) - h * PL3;
  const r3 = c & SMASK; c >>= 29;
  c += <i64>load<u32>(a, 16) - h * PL4;
  const r4 = c & SMASK; c >>= 29;
  c += <i64>load<u32>(a, 20);
  const r5 = c & SMASK; c >>= 29;
  c += <i64>load<u32>(a, 24);
  const r6 = c & SMASK; c >>= 29;
  c += <i64>load<u32>(a, 28);
  const r7 = c & SMASK; c >>= 29;
  let r8 = c + (top & (PL8 - 1));
  if (r8 < 0) {
    let d: i64 = r0 + PL0;
    store<u32>(r, <u32>(d & SMASK), 0); d >>= 29;
    d += r1 + PL1;
    store<u32>(r, <u32>(d & SMASK), 4); d >>= 29;
    d += r2 + PL2;
    store<u32>(r, <u32>(d & SMASK), 8); d >>= 29;
    d += r3 + PL3;
    store<u32>(r, <u32>(d & SMASK), 12); d >>= 29;
    d += r4 + PL4;
    store<u32>(r, <u32>(d & SMASK), 16); d >>= 29;
    d += r5;
    store<u32>(r, <u32>(d & SMASK), 20); d >>= 29;
    d += r6;
    store<u32>(r, <u32>(d & SMASK), 24); d >>= 29;
    d += r7;
    store<u32>(r, <u32>(d & SMASK), 28); d >>= 29;
    r8 += d + PL8;
  } else {
    store<u32>(r, <u32>r0, 0);
    store<u32>(r, <u32>r1, 4);
    store<u32>(r, <u32>r2, 8);
    store<u32>(r, <u32>r3, 12);
    store<u32>(r, <u32>r4, 16);
    store<u32>(r, <u32>r5, 20);
    store<u32>(r, <u32>r6, 24);
    store<u32>(r, <u32>r7, 28);
  }
  store<u32>(r, <u32>r8, 32);
}

/** True iff a ≡ 0 (mod p), for normalized limbs a < 2^261. */
function isZeroModP(a: usize): bool {
  const t = scratch + 15 * E;
  reduceP(t, a);
  let any: u32 = 0;
  for (let i: usize = 0; i < E; i += 4) any |= load<u32>(t + i);
  return any == 0;
}

/**
 * Builds T_1..T_51 from S(0..1023) at `sPtr` (1024 × (x ‖ y), 32-byte little-endian each):
 * T_51 = S, and each row above doubles the one below it in one batch.
 */
export function buildTables(sPtr: usize): void {
  const last = tables + <usize>(OPERAND_CHUNKS - 1) * ROW_BYTES;
  for (let m: usize = 0; m < CHUNK_VALUES; m++) {
    const pt = last + m * POINT;
    fromBytes(pt, sPtr + m * 64);
    fromBytes(pt + E, sPtr + m * 64 + 32);
    reduceP(pt, pt);
    reduceP(pt + E, pt + E);
  }
  const den = heap.alloc(CHUNK_VALUES * E);
  const pre = heap.alloc(CHUNK_VALUES * E);
  const t = scratch;
  const lambda = scratch + E;
  for (let row = OPERAND_CHUNKS - 2; row >= 0; row--) {
    const from = tables + <usize>(row + 1) * ROW_BYTES;
    const to = tables + <usize>row * ROW_BYTES;
    // No S(m) multiple is 2-torsion (the group has odd order), so 2y ≠ 0.
    for (let m: usize = 0; m < CHUNK_VALUES; m++) add(den + m * E, from + m * POINT + E, from + m * POINT + E);
    batchInvert(den, E, <i32>CHUNK_VALUES, pre);
    for (let m: usize = 0; m < CHUNK_VALUES; m++) {
      const x = from + m * POINT;
      const y = x + E;
      const x3 = to + m * POINT;
      const y3 = x3 + E;
      // λ = 3x² / 2y; x3 = λ² − 2x; y3 = λ(x − x3) − y.
      mul(t, x, x);
      add(lambda, t, t);
      add(lambda, lambda, t);
      mul(lambda, lambda, den + m * E);
      mul(t, lambda, lambda);
      sub(t, t, x);
      sub(t, t, x);
      reduceP(x3, t);
      sub(t, x, x3);
      mul(t, lambda, t);
      sub(t, t, y);
      reduceP(y3, t);
    }
  }
  heap.free(den);
  heap.free(pre);
}

/** Installs C_h for one height from `ptr` (x ‖ y, 32-byte little-endian each). */
export function setLevel(height: i32, ptr: usize): void {
  const c = levels + <usize>height * POINT;
  fromBytes(c, ptr);
  fromBytes(c + E, ptr + 32);
  reduceP(c, c);
  reduceP(c + E, c + E);
}

/** 10 bits of the 32-byte value at v starting at bit `offset` (offset + 9 ≤ 254). */
@inline
function tenBits(v: usize, offset: usize): u32 {
  const at = offset >> 3;
  let w: u32 = <u32>load<u8>(v + at) | (<u32>load<u8>(v + at + 1) << 8);
  if (at + 2 < 32) w |= <u32>load<u8>(v + at + 2) << 16;
  return (w >> <u32>(offset & 7)) & 0x3ff;
}

/**
 * The 51 operand chunks of MerkleCRH(left ‖ right at `pair`) into u16s at `out`. The message
 * I2LEBSP_10(height) ‖ I2LEBSP_255(left) ‖ I2LEBSP_255(right) has chunk 0 = height, then
 * chunks 1..25 = left bits 10(i−1)..+9, chunk 26 = left bits 250..254 and right bits 0..4,
 * chunks 27..51 = right bits 10(i−26)−5..+9. Bit 255 of either value is not in the message.
 */
function writeChunks(pair: usize, out: usize): void {
  const right = pair + 32;
  for (let i: usize = 1; i <= 25; i++) store<u16>(out + ((i - 1) << 1), <u16>tenBits(pair, 10 * (i - 1)));
  const straddle = ((<u32>load<u8>(pair + 31) >> 2) & 0x1f) | ((<u32>load<u8>(right) & 0x1f) << 5);
  store<u16>(out + 50, <u16>straddle);
  for (let i: usize = 27; i <= 51; i++) store<u16>(out + ((i - 1) << 1), <u16>tenBits(right, 10 * (i - 26) - 5));
}

/** Makes room for `count` pairs; the host then writes pairs at pairsPtr(). */
export function reserve(count: i32): void {
  if (count <= capacity) return;
  let n = capacity > 0 ? capacity : 64;
  while (n < count) n <<= 1;
  if (capacity > 0) {
    heap.free(pairsBuf); heap.free(outBuf); heap.free(flagsBuf); heap.free(chunksBuf);
    heap.free(xs); heap.free(ys); heap.free(ds); heap.free(prefix);
  }
  const un = <usize>n;
  pairsBuf = heap.alloc(un * 64);
  outBuf = heap.alloc(un * 32);
  flagsBuf = heap.alloc(un);
  chunksBuf = heap.alloc(un * <usize>OPERAND_CHUNKS * 2);
  xs = heap.alloc(un * E);
  ys = heap.alloc(un * E);
  ds = heap.alloc(un * E);
  prefix = heap.alloc(un * E);
  capacity = n;
}

export function pairsPtr(): usize {
  return pairsBuf;
}

export function outPtr(): usize {
  return outBuf;
}

/** One byte per pair after a combine: 1 = exceptional, recompute with the reference. */
export function flagsPtr(): usize {
  return flagsBuf;
}

/** Table point for operand chunk i (0-based row) with value m. */
@inline
function tablePoint(i: i32, m: u32): usize {
  return tables + <usize>i * ROW_BYTES + <usize>m * POINT;
}

/** Chunks (0-based rows) that hold a bit of the left operand: rows 0..24 and the straddling row 25. */
const LEFT_CHUNKS: i32 = 26;

/**
 * Accumulates c + Σ T_i[m_i] for the chunks i in [first, end) at `chunks` into Jacobian
 * (X, Y, Z) with mixed additions (a = 0, 8M + 3S each); X and Y stay below p between steps.
 * Returns false when an addition hits equal x-coordinates.
 */
function accumulateJacobian(c: usize, chunks: usize, X: usize, Y: usize, Z: usize, first: i32 = 0, end: i32 = OPERAND_CHUNKS): bool {
  const zz = scratch, u2 = scratch + E, s2 = scratch + 2 * E, h = scratch + 3 * E;
  const r = scratch + 4 * E, hh = scratch + 5 * E, hhh = scratch + 6 * E, v = scratch + 7 * E;
  const t = scratch + 8 * E;
  copy(X, c);
  copy(Y, c + E);
  // 1 in Montgomery form (R mod p), which the constants block holds at offset 72.
  copy(Z, constants + 72);
  for (let i = first; i < end; i++) {
    const p = tablePoint(i, <u32>load<u16>(chunks + (<usize>i << 1)));
    mul(zz, Z, Z);
    mul(u2, p, zz);
    mul(t, zz, Z);
    mul(s2, p + E, t);
    sub(h, u2, X);
    reduceP(h, h);
    if (isZeroModP(h)) return false;
    sub(r, s2, Y);
    mul(hh, h, h);
    mul(hhh, h, hh);
    mul(v, X, hh);
    // X3 = r² − h³ − 2v
    mul(t, r, r);
    sub(t, t, hhh);
    reduceP(t, t);
    sub(t, t, v);
    sub(t, t, v);
    reduceP(t, t);
    // Y3 = r(v − X3) − Y·h³
    sub(v, v, t);
    mul(v, r, v);
    mul(Y, Y, hhh);
    sub(Y, v, Y);
    reduceP(Y, Y);
    copy(X, t);
    // Z3 = Z·h
    mul(Z, Z, h);
  }
  return true;
}

/**
 * Below this many pairs, separate Jacobian accumulations sharing one final inversion beat the
 * lockstep affine method, which pays one inversion per step (51 per batch).
 */
const LOCKSTEP_MIN: i32 = 20;

/** Hashes `count` pairs from the pair buffer at `height`; results at outPtr(), flags at flagsPtr(). */
export function combineMany(height: i32, count: i32): void {
  if (count < LOCKSTEP_MIN) combineJacobian(height, count);
  else combineLockstep(height, count);
}

function combineJacobian(height: i32, count: i32): void {
  const n = <usize>count;
  const c = levels + <usize>height * POINT;
  const stride = <usize>OPERAND_CHUNKS << 1;
  memory.fill(flagsBuf, 0, n);
  for (let k: usize = 0; k < n; k++) {
    const chunks = chunksBuf + k * stride;
    writeChunks(pairsBuf + k * 64, chunks);
    if (!accumulateJacobian(c, chunks, xs + k * E, ys + k * E, ds + k * E)) {
      store<u8>(flagsBuf + k, 1);
      copy(ds + k * E, constants + 72);
    }
  }
  // x = X / Z², all Z inverted at once.
  batchInvert(ds, E, count, prefix);
  for (let k: usize = 0; k < n; k++) {
    const z = ds + k * E;
    const x = xs + k * E;
    mul(z, z, z);
    mul(x, x, z);
    toBytes(outBuf + k * 32, x);
  }
}

/** combineMany with all hashes in lockstep in affine coordinates. */
function combineLockstep(height: i32, count: i32): void {
  const n = <usize>count;
  const c = levels + <usize>height * POINT;
  const stride = <usize>OPERAND_CHUNKS << 1;
  memory.fill(flagsBuf, 0, n);
  for (let k: usize = 0; k < n; k++) {
    writeChunks(pairsBuf + k * 64, chunksBuf + k * stride);
    copy(xs + k * E, c);
    copy(ys + k * E, c + E);
  }
  const lambda = scratch, t = scratch + E;
  for (let i = 0; i < OPERAND_CHUNKS; i++) {
    for (let k: usize = 0; k < n; k++) {
      const p = tablePoint(i, <u32>load<u16>(chunksBuf + k * stride + (<usize>i << 1)));
      sub(ds + k * E, p, xs + k * E);
    }
    batchInvert(ds, E, count, prefix);
    // The running product is 0 iff some denominator was: flag those and redo the step's inversion.
    if (isZeroModP(prefix + (n - 1) * E)) {
      for (let k: usize = 0; k < n; k++) {
        const d = ds + k * E;
        const p = tablePoint(i, <u32>load<u16>(chunksBuf + k * stride + (<usize>i << 1)));
        sub(d, p, xs + k * E);
        if (isZeroModP(d)) {
          store<u8>(flagsBuf + k, 1);
          copy(d, constants + 72);
        }
      }
      batchInvert(ds, E, count, prefix);
    }
    for (let k: usize = 0; k < n; k++) {
      const p = tablePoint(i, <u32>load<u16>(chunksBuf + k * stride + (<usize>i << 1)));
      const x = xs + k * E;
      const y = ys + k * E;
      // λ = (y2 − y1)/(x2 − x1); x3 = λ² − x1 − x2; y3 = λ(x1 − x3) − y1.
      sub(lambda, p + E, y);
      mul(lambda, lambda, ds + k * E);
      mul(t, lambda, lambda);
      sub(t, t, x);
      sub(t, t, p);
      reduceP(t, t);
      sub(x, x, t);
      mul(x, lambda, x);
      sub(y, x, y);
      reduceP(y, y);
      copy(x, t);
    }
  }
  for (let k: usize = 0; k < n; k++) toBytes(outBuf + k * 32, xs + k * E);
}

/**
 * Installs P_h for `height` from the pair at pairsPtr(), whose right half is the operand (the
 * level's empty root): C_h plus the table points of its 25 chunks, in affine coordinates.
 * Returns false (nothing installed) when an addition hits equal x-coordinates.
 */
export function setPadded(height: i32): bool {
  const chunks = chunksBuf;
  writeChunks(pairsBuf, chunks);
  const X = xs, Y = ys, Z = ds;
  if (!accumulateJacobian(levels + <usize>height * POINT, chunks, X, Y, Z, LEFT_CHUNKS, OPERAND_CHUNKS)) return false;
  // (x, y) = (X / Z², Y / Z³)
  batchInvert(Z, E, 1, prefix);
  const t = scratch;
  const at = padded + <usize>height * POINT;
  mul(t, Z, Z);
  mul(at, X, t);
  mul(t, t, Z);
  mul(at + E, Y, t);
  reduceP(at, at);
  reduceP(at + E, at + E);
  return true;
}

/**
 * One hash of the pair at pairsPtr() whose right operand is the one setPadded installed for
 * `height`: P_h plus the left operand's 26 chunks. Result at outPtr(), flag at flagsPtr().
 */
export function combinePadded(height: i32): void {
  const chunks = chunksBuf;
  writeChunks(pairsBuf, chunks);
  store<u8>(flagsBuf, 0);
  if (!accumulateJacobian(padded + <usize>height * POINT, chunks, xs, ys, ds, 0, LEFT_CHUNKS)) {
    store<u8>(flagsBuf, 1);
    return;
  }
  batchInvert(ds, E, 1, prefix);
  mul(ds, ds, ds);
  mul(xs, xs, ds);
  toBytes(outBuf, xs);
}
