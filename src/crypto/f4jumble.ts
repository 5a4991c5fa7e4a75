/**
 * F4Jumble and its inverse (ZIP 316 §"Jumbling"): the unkeyed 4-round Feistel permutation
 * that unified addresses and viewing keys are encoded under, so that changing any part of an
 * encoding changes all of it. The round functions are personalised BLAKE2b: H_i truncated to
 * the left part's length, G_i the concatenation of 64-byte blocks over the right part.
 */
import { blake2bPersonal } from './blake2b-personal.js';

/** The shortest and longest messages F4Jumble is defined on (ℓ^MIN_M, ℓ^MAX_M). */
export const F4JUMBLE_MIN_LENGTH = 48;
export const F4JUMBLE_MAX_LENGTH = 4194368;

const OUT_BYTES = 64;

function personal(tag: string, i: number, j = 0): Uint8Array {
  const p = new Uint8Array(16);
  for (let k = 0; k < tag.length; k++) p[k] = tag.charCodeAt(k);
  p[tag.length] = i;
  p[tag.length + 1] = j & 0xff;
  p[tag.length + 2] = j >> 8;
  return p;
}

/** target ^= H_i(u), over the left part's length. */
function xorH(i: number, u: Uint8Array, target: Uint8Array): void {
  const h = blake2bPersonal(target.length, personal('UA_F4Jumble_H', i), u);
  for (let k = 0; k < target.length; k++) target[k]! ^= h[k]!;
}

/** target ^= G_i(u), over the right part's length. */
function xorG(i: number, u: Uint8Array, target: Uint8Array): void {
  for (let j = 0; j * OUT_BYTES < target.length; j++) {
    const g = blake2bPersonal(OUT_BYTES, personal('UA_F4Jumble_G', i, j), u);
    const base = j * OUT_BYTES;
    const end = Math.min(OUT_BYTES, target.length - base);
    for (let k = 0; k < end; k++) target[base + k]! ^= g[k]!;
  }
}

function checkLength(n: number): void {
  if (n < F4JUMBLE_MIN_LENGTH || n > F4JUMBLE_MAX_LENGTH) {
    throw new RangeError(`F4Jumble is defined on ${F4JUMBLE_MIN_LENGTH}..${F4JUMBLE_MAX_LENGTH} bytes, got ${n}`);
  }
}

function split(message: Uint8Array): [Uint8Array, Uint8Array, Uint8Array] {
  const out = Uint8Array.from(message);
  const leftLength = Math.min(OUT_BYTES, message.length >> 1);
  return [out, out.subarray(0, leftLength), out.subarray(leftLength)];
}

/** F4Jumble(M). Throws RangeError outside the defined lengths. */
export function f4jumble(message: Uint8Array): Uint8Array {
  checkLength(message.length);
  const [out, a, b] = split(message);
  xorG(0, a, b); // x = b ⊕ G_0(a)
  xorH(0, b, a); // y = a ⊕ H_0(x)
  xorG(1, a, b); // d = x ⊕ G_1(y)
  xorH(1, b, a); // c = y ⊕ H_1(d)
  return out;
}

/** F4Jumble⁻¹(M). Throws RangeError outside the defined lengths. */
export function f4jumbleInverse(message: Uint8Array): Uint8Array {
  checkLength(message.length);
  const [out, c, d] = split(message);
  xorH(1, d, c); // y = c ⊕ H_1(d)
  xorG(1, c, d); // x = d ⊕ G_1(y)
  xorH(0, d, c); // a = y ⊕ H_0(x)
  xorG(0, c, d); // b = x ⊕ G_0(a)
  return out;
}
