import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  calculateNextWorkRequired,
  medianTimePast,
  nextWorkRequired,
  powLimit,
  targetSpacing,
  targetToCompact,
  type HeaderTiming,
} from '../../src/chain/difficulty.js';
import { MAINNET, REGTEST, TESTNET } from '../../src/chain/network.js';
import { compactToTarget } from '../../src/chain/pow.js';
import { decodeBlock } from '../../src/codec/block.js';
import { readFacts, vectorPath } from '../support/vectors.js';

const facts = readFacts().blocks;
const fact = (network: string, height: number) => facts.find((b) => b.network === network && b.height === height)!;
const timing = (network: string, height: number): HeaderTiming => {
  const b = fact(network, height);
  return { height, time: b.time, bits: parseInt(b.bits, 16) };
};

describe('real mainnet blocks 1..20 (lightwalletd mainnet_genesis: the only run long enough for a window)', () => {
  const chain: HeaderTiming[] = readFileSync(vectorPath('lightwalletd', 'mainnet_genesis'), 'utf8')
    .trim()
    .split('\n')
    .map((hex, height) => {
      const h = decodeBlock(new Uint8Array(Buffer.from(hex.trim(), 'hex'))).header;
      return { height, time: h.time, bits: h.bits };
    });

  it('has blocks 0..20', () => {
    expect(chain.length).toBe(21);
  });

  for (let h = 1; h <= 20; h++) {
    it(`block ${h}: nBits = nextWorkRequired(blocks 0..${h - 1})`, () => {
      expect(nextWorkRequired(MAINNET, chain.slice(0, h), chain[h]!.time)).toBe(chain[h]!.bits);
    });
  }

  it('blocks 1..17 have fewer than 17 ancestors behind their parent, so powLimit', () => {
    for (let h = 1; h <= 17; h++) expect(chain[h]!.bits).toBe(0x1f07ffff);
  });

  it('blocks 19 and 20 are the first retargets (the window reaches genesis, so the first MTP spans 2 and 3 blocks)', () => {
    expect(chain[19]!.bits).toBe(0x1f06b851);
    expect(chain[20]!.bits).toBe(0x1f06a820);
  });

  it('a window that does not reach back to genesis (or 28 blocks) is refused', () => {
    expect(() => nextWorkRequired(MAINNET, chain.slice(5, 20))).toThrow(RangeError);
  });
});

describe('mainnet/testnet 0..10 from blocks/: too short for a window, powLimit', () => {
  for (const network of ['mainnet', 'testnet'] as const) {
    const params = network === 'mainnet' ? MAINNET : TESTNET;
    it(`${network} 1..10`, () => {
      const chain = Array.from({ length: 11 }, (_, h) => timing(network, h));
      for (let h = 1; h <= 10; h++) {
        expect(nextWorkRequired(params, chain.slice(0, h), chain[h]!.time)).toBe(chain[h]!.bits);
        expect(chain[h]!.bits).toBe(params.powLimitBits);
      }
    });
  }

  it('genesis (no previous block) gets powLimit on every network', () => {
    expect(nextWorkRequired(MAINNET, [])).toBe(0x1f07ffff);
    expect(nextWorkRequired(TESTNET, [])).toBe(0x2007ffff);
    expect(nextWorkRequired(REGTEST, [])).toBe(0x200f0f0f);
  });
});

