/**
 * Long hex for the JSON writer, encoded in WebAssembly (assembly/hex.ts, 128-bit SIMD): a
 * transaction's `hex` in getblock verbosity 2 or decoderawtransaction is most of the reply, and
 * the module encodes it, copies in and out included, faster than the writer's JavaScript loop.
 * The same module decodes long hex given as bytes (decoderawtransaction's parameter, a range of
 * the request's body), which Node's native decoder takes only as a string.
 *
 * The module is instantiated on first use. Without WebAssembly SIMD or the built module, or with
 * ZECRPC_PURE_HEX=1, `wasmHexInto` returns false and the writer encodes in JavaScript, with the
 * same output.
 */
import { instantiateWasm, requireWasmFunctions } from '../wasm-module.js';

interface HexExports {
  memory: WebAssembly.Memory;
  inputPointer(): number;
  encodeHex(src: number, length: number, dst: number): void;
  decodeHex(src: number, length: number, dst: number): number;
  holdsControlByte(src: number, length: number): number;
}

const HEX_FUNCTIONS = ['inputPointer', 'encodeHex', 'decodeHex', 'holdsControlByte'] as const;

interface Instance {
  exports: HexExports;
  input: number;
  /** View of the whole memory, re-taken whenever the memory grows. */
  mem: Uint8Array;
}

const PAGE = 65536;
/**
 * Longer inputs are encoded in JavaScript: the module's memory never shrinks, and at most
 * 3 × this stays allocated (a transaction is at most 2 MB).
 */
const MAX_WASM_INPUT = 4 << 20;

let instance: Instance | null | undefined;

function load(): Instance | null {
  if (process.env.ZECRPC_PURE_HEX === '1' || typeof WebAssembly === 'undefined') return null;
  try {
    const x = requireWasmFunctions('hex', instantiateWasm('hex'), HEX_FUNCTIONS) as unknown as HexExports;
    return { exports: x, input: x.inputPointer(), mem: new Uint8Array(x.memory.buffer) };
  } catch {
    return null;
  }
}

/** Whether long hex is encoded in WebAssembly (false: ZECRPC_PURE_HEX=1 or no usable module). */
export function wasmHexAvailable(): boolean {
  if (instance === undefined) instance = load();
  return instance !== null;
}

/**
 * Writes the lowercase hex of `bytes[start, end)` into `out` from `at` (room for 2·(end − start)
 * bytes ensured by the caller); false, having written nothing, when the module is unavailable
 * or the input too long for it.
 */
export function wasmHexInto(bytes: Uint8Array, start: number, end: number, out: Uint8Array, at: number): boolean {
  const n = end - start;
  const w = withMemory(n, ((n + 15) & ~15) + 2 * n);
  if (w === null) return false;
  const dst = w.input + ((n + 15) & ~15);
  w.mem.set(new Uint8Array(bytes.buffer, bytes.byteOffset + start, n), w.input);
  w.exports.encodeHex(w.input, n, dst);
  out.set(w.mem.subarray(dst, dst + 2 * n), at);
  return true;
}

/**
 * Decodes the even-length hex text `hex` (its bytes: a range of a request's body) into
 * `out[0, hex.length / 2)`, 32 characters a step in WebAssembly: true when every byte is one of
 * [0-9a-fA-F] (zcashd's IsHex once the length is known even), false otherwise, with what `out`
 * then holds unspecified; null, having written nothing, when the module is unavailable or the
 * text too long for it (the caller then decodes it natively).
 */
export function wasmHexDecodeInto(hex: Uint8Array, out: Uint8Array): boolean | null {
  const found = wasmHexDecodeCased(hex, out);
  return found === null ? null : found !== NOT_HEX;
}

/** What wasmHexDecodeCased found: not hex, hex with an uppercase letter, or lowercase hex. */
export const NOT_HEX = 0;
export const MIXED_CASE_HEX = 1;
export const LOWERCASE_HEX = 2;

/**
 * `wasmHexDecodeInto`, telling apart hex with an uppercase letter from lowercase hex (which is
 * then the bytes' HexStr, character for character): NOT_HEX, MIXED_CASE_HEX or LOWERCASE_HEX.
 */
