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
}

interface Instance {
  exports: ChecksumExports;
  input: Uint8Array;
  output: DataView;
  capacity: number;
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
    };
  } catch {
    return null;
  }
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
