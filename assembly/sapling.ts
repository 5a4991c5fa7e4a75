// MerkleCRH^Sapling (Pedersen hash over Jubjub) with fixed-base window tables.
//
// The 516-bit message is 172 three-bit chunks: chunks 0–1 hold the 6 height bits, chunks 2–171
// the two 255-bit children. Every chunk contributes enc(chunk)·P_c for a fixed point P_c
// (= 16^(c mod 63)·I_(1 + c div 63)), so the hash is a sum of fixed points chosen by the bits:
//  - the height chunks are folded into one start point per height (layerStart);
//  - the other chunks are grouped into windows of `windowChunks` chunks; each window has a table
//    of every sum its bits can select. Flipping the sign bit of every chunk in a window negates
//    the sum, so a table only stores the half whose last chunk is positive and the hash negates
//    on lookup (halves the memory).
// Table entries are affine points as (y + x, y − x, 2d·x·y), which makes the accumulation a
// mixed addition of 7 multiplications in extended coordinates (X : Y : Z : T). A batch shares
// one inversion for the final u = X/Z (Montgomery's trick).
//
// Cost (5-chunk windows): 34 additions per hash, 17 when the right child is the empty root of
// its height (see setEmptyRoots()). The tables outgrow the caches, so each hash first touches
// all its entries (see accumulate()).

import {
  ELEMENT_BYTES, CONSTANTS_BYTES, setModulus, mul, add, sub, copy, setOne, setZero, reduce,
  fromBytes, toBytes, batchInvert, invert, pack, unpack,
} from './field/mont29';

export { setModulus, CONSTANTS_BYTES };
// The field operations themselves, for tests against BigInt arithmetic.
export { mul as fieldMul, invert as fieldInvert, fromBytes as fieldFromBytes, toBytes as fieldToBytes };

const E: usize = ELEMENT_BYTES;
/** Extended point: X, Y, Z, T. */
const EXT_BYTES: usize = 4 * E;
/**
 * Table entry: y + x, y − x, 2d·x·y, each as a canonical 32-byte integer, unpacked to limbs on
 * use: 96 bytes spanning exactly two cache lines, where limbs take 108 bytes and often three.
 * Tables are 11% smaller (51 MB instead of 57 MB with 5-chunk windows) for a few % more time
 * per hash when the entries are already cached.
 */
const NIELS_BYTES: usize = 96;
const CHUNKS: i32 = 172;
const FIRST_DATA_CHUNK: i32 = 2;
const CHUNKS_PER_SEGMENT: i32 = 63;
const HEIGHTS: i32 = 64;
/** Pairs per hashMany() call: bounds the scratch memory; the host splits larger batches. */
export const MAX_BATCH: i32 = 1024;

let heapTop: usize = 0;

/** Bump allocation (never freed: everything lives as long as the instance). 64-byte aligned. */
export function alloc(bytes: usize): usize {
  if (heapTop == 0) heapTop = (__heap_base + 63) & ~<usize>63;
  const at = heapTop;
  heapTop = (heapTop + bytes + 63) & ~<usize>63;
  const needPages = <i32>((heapTop + 0xffff) >> 16);
  const havePages = memory.size();
  if (needPages > havePages && memory.grow(needPages - havePages) < 0) unreachable();
  return at;
}

// Curve constant and temporaries.
let D2: usize = 0; // 2d, Montgomery form
let TMP: usize = 0; // 11 elements of scratch for the point formulas

// Tables.
let windowChunks: i32 = 0;
let layerStart: usize = 0; // HEIGHTS extended points
let tables: usize = 0; // all window tables, back to back

// Batch scratch.
let MSG: usize = 0;
let ENTRIES: usize = 0; // per window: entry address | negate flag (entries are 32-byte aligned)
let touchSink: u32 = 0;
let ACC: usize = 0;
let XS: usize = 0;
let ZS: usize = 0;
let PREFIX: usize = 0;

@inline function X(p: usize): usize { return p; }
@inline function Y(p: usize): usize { return p + E; }
@inline function Z(p: usize): usize { return p + 2 * E; }
@inline function T(p: usize): usize { return p + 3 * E; }
@inline function tmp(i: usize): usize { return TMP + i * E; }

/** r = p + q (extended, unified and complete on Jubjub: a = −1 is square, d is not). r may alias p or q. */
function addExt(r: usize, p: usize, q: usize): void {
  const a = tmp(0), b = tmp(1), c = tmp(2), d = tmp(3), e = tmp(4), f = tmp(5), g = tmp(6), h = tmp(7);
  const s = tmp(8), t = tmp(9);
  sub(s, Y(p), X(p)); sub(t, Y(q), X(q)); mul(a, s, t);
  add(s, Y(p), X(p)); add(t, Y(q), X(q)); mul(b, s, t);
  mul(c, T(p), T(q)); mul(c, c, D2);
  mul(d, Z(p), Z(q)); add(d, d, d);
  sub(e, b, a); sub(f, d, c); add(g, d, c); add(h, b, a);
  mul(X(r), e, f); mul(Y(r), g, h); mul(T(r), e, h); mul(Z(r), f, g);
}

