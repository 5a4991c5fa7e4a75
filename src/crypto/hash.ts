/**
 * The hash functions the codec needs, behind one small module so the implementation can be
 * swapped without touching callers.
 *
 * - SHA-256 / SHA-256d: node:crypto (OpenSSL, native).
 * - Personalised BLAKE2b-256: blake2b-wasm's compression function (driven by ./blake2b.ts),
 *   much faster than @noble/hashes for the many small ZIP-244 inputs; @noble/hashes
 *   is the fallback where WebAssembly is missing.
 * - RIPEMD-160 (for HASH160 of public keys): @noble/hashes, since OpenSSL 3 may not ship it.
 */
import * as nodeCrypto from 'node:crypto';
import { blake2b as nobleBlake2b } from '@noble/hashes/blake2.js';
import { ripemd160, sha1 } from '@noble/hashes/legacy.js';
import { wasmBlake2b256, wasmBlake2bAvailable } from './blake2b.js';

const { createHash } = nodeCrypto;

/**
 * One-shot `crypto.hash` (Node ≥ 20.12) skips the Hash object; older Node falls back to createHash.
 *
 * Digests are asked for as latin1 text and copied into bytes here: asking Node for a Buffer
 * costs a fresh native backing store per call (~650 ns measured, against ~200 ns for the whole
 * hash of 32 bytes), which made a transaction's SHA-256d cost three times its hashing.
 */
const oneShot = (nodeCrypto as { hash?: (alg: string, data: Uint8Array, enc: 'binary') => string }).hash;

const sha256Text: (data: Uint8Array) => string = oneShot
  ? (data) => oneShot('sha256', data, 'binary') // 'binary' is Node's name for latin1
  : (data) => createHash('sha256').update(data).digest('binary');

/** The 32 bytes of a latin1 digest string. */
function digestBytes(text: string): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = text.charCodeAt(i);
  return out;
}

// Scratch space for intermediate digests and merkle pairs. Hashing is synchronous, so one
// module-level buffer is never shared by two calls in flight.
const scratch = Buffer.allocUnsafeSlow(64);
const scratch32 = scratch.subarray(0, 32);

export function sha256(data: Uint8Array): Uint8Array {
  return digestBytes(sha256Text(data));
}

/**
 * The second SHA-256 of a SHA-256d, over the first digest given as latin1 text. The text is
 * copied into the scratch bytes by a JS loop: Buffer#write is a native call that cost more
 * than the copy (~45 ns against ~15 ns per hash, measured).
 */
function secondSha256(text: string): Uint8Array {
  for (let i = 0; i < 32; i++) scratch32[i] = text.charCodeAt(i);
  return digestBytes(sha256Text(scratch32));
}

export function sha256d(data: Uint8Array): Uint8Array {
  return secondSha256(sha256Text(data));
}

/** SHA-256d over the concatenation of two 32-byte values (merkle nodes). */
export function sha256dPair(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length !== 32 || b.length !== 32) throw new RangeError('sha256dPair: two 32-byte values expected');
  scratch.set(a, 0);
  scratch.set(b, 32);
  return secondSha256(sha256Text(scratch));
}

export function hash160(data: Uint8Array): Uint8Array {
  return ripemd160(sha256(data));
}

/** RIPEMD-160 and SHA-1 alone: script's OP_RIPEMD160 and OP_SHA1. */
export function ripemd160Of(data: Uint8Array): Uint8Array {
  return ripemd160(data);
}

export function sha1Of(data: Uint8Array): Uint8Array {
  return sha1(data);
}

const personalCache = new Map<string, Uint8Array>();
/** tag → branch id → personalization; the numeric inner key avoids building a string per call. */
const branchPersonalCache = new Map<string, Map<number, Uint8Array>>();

/** 16-byte personalization from an ASCII tag, optionally followed by LE32(branchId) in the last 4 bytes. */
export function personalization(tag: string, branchId?: number): Uint8Array {
  if (branchId === undefined) {
    let p = personalCache.get(tag);
    if (!p) personalCache.set(tag, (p = makePersonalization(tag)));
    return p;
  }
  let byBranch = branchPersonalCache.get(tag);
  if (!byBranch) branchPersonalCache.set(tag, (byBranch = new Map()));
  let p = byBranch.get(branchId);
  if (!p) byBranch.set(branchId, (p = makePersonalization(tag, branchId)));
  return p;
}

function makePersonalization(tag: string, branchId?: number): Uint8Array {
  const p = new Uint8Array(16);
  for (let i = 0; i < tag.length; i++) p[i] = tag.charCodeAt(i);
  if (branchId !== undefined) new DataView(p.buffer).setUint32(12, branchId >>> 0, true);
  return p;
}

/** An incremental BLAKE2b-256 with a 16-byte personalization. */
export interface Blake2bState {
  update(data: Uint8Array): Blake2bState;
  digest(): Uint8Array;
}

/**
 * Incremental form of `blake2b256Of`. With WebAssembly the parts are only collected and hashed
 * at `digest()`, so several states can be filled in turn (ZIP-244 fills three per bundle) while
 * the hashing itself uses one context; the parts must therefore stay unchanged until then
 * (callers pass views of transaction bytes, which never change).
 */
export function blake2b256(personal: Uint8Array): Blake2bState {
  if (wasmBlake2bAvailable) {
    const parts: Uint8Array[] = [];
    return {
      update(data) {
        parts.push(data);
        return this;
      },
      digest() {
        return wasmBlake2b256(personal, parts);
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
  if (wasmBlake2bAvailable) return wasmBlake2b256(personal, parts);
  return nobleBlake2b(concat(parts), { dkLen: 32, personalization: personal });
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  n = 0;
  for (const p of parts) {
    out.set(p, n);
    n += p.length;
  }
  return out;
}

/** SHA-256d over data handed in pieces (zcashd's CHashWriter): `update` as often as needed, then `digest` once. */
export interface Sha256dStream {
  update(data: Uint8Array): void;
  digest(): Uint8Array;
}

export function sha256dStream(): Sha256dStream {
  const inner = createHash('sha256');
  return {
    update: (data) => void inner.update(data),
    digest: () => digestBytes(sha256Text(digestBytes(inner.digest('binary')))),
  };
}
