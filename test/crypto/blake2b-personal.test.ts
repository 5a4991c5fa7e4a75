// The variable-length personalised BLAKE2b driver (crypto/blake2b-personal.ts) against
// @noble/hashes on lengths around the 128-byte block boundary and every digest length.
import { blake2b } from '@noble/hashes/blake2.js';
import { describe, expect, it } from 'vitest';
import { blake2bPersonal } from '../../src/crypto/blake2b-personal.js';

const personal = Uint8Array.from('UA_F4Jumble_G\x01\x02\x03', (c) => c.charCodeAt(0));
/** Deterministic bytes (an LCG), so the test needs no randomness. */
const bytes = (n: number, seed: number): Uint8Array => {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
};

describe('blake2bPersonal', () => {
  it.each([0, 1, 63, 64, 127, 128, 129, 255, 256, 257, 1000, 70_000])('a %i-byte message, digests of 1..64 bytes', (n) => {
    const message = bytes(n, n + 1);
    for (const out of [1, 2, 31, 32, 33, 48, 63, 64]) {
      expect(Buffer.from(blake2bPersonal(out, personal, message)).toString('hex')).toBe(
        Buffer.from(blake2b(message, { dkLen: out, personalization: personal })).toString('hex'),
      );
    }
  });

  it('refuses digest lengths outside 1..64 and personalizations other than 16 bytes', () => {
    expect(() => blake2bPersonal(65, personal, new Uint8Array(1))).toThrow(RangeError);
    expect(() => blake2bPersonal(32, personal.subarray(0, 8), new Uint8Array(1))).toThrow(RangeError);
  });
});