/** r = −p (extended), fully reduced coordinates. */
function negExt(r: usize, p: usize): void {
  const zero = tmp(0);
  setZero(zero);
  sub(X(r), zero, X(p)); reduce(X(r), X(r));
  copy(Y(r), Y(p)); copy(Z(r), Z(p));
  sub(T(r), zero, T(p)); reduce(T(r), T(r));
}

function setIdentity(r: usize): void {
  setZero(X(r)); setOne(Y(r)); setOne(Z(r)); setZero(T(r));
}

/** acc += ±entry, entry a table point (y + x, y − x, 2d·x·y); negated when `negate`. */
@inline
function maddNiels(acc: usize, entry: usize, negate: bool): void {
  const a = tmp(0), b = tmp(1), c = tmp(2), d = tmp(3), e = tmp(4), h = tmp(5), s = tmp(6), t = tmp(7);
  // −(x, y) = (−x, y): swaps y + x with y − x and negates 2d·x·y.
  const first = tmp(8), second = tmp(9), t2d = tmp(10);
  unpack(first, entry); unpack(second, entry + 32); unpack(t2d, entry + 64);
  const ypx = select<usize>(second, first, negate);
  const ymx = select<usize>(first, second, negate);
  sub(s, Y(acc), X(acc)); mul(a, s, ymx);
  add(s, Y(acc), X(acc)); mul(b, s, ypx);
  mul(c, T(acc), t2d);
  add(d, Z(acc), Z(acc));
  sub(e, b, a); add(h, b, a);
  sub(s, d, c); add(t, d, c);
  const f = select<usize>(t, s, negate);
  const g = select<usize>(s, t, negate);
  mul(X(acc), e, f); mul(Y(acc), g, h); mul(T(acc), e, h); mul(Z(acc), f, g);
}

/** Converts `count` extended points (stride EXT_BYTES; clobbered) to table entries at `out`. */
function toNiels(out: usize, points: usize, count: i32): void {
  batchInvert(Z(points), EXT_BYTES, count, PREFIX);
  const x = tmp(8), y = tmp(9), t = tmp(0);
  for (let i = 0; i < count; i++) {
    const p = points + <usize>i * EXT_BYTES;
    const o = out + <usize>i * NIELS_BYTES;
    mul(x, X(p), Z(p)); mul(y, Y(p), Z(p));
    add(t, y, x); reduce(t, t); pack(o, t);
    sub(t, y, x); reduce(t, t); pack(o + 32, t);
    mul(t, x, y); mul(t, t, D2); reduce(t, t); pack(o + 64, t);
  }
}

@inline function tableEntries(size: i32): i32 { return 1 << (3 * size - 1); }

/** Bytes of the height start points and window tables for windows of `chunks` chunks. */
function tableBytes(chunks: i32): usize {
  let total: usize = <usize>HEIGHTS * EXT_BYTES;
  for (let c = FIRST_DATA_CHUNK; c < CHUNKS; c += chunks) {
    total += <usize>tableEntries(min(chunks, CHUNKS - c)) * NIELS_BYTES;
  }
  return total;
}

/**
 * Builds every table. `curve` holds 32-byte little-endian canonical integers: 2d, then the
 * affine (u, v) of I_1, I_2, I_3. setModulus() must have been called with Jubjub's q.
 */
