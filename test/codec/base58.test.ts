// The hand-written Base58(Check) encoder against bs58 / bs58check, and the address table that
// memoizes it (src/codec/script/address.ts) on hashes that share a slot.
import bs58 from 'bs58';
import bs58check from 'bs58check';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAINNET, TESTNET } from '../../src/chain/network.js';
import { addressTable, encodeTransparentAddress } from '../../src/codec/script/address.js';
import { BASE58_MAX_INPUT, base58EncodeInto } from '../../src/codec/script/base58.js';
import { sha256d } from '../../src/crypto/hash.js';

const text = Buffer.alloc(2 * BASE58_MAX_INPUT);
const base58Encode = (b: Uint8Array): string => text.toString('latin1', 0, base58EncodeInto(b, 0, b.length, b, 0, 0, text, 0));
// Base58Check as the address table writes it: the payload, then its checksum as the tail.
const base58CheckEncode = (b: Uint8Array): string =>
  text.toString('latin1', 0, base58EncodeInto(b, 0, b.length, sha256d(b), 0, 4, text, 0));

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

  it('equals bs58 on 26 bytes (an address with its checksum, converted by its own unrolled path), leading zeros and extremes included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 26, maxLength: 26 }), fc.integer({ min: 0, max: 26 }), (b, zeros) => {
        b.fill(0, 0, zeros);
        expect(base58Encode(b)).toBe(bs58.encode(b));
      }),
      { numRuns: 5000, seed: 26 },
    );
    for (const fill of [0, 1, 57, 58, 255]) {
      const b = new Uint8Array(26).fill(fill);
      expect(base58Encode(b)).toBe(bs58.encode(b));
    }
    // Real prefixes (t1, t3, tm, t2) with all-zero and all-ones hashes and checksums.
    for (const prefix of [MAINNET.p2pkhPrefix, MAINNET.p2shPrefix, TESTNET.p2pkhPrefix, TESTNET.p2shPrefix])
      for (const fill of [0, 255]) {
        const b = new Uint8Array(26).fill(fill);
        b.set(prefix, 0);
        expect(base58Encode(b)).toBe(bs58.encode(b));
      }
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

  it('requested addresses are encoded together at flush, duplicates and slot collisions included', () => {
    const table = addressTable('p2pkh', TESTNET);
    // 3,000 hashes (past one batch of 1,024, so one flush happens inside request), every
    // tenth requested twice, and pairs sharing a slot (same first two bytes).
    const hashes = Array.from({ length: 3000 }, (_, k) =>
      Uint8Array.from({ length: 20 }, (_, i) => (i < 2 ? (k >> (8 * i)) & 0xff : (k * 31 + i * 7) & 0xff)),
    );
    for (let k = 0; k < 100; k++) hashes.push(Uint8Array.from(hashes[k]!.map((v, i) => (i === 19 ? v ^ 0x5a : v))));
    const scripts = hashes.map((h) => Uint8Array.from([0x76, 0xa9, 0x14, ...h, 0x88, 0xac]));
    scripts.forEach((s, k) => {
      table.request(s, 3);
      if (k % 10 === 0) table.request(s, 3);
    });
    table.flush();
    for (const s of scripts) {
      const slot = table.slotOf(s, 3);
      expect(table.textOf(slot)).toBe(expected(TESTNET.p2pkhPrefix, s.subarray(3, 23)));
    }
    // A request not yet flushed is a miss to slotOf, which encodes it at once; the flush after agrees.
    const late = Uint8Array.from({ length: 20 }, (_, i) => 200 - i);
    table.request(late, 0);
    expect(table.textOf(table.slotOf(late, 0))).toBe(expected(TESTNET.p2pkhPrefix, late));
    table.flush();
    expect(table.textOf(table.slotOf(late, 0))).toBe(expected(TESTNET.p2pkhPrefix, late));
    // A hash encoded at once into the slot of a queued one keeps its text through the flush.
    const queued = Uint8Array.from({ length: 20 }, (_, i) => (i < 2 ? 0xcd : i));
    const other = Uint8Array.from({ length: 20 }, (_, i) => (i < 2 ? 0xcd : 255 - i));
    table.request(queued, 0);
    const slot = table.slotOf(other, 0);
    table.flush();
    expect(table.textOf(slot)).toBe(expected(TESTNET.p2pkhPrefix, other));
    expect(table.textOf(table.slotOf(other, 0))).toBe(expected(TESTNET.p2pkhPrefix, other));
    expect(table.textOf(table.slotOf(queued, 0))).toBe(expected(TESTNET.p2pkhPrefix, queued));
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
