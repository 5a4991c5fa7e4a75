// The JSON of a transaction's plain transparent inputs, as src/render/tx-vin.ts's writeWireInput
// writes them for byte output: `{"txid":"…","vout":N,"scriptSig":{"asm":"…","hex":"…"},"sequence":N}`,
// joined by commas. An input-heavy transaction spends most of its rendering here (reversed
// prevout hashes, the asm's numbers, signatures and hash-type suffixes, the scripts' hex), one
// JavaScript call per piece; the module writes a whole run of inputs per call.
//
// The host copies the inputs' bytes (they lie one after another in the transaction) to
// inputPointer(), calls writeInputs with an output area after them, and copies the
// outputLength() bytes written back. What the module writes depends only on the `len` bytes it
// is given (its 16-byte steps read up to 15 bytes past them, which the host's output area
// follows), and it writes only within `cap` bytes of its output: an input it cannot finish within those (a
// non-push opcode, whose name the host knows; bytes that end early; no room left) ends the
// call before it, and the host writes that input itself.

import { hex16 } from './text/hex16';

const START = memory.data<u8>([0x7b, 0x22, 0x74, 0x78, 0x69, 0x64, 0x22, 0x3a, 0x22]); // {"txid":"
const VOUT = memory.data<u8>([0x22, 0x2c, 0x22, 0x76, 0x6f, 0x75, 0x74, 0x22, 0x3a]); // ","vout":
// ,"scriptSig":{"asm":"
const ASM = memory.data<u8>([
  0x2c, 0x22, 0x73, 0x63, 0x72, 0x69, 0x70, 0x74, 0x53, 0x69, 0x67, 0x22, 0x3a, 0x7b, 0x22, 0x61, 0x73, 0x6d, 0x22, 0x3a, 0x22,
]);
const HEX = memory.data<u8>([0x22, 0x2c, 0x22, 0x68, 0x65, 0x78, 0x22, 0x3a, 0x22]); // ","hex":"
const SEQUENCE = memory.data<u8>([0x22, 0x7d, 0x2c, 0x22, 0x73, 0x65, 0x71, 0x75, 0x65, 0x6e, 0x63, 0x65, 0x22, 0x3a]); // "},"sequence":
const ERROR = memory.data<u8>([0x5b, 0x65, 0x72, 0x72, 0x6f, 0x72, 0x5d]); // [error]
const MAX_U32 = memory.data<u8>([0x34, 0x32, 0x39, 0x34, 0x39, 0x36, 0x37, 0x32, 0x39, 0x35]); // 4294967295
// The hash-type suffixes (mapSigHashTypes): [ALL] [NONE] [SINGLE], then each |ANYONECANPAY.
const SUFFIXES = memory.data<u8>([
  0x5b, 0x41, 0x4c, 0x4c, 0x5d, 0x5b, 0x4e, 0x4f, 0x4e, 0x45, 0x5d, 0x5b, 0x53, 0x49, 0x4e, 0x47, 0x4c, 0x45, 0x5d, 0x7c, 0x41, 0x4e, 0x59, 0x4f,
  0x4e, 0x45, 0x43, 0x41, 0x4e, 0x50, 0x41, 0x59, 0x5d,
]);
// "ALL" "NONE" "SINGLE" inside SUFFIXES (after their "["), and "|ANYONECANPAY]".
const NAME_AT: i32 = 1;
const ANYONECANPAY_AT: i32 = 19;
const ANYONECANPAY_LENGTH: i32 = 14;

const OP_PUSHDATA1: u32 = 0x4c;
const OP_PUSHDATA2: u32 = 0x4d;
const OP_PUSHDATA4: u32 = 0x4e;
const OP_RETURN: u32 = 0x6a;
const MAX_SCRIPT_SIZE: i64 = 10000;

/**
 * The most output one input can take besides its script: 148 bytes of fixed text, hash and
 * numbers, and a comma. Its script's asm takes at most 4 bytes per script byte (a 9-byte
 * signature push is 16 hex digits and a 21-byte suffix) plus `[error]`, its hex 2.
 */
const FIXED_OUTPUT: i64 = 176;
const OUTPUT_PER_SCRIPT_BYTE: i64 = 6;
/** Room past an input's text for the stores that write beyond what they mean to (copy, hex). */
const OVERRUN: i64 = 32;

let written: i32 = 0;

/** Where the host puts the inputs' bytes: after the module's own data, 16-byte aligned. */
export function inputPointer(): usize {
  return (__heap_base + 15) & ~(<usize>15);
}

/** The bytes the last writeInputs call wrote. */
export function outputLength(): i32 {
  return written;
}

/**
 * Writes the JSON of up to `count` consecutive inputs, the first at `src`, from the `len` bytes
 * at `src`, to `dst` (at most `cap` bytes), joined by commas; returns how many it wrote, and
 * outputLength() their bytes. It stops before an input it does not write: the host writes that
 * one and calls again after it.
 */
