// The import model's store term (bench/lib/store-terms.ts): keys left in the store, each weighted
// by the tenfolds past the calibration stores' size the store held when it was written, and the
// fit that carries it (bench/lib/import-model.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addComposition, emptyComposition, type Composition } from '../../test-vectors/era-chain.js';
import { fitCosts, modelsStore, predictMicros, type ImportSample, type UnitCosts } from '../../bench/lib/import-model.js';
import {
  CALIBRATION_STORE_KEYS,
  emptyStore,
  growthMicros,
  levelDbWork,
  storeKeysAfter,
  storeKeyTotal,
  type LevelDbGrowth,
  type StoreKeys,
} from '../../bench/lib/leveldb-growth-model.js';
import { storeAmounts, withStoreAmounts } from '../../bench/lib/store-terms.js';

const EMPTY: StoreKeys = { coins: 0, other: 0 };

function composition(parts: Partial<Composition>): Composition {
  return { ...emptyComposition(), ...parts };
}

/** 1,000 blocks shaped like the contiguous chain's NU5 windows (its composition.json). */
const NU5_WINDOW = composition({
  blocks: 1000,
  bytes: 20_700_000,
  txs: 6_712,
  inputs: 6_287,
  outputs: 76_361,
  saplingSpends: 2_400,
  saplingOutputs: 2_860,
  orchardActions: 2_844,
});
/** 1,000 blocks shaped like its sprout windows. */
const SPROUT_WINDOW = composition({ blocks: 1000, bytes: 75_000_000, txs: 12_400, inputs: 440_000, outputs: 441_000 });

/** ∫ max(0, log10(k / 10^5)) dk by the midpoint rule, `steps` slices. */
function numericDecades(k0: number, k1: number, steps = 200_000): number {
  const h = (k1 - k0) / steps;
  let sum = 0;
  for (let i = 0; i < steps; i++) sum += Math.max(0, Math.log10((k0 + (i + 0.5) * h) / CALIBRATION_STORE_KEYS)) * h;
  return sum;
}

describe('storeAmounts', () => {
  it('charges nothing while the store stays within the calibration stores', () => {
    const small = composition({ blocks: 100, txs: 100, outputs: 100 });
    const keys = storeKeyTotal(storeKeysAfter(EMPTY, small));
    expect(keys).toBeLessThan(CALIBRATION_STORE_KEYS);
    expect(storeAmounts(small, EMPTY).storeKeyDecades).toBe(0);
  });

  it('weights each key left by the tenfolds the store had passed when it was written', () => {
    const before: StoreKeys = { coins: 3_000_000, other: 14_000_000 };
    const k0 = storeKeyTotal(before);
    const k1 = storeKeyTotal(storeKeysAfter(before, NU5_WINDOW));
    const amount = storeAmounts(NU5_WINDOW, before).storeKeyDecades;
    expect(amount).toBeCloseTo(numericDecades(k0, k1), -1);
    // at 2·10^7 keys the store is 2.3 tenfolds past 10^5: every key left weighs about that much
    expect(amount / (k1 - k0)).toBeGreaterThan(Math.log10(k0 / CALIBRATION_STORE_KEYS));
    expect(amount / (k1 - k0)).toBeLessThan(Math.log10(k1 / CALIBRATION_STORE_KEYS));
  });

  it('crosses the calibration size inside one window: only the keys past it count', () => {
    const window = composition({ blocks: 1000, txs: 1000, outputs: 200_000 });
    const k1 = storeKeyTotal(storeKeysAfter(EMPTY, window));
    expect(storeAmounts(window, EMPTY).storeKeyDecades).toBeCloseTo(numericDecades(0, k1), -1);
  });

  it('adds up over windows to what the whole chain is charged at once', () => {
    const windows = [SPROUT_WINDOW, SPROUT_WINDOW, NU5_WINDOW, NU5_WINDOW, NU5_WINDOW];
    const whole = windows.reduce((a, w) => addComposition(a, { ...w }), emptyComposition());
    const byWindow = withStoreAmounts(windows, EMPTY).reduce((s, w) => s + w.storeKeyDecades, 0);
    // The coins never run out here, so the store's keys after the whole are those after its windows.
    expect(byWindow).toBeCloseTo(storeAmounts(whole, EMPTY).storeKeyDecades, -2);
    expect(byWindow).toBeGreaterThan(0);
  });
});

