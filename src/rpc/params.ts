/**
 * Parameter parsing shared by RPC methods, reproducing zcashd v6.12.2's helpers exactly:
 * height strings (`parseHeightArg`), negative-height interpretation (`interpretHeightArg`),
 * the lenient 256-bit parse (`uint256S` / `base_blob::SetHex`) and the strict one (`ParseHashV`).
 * All hashes returned are 32 bytes in internal order.
 */
import { Buffer } from 'node:buffer';
import { isHex } from '../codec/hex.js';
import { JsonNumber, type JsonValue } from '../json/value.js';
import { RPC, RpcError } from './method.js';

/** zcashd's `2 * sizeof(uint256)`: a hash/height argument shorter than this is a height. */
export const HASH_HEX_LENGTH = 64;

/**
 * Byte length of a parameter string as zcashd's std::string sees it. JSON strings arrive as
 * JS strings; zcashd measures the UTF-8 bytes, so a 32-character string of 2-byte characters
 * counts as 64.
 */
export function stringByteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** `interpretHeightArg`: negative counts back from the tip (−1 = tip), then a range check. */
export function interpretHeight(height: number, tipHeight: number): number {
  let h = height;
  if (h < 0) h += tipHeight + 1;
  if (h < 0 || h > tipHeight) throw new RpcError(RPC.INVALID_PARAMETER, 'Block height out of range');
  return h;
}

// std::regex_match against zcashd's pattern `(?:(-?)[1-9][0-9]*|[0-9]+)`: the whole string must
// match, so "-0", "+5", " 5" and "1e3" are rejected while "007" is height 7.
const HEIGHT_RE = /^(?:(-?)[1-9][0-9]*|[0-9]+)$/;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** `parseHeightArg`: strict regex, then std::stoi (32-bit overflow is the same error). */
export function parseHeightString(s: string, tipHeight: number): number {
  if (!HEIGHT_RE.test(s)) throw new RpcError(RPC.INVALID_PARAMETER, 'Invalid block height parameter');
  // The regex leaves only digits with an optional '-', so Number() is exact up to 2^53 and
  // anything beyond int32 (stoi's std::out_of_range) is rejected whatever its rounding.
  const n = Number(s);
  if (n < INT32_MIN || n > INT32_MAX) throw new RpcError(RPC.INVALID_PARAMETER, 'Invalid block height parameter');
  return interpretHeight(n, tipHeight);
}

// C `isspace` in the "C" locale.
const C_SPACE = new Set([0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]);

function hexDigitValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/**
 * `uint256S` (base_blob<256>::SetHex): skip leading C whitespace and one `0x`/`0X`, take the
 * maximal run of hex digits, keep its last 64, left-pad with zeros, ignore the rest. Never fails.
 * Returns internal order (the printed hex is the reverse of the bytes).
 */
export function uint256FromHexLenient(s: string): Uint8Array {
  const out = new Uint8Array(32);
  let i = 0;
  while (i < s.length && C_SPACE.has(s.charCodeAt(i))) i++;
  if (s.charCodeAt(i) === 0x30 && (s.charCodeAt(i + 1) | 0x20) === 0x78) i += 2;
  const begin = i;
  while (i < s.length && hexDigitValue(s.charCodeAt(i)) >= 0) i++;
  // Walk back from the last digit: the least significant digits fill byte 0 first.
  let pos = i - 1;
  let byte = 0;
  while (pos >= begin && byte < 32) {
    let v = hexDigitValue(s.charCodeAt(pos--));
    if (pos >= begin) v |= hexDigitValue(s.charCodeAt(pos--)) << 4;
    out[byte++] = v;
  }
  return out;
}

/**
 * `ParseHashV(v, name)`: a JSON string that is non-empty, even-length hex (zcashd's IsHex),
 * else -8 "<name> must be hexadecimal string (not '<s>')" with <s> empty for non-strings.
 * Length is not checked; the hex then goes through the lenient parse.
 */
export function parseHashV(v: JsonValue | undefined, name: string): Uint8Array {
  return uint256FromHexLenient(hashHexV(v, name));
}

/** ParseHashV's check alone: the parameter's hex text, which names one hash (uint256FromHexLenient). */
export function hashHexV(v: JsonValue | undefined, name: string): string {
  const s = typeof v === 'string' ? v : '';
  if (!isHex(s)) throw new RpcError(RPC.INVALID_PARAMETER, `${name} must be hexadecimal string (not '${s}')`);
  return s;
}

export function isZeroHash(h: Uint8Array): boolean {
  for (const b of h) if (b !== 0) return false;
  return true;
}

/** UniValue's isNum(). */
export function isJsonNumber(v: JsonValue | undefined): v is JsonNumber {
  return v instanceof JsonNumber;
}
