/**
 * Base58Check checksums of t-address payloads (a 2-byte prefix and a 20-byte hash), many at a
 * time: WebAssembly hashes four per SIMD instruction (assembly/address-checksums.ts), which
 * beats two node:crypto calls per payload when a block brings tens of thousands of fresh
 * addresses. Without the module (or with ZECRPC_PURE_ADDRESSES=1) each is node:crypto's
 * SHA-256d, with the same results.
 */
import { sha256d } from './hash.js';
import { instantiateWasm } from '../wasm-module.js';

/** A t-address payload: prefix and hash. */
export const ADDRESS_PAYLOAD_BYTES = 22;

interface ChecksumExports {
  memory: WebAssembly.Memory;
  inputPointer(): number;
  outputPointer(): number;
  capacity(): number;
  checksums(count: number): void;
  /** Absent from a module built from an older assembly/address-checksums.ts. */
  texts?(count: number): void;
  textsPointer?(): number;
}

interface Instance {
  exports: ChecksumExports;
  input: Uint8Array;
  output: DataView;
  capacity: number;
  /** The texts' records (ADDRESS_TEXT_RECORD bytes each), or null when the module cannot write them. */
  texts: Uint8Array | null;
}

let instance: Instance | null | undefined;

function load(): Instance | null {
  if (process.env.ZECRPC_PURE_ADDRESSES === '1' || typeof WebAssembly === 'undefined') return null;
  try {
    const x = instantiateWasm('address-checksums') as unknown as ChecksumExports;
    const capacity = x.capacity();
    // The module's memory never grows, so these views stay valid.
    return {
      exports: x,
      capacity,
      input: new Uint8Array(x.memory.buffer, x.inputPointer(), ADDRESS_PAYLOAD_BYTES * capacity),
      output: new DataView(x.memory.buffer, x.outputPointer(), 4 * capacity),
      texts:
        typeof x.texts === 'function' && typeof x.textsPointer === 'function'
          ? new Uint8Array(x.memory.buffer, x.textsPointer(), ADDRESS_TEXT_RECORD * capacity)
          : null,
    };
  } catch {
    return null;
  }
}

/** A text's record in addressTexts' result: its length, then from ADDRESS_TEXT_AT its characters (word-aligned, read as words). */
export const ADDRESS_TEXT_RECORD = 40;
export const ADDRESS_TEXT_AT = 4;

/**
 * The Base58Check texts of the `count` payloads in `payloads` (22 bytes apart from its start),
 * checksums and Base58 in one WebAssembly call: payload i's text is `texts[40·i + 4, + texts[40·i])`
 * of the result, valid until the next call. Null when the module is missing, predates this, or
 * `count` exceeds its capacity (1024): the caller then encodes them itself.
 */
export function addressTexts(payloads: Uint8Array, count: number): Uint8Array | null {
  if (instance === undefined) instance = load();
  const w = instance;
  if (w === null || w.texts === null || count > w.capacity) return null;
  w.input.set(payloads.subarray(0, ADDRESS_PAYLOAD_BYTES * count));
  w.exports.texts!(count);
  return w.texts;
}

/** Whether checksums are computed in WebAssembly. */
export function wasmAddressChecksumsAvailable(): boolean {
  if (instance === undefined) instance = load();
  return instance !== null;
}

/**
 * For the `count` payloads in `payloads` (22 bytes apart from its start), writes each one's
 * checksum, the first four bytes of its SHA-256d, into `out` from 4 · its index.
 */
export function addressChecksums(payloads: Uint8Array, count: number, out: Uint8Array): void {
  if (instance === undefined) instance = load();
  const w = instance;
  if (w === null) {
    for (let i = 0; i < count; i++) {
      const at = ADDRESS_PAYLOAD_BYTES * i;
      const digest = sha256d(payloads.subarray(at, at + ADDRESS_PAYLOAD_BYTES));
      for (let j = 0; j < 4; j++) out[4 * i + j] = digest[j]!;
    }
    return;
  }
  for (let done = 0; done < count; done += w.capacity) {
    const n = Math.min(w.capacity, count - done);
    w.input.set(payloads.subarray(ADDRESS_PAYLOAD_BYTES * done, ADDRESS_PAYLOAD_BYTES * (done + n)));
    w.exports.checksums(n);
    for (let i = 0; i < n; i++) {
      const word = w.output.getUint32(4 * i, true);
      const at = 4 * (done + i);
      out[at] = word >>> 24;
      out[at + 1] = (word >>> 16) & 0xff;
      out[at + 2] = (word >>> 8) & 0xff;
      out[at + 3] = word & 0xff;
    }
  }
}
