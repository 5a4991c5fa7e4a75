/**
 * BLAKE2b with any digest length (1–64 bytes) and a 16-byte personalization, one message at a
 * time, on blake2b-wasm's compression function (a module instance of its own, see
 * blake2b.ts for the context layout). F4Jumble hashes the whole right part of a unified
 * address, up to 4 MiB, with such digests; @noble/hashes took seconds for that on the event
 * loop, this takes milliseconds. Without WebAssembly it falls back to @noble/hashes.
 */
import { blake2b } from '@noble/hashes/blake2.js';
import { instantiateBlake2bWasm } from './blake2b.js';

const CTX = 64;
const BLOCK = 128;

const wasm = instantiateBlake2bWasm();
let mem = wasm ? new Uint8Array(wasm.memory.buffer) : new Uint8Array(0);
let view = new DataView(mem.buffer);

function refreshViews(): void {
  if (mem.buffer !== wasm!.memory.buffer) {
    mem = new Uint8Array(wasm!.memory.buffer);
    view = new DataView(mem.buffer);
  }
}

function setCounter(total: number): void {
  view.setUint32(CTX + 192, total >>> 0, true);
  view.setUint32(CTX + 196, Math.floor(total / 0x100000000), true);
}

/** BLAKE2b-(8·outLength) of `input` under `personal` (16 bytes). */
export function blake2bPersonal(outLength: number, personal: Uint8Array, input: Uint8Array): Uint8Array {
  if (wasm === null) return blake2b(input, { dkLen: outLength, personalization: personal });
  if (outLength < 1 || outLength > 64 || personal.length !== 16)
    throw new RangeError('BLAKE2b: digest of 1..64 bytes, 16-byte personalization');
  refreshViews();
  mem.fill(0, 0, CTX);
  mem[0] = outLength;
  mem[2] = 1; // fanout
  mem[3] = 1; // depth
  mem.set(personal, 48);
  wasm.blake2b_init(CTX, outLength);
  mem.fill(0, CTX + 192, CTX + 216); // t, c, f
  const compress = wasm.blake2b_compress;
  let off = 0;
  // Every block but the last is compressed as it comes; the last carries the final flag.
  while (input.length - off > BLOCK) {
    mem.set(input.subarray(off, off + BLOCK), CTX);
    off += BLOCK;
    setCounter(off);
    compress(CTX);
  }
  const rest = input.length - off;
  mem.set(input.subarray(off), CTX);
  mem.fill(0, CTX + rest, CTX + BLOCK);
  setCounter(input.length);
  view.setInt32(CTX + 208, -1, true);
  view.setInt32(CTX + 212, -1, true);
  compress(CTX);
  return mem.slice(CTX + 128, CTX + 128 + outLength);
}