describe('fitCosts with the store term', () => {
  const known: UnitCosts = {
    blocks: 300,
    bytes: 0.015,
    txs: 2,
    inputs: 4,
    outputs: 8,
    saplingSpends: 10,
    saplingOutputs: 5,
    orchardActions: 25,
    run: 400_000,
    storeKeyDecades: 3.5,
  };

  /** A chain of windows of varied shapes imported into a growing store, each window a sample. */
  function windowSamples(): ImportSample[] {
    const shapes = [
      SPROUT_WINDOW,
      NU5_WINDOW,
      composition({
        blocks: 1000,
        bytes: 9_000_000,
        txs: 8_900,
        inputs: 35_700,
        outputs: 46_800,
        saplingSpends: 700,
        saplingOutputs: 1_300,
      }),
      composition({ blocks: 300, bytes: 570_000_000, txs: 900, outputs: 300, saplingSpends: 600, saplingOutputs: 600_000 }),
      composition({ blocks: 1000, bytes: 47_000_000, txs: 3_500, outputs: 3_000_000, inputs: 3_000 }),
    ];
    const order = [0, 1, 2, 4, 1, 3, 0, 2, 1, 1, 4, 2, 0, 1, 3, 2, 1];
    return withStoreAmounts(
      order.map((i) => shapes[i]!),
      EMPTY,
    ).map((w, i) => ({
      label: `window ${i}`,
      composition: { ...w, runs: 0 },
      micros: predictMicros(known, { ...w, runs: 0 }),
    }));
  }

  /** Small chains from an empty store, one leaning on each unit, as bench/import-eras.ts has them. */
  function chainSamples(): ImportSample[] {
    const chains = [
      composition({ blocks: 351, bytes: 100_000, txs: 351, outputs: 351 }),
      composition({ blocks: 1101, bytes: 315_000, txs: 1101, outputs: 1101 }),
      composition({ blocks: 356, bytes: 7_600_000, txs: 1402, inputs: 40_046, outputs: 47_356 }),
      composition({ blocks: 356, bytes: 43_500_000, txs: 1402, inputs: 40_046, outputs: 47_356 }),
      composition({ blocks: 353, bytes: 2_000_000, txs: 14_120, inputs: 14_120, outputs: 14_120 }),
      composition({ blocks: 353, bytes: 90_000_000, txs: 706, inputs: 706, outputs: 282_400 }),
      composition({ blocks: 351, bytes: 40_000_000, txs: 1053, saplingSpends: 35_100, outputs: 351 }),
      composition({ blocks: 353, bytes: 90_000_000, txs: 1059, saplingOutputs: 105_900, outputs: 353 }),
      composition({ blocks: 351, bytes: 60_000_000, txs: 1404, orchardActions: 21_060, outputs: 351 }),
    ];
    return chains.map((c, i) => {
      const amounts = { ...c, ...storeAmounts(c, EMPTY) };
      return { label: `chain ${i}`, composition: amounts, micros: predictMicros(known, amounts) };
    });
  }

  it('recovers every unit cost and the store term from chains and a growing store’s windows', () => {
    const fitted = fitCosts([...chainSamples(), ...windowSamples()]);
    expect(modelsStore(fitted)).toBe(true);
    for (const [term, cost] of Object.entries(known)) expect(fitted[term as keyof UnitCosts]).toBeCloseTo(cost, 4);
  });

  it('leaves the store term out when no sample carries it, and then growth charges written rows', () => {
    const samples = chainSamples().map((s) => ({ ...s, composition: { ...s.composition, storeKeyDecades: 0 } }));
    const fitted = fitCosts(samples);
    expect(modelsStore(fitted)).toBe(false);
    expect(fitted.storeKeyDecades).toBeUndefined();
  });
});

