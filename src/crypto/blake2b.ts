/**
 * Personalised BLAKE2b-256 on blake2b-wasm's compression function, driven from here.
 *
 * Why not blake2b-wasm's own API: per hash it builds an object and a memory view, runs the
 * parameter-block setup, and its update copies the input into the block buffer one byte at a
 * time inside WebAssembly. ZIP-244 makes 6–20 small hashes per transaction, so that overhead was
 * most of a v5 txid. Here the initial state of each personalization is computed once (by the
 * package's own `blake2b_init`), input is copied with native memcpy, and only the package's
 * `blake2b_compress` runs per 128-byte block, faster than the package's API on small and
 * kilobyte inputs alike. The compression code is still the package's;
 * tests check this driver against @noble/hashes on random splits and against the ZIP-244 vectors.
 *
 * Layout of a context in the module's memory, as blake2b.wat defines it:
 *   +0   128-byte block buffer   +128 h[0..7] (64 bytes)   +192 t (u64 byte counter)
 *   +200 c (u64 buffer fill)     +208 f (u64 last-block flag)
 * Bytes 0..63 of memory are the parameter block `blake2b_init` reads.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface Blake2bModule {
  memory: WebAssembly.Memory;
  blake2b_init(ctx: number, outlen: number): void;
  blake2b_compress(ctx: number): void;
}

const CTX = 64;
/** Where a long input is staged before being copied block by block into the context. */
const STAGE = 512;
const BLOCK = 128;
const OUT_BYTES = 32;

/**
 * Instantiates blake2b-wasm's module synchronously. The package only offers an async loader, and
 * awaiting it at the top level would make every importer an async module, which `require()`
 * cannot load (ERR_REQUIRE_ASYNC_MODULE). Its `blake2b.js` carries the compiled module as one
 * base64 literal, so the same bytes are read from there and compiled with the synchronous
 * WebAssembly API (the module is ~5 kB, well within what engines allow to compile synchronously).
 * Anything unexpected returns null and hashing falls back to @noble/hashes with identical results.
 * Each call makes a new instance with its own memory.
 */
export function instantiateBlake2bWasm(): Blake2bModule | null {
  if (typeof WebAssembly === 'undefined') return null;
  try {
    const source = readFileSync(createRequire(import.meta.url).resolve('blake2b-wasm/blake2b.js'), 'utf8');
    const literal = /__toBinary\("([A-Za-z0-9+/=]+)"\)/.exec(source)?.[1];
    if (literal === undefined) return null;
    const exports = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(literal, 'base64'))).exports;
    const m = exports as unknown as Partial<Blake2bModule>;
    if (!(m.memory instanceof WebAssembly.Memory) || typeof m.blake2b_init !== 'function' || typeof m.blake2b_compress !== 'function')
      return null;
    return m as Blake2bModule;
  } catch {
    return null;
  }
}

const wasm: Blake2bModule | null = instantiateBlake2bWasm();

// This module's own instance: nothing else grows its memory, so the views stay valid until
// ensureStage grows it (reading `memory.buffer` on every hash showed in profiles).
let mem = wasm ? new Uint8Array(wasm.memory.buffer) : new Uint8Array(0);
let view = new DataView(mem.buffer);

/** Makes room to stage `bytes` of input, re-taking the views if the memory had to grow. */
function ensureStage(bytes: number): void {
  const need = STAGE + bytes;
  if (need <= mem.length) return;
  const m = wasm!.memory;
  m.grow(Math.ceil((need - m.buffer.byteLength) / 65536));
  mem = new Uint8Array(m.buffer);
  view = new DataView(m.buffer);
}

/** Whether this module can hash (WebAssembly present); callers fall back otherwise. */
export const wasmBlake2bAvailable = wasm !== null;

/**
 * Context bytes 128..215 at the start of a hash: the chaining value after `blake2b_init` for a
 * 32-byte digest and this personalization, then t = c = f = 0, so one copy resets everything.
 */
const initialStates = new WeakMap<Uint8Array, Uint8Array>();

function initialState(personal: Uint8Array): Uint8Array {
  let h = initialStates.get(personal);
  if (h === undefined) {
    if (personal.length !== 16) throw new RangeError('BLAKE2b personalization must be 16 bytes');
    ensureStage(0);
    mem.fill(0, 0, 64);
    mem[0] = OUT_BYTES; // digest length
    mem[2] = 1; // fanout
    mem[3] = 1; // depth
    mem.set(personal, 48);
    wasm!.blake2b_init(CTX, OUT_BYTES);
    h = mem.slice(CTX + 128, CTX + 216);
    h.fill(0, 64);
    initialStates.set(personal, h);
  }
  return h;
}

function setCounter(total: number): void {
  view.setUint32(CTX + 192, total >>> 0, true);
  view.setUint32(CTX + 196, Math.floor(total / 0x100000000), true);
}

/**
 * BLAKE2b-256 of the concatenation of `parts`, personalised. `personal` should be a long-lived
 * array (its initial state is cached by identity), as `personalization()` returns.
 */
export function wasmBlake2b256(personal: Uint8Array, parts: readonly Uint8Array[]): Uint8Array {
  mem.set(initialState(personal), CTX + 128);
  const compress = wasm!.blake2b_compress;
  let fill = 0;
  let total = 0;
  for (const p of parts) {
    const n = p.length;
    if (n === 0) continue;
    if (fill + n <= BLOCK) {
      // Fits in the block buffer; a full buffer is compressed only once more input arrives,
      // because the last block must be compressed with the final flag.
      mem.set(p, CTX + fill);
      fill += n;
      continue;
    }
    ensureStage(n);
    mem.set(p, STAGE);
    let off = 0;
    while (off < n) {
      if (fill === BLOCK) {
        total += BLOCK;
        setCounter(total);
        compress(CTX);
        fill = 0;
      }
      const k = Math.min(BLOCK - fill, n - off);
      mem.copyWithin(CTX + fill, STAGE + off, STAGE + off + k);
      fill += k;
      off += k;
    }
  }
  total += fill;
  setCounter(total);
  view.setInt32(CTX + 208, -1, true);
  view.setInt32(CTX + 212, -1, true);
  mem.fill(0, CTX + fill, CTX + BLOCK);
  compress(CTX);
  return mem.slice(CTX + 128, CTX + 128 + OUT_BYTES);
}