export function init(curve: usize, chunks: i32): void {
  windowChunks = chunks;
  TMP = alloc(11 * E);
  D2 = alloc(E);
  fromBytes(D2, curve);
  const batchScratch = max(MAX_BATCH, tableEntries(chunks));
  PREFIX = alloc(<usize>batchScratch * E);
  MSG = alloc(80);
  ENTRIES = alloc(4 * <usize>CHUNKS);
  ACC = alloc(EXT_BYTES);
  XS = alloc(<usize>MAX_BATCH * E);
  ZS = alloc(<usize>MAX_BATCH * E);

  // enc·P_c for every chunk c and chunk value b (enc = (1 − 2·s2)·(1 + s0 + 2·s1)).
  const encPoints = alloc(<usize>CHUNKS * 8 * EXT_BYTES);
  const base = alloc(EXT_BYTES);
  for (let c = 0; c < CHUNKS; c++) {
    const row = encPoints + <usize>c * 8 * EXT_BYTES;
    if (c % CHUNKS_PER_SEGMENT == 0) {
      const g = curve + 32 + <usize>(c / CHUNKS_PER_SEGMENT) * 64;
      fromBytes(X(base), g); fromBytes(Y(base), g + 32); setOne(Z(base)); mul(T(base), X(base), Y(base));
    } else {
      for (let i = 0; i < 4; i++) addExt(base, base, base); // P_c = 16·P_(c−1)
    }
    memory.copy(row, base, EXT_BYTES); // b = 0: enc 1
    addExt(row + EXT_BYTES, base, base); // b = 1: enc 2
    addExt(row + 2 * EXT_BYTES, row + EXT_BYTES, base); // b = 2: enc 3
    addExt(row + 3 * EXT_BYTES, row + EXT_BYTES, row + EXT_BYTES); // b = 3: enc 4
    for (let b = 0; b < 4; b++) negExt(row + <usize>(b + 4) * EXT_BYTES, row + <usize>b * EXT_BYTES);
  }

  layerStart = alloc(tableBytes(chunks));
  for (let h = 0; h < HEIGHTS; h++) {
    const row0 = encPoints, row1 = encPoints + 8 * EXT_BYTES;
    addExt(layerStart + <usize>h * EXT_BYTES, row0 + <usize>(h & 7) * EXT_BYTES, row1 + <usize>(h >> 3) * EXT_BYTES);
  }
  tables = layerStart + <usize>HEIGHTS * EXT_BYTES;

  const partial = alloc(<usize>tableEntries(chunks) * EXT_BYTES);
  let table = tables;
  for (let c0 = FIRST_DATA_CHUNK; c0 < CHUNKS; c0 += chunks) {
    const size = min(chunks, CHUNKS - c0);
    // partial[r] = Σ_(i < size−1) enc(b_i)·P_(c0+i) for r = Σ b_i·8^i; the last chunk then adds
    // one of its 4 positive values on top, filling the table's index space r + 8^(size−1)·b.
    setIdentity(partial);
    let filled = 1;
    for (let i = 0; i < size; i++) {
      const row = encPoints + <usize>(c0 + i) * 8 * EXT_BYTES;
      const values = i == size - 1 ? 4 : 8;
      // b = 0 is written in place, so it goes last.
      for (let b = values - 1; b >= 0; b--) {
        for (let r = 0; r < filled; r++) {
          addExt(partial + <usize>(r + b * filled) * EXT_BYTES, partial + <usize>r * EXT_BYTES, row + <usize>b * EXT_BYTES);
        }
      }
      filled *= values;
    }
    toNiels(table, partial, filled);
    table += <usize>filled * NIELS_BYTES;
  }
}

/** Writes the 516-bit message I2LEBSP_6(height) ‖ left[0..255) ‖ right[0..255) to MSG as u64 words. */
function writeMessage(height: i32, pair: usize): void {
  const msg = MSG;
  const l0 = load<u64>(pair, 0), l1 = load<u64>(pair, 8), l2 = load<u64>(pair, 16);
  const l3 = load<u64>(pair, 24) & 0x7fffffffffffffff;
  const r0 = load<u64>(pair, 32), r1 = load<u64>(pair, 40), r2 = load<u64>(pair, 48);
  const r3 = load<u64>(pair, 56) & 0x7fffffffffffffff;
  store<u64>(msg, <u64>height | (l0 << 6), 0);
  store<u64>(msg, (l0 >> 58) | (l1 << 6), 8);
  store<u64>(msg, (l1 >> 58) | (l2 << 6), 16);
  store<u64>(msg, (l2 >> 58) | (l3 << 6), 24);
  store<u64>(msg, (l3 >> 58) | (r0 << 5), 32);
  store<u64>(msg, (r0 >> 59) | (r1 << 5), 40);
  store<u64>(msg, (r1 >> 59) | (r2 << 5), 48);
  store<u64>(msg, (r2 >> 59) | (r3 << 5), 56);
  store<u64>(msg, r3 >> 59, 64);
  store<u64>(msg, 0, 72);
}

/** Fills ENTRIES with each window's table entry for MSG: address | 1 when it is to be negated. */
function resolveEntries(): void {
  const k = windowChunks;
  let table = tables;
  let w = 0;
  for (let c0 = FIRST_DATA_CHUNK; c0 < CHUNKS; c0 += k) {
    const size = min(k, CHUNKS - c0);
    const bits = 3 * size;
    const offset = 3 * c0;
    let raw = <u32>(load<u64>(MSG + <usize>(offset >> 3)) >> <u64>(offset & 7)) & ((1 << bits) - 1);
    const negate = (raw >> (bits - 1)) != 0;
    // Flip every chunk's sign bit (bit 2 of each 3) to land in the stored half.
    raw ^= select<u32>(0x4924924 & ((1 << bits) - 1), 0, negate);
    store<u32>(ENTRIES + (<usize>w << 2), <u32>(table + <usize>raw * NIELS_BYTES) | <u32>negate);
    table += <usize>tableEntries(size) * NIELS_BYTES;
    w++;
  }
}