describe("testnet's minimum-difficulty rule", () => {
  // Pre-Blossom spacing 150 s (threshold 900 s), post-Blossom 75 s (threshold 450 s).
  const cases: [number, number][] = [
    [299188, 3351],
    [299189, 1104],
    [299202, 14581],
    [584000, 1158],
    [903800, 512],
    [903801, 571],
  ];
  for (const [height, gap] of cases) {
    it(`${height} (${gap} s after its parent) may use powLimit`, () => {
      const prev = timing('testnet', height - 1);
      const block = timing('testnet', height);
      expect(block.time - prev.time).toBe(gap);
      expect(block.bits).toBe(0x2007ffff);
      // The rule returns before the averaging window is read, so the parent alone suffices.
      expect(nextWorkRequired(TESTNET, [prev], block.time)).toBe(0x2007ffff);
    });
  }

  it('903800 is min-difficulty only because Blossom halved the spacing (512 s: > 6·75, < 6·150)', () => {
    expect(targetSpacing(TESTNET, 903800)).toBe(75);
    expect(targetSpacing(TESTNET, 299188)).toBe(150);
  });

  it('needs a gap strictly greater than 6 × spacing', () => {
    const prev = timing('testnet', 299187);
    expect(nextWorkRequired(TESTNET, [prev], prev.time + 901)).toBe(0x2007ffff);
    // At exactly 900 s the normal retarget applies, which needs the full window.
    expect(() => nextWorkRequired(TESTNET, [prev], prev.time + 900)).toThrow(RangeError);
  });

  it('applies from pindexLast.height 299187, not before, and never without a candidate time', () => {
    const early = timing('testnet', 207500);
    expect(() => nextWorkRequired(TESTNET, [early], early.time + 100000)).toThrow(RangeError);
    const prev = timing('testnet', 299187);
    expect(() => nextWorkRequired(TESTNET, [prev])).toThrow(RangeError);
  });

  it('584001 (13 s after its parent) is not a min-difficulty block', () => {
    const prev = timing('testnet', 584000);
    expect(timing('testnet', 584001).bits).not.toBe(0x2007ffff);
    expect(() => nextWorkRequired(TESTNET, [prev], timing('testnet', 584001).time)).toThrow(RangeError);
  });

  it('never on mainnet', () => {
    const chain = Array.from({ length: 28 }, (_, i) => ({ height: 100000 + i, time: (100000 + i) * 150, bits: 0x1c01f20c }));
    expect(nextWorkRequired(MAINNET, chain, chain[27]!.time + 100000)).toBe(0x1c01f20c);
  });
});

describe('regtest: no retargeting', () => {
  it("returns the previous block's bits whatever the times", () => {
    expect(nextWorkRequired(REGTEST, [{ height: 5, time: 1, bits: 0x200f0f0e }], 10 ** 9)).toBe(0x200f0f0e);
  });
});

