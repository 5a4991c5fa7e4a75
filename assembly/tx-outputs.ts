// The JSON of a transaction's P2PKH and P2SH outputs, as src/render/tx-vout.ts's writeStandardOutput
// writes them for byte output: `{"value":<amount>,"valueZat":N,"valueSat":N,"n":N,"scriptPubKey":
// {"asm":"…","hex":"…","reqSigs":1,"type":"…","addresses":["…"]}}`, joined by commas. A payout
// transaction spends most of its rendering on them (the amounts, the hash's and the script's
// hex, the fixed text), one JavaScript call per piece; the module writes a whole run per call.
//
// The host copies the outputs' bytes (value, CompactSize, script: they lie one after another in
// the transaction) to bytesPointer() and each output's address text (from its address table) to
// a 40-byte record at addressesPointer() (its length in the first byte, the text after it),
// calls writeOutputs with an output area, and copies the outputLength() bytes written back.
// What the module writes depends only on the `len` bytes and the records it is given (its
// 16-byte steps read up to 12 bytes past a script and 9 past a record, which the host's areas
// follow), and it writes only within `cap` bytes of its output: an output it does
// not write (not P2PKH or P2SH, an amount JavaScript writes, an address record out of range,
// bytes that end early, no room left) ends the call before it, and the host writes that one.

import { hex16 } from './text/hex16';

