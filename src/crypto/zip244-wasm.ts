/**
 * ZIP-244 digests of a v5 transaction, or ZIP-229 digests of a v6 one (the module tells them by
 * the header's version), in one call into WebAssembly (assembly/zip244.ts): the
 * module walks the serialized transaction and runs every personalised BLAKE2b-256 of the tree
 * itself, so a txid costs one copy of the bytes and one call instead of a call per sub-hash.
 *
 * The module is instantiated on first use. When it cannot be (no WebAssembly, module not built)
 * or ZECRPC_PURE_TXID=1 is set, every function here returns null and callers use the
 * field-by-field TypeScript path, which gives the same digests.
 */
import { instantiateWasm } from './sapling/wasm-field.js';

interface Zip244Exports {
  memory: WebAssembly.Memory;
  OUTPUT: WebAssembly.Global;
  WANT_TXID: WebAssembly.Global;
  WANT_AUTH: WebAssembly.Global;
  inputPointer(): number;
  digests(length: number, want: number): number;
  personalHash(input: number, length: number, personal: number, out: number): void;
}

interface Instance {
  exports: Zip244Exports;
  input: number;
  output: number;
  wantTxid: number;
  wantAuth: number;
  /** View of the whole memory, re-taken whenever the memory grows. */
  mem: Uint8Array;
}

const PAGE = 65536;

let instance: Instance | null | undefined;

function load(): Instance | null {
  if (process.env.ZECRPC_PURE_TXID === '1' || typeof WebAssembly === 'undefined') return null;
  try {
    const x = instantiateWasm('zip244') as unknown as Zip244Exports;
    return {
      exports: x,
      input: x.inputPointer(),
      output: x.OUTPUT.value as number,
      wantTxid: x.WANT_TXID.value as number,
      wantAuth: x.WANT_AUTH.value as number,
      mem: new Uint8Array(x.memory.buffer),
    };
  } catch {
    return null;
  }
}

function get(): Instance | null {
  if (instance === undefined) instance = load();
  return instance;
}

/** Whether the WebAssembly path is in use (false: ZECRPC_PURE_TXID=1 or the module is unavailable). */
export function zip244WasmAvailable(): boolean {
  return get() !== null;
}

/** Makes the module's memory at least `bytes` long (growing detaches the old view). */
function reserve(w: Instance, bytes: number): void {
  if (bytes <= w.mem.length) return;
  const m = w.exports.memory;
  m.grow(Math.ceil((bytes - m.buffer.byteLength) / PAGE));
  w.mem = new Uint8Array(m.buffer);
}

/** Copies `wire` into the module and hashes it; false when the bytes are not one v5 or v6 layout. */
function run(w: Instance, wire: Uint8Array, want: number): boolean {
  reserve(w, w.input + wire.length);
  w.mem.set(wire, w.input);
  return w.exports.digests(wire.length, want) === 0;
}

/**
 * The txid (internal byte order) of the v5 (ZIP 244) or v6 (ZIP 229) transaction serialized as
 * exactly `wire`, or null when the WebAssembly path is unavailable or `wire` is not one v5 or v6
 * transaction's bytes.
 */
export function wasmZip244TxId(wire: Uint8Array): Uint8Array | null {
  const w = get();
  if (w === null || !run(w, wire, w.wantTxid)) return null;
  return w.mem.slice(w.output, w.output + 32);
}

/** The auth digest of `wire`, as wasmZip244TxId. */
export function wasmZip244AuthDigest(wire: Uint8Array): Uint8Array | null {
  const w = get();
  if (w === null || !run(w, wire, w.wantAuth)) return null;
  return w.mem.slice(w.output + 32, w.output + 64);
}

/** Both digests from one walk over `wire`, as wasmZip244TxId. */
export function wasmZip244Digests(wire: Uint8Array): { txid: Uint8Array; authDigest: Uint8Array } | null {
  const w = get();
  if (w === null || !run(w, wire, w.wantTxid | w.wantAuth)) return null;
  return { txid: w.mem.slice(w.output, w.output + 32), authDigest: w.mem.slice(w.output + 32, w.output + 64) };
}

/**
 * BLAKE2b-256 of `data` personalised with the 16 bytes `personal`, by the module's hash core
 * alone (for checking that core against a reference implementation); null without the module.
 */
export function wasmPersonalBlake2b256(personal: Uint8Array, data: Uint8Array): Uint8Array | null {
  const w = get();
  if (w === null) return null;
  if (personal.length !== 16) throw new RangeError('BLAKE2b personalization must be 16 bytes');
  const at = w.input;
  const personalAt = at + data.length;
  const out = personalAt + 16;
  reserve(w, out + 32);
  w.mem.set(data, at);
  w.mem.set(personal, personalAt);
  w.exports.personalHash(at, data.length, personalAt, out);
  return w.mem.slice(out, out + 32);
}