describe('the arithmetic on synthesized windows (spec §7.3, numbers worked by hand)', () => {
  // Mantissa 0x01f20c = 127500 = 50·2550 = 100·1275, so T/W is exact for both spacings:
  // T = 127500·2^200 (bits 0x1c01f20c), T/2550 = 50·2^200, T/1275 = 100·2^200.
  const BITS = 0x1c01f20c;
  /**
   * 28 headers ending at `last`: times 150 s apart, then `offset` added to the 17 blocks after
   * pindexFirst, so MTP(last) − MTP(first) = 17·spacing + offset.
   */
  const window = (last: number, spacing: number, offset: number, bits = BITS): HeaderTiming[] =>
    Array.from({ length: 28 }, (_, i) => {
      const height = last - 27 + i;
      return { height, time: 1_000_000_000 + height * spacing + (i >= 11 ? offset : 0), bits };
    });

  it('MTP span exactly 17·150: the target is unchanged', () => {
    const w = window(100027, 150, 0);
    expect(medianTimePast(w) - medianTimePast(w.slice(0, 11))).toBe(2550);
    expect(nextWorkRequired(MAINNET, w)).toBe(0x1c01f20c);
  });

  it('a very slow window is clamped at +32 %: 50·3366 = 168300 = 0x2916c (·2^200)', () => {
    expect(nextWorkRequired(MAINNET, window(100027, 150, 97450))).toBe(0x1c02916c);
  });

  it('a zero span is damped to 1913, then clamped at −16 %: 50·2142 = 107100 = 0x1a25c (·2^200)', () => {
    const flat = window(100027, 0, 0);
    expect(nextWorkRequired(MAINNET, flat)).toBe(0x1c01a25c);
  });

  it('damping truncates toward zero: span 2000 → 2550 + trunc(−137.5) = 2413 (floor would give 2412), 50·2413 = 120650 = 0x1d74a', () => {
    const w = window(100027, 150, -550);
    expect(medianTimePast(w) - medianTimePast(w.slice(0, 11))).toBe(2000);
    expect(nextWorkRequired(MAINNET, w)).toBe(0x1c01d74a);
  });

  it('after Blossom W = 17·75: span 1675 → 1375, 100·1375 = 137500 = 0x2191c', () => {
    expect(nextWorkRequired(MAINNET, window(1000027, 75, 400))).toBe(0x1c02191c);
  });

  it("the spacing is the next block's: the window before Blossom activation already uses 75 s", () => {
    // last = 653599, next = 653600 (Blossom): span 2550 → 1275 + trunc(1275/4) = 1593 → 100·1593 = 159300 = 0x26e44.
    expect(nextWorkRequired(MAINNET, window(653599, 150, 0))).toBe(0x1c026e44);
  });

  it('the result is capped at powLimit', () => {
    expect(nextWorkRequired(MAINNET, window(100027, 150, 97450, 0x1f07ffff))).toBe(0x1f07ffff);
    expect(nextWorkRequired(TESTNET, window(100027, 150, 97450, 0x2007ffff))).toBe(0x2007ffff);
  });

  it('ignores headers older than the 28 it reads', () => {
    const older = Array.from({ length: 12 }, (_, i) => ({ height: 100000 - 12 + i, time: 1, bits: 0x1f07ffff }));
    expect(nextWorkRequired(MAINNET, [...older, ...window(100027, 150, 0)])).toBe(0x1c01f20c);
  });

  it('rejects a window with a gap in heights', () => {
    const w = window(100027, 150, 0);
    w[10] = { ...w[10]!, height: w[10]!.height + 1 };
    expect(() => nextWorkRequired(MAINNET, w)).toThrow(/not consecutive/);
  });

  it('calculateNextWorkRequired on its own', () => {
    const mean = compactToTarget(BITS).target;
    expect(calculateNextWorkRequired(MAINNET, mean, 5000, 5000 - 2550, 100000)).toBe(BITS);
  });
});

describe('medianTimePast', () => {
  it('is the middle of the last 11 times, sorted', () => {
    const chain = [9, 100, 5, 1, 4, 2, 3, 11, 10, 8, 7, 6].map((time, height) => ({ height, time, bits: 0 }));
    // Last 11: 100,5,1,4,2,3,11,10,8,7,6 → sorted 1..8,10,11,100 → index 5 = 6.
    expect(medianTimePast(chain)).toBe(6);
  });

  it('near genesis takes the upper middle of fewer times', () => {
    expect(medianTimePast([{ height: 0, time: 10, bits: 0 }])).toBe(10);
    expect(
      medianTimePast([
        { height: 0, time: 20, bits: 0 },
        { height: 1, time: 10, bits: 0 },
      ]),
    ).toBe(20);
  });
});

describe('compact targets', () => {
  it('targetToCompact inverts SetCompact for canonical encodings', () => {
    for (const bits of [0x1f07ffff, 0x2007ffff, 0x200f0f0f, 0x1c02954a, 0x1c01aee4, 0x1e3936f6, 0x1d00ffff]) {
      expect(targetToCompact(compactToTarget(bits).target)).toBe(bits);
    }
  });

  it("powLimit compacts to the networks' genesis bits", () => {
    expect(targetToCompact(powLimit(MAINNET))).toBe(0x1f07ffff);
    expect(targetToCompact(powLimit(TESTNET))).toBe(0x2007ffff);
    expect(targetToCompact(powLimit(REGTEST))).toBe(0x200f0f0f);
  });
});
