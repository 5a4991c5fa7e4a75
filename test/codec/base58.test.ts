// The hand-written Base58(Check) encoder against bs58 / bs58check, and the address table that
// memoizes it (src/codec/script/address.ts) on hashes that share a slot.
import bs58 from 'bs58';
import bs58check from 'bs58check';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAINNET, TESTNET } from '../../src/chain/network.js';
import { encodeTransparentAddress } from '../../src/codec/script/address.js';
import { BASE58_MAX_INPUT, base58CheckEncode, base58Encode } from '../../src/codec/script/base58.js';

/** Bytes with runs of zeros (leading zeros become '1's) and extreme values. */
const bytes = (max: number) =>
  fc.array(fc.oneof(fc.constant(0), fc.constant(255), fc.integer({ min: 0, max: 255 })), { maxLength: max }).map((a) => Uint8Array.from(a));

describe('base58', () => {
  it('equals bs58 on every length up to the maximum, leading zeros included', () => {
    fc.assert(
      fc.property(bytes(BASE58_MAX_INPUT), (b) => {
        expect(base58Encode(b)).toBe(bs58.encode(b));
      }),
      { numRuns: 3000, seed: 58 },
    );
    for (let n = 0; n <= BASE58_MAX_INPUT; n++) {
      for (const fill of [0, 1, 255]) {
        const b = new Uint8Array(n).fill(fill);
        expect(base58Encode(b)).toBe(bs58.encode(b));
      }
    }
  });

  it('Base58Check equals bs58check, with the checksum bytes taken from the tail', () => {
    fc.assert(
      fc.property(bytes(BASE58_MAX_INPUT - 4), (b) => {
        expect(base58CheckEncode(b)).toBe(bs58check.encode(b));
      }),
      { numRuns: 2000, seed: 5858 },
    );
  });

  it('refuses input beyond the maximum instead of losing precision', () => {
    expect(() => base58Encode(new Uint8Array(BASE58_MAX_INPUT + 1).fill(255))).toThrow(RangeError);
  });
});

describe('transparent address table', () => {
  const expected = (prefix: Uint8Array, hash: Uint8Array) => bs58check.encode(Uint8Array.from([...prefix, ...hash]));

  it('hashes sharing a slot (same first two bytes) evict each other and never answer for each other', () => {
    const hashes = [0, 1, 2, 3].map((k) => Uint8Array.from({ length: 20 }, (_, i) => (i < 2 ? 0xab : (i * 7 + k) & 0xff)));
    // Last byte only differs: a comparison that stopped early would confuse these.
    hashes.push(Uint8Array.from(hashes[0]!.map((v, i) => (i === 19 ? v ^ 1 : v))));
    for (let round = 0; round < 3; round++) {
      for (const h of [...hashes, ...hashes.slice().reverse()]) {
        expect(encodeTransparentAddress('p2pkh', h, MAINNET)).toBe(expected(MAINNET.p2pkhPrefix, h));
      }
    }
  });

  it('keeps networks and kinds apart for the same hash', () => {
    const h = Uint8Array.from({ length: 20 }, (_, i) => i * 13);
    for (let round = 0; round < 2; round++) {
      expect(encodeTransparentAddress('p2pkh', h, MAINNET)).toBe(expected(MAINNET.p2pkhPrefix, h));
      expect(encodeTransparentAddress('p2sh', h, MAINNET)).toBe(expected(MAINNET.p2shPrefix, h));
      expect(encodeTransparentAddress('p2pkh', h, TESTNET)).toBe(expected(TESTNET.p2pkhPrefix, h));
      expect(encodeTransparentAddress('p2sh', h, TESTNET)).toBe(expected(TESTNET.p2shPrefix, h));
    }
  });

  it('answers from the bytes given, not from a view that changed since (a cached hash is a copy)', () => {
    const h = new Uint8Array(20).fill(0x42);
    const first = encodeTransparentAddress('p2pkh', h, MAINNET);
    h[10] = 0x43;
    expect(encodeTransparentAddress('p2pkh', h, MAINNET)).toBe(expected(MAINNET.p2pkhPrefix, h));
    expect(encodeTransparentAddress('p2pkh', h, MAINNET)).not.toBe(first);
  });
});
