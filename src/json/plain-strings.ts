/**
 * Whether a JSON string's body needs decoding: the checks the reader (reader.ts) and the size
 * estimate (size-estimate.ts) make of a string's bytes before taking them as they are. UniValue
 * refuses a raw control byte in a string and decodes escapes and non-ASCII bytes; a body with
 * none of them is its own text. Long bodies (a raw transaction's hex) are checked natively or in
 * WebAssembly, and hex is told by decoding it once for the decoder that reads it next.
 */
import * as bufferModule from 'node:buffer';
import type { Buffer } from 'node:buffer';
import { NOT_HEX, wasmHexDecodeAhead, wasmHoldsControlByte } from './hex-wasm.js';

const BACKSLASH = 0x5c;

/** Printable ASCII other than `"` and `\\`: a string body that needs no decoding. */
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A control character (UniValue refuses them unescaped in strings). */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_CHARACTER = /[\x00-\x1f]/;

/**
 * The string body buf[start, end) when it is plain ASCII with no escapes and no control
 * characters, else null (the caller then takes the byte-by-byte path, which also reports errors).
 * Native checks instead of one regex over the whole class: isAscii and indexOf are SIMD scans,
 * and a search for a control character in the string made anyway is a fast loop. Nothing else
 * is built: a raw transaction's hex can be hundreds of kilobytes, and every string that size is
 * a fresh large-object allocation, which costs more than all the checks (so no second copy, such
 * as JSON.parse of the quoted text would make).
 */
export function readPlainAsciiString(buf: Buffer, start: number, end: number): string | null {
  const body = buf.subarray(start, end);
  if (nativeIsAscii === undefined) {
    const s = buf.toString('latin1', start, end);
    return PLAIN_ASCII.test(s) ? s : null;
  }
  if (!nativeIsAscii(body) || body.indexOf(BACKSLASH) >= 0) return null;
  const s = buf.toString('latin1', start, end);
  return CONTROL_CHARACTER.test(s) ? null : s;
}

const nativeIsAscii: ((b: Uint8Array) => boolean) | undefined = (bufferModule as { isAscii?: (b: Uint8Array) => boolean }).isAscii;

/**
 * Whether a string body of bytes is plain (readPlainAsciiString's test) without making it a
 * string: ASCII natively, no backslash natively, and no control byte four bytes at a time
 * (every byte is ASCII by then, which is what the word test needs).
 */
export function isPlainAsciiBytes(body: Buffer): boolean {
  if (nativeIsAscii === undefined || !nativeIsAscii(body) || body.indexOf(BACKSLASH) >= 0) return false;
  return !holdsControlByte(body);
}

/**
 * Whether the string body `text` is hex (even length, only [0-9a-fA-F]), found by decoding it
 * ahead for the decoder (hex-wasm.ts wasmHexDecodeAhead): such a string is plain, with the one
 * pass a decoder of it makes anyway. False for any other text, and without the module.
 */
export function decodesAsHexAhead(text: Buffer): boolean {
  if ((text.length & 1) !== 0 || !startsAsHex(text)) return false;
  const found = wasmHexDecodeAhead(text);
  return found !== null && found !== NOT_HEX;
}

/** Leading characters looked at before a long string is decoded ahead. */
const HEX_PREFIX_CHARS = 64;

/**
 * Whether the first characters of `text` are hex digits: a long string that is not hex (a
 * message, base64) nearly always shows it there, and is then left to the ordinary checks without
 * a copy and a decode of the whole of it first.
 */
function startsAsHex(text: Buffer): boolean {
  const end = Math.min(text.length, HEX_PREFIX_CHARS);
  for (let i = 0; i < end; i++) {
    const c = text[i]!;
    const letter = c | 0x20;
    if (!((c >= 0x30 && c <= 0x39) || (letter >= 0x61 && letter <= 0x66))) return false;
  }
  return true;
}

/** From this many bytes, the control-byte search runs in WebAssembly (./hex-wasm.ts), copy included. */
const MIN_WASM_SCAN_BYTES = 2048;

/** Whether ASCII `bytes` hold a byte below 0x20. */
export function holdsControlByte(bytes: Uint8Array): boolean {
  if (bytes.length >= MIN_WASM_SCAN_BYTES) {
    const found = wasmHoldsControlByte(bytes);
    if (found !== null) return found;
  }
  return holdsControlByteJs(bytes);
}

/** holdsControlByte in JavaScript, four bytes a word. */
export function holdsControlByteJs(bytes: Uint8Array): boolean {
  let i = 0;
  const end = bytes.length;
  // Bytes up to a 4-byte boundary of the underlying memory, then whole words, then the tail.
  while (i < end && (bytes.byteOffset + i) % 4 !== 0) if (bytes[i++]! < 0x20) return true;
  const wordCount = (end - i) >>> 2;
  if (wordCount > 0) {
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset + i, wordCount);
    // Eight words a step, their findings or'ed and tested once: the loop's branch, not the
    // arithmetic, is what a word at a time spent its time on.
    const blocked = wordCount & ~7;
    let k = 0;
    for (; k < blocked; k += 8) {
      const found =
        belowSpace(words[k]!) |
        belowSpace(words[k + 1]!) |
        belowSpace(words[k + 2]!) |
        belowSpace(words[k + 3]!) |
        belowSpace(words[k + 4]!) |
        belowSpace(words[k + 5]!) |
        belowSpace(words[k + 6]!) |
        belowSpace(words[k + 7]!);
      if (found !== 0) return true;
    }
    for (; k < wordCount; k++) if (belowSpace(words[k]!) !== 0) return true;
  }
  for (i += 4 * wordCount; i < end; i++) if (bytes[i]! < 0x20) return true;
  return false;
}

/**
 * Non-zero when one of the four ASCII bytes of `x` is below 0x20: such a byte borrows into its
 * own top bit, which ~x keeps only for bytes below 0x80.
 */
function belowSpace(x: number): number {
  return (x - 0x20202020) & ~x & 0x80808080;
}

/** Whether bytes[start, end) is ASCII without a backslash (what makes parsedSizeEstimate's `wide`). */
export function isPlainRun(bytes: Buffer, start: number, end: number): boolean {
  const run = bytes.subarray(start, end);
  if (run.indexOf(BACKSLASH) >= 0) return false;
  if (nativeIsAscii !== undefined) return nativeIsAscii(run);
  for (let i = 0; i < run.length; i++) if (run[i]! >= 0x80) return false;
  return true;
}
