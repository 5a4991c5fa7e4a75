/**
 * The hash functions the codec needs, behind one small module so the implementation can be
 * swapped without touching callers.
 *
 * - SHA-256 / SHA-256d: node:crypto (OpenSSL, native).
 * - Personalised BLAKE2b-256: blake2b-wasm, measured ≈10× faster than @noble/hashes for the
 *   many small ZIP-244 inputs; @noble/hashes is the fallback where WebAssembly is missing.
 * - RIPEMD-160 (for HASH160 of public keys): @noble/hashes, since OpenSSL 3 may not ship it.
 */
import { createHash } from 'node:crypto';
import blake2bWasm from 'blake2b-wasm';
import { blake2b as nobleBlake2b } from '@noble/hashes/blake2.js';
import { ripemd160 } from '@noble/hashes/legacy.js';

await new Promise<void>((resolve) => {
  if (!blake2bWasm.SUPPORTED) return resolve();
  blake2bWasm.ready(() => resolve());
});
const useWasm = blake2bWasm.SUPPORTED;

export function sha256(data: Uint8Array): Uint8Array {
  return createHash('sha256').update(data).digest();
}

export function sha256d(data: Uint8Array): Uint8Array {
  return createHash('sha256').update(createHash('sha256').update(data).digest()).digest();
}

/** SHA-256d over the concatenation of two 32-byte values (merkle nodes). */
export function sha256dPair(a: Uint8Array, b: Uint8Array): Uint8Array {
  return createHash('sha256').update(createHash('sha256').update(a).update(b).digest()).digest();
}

export function hash160(data: Uint8Array): Uint8Array {
  return ripemd160(sha256(data));
}

const personalCache = new Map<string, Uint8Array>();

/** 16-byte personalization from an ASCII tag, optionally followed by LE32(branchId) in the last 4 bytes. */
export function personalization(tag: string, branchId?: number): Uint8Array {
  const key = branchId === undefined ? tag : `${tag}#${branchId}`;
  let p = personalCache.get(key);
  if (!p) {
    p = new Uint8Array(16);
    for (let i = 0; i < tag.length; i++) p[i] = tag.charCodeAt(i);
    if (branchId !== undefined) new DataView(p.buffer).setUint32(12, branchId >>> 0, true);
    personalCache.set(key, p);
  }
  return p;
}

/** An incremental BLAKE2b-256 with a 16-byte personalization. */
export interface Blake2bState {
  update(data: Uint8Array): Blake2bState;
  digest(): Uint8Array;
}

export function blake2b256(personal: Uint8Array): Blake2bState {
  if (useWasm) {
    const h = blake2bWasm(32, undefined, undefined, personal);
    return {
      update(data) {
        h.update(data);
        return this;
      },
      digest() {
        return h.digest() as Uint8Array;
      },
    };
  }
  const h = nobleBlake2b.create({ dkLen: 32, personalization: personal });
  return {
    update(data) {
      h.update(data);
      return this;
    },
    digest() {
      return h.digest();
    },
  };
}

/** One-shot BLAKE2b-256 with personalization. */
export function blake2b256Of(personal: Uint8Array, ...parts: Uint8Array[]): Uint8Array {
  const h = blake2b256(personal);
  for (const p of parts) h.update(p);
  return h.digest();
}