export function writeInputs(src: usize, len: i32, count: i32, dst: usize, cap: i32): i32 {
  let pos: i32 = 0;
  let out: usize = dst;
  const limit: usize = dst + <usize>cap;
  let done: i32 = 0;
  while (done < count) {
    // Prevout (36 bytes), the script's CompactSize, the script, the sequence (4 bytes).
    if (len - pos < 41) break;
    const sizeAt = pos + 36;
    const first = <u32>load<u8>(src + <usize>sizeAt);
    let scriptLength: i64 = 0;
    let scriptStart: i32 = 0;
    if (first < 0xfd) {
      scriptLength = first;
      scriptStart = sizeAt + 1;
    } else if (first == 0xfd) {
      if (len - sizeAt < 3) break;
      scriptLength = <i64>load<u16>(src + <usize>sizeAt + 1);
      scriptStart = sizeAt + 3;
    } else if (first == 0xfe) {
      if (len - sizeAt < 5) break;
      scriptLength = <i64>load<u32>(src + <usize>sizeAt + 1);
      scriptStart = sizeAt + 5;
    } else break;
    if (scriptLength > <i64>(len - scriptStart - 4)) break;
    const comma: i64 = done > 0 ? 1 : 0;
    if (<i64>(limit - out) < FIXED_OUTPUT + comma + OUTPUT_PER_SCRIPT_BYTE * scriptLength + OVERRUN) break;
    const scriptEnd = scriptStart + <i32>scriptLength;

    let o = out;
    if (done > 0) store<u8>(o++, 0x2c);
    o = copy(o, START, 9);
    o = hexReversed32(o, src + <usize>pos);
    o = copy(o, VOUT, 9);
    o = decimal(o, load<u32>(src + <usize>pos + 32));
    o = copy(o, ASM, 21);
    o = asm(o, src, scriptStart, scriptEnd);
    if (o == 0) break;
    o = copy(o, HEX, 9);
    o = hex(o, src + <usize>scriptStart, scriptEnd - scriptStart);
    o = copy(o, SEQUENCE, 14);
    o = decimal(o, load<u32>(src + <usize>scriptEnd));
    store<u8>(o++, 0x7d);
    out = o;
    pos = scriptEnd + 4;
    done++;
  }
  written = <i32>(out - dst);
  return done;
}

/**
 * HexStr of the `len` bytes at `src` (a transaction the host copied to inputPointer()) at `dst`:
 * a reply's `hex` member written in place when the reply is in the module's memory. Reads up to
 * 15 bytes past the input and writes up to 30 past the hex (the host keeps room for them).
 */
export function encodeHex(src: usize, len: i32, dst: usize): void {
  // 32 bytes a step, then hex()'s 16-byte steps: a whole transaction's run is long enough for
  // the loop's own work per step to show, where a script's pushes (hex() alone) are not.
  let i: i32 = 0;
  for (; i + 32 <= len; i += 32) {
    hex16(dst + <usize>(2 * i), v128.load(src + <usize>i));
    hex16(dst + <usize>(2 * i) + 32, v128.load(src + <usize>i + 16));
  }
  hex(dst + <usize>(2 * i), src + <usize>i, len - i);
}

/**
 * ScriptToAsmStr(script, fAttemptSighashDecode = true) of `src[start, end)` at `o`; returns
 * the position after it, or 0 at a non-push opcode (the host names it).
 */
function asm(o: usize, src: usize, start: i32, end: i32): usize {
  // Unspendable scripts (leading OP_RETURN, or longer than MAX_SCRIPT_SIZE) are never decoded.
  const decode = !((end > start && <u32>load<u8>(src + <usize>start) == OP_RETURN) || <i64>(end - start) > MAX_SCRIPT_SIZE);
  let pos = start;
  while (pos < end) {
    if (pos != start) store<u8>(o++, 0x20);
    const opcode = <u32>load<u8>(src + <usize>pos);
    pos++;
    if (opcode > OP_PUSHDATA4) return 0;
    let size: i64 = 0;
    if (opcode < OP_PUSHDATA1) size = opcode;
    else if (opcode == OP_PUSHDATA1) {
      if (end - pos < 1) return copy(o, ERROR, 7);
      size = load<u8>(src + <usize>pos);
      pos += 1;
    } else if (opcode == OP_PUSHDATA2) {
      if (end - pos < 2) return copy(o, ERROR, 7);
      size = load<u16>(src + <usize>pos);
      pos += 2;
    } else {
      if (end - pos < 4) return copy(o, ERROR, 7);
      size = load<u32>(src + <usize>pos);
      pos += 4;
    }
    if (<i64>(end - pos) < size) return copy(o, ERROR, 7);
    const n = <i32>size;
    const data = src + <usize>pos;
    if (n <= 4) o = scriptNumber(o, data, n);
    else if (decode && isStrictDerSignature(data, n)) {
      const hashType = <u32>load<u8>(data + <usize>n - 1);
      const base = hashType & 0x7f;
      if (base >= 1 && base <= 3) {
        o = hex(o, data, n - 1);
        o = suffix(o, base, hashType & 0x80);
      } else o = hex(o, data, n);
    } else o = hex(o, data, n);
    pos += n;
  }
  return o;
}

