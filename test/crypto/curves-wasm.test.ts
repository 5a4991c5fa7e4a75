// The WebAssembly point checks (src/crypto/curves-wasm.ts) give exactly the BigInt verdicts of
// src/crypto/curves.ts: on every real Sapling/Orchard point in the vectors, on the torsion and
// boundary encodings, and on random and adversarial encodings (fast-check).
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  isCanonicalJubjubPoint,
  isCanonicalJubjubPointBigint,
  isValidPallasPoint,
  isValidPallasPointBigint,
  JUBJUB_D,
  JUBJUB_Q,
  PALLAS_P,
  pointCheckBackend,
} from '../../src/crypto/curves.js';
import { loadWasmPointChecks } from '../../src/crypto/curves-wasm.js';
import { realTransactions } from '../fuzz/corpus.js';
import { D_JUBJUB, P_PALLAS, Q_JUBJUB, jubjubSmallOrderEncodings, le32, offCurveJubjubV, offCurvePallasX } from '../fuzz/points.js';
import { readJsonVector } from '../support/vectors.js';

const wasm = loadWasmPointChecks({ jubjubQ: JUBJUB_Q, jubjubD: JUBJUB_D, pallasP: PALLAS_P });

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

function withSignFlipped(b: Uint8Array): Uint8Array {
  const out = b.slice();
  out[31]! ^= 0x80;
  return out;
}

/** zcash-test-vectors layout: row 0 provenance, row 1 column names, then one array per vector. */
function zipColumns(file: string, columns: string[]): Uint8Array[] {
  const rows = readJsonVector<unknown[][]>('zip', 'json', file);
  const names = (rows[1]![0] as string).split(',').map((c) => c.trim());
  const at = columns.map((c) => names.indexOf(c));
  if (at.includes(-1)) throw new Error(`${file}: missing one of ${columns.join(', ')}`);
  return rows.slice(2).flatMap((r) => at.map((i) => hexBytes(r[i] as string)));
}

const txs = realTransactions();
const realJubjub = txs.flatMap((t) => [
  ...(t.tx.data.sapling?.spends ?? []).flatMap((s) => [s.cv, s.rk]),
  ...(t.tx.data.sapling?.outputs ?? []).map((o) => o.cv),
]);
const realPallas = txs.flatMap((t) => (t.tx.data.orchard?.actions ?? []).flatMap((a) => [a.cv, a.rk]));
const vectorJubjub = zipColumns('sapling_generators.json', ['skb', 'pkb', 'npb', 'wprb', 'vcvb', 'vcrb', 'pb0', 'pb1', 'pb2', 'pb3']);
const vectorPallas = [
  ...zipColumns('orchard_generators.json', ['skb', 'nkb', 'vcvb', 'vcrb', 'cmb', 'cmq', 'ivkb', 'ivkq', 'mcq']),
  ...zipColumns('orchard_group_hash.json', ['point']),
];
/** Points on iso-Pallas (SWU's output before the isogeny): encodings unrelated to Pallas' equation. */
const isoPallas = zipColumns('orchard_map_to_curve.json', ['point']);

describe('the point checks run in WebAssembly', () => {
  it('is the backend the decoder uses when the module is built', () => {
    expect(pointCheckBackend()).toBe('wasm');
  });
  it('both test suites use the same constants as the code', () => {
    expect([JUBJUB_Q, JUBJUB_D, PALLAS_P]).toEqual([Q_JUBJUB, D_JUBJUB, P_PALLAS]);
  });
});

describe('real points: both implementations accept P and −P', () => {
  it('has real shielded points to check', () => {
    expect(realJubjub.length).toBeGreaterThanOrEqual(80);
    expect(realPallas.length).toBe(12); // 6 actions
    expect(vectorJubjub.length).toBe(10);
    expect(vectorPallas.length).toBeGreaterThanOrEqual(20);
    expect(isoPallas.length).toBeGreaterThanOrEqual(10);
  });
  it('Sapling cv and rk of every spend and output, and the Sapling generators', () => {
    for (const p of [...realJubjub, ...vectorJubjub]) {
      for (const e of [p, withSignFlipped(p)]) {
        expect(isCanonicalJubjubPointBigint(e)).toBe(true);
        expect(wasm.isCanonicalJubjubPoint(e)).toBe(true);
      }
    }
  });
  it('Orchard cv and rk of every action, the Orchard generators and GroupHash outputs', () => {
    for (const p of [...realPallas, ...vectorPallas]) {
      for (const e of [p, withSignFlipped(p)]) {
        expect(isValidPallasPointBigint(e)).toBe(true);
        expect(wasm.isValidPallasPoint(e)).toBe(true);
      }
    }
  });
  it('encodings of other curves get the BigInt verdict (Jubjub as Pallas, Pallas as Jubjub, iso-Pallas)', () => {
    const all = [...realJubjub, ...vectorJubjub, ...realPallas, ...vectorPallas, ...isoPallas];
    let rejected = 0;
    for (const p of all.flatMap((e) => [e, withSignFlipped(e)])) {
      const jubjub = isCanonicalJubjubPointBigint(p);
      const pallas = isValidPallasPointBigint(p);
      expect(wasm.isCanonicalJubjubPoint(p)).toBe(jubjub);
      expect(wasm.isValidPallasPoint(p)).toBe(pallas);
      if (!jubjub) rejected++;
      if (!pallas) rejected++;
    }
    expect(rejected).toBeGreaterThan(50);
  });
});