describe('growthMicros without written rows', () => {
  const growth: LevelDbGrowth = {
    per_tenfold_growth: {
      write_cpu_us_per_row: { per_decade: 0.8 },
      write_wall_us_per_row: { per_decade: 0.1 },
      present_read_us: { per_decade: 10 },
      absent_read_us: { per_decade: 5 },
    },
    keys: 12_000_000,
    generated_at: 'test',
  };
  const before: StoreKeys = { coins: 4_000_000, other: 12_000_000 };

  it('charges the reads alone: LevelDB coin reads and nullifier checks at the store’s size', () => {
    const readsOnly = growthMicros(growth, NU5_WINDOW, before, 'cpu', 1_000, false);
    const withWrites = growthMicros(growth, NU5_WINDOW, before, 'cpu', 1_000, true);
    const mid = (storeKeyTotal(before) + storeKeyTotal(storeKeysAfter(before, NU5_WINDOW))) / 2;
    const decades = Math.log10(mid / CALIBRATION_STORE_KEYS);
    const nullifiers = NU5_WINDOW.saplingSpends + NU5_WINDOW.orchardActions;
    expect(readsOnly).toBeCloseTo(1_000 * 10 * decades + nullifiers * 5 * decades, 6);
    expect(withWrites).toBeGreaterThan(readsOnly);
  });

  it('charges reads on the CPU bases (all threads, main thread) at the read CPU slopes, elapsed time at the elapsed ones', () => {
    const measured: LevelDbGrowth = {
      ...growth,
      per_tenfold_growth: { ...growth.per_tenfold_growth, present_read_cpu_us: { per_decade: 9 }, absent_read_cpu_us: { per_decade: 4 } },
    };
    const mid = (storeKeyTotal(before) + storeKeyTotal(storeKeysAfter(before, NU5_WINDOW))) / 2;
    const decades = Math.log10(mid / CALIBRATION_STORE_KEYS);
    const nullifiers = NU5_WINDOW.saplingSpends + NU5_WINDOW.orchardActions;
    expect(growthMicros(measured, NU5_WINDOW, before, 'cpu', 1_000, false)).toBeCloseTo(1_000 * 9 * decades + nullifiers * 4 * decades, 6);
    expect(growthMicros(measured, NU5_WINDOW, before, 'main', 1_000, false)).toBeCloseTo(1_000 * 9 * decades + nullifiers * 4 * decades, 6);
    expect(growthMicros(measured, NU5_WINDOW, before, 'wall', 1_000, false)).toBeCloseTo(
      1_000 * 10 * decades + nullifiers * 5 * decades,
      6,
    );
  });
});

describe('runs', () => {
  it('charges a whole import its run and a window inside one none', () => {
    const costs: UnitCosts = { ...emptyComposition(), blocks: 300, run: 400_000 };
    const c = composition({ blocks: 1000 });
    expect(predictMicros(costs, c)).toBe(700_000);
    expect(predictMicros(costs, { ...c, runs: 0 })).toBe(300_000);
  });
});