/**
 * Reads one word from each cache line of window i's entry. WebAssembly has no prefetch
 * instruction; an early load whose value is only summed into a sink starts the cache miss while
 * the additions before it still run.
 */
@inline
function touchEntry(i: i32): u32 {
  const entry = <usize>(load<u32>(ENTRIES + (<usize>i << 2)) & ~1);
  return load<u32>(entry) + load<u32>(entry + NIELS_BYTES - 4);
}

/** ACC = start + the entries of windows [from, to) (resolveEntries() first). */
function accumulate(start: usize, from: i32, to: i32): void {
  // Touch every entry before the first addition: the misses then overlap one another (the
  // core tracks many outstanding loads at once) instead of each stalling its own addition.
  let sink: u32 = 0;
  for (let i = from; i < to; i++) sink += touchEntry(i);
  touchSink += sink;
  memory.copy(ACC, start, EXT_BYTES);
  for (let i = from; i < to; i++) {
    const e = load<u32>(ENTRIES + (<usize>i << 2));
    maddNiels(ACC, <usize>(e & ~1), (e & 1) != 0);
  }
}

// Right child = the empty root E_h: the windows that lie wholly in the right child then add a
// known point, folded into one start point per height; only the left child's windows remain.
const RIGHT_FIRST_CHUNK: i32 = 2 + 255 / 3; // chunk 87: message bit 261
let emptyRoots: usize = 0; // E_0 … E_31, 32 bytes each; 0 until setEmptyRoots()
let emptyRightStart: usize = 0; // per height h < 32: layerStart[h] + E_h's right-only windows
let leftWindows: i32 = 0; // windows starting before RIGHT_FIRST_CHUNK

/** Installs E_0 … E_31 (32 × 32 bytes at `roots`), enabling the empty-right shortcut. */
export function setEmptyRoots(roots: usize): void {
  leftWindows = (RIGHT_FIRST_CHUNK - FIRST_DATA_CHUNK + windowChunks - 1) / windowChunks;
  const all = (CHUNKS - FIRST_DATA_CHUNK + windowChunks - 1) / windowChunks;
  const stored = alloc(32 * 32);
  memory.copy(stored, roots, 32 * 32);
  emptyRightStart = alloc(32 * EXT_BYTES);
  const pair = alloc(64);
  memory.fill(pair, 0, 32);
  for (let h = 0; h < 32; h++) {
    memory.copy(pair + 32, stored + <usize>h * 32, 32);
    writeMessage(h, pair);
    resolveEntries();
    accumulate(layerStart + <usize>h * EXT_BYTES, leftWindows, all);
    memory.copy(emptyRightStart + <usize>h * EXT_BYTES, ACC, EXT_BYTES);
  }
  emptyRoots = stored;
}

@inline
function rightIsEmpty(height: i32, pair: usize): bool {
  if (emptyRoots == 0 || height >= 32) return false;
  const e = emptyRoots + (<usize>height << 5);
  return load<u64>(pair, 32) == load<u64>(e, 0) && load<u64>(pair, 40) == load<u64>(e, 8) &&
    load<u64>(pair, 48) == load<u64>(e, 16) && load<u64>(pair, 56) == load<u64>(e, 24);
}

/**
 * MerkleCRH^Sapling of `count` ≤ MAX_BATCH pairs (64 bytes each: left ‖ right, raw little-endian)
 * at tree height `height` (the 6 message bits). Writes count × 32-byte u-coordinates to `out`.
 */
export function hashMany(height: i32, pairs: usize, out: usize, count: i32): void {
  const all = (CHUNKS - FIRST_DATA_CHUNK + windowChunks - 1) / windowChunks;
  for (let n = 0; n < count; n++) {
    const pair = pairs + <usize>n * 64;
    writeMessage(height, pair);
    resolveEntries();
    if (rightIsEmpty(height, pair)) {
      accumulate(emptyRightStart + <usize>height * EXT_BYTES, 0, leftWindows);
    } else {
      accumulate(layerStart + <usize>height * EXT_BYTES, 0, all);
    }
    copy(XS + <usize>n * E, X(ACC));
    copy(ZS + <usize>n * E, Z(ACC));
  }
  batchInvert(ZS, E, count, PREFIX);
  const u = tmp(8);
  for (let n = 0; n < count; n++) {
    mul(u, XS + <usize>n * E, ZS + <usize>n * E);
    toBytes(out + <usize>n * 32, u);
  }
}