describe('boundary encodings', () => {
  it('the 8 small-order Jubjub points are accepted; flipped, only (0, ±1) are rejected', () => {
    const small = jubjubSmallOrderEncodings();
    const rejectedWhenFlipped = [le32(1n), le32(Q_JUBJUB - 1n)].map((e) => Buffer.from(e).toString('hex'));
    for (const e of small) {
      expect(wasm.isCanonicalJubjubPoint(e)).toBe(true);
      const flipped = withSignFlipped(e);
      const expected = !rejectedWhenFlipped.includes(Buffer.from(e).toString('hex'));
      expect(isCanonicalJubjubPointBigint(flipped)).toBe(expected);
      expect(wasm.isCanonicalJubjubPoint(flipped)).toBe(expected);
    }
  });
  it('Jubjub: v = q, q ± small, 2^255 − 1 are rejected; q − 1 and 1 only without the sign bit', () => {
    for (const v of [Q_JUBJUB, Q_JUBJUB + 1n, Q_JUBJUB + (1n << 64n), (1n << 255n) - 1n]) {
      expect(wasm.isCanonicalJubjubPoint(le32(v))).toBe(false);
      expect(wasm.isCanonicalJubjubPoint(le32(v, true))).toBe(false);
    }
    for (const v of [1n, Q_JUBJUB - 1n]) {
      expect(wasm.isCanonicalJubjubPoint(le32(v))).toBe(true);
      expect(wasm.isCanonicalJubjubPoint(le32(v, true))).toBe(false);
    }
    const off = offCurveJubjubV();
    expect(wasm.isCanonicalJubjubPoint(le32(off))).toBe(false);
    expect(wasm.isCanonicalJubjubPoint(le32(off, true))).toBe(false);
  });
  it('Pallas: the identity only without the sign bit; x ≥ p and an off-curve x rejected', () => {
    expect(wasm.isValidPallasPoint(le32(0n))).toBe(true);
    expect(wasm.isValidPallasPoint(le32(0n, true))).toBe(false);
    for (const x of [P_PALLAS, P_PALLAS + 1n, (1n << 255n) - 1n]) {
      expect(wasm.isValidPallasPoint(le32(x))).toBe(false);
      expect(wasm.isValidPallasPoint(le32(x, true))).toBe(false);
    }
    const off = offCurvePallasX();
    expect(wasm.isValidPallasPoint(le32(off))).toBe(false);
    expect(wasm.isValidPallasPoint(le32(off, true))).toBe(false);
  });
  it('Pallas has no point with y = 0: −5 is not a cube mod p', () => {
    // x³ = −5 would be solvable iff (−5)^((p−1)/3) = 1 (p ≡ 1 mod 3).
    let r = 1n;
    let b = P_PALLAS - 5n;
    for (let e = (P_PALLAS - 1n) / 3n; e > 0n; e >>= 1n, b = (b * b) % P_PALLAS) if (e & 1n) r = (r * b) % P_PALLAS;
    expect((P_PALLAS - 1n) % 3n).toBe(0n);
    expect(r).not.toBe(1n);
  });
  it('an encoding inside a larger buffer is read from its own 32 bytes', () => {
    const p = realJubjub[0]!;
    const buf = new Uint8Array(100).fill(0xff);
    buf.set(p, 37);
    expect(wasm.isCanonicalJubjubPoint(buf.subarray(37, 69))).toBe(true);
    expect(wasm.isCanonicalJubjubPoint(buf.subarray(36, 68))).toBe(isCanonicalJubjubPointBigint(buf.subarray(36, 68)));
    expect(() => wasm.isCanonicalJubjubPoint(p.subarray(0, 31))).toThrow(RangeError);
  });
});

/** 256-bit values as 32 little-endian bytes, from a bigint reduced into [0, 2^256). */
const asBytes = (v: bigint): Uint8Array => le32(((v % (1n << 256n)) + (1n << 256n)) % (1n << 256n));

/**
 * Encodings aimed at every decision of the checks for the modulus `m`: any 32 bytes; canonical
 * values with either sign; values a little below or above m (either sign); small values and
 * values near 2^255; m with one 64-bit word replaced (the word-by-word comparison).
 */
