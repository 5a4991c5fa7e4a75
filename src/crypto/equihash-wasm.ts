/**
 * Equihash's BLAKE2b digests in WebAssembly (assembly/equihash.ts): one input, many 4-byte
 * counters, the digests of a batch of counters in one call, two counters per compression
 * (SIMD lanes). `createEquihashDigester` returns null when the module cannot be instantiated
 * (no WebAssembly, module not built or older than this file); callers then use another backend.
 */
import { instantiateWasm, requireWasmFunctions } from '../wasm-module.js';

interface EquihashExports {
  memory: WebAssembly.Memory;
  PERSONAL: WebAssembly.Global;
  COUNTERS: WebAssembly.Global;
  OUT: WebAssembly.Global;
  MAX_COUNTERS: WebAssembly.Global;
  inputPointer(): number;
  prepare(length: number, digestLength: number): void;
  digests(count: number): void;
}

/** Bytes from one digest to the next in what `digestMany` returns. */
export const EQUIHASH_DIGEST_STRIDE = 64;

export interface EquihashDigester {
  /** Most counters one `digestMany` call takes. */
  readonly maxBatch: number;
  /**
   * Starts hashing `input` ‖ le32(counter) with this personalization (16 bytes) and digest
   * length (1..64); an input whose counter would cross a 128-byte block boundary (its length
   * mod 128 above 124) is refused with a RangeError.
   */
  begin(personal: Uint8Array, digestLength: number, input: Uint8Array): void;
  /**
   * The digests of `counters[0..count)` (count ≤ maxBatch): that of counters[j] at
   * j × EQUIHASH_DIGEST_STRIDE of the returned view, valid until the next call.
   */
  digestMany(counters: Uint32Array, count: number): Uint8Array;
}

const PAGE = 65536;

/**
 * Whether the 4-byte counter after `length` bytes of input crosses a 128-byte block boundary:
 * then the block before the last holds counter bytes too, so it is not the same for every
 * counter, and a backend that compresses the input's blocks once and only the last one per
 * counter (this module, blake2b-wasm's driver in ./equihash.ts) cannot hash the input; those
 * hand it to @noble/hashes. A header's 140-byte prefix never crosses.
 */
export function counterCrossesBlocks(length: number): boolean {
  return length % 128 > 124;
}

/** `count` is a whole number of counters that `counters` holds, at most `maxBatch`. */
export function checkBatch(counters: Uint32Array, count: number, maxBatch: number): void {
  if (!Number.isInteger(count) || count < 0 || count > maxBatch || count > counters.length)
    throw new RangeError(`Equihash digests: 0..${Math.min(maxBatch, counters.length)} counters a call, not ${count}`);
}

export function createEquihashDigester(): EquihashDigester | null {
  if (typeof WebAssembly === 'undefined') return null;
  let x: EquihashExports;
  let input: number, personalAt: number, countersAt: number, outAt: number, maxBatch: number;
  try {
    x = requireWasmFunctions('equihash', instantiateWasm('equihash'), ['inputPointer', 'prepare', 'digests']) as unknown as EquihashExports;
    input = x.inputPointer();
    personalAt = x.PERSONAL.value as number;
    countersAt = x.COUNTERS.value as number;
    outAt = x.OUT.value as number;
    maxBatch = x.MAX_COUNTERS.value as number;
  } catch {
    return null;
  }
  let mem = new Uint8Array(x.memory.buffer);
  let counters = new Uint32Array(x.memory.buffer, countersAt, maxBatch);
  let out = mem.subarray(outAt, outAt + maxBatch * EQUIHASH_DIGEST_STRIDE);

  return {
    maxBatch,
    begin(personal, digestLength, bytes) {
      if (personal.length !== 16 || !Number.isInteger(digestLength) || digestLength < 1 || digestLength > 64)
        throw new RangeError('BLAKE2b: digest of 1..64 bytes, 16-byte personalization');
      if (counterCrossesBlocks(bytes.length)) throw new RangeError('Equihash digester: the counter would cross a block boundary');
      if (input + bytes.length > mem.length) {
        x.memory.grow(Math.ceil((input + bytes.length - mem.length) / PAGE));
        mem = new Uint8Array(x.memory.buffer);
        counters = new Uint32Array(x.memory.buffer, countersAt, maxBatch);
        out = mem.subarray(outAt, outAt + maxBatch * EQUIHASH_DIGEST_STRIDE);
      }
      mem.set(personal, personalAt);
      mem.set(bytes, input);
      x.prepare(bytes.length, digestLength);
    },
    digestMany(from, count) {
      checkBatch(from, count, maxBatch);
      for (let j = 0; j < count; j++) counters[j] = from[j]!;
      x.digests(count);
      return out;
    },
  };
}
