// The decode-time point and field checks (transaction-format.md §1.8a) against real chain data and
// points built independently from the curve equations.
import { describe, expect, it } from 'vitest';
import {
  isCanonicalJubjubPoint,
  isJubjubBaseField,
  isJubjubSmallOrder,
  isPallasBaseField,
  isValidPallasPoint,
} from '../../src/crypto/curves.js';
import { toHex } from '../../src/codec/hex.js';
import { realTransactions } from '../fuzz/corpus.js';
import {
  P_PALLAS,
  Q_JUBJUB,
  jubjubSmallOrderEncodings,
  le32,
  offCurveJubjubV,
  offCurvePallasX,
  onCurveJubjubV,
  onCurvePallasX,
} from '../fuzz/points.js';

const txs = realTransactions();
const saplingSpends = txs.flatMap((t) => t.tx.data.sapling?.spends ?? []);
const saplingOutputs = txs.flatMap((t) => t.tx.data.sapling?.outputs ?? []);
const orchardBundles = txs.flatMap((t) => (t.tx.data.orchard ? [t.tx.data.orchard] : []));

describe('real Sapling and Orchard data passes every check', () => {
  it('has real shielded data to check', () => {
    expect(saplingSpends.length).toBeGreaterThanOrEqual(20);
    expect(saplingOutputs.length).toBeGreaterThanOrEqual(40);
    expect(orchardBundles.length).toBe(3);
  });
  it('Sapling cv, rk, anchor, cmu', () => {
    for (const s of saplingSpends) {
      expect(isCanonicalJubjubPoint(s.cv) && !isJubjubSmallOrder(s.cv)).toBe(true);
      expect(isCanonicalJubjubPoint(s.rk)).toBe(true);
      expect(isJubjubBaseField(s.anchor)).toBe(true);
    }
    for (const o of saplingOutputs) {
      expect(isCanonicalJubjubPoint(o.cv) && !isJubjubSmallOrder(o.cv)).toBe(true);
      expect(isJubjubBaseField(o.cmu)).toBe(true);
    }
  });
  it('Orchard cv, rk, nullifier, cmx, anchor', () => {
    for (const b of orchardBundles) {
      expect(isPallasBaseField(b.anchor)).toBe(true);
      for (const a of b.actions) {
        expect(isValidPallasPoint(a.cv)).toBe(true);
        expect(isValidPallasPoint(a.rk)).toBe(true);
        expect(isPallasBaseField(a.nullifier)).toBe(true);
        expect(isPallasBaseField(a.cmx)).toBe(true);
      }
    }
  });
  it('flipping the sign bit of a real cv gives the other valid point (−P)', () => {
    for (const s of saplingSpends.slice(0, 5)) {
      const neg = s.cv.slice();
      neg[31]! ^= 0x80;
      expect(isCanonicalJubjubPoint(neg)).toBe(true);
      expect(isJubjubSmallOrder(neg)).toBe(false);
    }
  });
});

describe('Jubjub (ZIP-216 strict)', () => {
  const small = jubjubSmallOrderEncodings();

  it('the 8 small-order encodings are distinct, canonical, small order — and contain (0,±1)', () => {
    expect(new Set(small.map(toHex)).size).toBe(8);
    for (const e of small) {
      expect(isCanonicalJubjubPoint(e)).toBe(true);
      expect(isJubjubSmallOrder(e)).toBe(true);
    }
    const hex = small.map(toHex);
    expect(hex).toContain(toHex(le32(1n))); // identity (0, 1)
    expect(hex).toContain(toHex(le32(Q_JUBJUB - 1n))); // (0, −1), order 2
    expect(hex).toContain(toHex(le32(0n))); // order-4 points have v = 0
    expect(hex).toContain(toHex(le32(0n, true)));
  });

  it('rejects v ≥ q (with or without the sign bit) and the all-ones encoding', () => {
    for (const v of [Q_JUBJUB, Q_JUBJUB + 1n, (1n << 255n) - 1n]) {
      expect(isCanonicalJubjubPoint(le32(v))).toBe(false);
      expect(isCanonicalJubjubPoint(le32(v, true))).toBe(false);
    }
    expect(isCanonicalJubjubPoint(new Uint8Array(32).fill(0xff))).toBe(false);
  });

  it('rejects the ZIP-216 non-canonical encodings of (0, 1) and (0, −1)', () => {
    expect(isCanonicalJubjubPoint(le32(1n, true))).toBe(false);
    expect(isCanonicalJubjubPoint(le32(Q_JUBJUB - 1n, true))).toBe(false);
  });

  it('rejects a v whose u² is not a square, accepts one whose u² is (both signs)', () => {
    const off = offCurveJubjubV();
    const on = onCurveJubjubV();
    expect(isCanonicalJubjubPoint(le32(off))).toBe(false);
    expect(isCanonicalJubjubPoint(le32(off, true))).toBe(false);
    expect(isCanonicalJubjubPoint(le32(on))).toBe(true);
    expect(isCanonicalJubjubPoint(le32(on, true))).toBe(true);
  });

  it('base field: q − 1 is canonical, q and above are not, no bit is masked', () => {
    expect(isJubjubBaseField(le32(Q_JUBJUB - 1n))).toBe(true);
    expect(isJubjubBaseField(le32(0n))).toBe(true);
    expect(isJubjubBaseField(le32(Q_JUBJUB))).toBe(false);
    expect(isJubjubBaseField(le32(1n, true))).toBe(false);
  });
});

describe('Pallas', () => {
  it('accepts the identity (all zero) and rejects x = 0 with the sign bit set', () => {
    expect(isValidPallasPoint(le32(0n))).toBe(true);
    expect(isValidPallasPoint(le32(0n, true))).toBe(false);
  });
  it('rejects x ≥ p', () => {
    expect(isValidPallasPoint(le32(P_PALLAS))).toBe(false);
    expect(isValidPallasPoint(le32(P_PALLAS, true))).toBe(false);
    expect(isValidPallasPoint(le32((1n << 255n) - 1n))).toBe(false);
  });
  it('rejects an x with no point, accepts an x with one (both signs)', () => {
    const off = offCurvePallasX();
    const on = onCurvePallasX();
    expect(isValidPallasPoint(le32(off))).toBe(false);
    expect(isValidPallasPoint(le32(off, true))).toBe(false);
    expect(isValidPallasPoint(le32(on))).toBe(true);
    expect(isValidPallasPoint(le32(on, true))).toBe(true);
  });
  it('base field: p − 1 is canonical, p is not', () => {
    expect(isPallasBaseField(le32(P_PALLAS - 1n))).toBe(true);
    expect(isPallasBaseField(le32(P_PALLAS))).toBe(false);
    expect(isPallasBaseField(le32(0n, true))).toBe(false);
  });
});

describe('small-order lookup agrees with @noble/curves on arbitrary points', () => {
  it('200 on-curve points (both signs): isJubjubSmallOrder equals noble isSmallOrder', async () => {
    const { jubjub } = await import('@noble/curves/misc.js');
    let v = 2n;
    for (let i = 0; i < 100; i++) {
      v = onCurveJubjubV(v + 1n);
      for (const sign of [false, true]) {
        const enc = le32(v, sign);
        expect(isCanonicalJubjubPoint(enc)).toBe(true);
        expect(isJubjubSmallOrder(enc)).toBe(jubjub.Point.fromBytes(enc).isSmallOrder());
      }
    }
  });
});