describe('the key model without the address index (-addressindex=0)', () => {
  const without = emptyStore(false);

  it("keeps one key an unspent coin and none of the address index's `d`, `p`, `s` and `S`", () => {
    const after = storeKeysAfter(without, NU5_WINDOW);
    expect(after.addressIndex).toBe(false);
    expect(after.coins).toBe(NU5_WINDOW.outputs - NU5_WINDOW.inputs);
    // `t` a transaction, `N` a nullifier, 6 a block (`H`, `u`, `n`, `h`, `B`, `A`)
    expect(after.other).toBe(NU5_WINDOW.txs + NU5_WINDOW.saplingSpends + NU5_WINDOW.orchardActions + 6 * NU5_WINDOW.blocks);
    expect(storeKeyTotal(after)).toBe(after.coins + after.other);
    // the default store: `a` beside each coin, `d` per output and input, `p` per input, `s` and `S` a block
    const withIndex = storeKeysAfter(emptyStore(true), NU5_WINDOW);
    expect(storeKeyTotal(withIndex) - storeKeyTotal(after)).toBe(
      after.coins + NU5_WINDOW.outputs + 2 * NU5_WINDOW.inputs + 2 * NU5_WINDOW.blocks,
    );
  });

  it('stays without the index as the store grows window by window', () => {
    const twice = storeKeysAfter(storeKeysAfter(without, SPROUT_WINDOW), NU5_WINDOW);
    expect(twice.addressIndex).toBe(false);
    expect(storeAmounts(NU5_WINDOW, storeKeysAfter(without, SPROUT_WINDOW)).storeKeyDecades).toBeLessThan(
      storeAmounts(NU5_WINDOW, storeKeysAfter(EMPTY, SPROUT_WINDOW)).storeKeyDecades,
    );
  });

  it('writes one row an output and an input instead of three and four, and 12 a block instead of 14', () => {
    const c = composition({ blocks: 10, txs: 20, inputs: 30, outputs: 40, saplingSpends: 5, orchardActions: 7 });
    expect(levelDbWork(c, false).rows).toBe(40 + 30 + 20 + 12 + 12 * 10);
    expect(levelDbWork(c).rows).toBe(3 * 40 + 4 * 30 + 20 + 12 + 14 * 10);
    expect(levelDbWork(c, false).presentReads).toBe(levelDbWork(c).presentReads);
  });
});

describe('store amounts of a chain imported without the address index', () => {
  it('are counted from a store without it, window by window (import-eras --address-index=0)', () => {
    const windows = [SPROUT_WINDOW, NU5_WINDOW, NU5_WINDOW];
    const without = withStoreAmounts(windows, emptyStore(false));
    let keys = emptyStore(false);
    for (const [i, w] of windows.entries()) {
      expect(without[i]!.storeKeyDecades).toBe(storeAmounts(w, keys).storeKeyDecades);
      keys = storeKeysAfter(keys, w);
    }
    const withIndex = withStoreAmounts(windows, EMPTY);
    expect(without.at(-1)!.storeKeyDecades).toBeLessThan(withIndex.at(-1)!.storeKeyDecades / 2);
  });
});

describe('the key model against the keys counted after the recorded imports', () => {
  const results = join(import.meta.dirname, '..', '..', 'bench', 'results');
  // The contiguous checks recorded with and without the address index (bench/import-contiguous.ts):
  // the same chain, its composition as written when it was generated, the keys counted after.
  type Check = {
    blocks_imported: number;
    composition: Composition;
    leveldb_keys: { count: number; complete: boolean; by_prefix: Record<string, number> };
  };
  const check = (addressIndex: boolean): Check =>
    (
      JSON.parse(
        readFileSync(join(results, addressIndex ? 'import-projection.json' : 'import-projection-no-address-index.json'), 'utf8'),
      ) as { contiguous: Check }
    ).contiguous;

  it('were made on the same chain, imported whole', () => {
    expect(check(false).composition).toEqual(check(true).composition);
    for (const c of [check(true), check(false)]) {
      expect(c.blocks_imported).toBe(c.composition.blocks);
      expect(c.leveldb_keys.complete).toBe(true);
    }
  });

  it.each([true, false])('predicts the keys of a store %s the address index within 1 %', (addressIndex) => {
    const c = check(addressIndex);
    const predicted = storeKeyTotal(storeKeysAfter(emptyStore(addressIndex), c.composition));
    expect(Math.abs(predicted / c.leveldb_keys.count - 1)).toBeLessThan(0.01);
  });

  it('counts the address index rows it charges: d an output and an input, p an input, a an unspent coin', () => {
    const chain = check(true).composition;
    const p = check(true).leveldb_keys.by_prefix;
    const near = (counted: number | undefined, model: number) => expect(Math.abs(counted! / model - 1)).toBeLessThan(1e-4);
    near(p['d'], chain.outputs + chain.inputs);
    near(p['p'], chain.inputs);
    near(p['a'], chain.outputs - chain.inputs);
    near(p['c'], chain.outputs - chain.inputs);
    const without = check(false).leveldb_keys.by_prefix;
    for (const prefix of ['d', 'a', 'p', 's', 'S']) expect(without[prefix]).toBeUndefined();
  });
});
