/* eslint-disable no-loss-of-precision -- these literals are rounded on purpose: the tests check how zcashd prints the doubles they become */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exactSixteenDigits, formatAmount, formatDouble } from '../../src/json/number-format.js';
import { vectorPath, zcashd2019Heights } from '../support/vectors.js';

// rpc-http-json.md §4.4, every row.
const DOUBLE_TABLE: Array<[number, string]> = [
  [1.0, '1'],
  [0.5, '0.5'],
  [107182.5479875623, '107182.5479875623'],
  [1e-5, '1e-05'],
  [0.0001, '0.0001'],
  [3e-5, '3e-05'],
  [1e15, '1000000000000000'],
  [1e16, '1e+16'],
  [9999999999999999.0, '1e+16'],
  [1e20, '1e+20'],
  [123456789012345678.0, '1.234567890123457e+17'],
  [1 / 3, '0.3333333333333333'],
  [0.1, '0.1'],
  [99999999999999.99, '99999999999999.98'],
  [0.000123456789012345678, '0.0001234567890123457'],
  [1125899906842624.5, '1125899906842624'],
  [665200457475700.25, '665200457475700.2'],
  [-0.0, '-0'],
  [5e-324, '4.940656458412465e-324'],
  [1.7976931348623157e308, '1.797693134862316e+308'],
];

/** zcashd's GetDifficultyINTERNAL, in IEEE double, in zcashd's order of operations. */
function difficulty(bits: number, powLimitCompact: number): number {
  let shift = (bits >>> 24) & 0xff;
  const limitShift = (powLimitCompact >>> 24) & 0xff;
  let diff = (powLimitCompact & 0x00ffffff) / (bits & 0x00ffffff);
  while (shift < limitShift) {
    diff *= 256.0;
    shift++;
  }
  while (shift > limitShift) {
    diff /= 256.0;
    shift--;
  }
  return diff;
}
const MAINNET_POW_LIMIT = 0x1f07ffff;

describe('formatDouble: §4.4 table', () => {
  for (const [value, text] of DOUBLE_TABLE) {
    it(`${Object.is(value, -0) ? '-0' : value} -> ${text}`, () => {
      expect(formatDouble(value)).toBe(text);
    });
  }

  it('NaN and ±Infinity give empty text (UniValue leaves the number text empty)', () => {
    expect(formatDouble(Number.NaN)).toBe('');
    expect(formatDouble(Number.POSITIVE_INFINITY)).toBe('');
    expect(formatDouble(Number.NEGATIVE_INFINITY)).toBe('');
  });

  it('0 and negatives', () => {
    expect(formatDouble(0)).toBe('0');
    expect(formatDouble(-1.5)).toBe('-1.5');
    expect(formatDouble(-1125899906842624.5)).toBe('-1125899906842624');
    expect(formatDouble(-1e-5)).toBe('-1e-05');
  });

  it('the exact path agrees with the fast path on a non-tie', () => {
    expect(exactSixteenDigits(1 / 3)).toEqual({ digits: '3333333333333333', exponent: -1 });
    expect(exactSixteenDigits(9999999999999999.0)).toEqual({ digits: '1000000000000000', exponent: 16 });
  });
});

describe('formatDouble: difficulty', () => {
  const examples: Array<[number, string]> = [
    [0x1f07ffff, '1'],
    [0x1d00ffff, '524295.0001068132'],
    [0x1c0168fd, '95182238.91651608'],
    [0x1e0fffff, '127.9998779295711'],
    [0x2007ffff, '0.00390625'],
  ];
  for (const [bits, text] of examples) {
    it(`mainnet bits ${bits.toString(16).padStart(8, '0')} -> ${text}`, () => {
      expect(formatDouble(difficulty(bits, MAINNET_POW_LIMIT))).toBe(text);
    });
  }

  it('reproduces the difficulty text of every zcashd-2019 getblock capture from its bits', () => {
    const heights = zcashd2019Heights();
    expect(heights.length).toBe(51);
    for (const h of heights) {
      const text = readFileSync(vectorPath('zcashd-2019', `${h}.getblock.json`), 'utf8');
      const bits = /"bits": "([0-9a-f]{8})"/.exec(text)![1]!;
      const diffText = /"difficulty": ([^,\n]+),/.exec(text)![1]!;
      expect(formatDouble(difficulty(parseInt(bits, 16), MAINNET_POW_LIMIT)), `height ${h}`).toBe(diffText);
    }
  });
});

