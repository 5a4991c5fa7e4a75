// Lowercase hex of a byte string, 16 bytes per step with 128-bit SIMD; hex text back to bytes
// with zcashd's IsHex rules (decodeHex, 32 characters per step); and the JSON reader's search of
// long strings for control bytes (holdsControlByte), 64 bytes per step.
//
// The JSON writer hands over the long hex it cannot copy from hex already written (a
// transaction's own `hex`, whole blocks): the host copies the bytes to inputPointer(), calls
// encodeHex and copies the 2·len characters back. Copies included, this is about four times
// the writer's JavaScript table loop (1.4 MB of bytes: ≈ 0.16 ms against ≈ 0.7 ms).

/** Where the host puts the bytes to encode: after the module's own data, 16-byte aligned. */
export function inputPointer(): usize {
  return (__heap_base + 15) & ~<usize>15;
}

/** Writes the hex of the `len` bytes at `src` to `dst` (2·len bytes; the ranges must not overlap). */
export function encodeHex(src: usize, len: i32, dst: usize): void {
  const digits = i8x16(0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66);
  const low4 = i8x16.splat(0x0f);
  let i: i32 = 0;
  for (; i + 16 <= len; i += 16) {
    const v = v128.load(src + <usize>i);
    // Each byte's high and low nibble, looked up in the 16 digits, then interleaved high-first.
    const high = i8x16.swizzle(digits, v128.and(i16x8.shr_u(v, 4), low4));
    const low = i8x16.swizzle(digits, v128.and(v, low4));
    const out = dst + <usize>(2 * i);
    v128.store(out, i8x16.shuffle(high, low, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23));
    v128.store(out + 16, i8x16.shuffle(high, low, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31));
  }
  for (; i < len; i++) {
    const b = load<u8>(src + <usize>i);
    const high = b >> 4;
    const low = b & 15;
    store<u8>(dst + <usize>(2 * i), high < 10 ? 0x30 + high : 0x57 + high);
    store<u8>(dst + <usize>(2 * i + 1), low < 10 ? 0x30 + low : 0x57 + low);
  }
}

/**
 * Decodes the `len` hex characters at `src` (either case) into len / 2 bytes at `dst` (the
 * ranges must not overlap, or `dst` must not be after `src`: each step reads 32 characters
 * before writing their 16 bytes); 0 when a character is not one of [0-9a-fA-F], with what `dst`
 * holds then unspecified; else 2 when no character is an uppercase letter (the text is then
 * HexStr of the bytes), 1 when one is. `len` must be even (the host refuses odd lengths first,
 * as zcashd's IsHex does).
 */
export function decodeHex(src: usize, len: i32, dst: usize): i32 {
  const zero = i8x16.splat(0x30);
  const nine = i8x16.splat(9);
  const caseBit = i8x16.splat(0x20);
  const lowerA = i8x16.splat(0x61);
  const five = i8x16.splat(5);
  const ten = i8x16.splat(10);
  const lowByte = i16x8.splat(0x00ff);
  // Or of every step's nibbles: a lane above 15 anywhere means a character that is not hex.
  let seen = i8x16.splat(0);
  // And of every character: in hex text, only an uppercase letter lacks the case bit.
  let cased = i8x16.splat(-1);
  let i: i32 = 0;
  for (; i + 32 <= len; i += 32) {
    const va = v128.load(src + <usize>i);
    const vb = v128.load(src + <usize>i + 16);
    const a = nibbles(va, zero, nine, caseBit, lowerA, five, ten);
    const b = nibbles(vb, zero, nine, caseBit, lowerA, five, ten);
    seen = v128.or(seen, v128.or(a, b));
    cased = v128.and(cased, v128.and(va, vb));
    // Each 16-bit lane holds a pair (high nibble in its low byte): (pair << 4 | pair >> 8) & 0xff is its byte.
    const pa = v128.and(v128.or(i16x8.shl(a, 4), i16x8.shr_u(a, 8)), lowByte);
    const pb = v128.and(v128.or(i16x8.shl(b, 4), i16x8.shr_u(b, 8)), lowByte);
    v128.store(dst + <usize>(i >> 1), i8x16.narrow_i16x8_u(pa, pb));
  }
  if (v128.any_true(v128.and(seen, i8x16.splat(<i8>0xf0)))) return 0;
  let lower = !v128.any_true(v128.andnot(caseBit, cased));
  for (; i < len; i += 2) {
    const c0 = load<u8>(src + <usize>i);
    const c1 = load<u8>(src + <usize>i + 1);
    const high = nibble(c0);
    const low = nibble(c1);
    if ((high | low) > 15) return 0;
    if ((c0 & c1 & 0x20) === 0) lower = false;
    store<u8>(dst + <usize>(i >> 1), <u8>((high << 4) | low));
  }
  return lower ? 2 : 1;
}

/**
 * Each lane's hex value (0–15), or a value of at least 0x80 where the byte is not a hex
 * character, with signed compares and an unsigned minimum only (x86 has those as single
 * instructions; unsigned compares take three): a digit's value is c − 0x30 when that is 0–9
 * as a signed byte, a letter's (c | 0x20) − 0x57 when (c | 0x20) − 0x61 is 0–5 (only 0x41–0x46
 * and 0x61–0x66 land there once the case bit is set); every other lane of either is set to
 * 0xff or is already at least 0x80, and the smaller of the two is the answer.
 */
@inline
function nibbles(v: v128, zero: v128, nine: v128, caseBit: v128, lowerA: v128, five: v128, ten: v128): v128 {
  const d = i8x16.sub(v, zero);
  const digit = v128.or(d, i8x16.gt_s(d, nine));
  const l = i8x16.sub(v128.or(v, caseBit), lowerA);
  const notLetter = v128.or(i8x16.gt_s(l, five), i8x16.lt_s(l, i8x16.splat(0)));
  const letter = v128.or(i8x16.add(l, ten), notLetter);
  return i8x16.min_u(digit, letter);
}

/** One character's hex value, or 0xff when it is not a hex character. */
@inline
function nibble(c: u32): u32 {
  if (c - 0x30 < 10) return c - 0x30;
  const folded = c | 0x20;
  if (folded - 0x61 < 6) return folded - 0x57;
  return 0xff;
}

/**
 * 1 when one of the `len` bytes at `src` is below 0x20 (a control byte, which a JSON string may
 * not hold raw), else 0; the JSON reader's check of long strings, 16 bytes per step. Bytes at
 * or above 0x80 never count (the reader has checked the run is ASCII first).
 */
export function holdsControlByte(src: usize, len: i32): i32 {
  const space = i8x16.splat(0x20);
  let i: i32 = 0;
  // Four vectors a step, their findings or'ed and tested once.
  for (; i + 64 <= len; i += 64) {
    const p = src + <usize>i;
    const a = i8x16.lt_u(v128.load(p), space);
    const b = i8x16.lt_u(v128.load(p + 16), space);
    const c = i8x16.lt_u(v128.load(p + 32), space);
    const d = i8x16.lt_u(v128.load(p + 48), space);
    if (v128.any_true(v128.or(v128.or(a, b), v128.or(c, d)))) return 1;
  }
  for (; i + 16 <= len; i += 16) if (v128.any_true(i8x16.lt_u(v128.load(src + <usize>i), space))) return 1;
  for (; i < len; i++) if (load<u8>(src + <usize>i) < 0x20) return 1;
  return 0;
}
