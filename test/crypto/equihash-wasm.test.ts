import { blake2b } from '@noble/hashes/blake2.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEquihashDigester, EQUIHASH_DIGEST_STRIDE } from '../../src/crypto/equihash-wasm.js';
import { wasmPersonalBlake2b256 } from '../../src/crypto/zip244-wasm.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function withCounter(input: Uint8Array, counter: number): Uint8Array {
  const msg = new Uint8Array(input.length + 4);
  msg.set(input);
  new DataView(msg.buffer).setUint32(input.length, counter, true);
  return msg;
}

describe('two-lane BLAKE2b (assembly/blake2b/blake2b-x2.ts) through the Equihash digester', () => {
  const d = createEquihashDigester()!;

  it('is available here', () => {
    expect(d).not.toBeNull();
    expect(d.maxBatch).toBe(64);
  });

  it('matches @noble/hashes and the scalar core (blake2b.ts) for any personalization, digest length and input', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.integer({ min: 1, max: 64 }),
        fc.uint8Array({ minLength: 0, maxLength: 600, size: 'max' }).filter((input) => input.length % 128 <= 124),
        fc.array(fc.nat({ max: 0xffffffff }), { minLength: 1, maxLength: 64, size: 'max' }),
        (personal, digestLength, input, counters) => {
          d.begin(personal, digestLength, input);
          const out = d.digestMany(Uint32Array.from(counters), counters.length);
          counters.forEach((c, j) => {
            const msg = withCounter(input, c);
            const got = out.subarray(j * EQUIHASH_DIGEST_STRIDE, j * EQUIHASH_DIGEST_STRIDE + digestLength);
            expect(hex(got)).toBe(hex(blake2b(msg, { dkLen: digestLength, personalization: personal })));
            if (digestLength === 32) expect(hex(got)).toBe(hex(wasmPersonalBlake2b256(personal, msg)!));
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a digest does not depend on the other lane or on the batch it came in', () => {
    const personal = new Uint8Array(16).fill(7);
    const input = new Uint8Array(140).map((_, i) => i);
    d.begin(personal, 50, input);
    const alone = hex(d.digestMany(Uint32Array.of(5), 1).subarray(0, 50));
    const paired = d.digestMany(Uint32Array.of(9, 5, 5), 3);
    expect(hex(paired.subarray(EQUIHASH_DIGEST_STRIDE, EQUIHASH_DIGEST_STRIDE + 50))).toBe(alone);
    expect(hex(paired.subarray(2 * EQUIHASH_DIGEST_STRIDE, 2 * EQUIHASH_DIGEST_STRIDE + 50))).toBe(alone);
  });

  it('refuses a bad personalization or digest length with a RangeError', () => {
    expect(() => d.begin(new Uint8Array(15), 32, new Uint8Array(0))).toThrow(RangeError);
    expect(() => d.begin(new Uint8Array(16), 0, new Uint8Array(0))).toThrow(RangeError);
    expect(() => d.begin(new Uint8Array(16), 65, new Uint8Array(0))).toThrow(RangeError);
    expect(() => d.begin(new Uint8Array(16), 50.5, new Uint8Array(0))).toThrow(RangeError);
  });

  it('refuses an input whose counter would cross a block boundary, and then hashes the next one right', () => {
    const personal = new Uint8Array(16).fill(3);
    for (const length of [125, 126, 127, 253, 255]) {
      expect(() => d.begin(personal, 50, new Uint8Array(length))).toThrow(/cross a block boundary/);
    }
    const input = new Uint8Array(140).map((_, i) => i);
    d.begin(personal, 50, input);
    expect(hex(d.digestMany(Uint32Array.of(9), 1).subarray(0, 50))).toBe(
      hex(blake2b(withCounter(input, 9), { dkLen: 50, personalization: personal })),
    );
  });

  it('refuses a count of counters it does not hold', () => {
    d.begin(new Uint8Array(16), 50, new Uint8Array(140));
    expect(() => d.digestMany(new Uint32Array(2), 3)).toThrow(RangeError);
    expect(() => d.digestMany(new Uint32Array(65), 65)).toThrow(RangeError);
    expect(() => d.digestMany(new Uint32Array(2), -1)).toThrow(RangeError);
    expect(() => d.digestMany(new Uint32Array(2), 1.5)).toThrow(RangeError);
  });
});
