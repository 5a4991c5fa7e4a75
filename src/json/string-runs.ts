/**
 * The checks the JSON reader makes of a long run of a string's bytes (a raw transaction's hex,
 * up to hundreds of kilobytes), answered together: whether the run is a plain string (ASCII, no
 * backslash, no control byte), whether its parsed text is wide (a byte at or above 0x80, or a
 * backslash), and whether it holds a byte the parsed size estimate counts (`{`, `[`, `,`, `:`).
 * Long runs are answered by one copy into WebAssembly and one pass (assembly/hex.ts), where
 * separate native scans would pass over the run once per question; short ones, or without the
 * module, by those scans.
 */
import * as bufferModule from 'node:buffer';
import { Buffer } from 'node:buffer';
import { wasmStringRunFacts } from './hex-wasm.js';

/** A byte below 0x20, at or above 0x80, or a backslash: the run is not a plain string. */
export const RUN_NOT_PLAIN = 1;
/** A byte at or above 0x80, or a backslash: the parsed string may be wide. */
export const RUN_WIDE = 2;
/** A `{`, `[`, `,` or `:`: the run holds bytes the parsed size estimate counts. */
export const RUN_STRUCTURE = 4;

/** From this many bytes, the checks run in WebAssembly, copy included. */
const MIN_WASM_RUN_BYTES = 2048;

const BACKSLASH = 0x5c;

export const nativeIsAscii: ((b: Uint8Array) => boolean) | undefined = (bufferModule as { isAscii?: (b: Uint8Array) => boolean }).isAscii;

/** The RUN_* bits that hold for `run`. */
export function stringRunFacts(run: Uint8Array): number {
  if (run.length >= MIN_WASM_RUN_BYTES) {
    const facts = wasmStringRunFacts(run);
    if (facts !== null) return facts;
  }
  return stringRunFactsNative(run);
}

/** Whether `run` is a plain string's bytes: ASCII, no backslash, no control byte. */
export function isPlainStringRun(run: Uint8Array): boolean {
  if (run.length >= MIN_WASM_RUN_BYTES) {
    const facts = wasmStringRunFacts(run);
    if (facts !== null) return (facts & RUN_NOT_PLAIN) === 0;
  }
  const bytes = Buffer.isBuffer(run) ? run : Buffer.from(run.buffer, run.byteOffset, run.byteLength);
  if (nativeIsAscii !== undefined ? !nativeIsAscii(bytes) : hasHighByte(bytes)) return false;
  return bytes.indexOf(BACKSLASH) < 0 && !holdsControlByteJs(bytes);
}

/** stringRunFacts by separate native scans (and a byte loop where Node has no isAscii). */
export function stringRunFactsNative(run: Uint8Array): number {
  const bytes = Buffer.isBuffer(run) ? run : Buffer.from(run.buffer, run.byteOffset, run.byteLength);
  let facts = 0;
  const backslash = bytes.indexOf(BACKSLASH) >= 0;
  const ascii = nativeIsAscii !== undefined ? nativeIsAscii(bytes) : !hasHighByte(bytes);
  if (backslash || !ascii) facts |= RUN_WIDE | RUN_NOT_PLAIN;
  else if (holdsControlByteJs(bytes)) facts |= RUN_NOT_PLAIN;
  if (bytes.indexOf(0x7b) >= 0 || bytes.indexOf(0x5b) >= 0 || bytes.indexOf(0x2c) >= 0 || bytes.indexOf(0x3a) >= 0) facts |= RUN_STRUCTURE;
  return facts;
}

function hasHighByte(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return true;
  return false;
}

/** Whether ASCII `bytes` hold a byte below 0x20, in JavaScript, four bytes a word. */
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
