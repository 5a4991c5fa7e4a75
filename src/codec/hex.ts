/**
 * Hex helpers. Node's Buffer hex codec is native and several times faster than a JS loop,
 * so it does the work; these functions only add zcashd's conventions on top.
 */
import { Buffer } from 'node:buffer';
import { toHexAt, toHexReversedAt } from '../hex-text.js';
import { LOWERCASE_HEX, NOT_HEX, wasmHexDecodeCased } from '../json/hex-wasm.js';

export { toHexAt, toHexReversedAt } from '../hex-text.js';

/**
 * Decodes hex with zcashd's IsHex rules (non-empty, even length, only [0-9a-fA-F]); null if the
 * text is not such hex. Node's native decoder stops at the first non-hex pair, so a short
 * result means invalid input: one native pass, several times faster than a validating regex.
 */
export function hexToBytesStrict(s: string): Uint8Array | null {
  if (s.length === 0 || (s.length & 1) !== 0) return null;
  const b = Buffer.from(s, 'hex');
  if (b.length * 2 !== s.length) return null;
  // Node's decoder reads each UTF-16 unit by its low byte ('\u0161' as 'a'): text that is not
  // ASCII is not hex, whatever its low bytes decode to.
  if (Buffer.byteLength(s, 'utf8') !== s.length) return null;
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}

/** Hex text is decoded this many characters at a time (see hexBytesToBytesStrictNative). */
const HEX_CHUNK_CHARS = 32 * 1024;

/**
 * `hexToBytesStrict` of hex text given as its bytes (ASCII; any other byte is not hex), with
 * the same answers: decoded from the bytes themselves in WebAssembly (json/hex-wasm.ts), which
 * needs no string of them, or without the module through Node's native decoder
 * (hexBytesToBytesStrictNative).
 */
export function hexBytesToBytesStrict(hex: Uint8Array): Uint8Array | null {
  return hexBytesToBytesNotingCase(hex)?.bytes ?? null;
}

/**
 * `hexBytesToBytesStrict`, and whether the text is known to be lowercase, and so the bytes'
 * HexStr character for character (known where WebAssembly decoded it; false otherwise).
 *
 * With `memory` (reused by its owner from one decode to the next) the bytes are decoded into its
 * start when they fit, else into fresh memory.
 */
export function hexBytesToBytesNotingCase(hex: Uint8Array, memory?: ArrayBuffer): { bytes: Uint8Array; lowercase: boolean } | null {
  if (hex.length === 0 || (hex.length & 1) !== 0) return null;
  const size = hex.length >>> 1;
  const out = memory !== undefined && memory.byteLength >= size ? Buffer.from(memory, 0, size) : Buffer.allocUnsafe(size);
  const found = wasmHexDecodeCased(hex, out);
  if (found === NOT_HEX) return null;
  if (found === null && !nativeHexInto(hex, out)) return null;
  return { bytes: new Uint8Array(out.buffer, out.byteOffset, out.length), lowercase: found === LOWERCASE_HEX };
}

/** `hexBytesToBytesStrict` through Node's native decoder alone (the fallback without WebAssembly). */
export function hexBytesToBytesStrictNative(hex: Uint8Array): Uint8Array | null {
  if (hex.length === 0 || (hex.length & 1) !== 0) return null;
  const out = Buffer.allocUnsafe(hex.length >>> 1);
  return nativeHexInto(hex, out) ? new Uint8Array(out.buffer, out.byteOffset, out.length) : null;
}

/**
 * Decodes the even-length `hex` into `out` a chunk at a time through Node's native decoder,
 * which takes only strings: each chunk's string is a small young object, while one string of
 * the whole text (a raw transaction's hex is hundreds of kilobytes) would be a large object of
 * its own pages. False when a byte is not hex.
 */
function nativeHexInto(hex: Uint8Array, out: Buffer): boolean {
  const text = Buffer.isBuffer(hex) ? hex : Buffer.from(hex.buffer, hex.byteOffset, hex.byteLength);
  for (let start = 0; start < text.length; start += HEX_CHUNK_CHARS) {
    const end = Math.min(text.length, start + HEX_CHUNK_CHARS);
    // The native decoder stops at the first pair that is not hex: fewer bytes means invalid.
    if (2 * out.write(text.toString('latin1', start, end), start >>> 1, 'hex') !== end - start) return false;
  }
  return true;
}

/** Up to this length, hex is checked character by character: a hash's hex needs no buffer. */
const SHORT_HEX_CHARS = 128;

/** zcashd's IsHex: non-empty, even length, only [0-9a-fA-F]. */
export function isHex(s: string): boolean {
  if (s.length > SHORT_HEX_CHARS) return hexToBytesStrict(s) !== null;
  if (s.length === 0 || (s.length & 1) !== 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // '0'-'9', or 'a'-'f' in either case.
    if (!((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66))) return false;
  }
  return true;
}

/** Decodes hex that has already passed `isHex`. */
export function hexToBytes(s: string): Uint8Array {
  const b = Buffer.from(s, 'hex');
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}

/** `HexStr`: bytes in order, lowercase. */
export function toHex(b: Uint8Array): string {
  return toHexAt(b, 0, b.length);
}

/** `uint256::GetHex`: the bytes reversed, lowercase. */
export function toHexReversed(b: Uint8Array): string {
  return toHexReversedAt(b, 0, b.length);
}

/** Inverse of `toHexReversed` for exactly-formed input (64 hex chars → internal order). */
export function reversedHexToBytes(s: string): Uint8Array {
  const b = hexToBytes(s);
  b.reverse();
  return b;
}

let lastHexIntValue = -1;
let lastHexIntText = '';

/** `HexInt(u32)`: 8 lowercase hex digits, most significant first. */
export function hexInt(v: number): string {
  const u = v >>> 0;
  // Every overwintered transaction prints its version group id, one of a few values: the last
  // one's text is kept, as Number#toString(16) costs more than the rest of the member.
  if (u !== lastHexIntValue) {
    lastHexIntText = u.toString(16).padStart(8, '0');
    lastHexIntValue = u;
  }
  return lastHexIntText;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
