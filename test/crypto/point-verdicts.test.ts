// The point checks' verdict memo (src/crypto/point-verdicts.ts): whatever keys come, in whatever
// order, a verdict is the check's own for those 32 bytes (all eight words of the key compared),
// a key seen again is not checked again while it is held, and the memo never holds more than its
// limit: small tables force full probe windows, overwritten slots and wholesale clears.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PointVerdicts } from '../../src/crypto/point-verdicts.js';
import { isCanonicalJubjubPoint, isValidPallasPoint, setPointCheckCache } from '../../src/crypto/curves.js';
import { toHex } from '../../src/codec/hex.js';
import { realTransactions } from '../fuzz/corpus.js';

/** A check whose verdict depends on every byte of the key: the parity of their sum. */
const parity = (b: Uint8Array): boolean => b.subarray(0, 32).reduce((s, x) => s + x, 0) % 2 === 0;

describe('PointVerdicts', () => {
  it("gives the check's verdict for any run of keys, and holds at most its limit", () => {
    fc.assert(
      fc.property(
        fc.constantFrom([2, 1], [16, 8], [64, 5], [1024, 512]),
        // Few distinct keys, so most come again; each differs from the first in one word.
        fc.array(fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 40 })), { maxLength: 400, size: 'max' }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        ([slots, limit], picks, base) => {
          const memo = new PointVerdicts(slots!, limit!);
          for (const [word, value] of picks) {
            const key = Uint8Array.from(base);
            const at = 4 * word + (value % 4);
            key[at] = key[at]! ^ value;
            // In a larger array, at an offset: the key is read in place.
            const host = new Uint8Array(40);
            host.set(key, 5);
            expect(memo.verdict(host.subarray(5, 37), parity)).toBe(parity(key));
            expect(memo.size).toBeLessThanOrEqual(limit!);
          }
        },
      ),
    );
  });

  it('checks a key again only after it was dropped', () => {
    const memo = new PointVerdicts(16384, 512);
    const keys = Array.from({ length: 300 }, (_, i) =>
      Uint8Array.from({ length: 32 }, (_, j) => (i * 7 + j * 13 + (j === 31 ? i >> 3 : 0)) & 0xff),
    );
    let calls = 0;
    const counted = (b: Uint8Array) => (calls++, parity(b));
    for (const k of keys) memo.verdict(k, counted);
    expect(calls).toBe(300);
    for (const k of keys) expect(memo.verdict(k, counted)).toBe(parity(k));
    // 300 keys in 16,384 slots: every one found again (no probe window of these keys fills).
    expect(calls).toBe(300);
    expect(memo.size).toBe(300);
    memo.clear();
    expect(memo.size).toBe(0);
    memo.verdict(keys[0]!, counted);
    expect(calls).toBe(301);
  });

  it('tells keys apart that differ only in their last byte', () => {
    const memo = new PointVerdicts(16, 8);
    const a = new Uint8Array(32);
    const b = new Uint8Array(32);
    b[31] = 1;
    expect(memo.verdict(a, parity)).toBe(true);
    expect(memo.verdict(b, parity)).toBe(false);
    expect(memo.verdict(a, parity)).toBe(true);
  });

  it('clears itself when full, and answers every key after that', () => {
    const memo = new PointVerdicts(8, 4);
    for (let i = 0; i < 50; i++) {
      const k = new Uint8Array(32).fill(i);
      expect(memo.verdict(k, parity)).toBe(parity(k));
      expect(memo.size).toBeLessThanOrEqual(4);
    }
    expect(memo.size).toBeGreaterThan(0);
  });

  it('checks a key shorter than 32 bytes without keeping it', () => {
    const memo = new PointVerdicts(16, 8);
    expect(memo.verdict(new Uint8Array(31), () => true)).toBe(true);
    expect(memo.verdict(new Uint8Array(31), () => false)).toBe(false);
    expect(memo.size).toBe(0);
  });

  it('refuses a table that is not a power of two or has too little room for its limit', () => {
    expect(() => new PointVerdicts(24, 4)).toThrow(RangeError);
    expect(() => new PointVerdicts(16, 9)).toThrow(RangeError);
    expect(() => new PointVerdicts(16, 0)).toThrow(RangeError);
  });
});

describe('the curve checks through the memo', () => {
  /** Every 32-byte field of the real transactions' shielded parts, and each with a byte flipped. */
  function shieldedFields(): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (const { tx } of realTransactions()) {
      const d = tx.data;
      for (const a of d.orchard?.actions ?? []) out.push(a.cv, a.rk, a.ephemeralKey, a.nullifier);
      for (const s of d.sapling?.spends ?? []) out.push(s.cv, s.rk);
      for (const o of d.sapling?.outputs ?? []) out.push(o.cv, o.ephemeralKey, o.cmu);
    }
    return out.flatMap((f) => [f, Uint8Array.from(f, (x, i) => (i === 7 ? x ^ 0x40 : x))]);
  }

  it('give the uncached verdicts, asked twice, on real and altered points', () => {
    const fields = shieldedFields();
    expect(fields.length).toBeGreaterThan(100);
    setPointCheckCache(false);
    const pallas = fields.map((f) => isValidPallasPoint(f));
    const jubjub = fields.map((f) => isCanonicalJubjubPoint(f));
    setPointCheckCache(true);
    try {
      for (let round = 0; round < 2; round++) {
        fields.forEach((f, i) => {
          expect(isValidPallasPoint(f), `${toHex(f)} on Pallas`).toBe(pallas[i]);
          expect(isCanonicalJubjubPoint(f), `${toHex(f)} on Jubjub`).toBe(jubjub[i]);
        });
      }
    } finally {
      setPointCheckCache(true);
    }
    // Both verdicts occur, so a memo answering one constant would fail.
    expect(new Set(pallas).size).toBe(2);
    expect(new Set(jubjub).size).toBe(2);
  });
});