export function wasmHexDecodeCased(hex: Uint8Array, out: Uint8Array): number | null {
  const held = takeDecodedAhead(hex);
  if (held !== null) {
    if (held.found !== NOT_HEX) out.set(instance!.mem.subarray(held.at, held.at + (hex.length >>> 1)));
    return held.found;
  }
  const n = hex.length;
  // The bytes are decoded in place: each step reads its 32 characters before writing their 16 bytes.
  const w = withMemory(n, n);
  if (w === null) return null;
  w.mem.set(hex, w.input);
  const found = w.exports.decodeHex(w.input, n, w.input);
  if (found !== NOT_HEX) out.set(w.mem.subarray(w.input, w.input + (n >>> 1)));
  return found;
}

/**
 * The one text decoded ahead by wasmHexDecodeAhead, while its bytes are still in the module's
 * memory: `text` is the very view decoded (an object, so a view of another request's body, even
 * at the same place, is never taken for it), held weakly so that a body nobody decodes is not
 * kept alive by it; `use` is the memory's use it was decoded in.
 */
let ahead: { text: WeakRef<Uint8Array>; found: number; at: number; use: number } | null = null;
/** Counts the uses of the module's memory: each may overwrite what an earlier one left there. */
let memoryUses = 0;

/**
 * Decodes the even-length hex text `hex` (a long string of a request's body) into the module's
 * memory and keeps the bytes there, the text left as it was: the JSON reader proves a string
 * plain this way (hex holds no quote, backslash, control byte or non-ASCII byte) with the one
 * pass the decoder would make anyway, and wasmHexDecodeCased, given this same view before the
 * memory is used for anything else, copies the bytes out instead of decoding again. NOT_HEX,
 * MIXED_CASE_HEX or LOWERCASE_HEX as wasmHexDecodeCased answers; null, having decoded nothing,
 * when the module is unavailable or the text too long for it.
 */
export function wasmHexDecodeAhead(hex: Uint8Array): number | null {
  const n = hex.length;
  const at = (n + 15) & ~15;
  const w = withMemory(n, at + (n >>> 1));
  if (w === null) return null;
  w.mem.set(hex, w.input);
  const found = w.exports.decodeHex(w.input, n, w.input + at);
  ahead = { text: new WeakRef(hex), found, at: w.input + at, use: memoryUses };
  return found;
}

/** wasmHexDecodeAhead's record for `hex` when it is the text last decoded ahead and its bytes are still in memory (taken once), else null. */
function takeDecodedAhead(hex: Uint8Array): { found: number; at: number } | null {
  const held = ahead;
  if (held === null || held.text.deref() !== hex) return null;
  ahead = null;
  return held.use === memoryUses ? held : null;
}

/**
 * Whether ASCII `bytes` hold a byte below 0x20, searched 64 bytes a step in WebAssembly; null
 * when the module is unavailable or `bytes` too long for it (the reader then searches them in
 * JavaScript).
 */
export function wasmHoldsControlByte(bytes: Uint8Array): boolean | null {
  const w = withMemory(bytes.length, bytes.length);
  if (w === null) return null;
  w.mem.set(bytes, w.input);
  return w.exports.holdsControlByte(w.input, bytes.length) !== 0;
}

/**
 * The instance for an input of `input` bytes, with room for `bytes` after its input pointer, its
 * memory grown if needed; null without a usable module, for inputs above MAX_WASM_INPUT, or
 * when the memory cannot grow (the JavaScript fallbacks need none).
 */
function withMemory(input: number, bytes: number): Instance | null {
  if (instance === undefined) instance = load();
  const w = instance;
  if (w === null || input > MAX_WASM_INPUT) return null;
  memoryUses++;
  const need = w.input + bytes;
  if (need > w.mem.length) {
    const m = w.exports.memory;
    try {
      m.grow(Math.ceil((need - m.buffer.byteLength) / PAGE));
    } catch {
      return null;
    }
    w.mem = new Uint8Array(m.buffer);
  }
  return w;
}
