/**
 * UniValue's typed getters (src/univalue/lib/univalue_get.cpp, rpc-http-json.md §4.6) with
 * their exact exception texts. They throw plain `Error`s on purpose: the RPC dispatcher turns
 * any non-RpcError into code -1 with the message, as zcashd does for std::runtime_error.
 * There is no defaulting and no conversion: JSON `null` or a string "5" is a type error.
 */
import { JsonNumber, JsonObject, type JsonValue } from './value.js';

const INT_TEXT = /^-?[0-9]+$/;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const MIN_NORMAL = 2.2250738585072014e-308;

export function getStr(v: JsonValue): string {
  if (typeof v !== 'string') throw new Error('JSON value is not a string as expected');
  return v;
}

/**
 * `get_int`: the number's *text* must be a base-10 integer within int32 (strtol on the token),
 * so `1.0`, `1e0` and `2147483648` are "out of range" while `-0` is 0.
 */
export function getInt(v: JsonValue): number {
  if (!(v instanceof JsonNumber)) throw new Error('JSON value is not an integer as expected');
  const text = v.text;
  if (!INT_TEXT.test(text)) throw new Error('JSON integer out of range');
  // Short texts convert to a double exactly; longer ones (only possible with leading zeros,
  // which the reader rejects but a hand-built JsonNumber may carry) are compared as bigints.
  const n = text.length <= 15 ? Number(text) : clampBig(BigInt(text));
  if (n < INT32_MIN || n > INT32_MAX) throw new Error('JSON integer out of range');
  return n === 0 ? 0 : n; // "-0" is 0, not -0
}

/** `get_int64`: as getInt, over the int64 range; returned as a bigint so no precision is lost. */
function clampBig(n: bigint): number {
  return n < BigInt(INT32_MIN) || n > BigInt(INT32_MAX) ? Number.POSITIVE_INFINITY : Number(n);
}

export function getInt64(v: JsonValue): bigint {
  if (!(v instanceof JsonNumber)) throw new Error('JSON value is not an integer as expected');
  const text = v.text;
  if (!INT_TEXT.test(text)) throw new Error('JSON integer out of range');
  const n = BigInt(text);
  if (n < INT64_MIN || n > INT64_MAX) throw new Error('JSON integer out of range');
  return n;
}

export function getBool(v: JsonValue): boolean {
  if (typeof v !== 'boolean') throw new Error('JSON value is not a boolean as expected');
  return v;
}

/**
 * `get_real`: the token read by a classic-locale istringstream. Under libc++ (zcashd's
 * official builds) any strtod ERANGE sets failbit, so overflow to ±inf *and* glibc's underflow
 * (a non-zero text whose value is subnormal or flushes to zero) give "JSON double out of
 * range". (glibc does not flag an exactly representable subnormal; such a text needs hundreds
 * of digits and is treated as out of range here too.)
 */
export function getReal(v: JsonValue): number {
  if (!(v instanceof JsonNumber)) throw new Error('JSON value is not a number as expected');
  const n = Number(v.text); // the JSON number grammar is a subset of Number()'s; "-" gives NaN
  if (!Number.isFinite(n)) throw new Error('JSON double out of range');
  if (Math.abs(n) < MIN_NORMAL && hasNonZeroDigit(v.text)) throw new Error('JSON double out of range');
  return n;
}

/** True when the significand (the text before any exponent) has a digit other than 0. */
function hasNonZeroDigit(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x65 || c === 0x45) return false; // e / E
    if (c >= 0x31 && c <= 0x39) return true;
  }
  return false;
}

export function getObj(v: JsonValue): JsonObject {
  if (!(v instanceof JsonObject)) throw new Error('JSON value is not an object as expected');
  return v;
}

export function getArray(v: JsonValue): JsonValue[] {
  if (!Array.isArray(v)) throw new Error('JSON value is not an array as expected');
  return v;
}