const START = memory.data<u8>([0x7b, 0x22, 0x76, 0x61, 0x6c, 0x75, 0x65, 0x22, 0x3a, 0, 0, 0, 0, 0, 0, 0]); // {"value":
const VALUE_ZAT = memory.data<u8>([0x2c, 0x22, 0x76, 0x61, 0x6c, 0x75, 0x65, 0x5a, 0x61, 0x74, 0x22, 0x3a, 0, 0, 0, 0]); // ,"valueZat":
const VALUE_SAT = memory.data<u8>([0x2c, 0x22, 0x76, 0x61, 0x6c, 0x75, 0x65, 0x53, 0x61, 0x74, 0x22, 0x3a, 0, 0, 0, 0]); // ,"valueSat":
const N = memory.data<u8>([0x2c, 0x22, 0x6e, 0x22, 0x3a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // ,"n":
// ,"scriptPubKey":{"asm":"OP_DUP OP_HASH160
const P2PKH_BEFORE_PUSH = memory.data<u8>([
  0x2c, 0x22, 0x73, 0x63, 0x72, 0x69, 0x70, 0x74, 0x50, 0x75, 0x62, 0x4b, 0x65, 0x79, 0x22, 0x3a, 0x7b, 0x22, 0x61, 0x73, 0x6d, 0x22, 0x3a, 0x22,
  0x4f, 0x50, 0x5f, 0x44, 0x55, 0x50, 0x20, 0x4f, 0x50, 0x5f, 0x48, 0x41, 0x53, 0x48, 0x31, 0x36, 0x30, 0x20, 0, 0, 0, 0, 0, 0,
]);
//  OP_EQUALVERIFY OP_CHECKSIG","hex":"
const P2PKH_AFTER_PUSH = memory.data<u8>([
  0x20, 0x4f, 0x50, 0x5f, 0x45, 0x51, 0x55, 0x41, 0x4c, 0x56, 0x45, 0x52, 0x49, 0x46, 0x59, 0x20, 0x4f, 0x50, 0x5f, 0x43, 0x48, 0x45, 0x43, 0x4b,
  0x53, 0x49, 0x47, 0x22, 0x2c, 0x22, 0x68, 0x65, 0x78, 0x22, 0x3a, 0x22, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);
// ","reqSigs":1,"type":"pubkeyhash","addresses":["
const P2PKH_BEFORE_ADDRESS = memory.data<u8>([
  0x22, 0x2c, 0x22, 0x72, 0x65, 0x71, 0x53, 0x69, 0x67, 0x73, 0x22, 0x3a, 0x31, 0x2c, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3a, 0x22, 0x70, 0x75,
  0x62, 0x6b, 0x65, 0x79, 0x68, 0x61, 0x73, 0x68, 0x22, 0x2c, 0x22, 0x61, 0x64, 0x64, 0x72, 0x65, 0x73, 0x73, 0x65, 0x73, 0x22, 0x3a, 0x5b, 0x22,
]);
// ,"scriptPubKey":{"asm":"OP_HASH160
const P2SH_BEFORE_PUSH = memory.data<u8>([
  0x2c, 0x22, 0x73, 0x63, 0x72, 0x69, 0x70, 0x74, 0x50, 0x75, 0x62, 0x4b, 0x65, 0x79, 0x22, 0x3a, 0x7b, 0x22, 0x61, 0x73, 0x6d, 0x22, 0x3a, 0x22,
  0x4f, 0x50, 0x5f, 0x48, 0x41, 0x53, 0x48, 0x31, 0x36, 0x30, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);
//  OP_EQUAL","hex":"
const P2SH_AFTER_PUSH = memory.data<u8>([
  0x20, 0x4f, 0x50, 0x5f, 0x45, 0x51, 0x55, 0x41, 0x4c, 0x22, 0x2c, 0x22, 0x68, 0x65, 0x78, 0x22, 0x3a, 0x22, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0,
]);
// ","reqSigs":1,"type":"scripthash","addresses":["
const P2SH_BEFORE_ADDRESS = memory.data<u8>([
  0x22, 0x2c, 0x22, 0x72, 0x65, 0x71, 0x53, 0x69, 0x67, 0x73, 0x22, 0x3a, 0x31, 0x2c, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3a, 0x22, 0x73, 0x63,
  0x72, 0x69, 0x70, 0x74, 0x68, 0x61, 0x73, 0x68, 0x22, 0x2c, 0x22, 0x61, 0x64, 0x64, 0x72, 0x65, 0x73, 0x73, 0x65, 0x73, 0x22, 0x3a, 0x5b, 0x22,
]);
const END = memory.data<u8>([0x22, 0x5d, 0x7d, 0x7d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // "]}}

/** The two decimal digits of 0–99, in order. */
const DIGIT_PAIRS = memory.data<u8>([
  0x30, 0x30, 0x30, 0x31, 0x30, 0x32, 0x30, 0x33, 0x30, 0x34, 0x30, 0x35, 0x30, 0x36, 0x30, 0x37, 0x30, 0x38, 0x30, 0x39, 0x31, 0x30, 0x31, 0x31,
  0x31, 0x32, 0x31, 0x33, 0x31, 0x34, 0x31, 0x35, 0x31, 0x36, 0x31, 0x37, 0x31, 0x38, 0x31, 0x39, 0x32, 0x30, 0x32, 0x31, 0x32, 0x32, 0x32, 0x33,
  0x32, 0x34, 0x32, 0x35, 0x32, 0x36, 0x32, 0x37, 0x32, 0x38, 0x32, 0x39, 0x33, 0x30, 0x33, 0x31, 0x33, 0x32, 0x33, 0x33, 0x33, 0x34, 0x33, 0x35,
  0x33, 0x36, 0x33, 0x37, 0x33, 0x38, 0x33, 0x39, 0x34, 0x30, 0x34, 0x31, 0x34, 0x32, 0x34, 0x33, 0x34, 0x34, 0x34, 0x35, 0x34, 0x36, 0x34, 0x37,
  0x34, 0x38, 0x34, 0x39, 0x35, 0x30, 0x35, 0x31, 0x35, 0x32, 0x35, 0x33, 0x35, 0x34, 0x35, 0x35, 0x35, 0x36, 0x35, 0x37, 0x35, 0x38, 0x35, 0x39,
  0x36, 0x30, 0x36, 0x31, 0x36, 0x32, 0x36, 0x33, 0x36, 0x34, 0x36, 0x35, 0x36, 0x36, 0x36, 0x37, 0x36, 0x38, 0x36, 0x39, 0x37, 0x30, 0x37, 0x31,
  0x37, 0x32, 0x37, 0x33, 0x37, 0x34, 0x37, 0x35, 0x37, 0x36, 0x37, 0x37, 0x37, 0x38, 0x37, 0x39, 0x38, 0x30, 0x38, 0x31, 0x38, 0x32, 0x38, 0x33,
  0x38, 0x34, 0x38, 0x35, 0x38, 0x36, 0x38, 0x37, 0x38, 0x38, 0x38, 0x39, 0x39, 0x30, 0x39, 0x31, 0x39, 0x32, 0x39, 0x33, 0x39, 0x34, 0x39, 0x35,
  0x39, 0x36, 0x39, 0x37, 0x39, 0x38, 0x39, 0x39,
]);

const OP_DUP: u32 = 0x76;
const OP_HASH160: u32 = 0xa9;
const OP_EQUAL: u32 = 0x87;
const OP_EQUALVERIFY: u32 = 0x88;
const OP_CHECKSIG: u32 = 0xac;

const ZAT_PER_ZEC: u64 = 100000000;
/** JsonWriter's isOrdinaryAmount: amounts of this magnitude or more are written by the host. */
const ORDINARY_AMOUNT_LIMIT: i64 = 1 << 52;
/** An address record: its length, then its text (Base58Check of 22 bytes is at most 36 characters). */
const RECORD_BYTES: usize = 40;
const MAX_ADDRESS_LENGTH: u32 = 36;

/**
 * The most one output takes: 358 bytes of text (a P2PKH output with a 36-character address,
 * 17-character amounts and a ten-digit index) and a comma, rounded up, plus the room past it
 * that the 16-byte stores write and what follows overwrites.
 */
const OUTPUT_BOUND: i64 = 384 + 64;

let written: i32 = 0;

/** Where the host puts the outputs' bytes: after the module's own data, 16-byte aligned. */
export function bytesPointer(): usize {
  return (__heap_base + 15) & ~(<usize>15);
}

/** The bytes the last writeOutputs call wrote. */
export function outputLength(): i32 {
  return written;
}

/**
 * Writes the JSON of up to `count` consecutive outputs, the first at `src` (its index `n`,
 * its address record at `records`), from the `len` bytes at `src`, to `dst` (at most `cap`
 * bytes), joined by commas; returns how many it wrote, and outputLength() their bytes. It stops
 * before an output it does not write: the host writes that one and calls again after it.
 */
export function writeOutputs(src: usize, len: i32, count: i32, records: usize, n: u32, dst: usize, cap: i32): i32 {
  let pos: i32 = 0;
  let out: usize = dst;
  const limit: usize = dst + <usize>cap;
  let done: i32 = 0;
  while (done < count) {
    // The value (8 bytes), the script's one-byte CompactSize, the script.
    if (len - pos < 9) break;
    const at = src + <usize>pos;
    const scriptLength = <i32>load<u8>(at + 8);
    if (len - pos - 9 < scriptLength) break;
    const script = at + 9;
    let p2pkh = false;
    if (scriptLength == 25) {
      if (
        <u32>load<u8>(script) != OP_DUP ||
        <u32>load<u8>(script + 1) != OP_HASH160 ||
        load<u8>(script + 2) != 0x14 ||
        <u32>load<u8>(script + 23) != OP_EQUALVERIFY ||
        <u32>load<u8>(script + 24) != OP_CHECKSIG
      )
        break;
      p2pkh = true;
    } else if (scriptLength == 23) {
      if (<u32>load<u8>(script) != OP_HASH160 || load<u8>(script + 1) != 0x14 || <u32>load<u8>(script + 22) != OP_EQUAL) break;
    } else break;
    const value = load<i64>(at);
    if (value <= -ORDINARY_AMOUNT_LIMIT || value >= ORDINARY_AMOUNT_LIMIT) break;
    const record = records + <usize>done * RECORD_BYTES;
    const addressLength = <u32>load<u8>(record);
    if (addressLength == 0 || addressLength > MAX_ADDRESS_LENGTH) break;
    if (<i64>(limit - out) < OUTPUT_BOUND) break;

    let o = out;
    if (done > 0) store<u8>(o++, 0x2c);
    o = copy(o, START, 9);
    // One division splits the magnitude (below 2^52) into whole coins and 8 digits of zatoshis,
    // both below 2^32: the amount is `whole.frac`, valueZat `whole` and `frac` padded, or `frac`.
    const negative = value < 0;
    const magnitude = <u64>(negative ? -value : value);
    const whole = <u32>(magnitude / ZAT_PER_ZEC);
    const frac = <u32>(magnitude % ZAT_PER_ZEC);
    if (negative) store<u8>(o++, 0x2d);
    o = decimal(o, whole);
    store<u8>(o++, 0x2e);
    o = eightDigits(o, frac);
    o = copy(o, VALUE_ZAT, 12);
    const zat = o;
    if (negative) store<u8>(o++, 0x2d);
    if (whole != 0) o = eightDigits(decimal(o, whole), frac);
    else o = decimal(o, frac);
    // valueSat is valueZat's text again (at most 17 bytes: both 16-byte loads before the stores).
    const zatLength = o - zat;
    o = copy(o, VALUE_SAT, 12);
    const first = v128.load(zat);
    const second = v128.load(zat + 16);
    v128.store(o, first);
    v128.store(o + 16, second);
    o += zatLength;
    o = copy(o, N, 5);
    o = decimal(o, n + <u32>done);
    if (p2pkh) {
      o = copy(o, P2PKH_BEFORE_PUSH, 42);
      o = hex(o, script + 3, 20);
      o = copy(o, P2PKH_AFTER_PUSH, 36);
      o = hex(o, script, 25);
      o = copy(o, P2PKH_BEFORE_ADDRESS, 48);
    } else {
      o = copy(o, P2SH_BEFORE_PUSH, 35);
      o = hex(o, script + 2, 20);
      o = copy(o, P2SH_AFTER_PUSH, 18);
      o = hex(o, script, 23);
      o = copy(o, P2SH_BEFORE_ADDRESS, 48);
    }
    o = copy(o, record + 1, <i32>addressLength);
    o = copy(o, END, 4);
    out = o;
    pos += 9 + scriptLength;
    done++;
  }
  written = <i32>(out - dst);
  return done;
}

/**
 * The `n` ≤ 48 bytes at `from` at `o`, as 16-byte stores, which cost less than memory.copy's
 * call: up to 15 bytes past them are written too, and overwritten by what follows
 * (OUTPUT_BOUND keeps room for them).
 */
@inline
function copy(o: usize, from: usize, n: i32): usize {
  v128.store(o, v128.load(from));
  if (n > 16) v128.store(o + 16, v128.load(from + 16));
  if (n > 32) v128.store(o + 32, v128.load(from + 32));
  return o + <usize>n;
}

/** `value` in decimal at `o`, two digits a step; returns the position after it. */
function decimal(o: usize, value: u32): usize {
  let digits: i32 = 1;
  for (let bound: u64 = 10; <u64>value >= bound; bound *= 10) digits++;
  let p = o + <usize>digits;
  while (value >= 100) {
    const q = value / 100;
    p -= 2;
    store<u16>(p, load<u16>(DIGIT_PAIRS + <usize>(2 * (value - 100 * q))));
    value = q;
  }
  if (value >= 10) store<u16>(p - 2, load<u16>(DIGIT_PAIRS + <usize>(2 * value)));
  else store<u8>(p - 1, 0x30 + value);
  return o + <usize>digits;
}

/** `value` < 10^8 as exactly 8 decimal digits (leading zeros) at `o`. */
function eightDigits(o: usize, value: u32): usize {
  const high = value / 10000;
  const low = value - 10000 * high;
  const a = high / 100;
  const c = low / 100;
  store<u16>(o, load<u16>(DIGIT_PAIRS + <usize>(2 * a)));
  store<u16>(o + 2, load<u16>(DIGIT_PAIRS + <usize>(2 * (high - 100 * a))));
  store<u16>(o + 4, load<u16>(DIGIT_PAIRS + <usize>(2 * c)));
  store<u16>(o + 6, load<u16>(DIGIT_PAIRS + <usize>(2 * (low - 100 * c))));
  return o + 8;
}

/**
 * The hex of the `n` ≤ 32 bytes at `src`, at `o`; returns the position after it. Two 16-byte
 * steps: it reads the 32 bytes from `src` (the host's areas lie after the outputs) and writes 64
 * hex digits, those past the `n` bytes' overwritten by what follows.
 */
@inline
function hex(o: usize, src: usize, n: i32): usize {
  hex16(o, v128.load(src));
  hex16(o + 32, v128.load(src + 16));
  return o + <usize>(2 * n);
}