function encodings(m: bigint): fc.Arbitrary<Uint8Array> {
  const sign = (v: bigint, s: boolean): bigint => (s ? v | (1n << 255n) : v);
  return fc.oneof(
    fc.uint8Array({ minLength: 32, maxLength: 32 }),
    fc.tuple(fc.bigInt({ min: 0n, max: m - 1n }), fc.boolean()).map(([v, s]) => asBytes(sign(v, s))),
    fc.tuple(fc.bigInt({ min: -(1n << 20n), max: 1n << 20n }), fc.boolean()).map(([d, s]) => asBytes(sign(m + d, s))),
    fc.tuple(fc.bigInt({ min: 0n, max: 1n << 20n }), fc.boolean()).map(([v, s]) => asBytes(sign(v, s))),
    fc.bigInt({ min: 0n, max: 1n << 20n }).map((d) => asBytes((1n << 256n) - 1n - d)),
    fc.tuple(fc.integer({ min: 0, max: 3 }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.boolean()).map(([word, w, s]) => {
      const shift = BigInt(64 * word);
      return asBytes(sign((m & ~(0xffffffffffffffffn << shift)) | (w << shift), s));
    }),
  );
}

/** Euler's criterion: an oracle independent of both implementations' Jacobi symbols. */
function legendreByEuler(a: bigint, p: bigint): number {
  let r = 1n;
  let b = a % p;
  for (let e = (p - 1n) / 2n; e > 0n; e >>= 1n, b = (b * b) % p) if (e & 1n) r = (r * b) % p;
  return r === 0n ? 0 : r === 1n ? 1 : -1;
}

describe("the quadratic-residue test alone = Euler's criterion", () => {
  for (const [field, m] of [
    ['jubjub', Q_JUBJUB],
    ['pallas', P_PALLAS],
  ] as const) {
    it(`${field}: random values, small values, m − 1, and m − 2^(64k)·t (differences with zero low words)`, () => {
      const value = fc.oneof(
        fc.bigInt({ min: 0n, max: m - 1n }),
        fc.bigInt({ min: 0n, max: 1n << 20n }),
        fc.bigInt({ min: 1n, max: 1n << 20n }).map((d) => m - d),
        // n − a = 2^(64k)·t, t odd and spanning several words: after the first swap, a
        // whole-word shift leaves an odd low word with non-zero words above it.
        fc
          .tuple(fc.integer({ min: 1, max: 3 }), fc.bigInt({ min: 0n, max: 1n << 190n }))
          .map(([k, t]) => m - (((t >> BigInt(64 * k - 64)) | 1n) << BigInt(64 * k))),
      );
      fc.assert(
        fc.property(value, (a) => a < 0n || a >= m || wasm.legendre(field, le32(a)) === legendreByEuler(a, m)),
        { numRuns: 3_000 },
      );
    });
  }
});

describe('property: WebAssembly verdict = BigInt verdict', () => {
  it('Jubjub, on random and adversarial encodings', () => {
    fc.assert(
      fc.property(encodings(Q_JUBJUB), (b) => wasm.isCanonicalJubjubPoint(b) === isCanonicalJubjubPointBigint(b)),
      { numRuns: 20_000 },
    );
  });
  it('Pallas, on random and adversarial encodings', () => {
    fc.assert(
      fc.property(encodings(P_PALLAS), (b) => wasm.isValidPallasPoint(b) === isValidPallasPointBigint(b)),
      { numRuns: 20_000 },
    );
  });
  it('both verdicts occur often on canonical encodings (the property is not one-sided)', () => {
    const counts = { jubjub: [0, 0], pallas: [0, 0] };
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: P_PALLAS - 1n }), (v) => {
        counts.jubjub[wasm.isCanonicalJubjubPoint(le32(v)) ? 1 : 0]!++;
        counts.pallas[wasm.isValidPallasPoint(le32(v)) ? 1 : 0]!++;
      }),
      { numRuns: 2_000 },
    );
    for (const [rejected, accepted] of Object.values(counts)) {
      expect(rejected).toBeGreaterThan(500);
      expect(accepted).toBeGreaterThan(500);
    }
  });
});

describe('the BigInt fallback', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.doUnmock('../../src/crypto/sapling/wasm-field.js');
    vi.resetModules();
  });
  it('ZECRPC_PURE_CURVES=1 selects it, with the same verdicts', async () => {
    vi.stubEnv('ZECRPC_PURE_CURVES', '1');
    vi.resetModules();
    const pure = await import('../../src/crypto/curves.js');
    expect(pure.pointCheckBackend()).toBe('bigint');
    for (const p of realJubjub) expect(pure.isCanonicalJubjubPoint(withSignFlipped(p))).toBe(isCanonicalJubjubPoint(withSignFlipped(p)));
    for (const p of realPallas) expect(pure.isValidPallasPoint(p)).toBe(isValidPallasPoint(p));
    expect(pure.isCanonicalJubjubPoint(le32(1n, true))).toBe(false);
    expect(pure.isValidPallasPoint(le32(0n, true))).toBe(false);
  });
  it('a module that fails to load selects it', async () => {
    vi.doMock('../../src/crypto/sapling/wasm-field.js', async (original) => ({
      ...(await original<object>()),
      loadWasmModule: () => {
        throw new Error('no module');
      },
    }));
    vi.resetModules();
    const fallback = await import('../../src/crypto/curves.js');
    expect(fallback.pointCheckBackend()).toBe('bigint');
    expect(fallback.isCanonicalJubjubPoint(realJubjub[0]!)).toBe(true);
    expect(() => fallback.setPointCheckBackend('wasm')).toThrow('no module');
  });
});