/** `[ALL]`, `[NONE]` or `[SINGLE]` (base 1–3), with `|ANYONECANPAY` before the `]` when flagged. */
function suffix(o: usize, base: u32, anyoneCanPay: u32): usize {
  store<u8>(o++, 0x5b);
  const at: i32 = base == 1 ? NAME_AT : base == 2 ? NAME_AT + 5 : NAME_AT + 11;
  const length: i32 = base == 1 ? 3 : base == 2 ? 4 : 6;
  o = copy(o, SUFFIXES + <usize>at, length);
  if (anyoneCanPay != 0) return copy(o, SUFFIXES + <usize>ANYONECANPAY_AT, ANYONECANPAY_LENGTH);
  store<u8>(o++, 0x5d);
  return o;
}

/**
 * `CScriptNum(vch, false).getint()` of 0–4 bytes in decimal: little-endian magnitude, the sign
 * in the last byte's top bit, no minimality check (`80` is 0, "negative zero").
 */
function scriptNumber(o: usize, data: usize, n: i32): usize {
  if (n == 0) {
    store<u8>(o, 0x30);
    return o + 1;
  }
  let value: u32 = 0;
  for (let i = 0; i < n; i++) value |= (<u32>load<u8>(data + <usize>i)) << (8 * i);
  const signBit: u32 = (<u32>0x80) << (8 * (n - 1));
  if ((value & signBit) != 0) {
    value &= ~signBit;
    if (value != 0) store<u8>(o++, 0x2d);
  }
  return decimal(o, value);
}

/**
 * IsValidSignatureEncoding (BIP66) of the `size` bytes at `s`: DER `30 len 02 lenR R 02 lenS S`
 * plus one hash-type byte, minimal positive integers, no low-S requirement.
 */
function isStrictDerSignature(s: usize, size: i32): bool {
  if (size < 9 || size > 73) return false;
  if (load<u8>(s) != 0x30) return false;
  if (<i32>load<u8>(s + 1) != size - 3) return false;
  const lenR = <i32>load<u8>(s + 3);
  if (5 + lenR >= size) return false;
  const lenS = <i32>load<u8>(s + 5 + <usize>lenR);
  if (lenR + lenS + 7 != size) return false;
  if (load<u8>(s + 2) != 0x02) return false;
  if (lenR == 0) return false;
  if ((load<u8>(s + 4) & 0x80) != 0) return false;
  if (lenR > 1 && load<u8>(s + 4) == 0 && (load<u8>(s + 5) & 0x80) == 0) return false;
  if (load<u8>(s + <usize>lenR + 4) != 0x02) return false;
  if (lenS == 0) return false;
  if ((load<u8>(s + <usize>lenR + 6) & 0x80) != 0) return false;
  if (lenS > 1 && load<u8>(s + <usize>lenR + 6) == 0 && (load<u8>(s + <usize>lenR + 7) & 0x80) == 0) return false;
  return true;
}

/**
 * The `n` ≤ 32 bytes at `from` (static text) at `o`, as one or two 16-byte stores, which cost
 * less than memory.copy's call: up to 31 bytes past them are written too, and overwritten by
 * what follows (writeInputs keeps OVERRUN bytes of room for them).
 */
@inline
function copy(o: usize, from: usize, n: i32): usize {
  v128.store(o, v128.load(from));
  if (n > 16) v128.store(o + 16, v128.load(from + 16));
  return o + <usize>n;
}

/** `value` in decimal at `o`; returns the position after it. */
function decimal(o: usize, value: u32): usize {
  // A final sequence number, nearly every input's.
  if (value == 0xffffffff) return copy(o, MAX_U32, 10);
  let digits: i32 = 1;
  for (let bound: u64 = 10; <u64>value >= bound; bound *= 10) digits++;
  let p = o + <usize>digits;
  do {
    p--;
    store<u8>(p, 0x30 + value % 10);
    value /= 10;
  } while (value != 0);
  return o + <usize>digits;
}

/**
 * The hex of the `n` bytes at `src`, at `o`; returns the position after it. 16 bytes a step,
 * the last step too: it reads up to 15 bytes past them (the host's areas lie after the input)
 * and writes up to 30 past their hex, which what follows overwrites.
 */
function hex(o: usize, src: usize, n: i32): usize {
  for (let i: i32 = 0; i < n; i += 16) hex16(o + <usize>(2 * i), v128.load(src + <usize>i));
  return o + <usize>(2 * n);
}

/** uint256::GetHex of the 32 bytes at `src` (reversed byte order) at `o`; returns the position after it. */
function hexReversed32(o: usize, src: usize): usize {
  hex16(o, reversed(v128.load(src + 16)));
  hex16(o + 32, reversed(v128.load(src)));
  return o + 64;
}

@inline
function reversed(v: v128): v128 {
  return i8x16.shuffle(v, v, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
}