describe('formatAmount: §4.8 table', () => {
  const table: Array<[number, string]> = [
    [0, '0.00000000'],
    [1, '0.00000001'],
    [-1, '-0.00000001'],
    [50000000, '0.50000000'],
    [100000000, '1.00000000'],
    [-100000000, '-1.00000000'],
    [1250000000, '12.50000000'],
    [2100000000000000, '21000000.00000000'],
    [2099999999999999, '20999999.99999999'],
  ];
  for (const [zat, text] of table) {
    it(`${zat} -> ${text}`, () => {
      expect(formatAmount(zat)).toBe(text);
      expect(formatAmount(BigInt(zat))).toBe(text);
    });
  }

  it('matches the spec examples -5 and -78749.81250000', () => {
    expect(formatAmount(-5)).toBe('-0.00000005');
    expect(formatAmount(-7874981250000)).toBe('-78749.81250000');
    expect(formatAmount(62500)).toBe('0.00062500');
  });

  it('every zcashd-2019 amount text equals formatAmount of its *Zat twin', () => {
    let checked = 0;
    for (const h of zcashd2019Heights()) {
      const text = readFileSync(vectorPath('zcashd-2019', `${h}.getblock.json`), 'utf8');
      for (const m of text.matchAll(/"(chainValue|valueDelta)": (-?[0-9.]+),\s*"\1Zat": (-?[0-9]+)/g)) {
        expect(formatAmount(BigInt(m[3]!))).toBe(m[2]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(51 * 2 * 2);
  });

  it('int64 extremes as bigint, and rejects what is not an exact int64', () => {
    expect(formatAmount((1n << 63n) - 1n)).toBe('92233720368.54775807');
    expect(formatAmount(-((1n << 63n) - 1n))).toBe('-92233720368.54775807');
    expect(() => formatAmount(1.5)).toThrow(RangeError);
    expect(() => formatAmount(2 ** 53)).toThrow(/safe integer/);
    expect(() => formatAmount(1n << 63n)).toThrow(/int64/);
  });
});

// ---------------------------------------------------------------------------------------
// Randomized comparison with the C library's printf("%.16g"), compiled at test time.

const PRINTF_SOURCE = `
#include <cstdio>
#include <cstring>
#include <cstdint>
int main() {
  unsigned long long bits;
  while (std::scanf("%llx", &bits) == 1) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    std::printf("%.16g\\n", d);
  }
  return 0;
}
`;

function findGxx(): string | undefined {
  try {
    execFileSync('g++', ['--version'], { stdio: 'ignore' });
    return 'g++';
  } catch {
    return undefined;
  }
}

/** Deterministic PRNG (mulberry32) so a failure is reproducible. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function testValues(): number[] {
  const rand = prng(0x5eed2024);
  const u32 = (): number => Math.floor(rand() * 4294967296);
  const f64 = new Float64Array(1);
  const w32 = new Uint32Array(f64.buffer);
  const values: number[] = DOUBLE_TABLE.map(([v]) => v);

  // Random bit patterns (every exponent, subnormals included), finite only.
  while (values.length < 40_000) {
    w32[0] = u32();
    w32[1] = u32();
    if (Number.isFinite(f64[0]!)) values.push(f64[0]!);
  }
  // Random reals over many decades.
  for (let i = 0; i < 20_000; i++) {
    const v = rand() * 10 ** Math.floor(rand() * 60 - 30);
    values.push(rand() < 0.5 ? v : -v);
  }
  // Money-like values and ratios (amount / 1e8, difficulty-style quotients).
  for (let i = 0; i < 20_000; i++) {
    const zat = Math.floor(rand() * 2.1e15);
    values.push(i % 2 ? zat / 1e8 : ((u32() & 0xffffff || 1) / (u32() & 0xffffff || 1)) * 256 ** ((i % 7) - 3));
  }
  // Exact decimal ties at the 16th digit: a (16−j)-digit integer plus odd/2^(j+1), which has
  // exactly j+1 fractional digits ending in 5 — the case where JS rounds differently from C.
  while (values.length < 100_000) {
    const j = Math.floor(rand() * 10);
    const lo = 10 ** (15 - j);
    const intPart = lo + Math.floor(rand() * 9 * lo);
    const scale = 2 ** (j + 1);
    const odd = 2 * Math.floor(rand() * (scale / 2)) + 1;
    if (intPart * scale + odd > Number.MAX_SAFE_INTEGER) continue;
    values.push(intPart + odd / scale);
  }
  // Half-integers near 2^52 and their negatives.
  for (let i = 0; i < 5_000; i++) {
    const v = Math.floor(rand() * 2 ** 52) + 0.5;
    values.push(v, -v);
  }
  return values;
}

describe('formatDouble vs C printf("%.16g")', () => {
  const gxx = findGxx();
  const dir = mkdtempSync(join(tmpdir(), 'zecrpc-printf-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.skipIf(!gxx)('matches printf on ≥100k values (bit patterns, reals, money, exact ties)', () => {
    const src = join(dir, 'printf16g.cpp');
    const exe = join(dir, 'printf16g');
    writeFileSync(src, PRINTF_SOURCE);
    execFileSync(gxx!, ['-O1', '-o', exe, src]);

    const values = testValues();
    expect(values.length).toBeGreaterThanOrEqual(100_000);
    const f64 = new Float64Array(1);
    const u64 = new BigUint64Array(f64.buffer);
    const input = values
      .map((v) => {
        f64[0] = v;
        return u64[0]!.toString(16);
      })
      .join('\n');
    const lines = execFileSync(exe, { input: input + '\n', maxBuffer: 64 << 20 })
      .toString('latin1')
      .split('\n');
    expect(lines.length).toBe(values.length + 1);

    // The C library must itself agree with the spec table before it is trusted.
    DOUBLE_TABLE.forEach(([, text], i) => expect(lines[i]).toBe(text));

    const mismatches: string[] = [];
    let ties = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      if (Math.abs(v).toExponential(16).charCodeAt(17) === 0x35) ties++;
      const ours = formatDouble(v);
      if (ours !== lines[i]) mismatches.push(`${v}: ours ${ours}, printf ${lines[i]}`);
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
    // The exact (BigInt) path must really have been exercised.
    expect(ties).toBeGreaterThan(20_000);
  });

  if (!gxx) it.skip('g++ is not installed: the printf comparison cannot run on this machine', () => {});
});
