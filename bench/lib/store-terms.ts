/**
 * What a growing store adds to an import, as a fitted term of the import model
 * (bench/lib/import-model.ts) beside the unit costs: `storeKeyDecades`, the keys the import
 * leaves in the store (rows written and not deleted by the end), each weighted by how many
 * tenfolds past the calibration stores' size (CALIBRATION_STORE_KEYS) the store held when it was
 * written. The keys left themselves need no term of their own: they are a fixed sum of the units
 * (three per transparent output, one per transaction, nullifier and so on: storeKeysAfter), whose
 * costs already carry them.
 *
 * Why keys left and why tenfolds: LevelDB compacts every row that survives into each level in
 * turn, and each level is ten times the last, so the work a kept row causes grows with the
 * number of levels the store spans, the logarithm of its size; a row deleted soon after it is
 * written (a coin spent a few blocks later) dies in the memtable or the first level and costs
 * almost nothing more as the store grows. The windows of the contiguous chain's earlier runs
 * showed the same: their excess over the unit costs followed the keys left far more closely
 * than the rows written (bench/results/import-floors.md, run 8). The term is fitted, not
 * taken from bench/leveldb-growth.ts, on the store calibration chain's windows: era-shaped blocks
 * imported into stores from empty to about 1.5·10^7 keys (bench/import-eras.ts).
 */
import type { Composition } from '../../test-vectors/era-chain.js';
import { CALIBRATION_STORE_KEYS, storeKeysAfter, storeKeyTotal, type StoreKeys } from './leveldb-growth-model.js';

export const STORE_TERMS = ['storeKeyDecades'] as const;
export type StoreTerm = (typeof STORE_TERMS)[number];
export type StoreAmounts = Record<StoreTerm, number>;

/** ∫ max(0, log10(k / K0)) dk from K0 to k (k ≥ K0): k·(log10(k/K0) − 1/ln 10) + K0/ln 10. */
function decadeIntegral(k: number): number {
  const at = Math.max(k, CALIBRATION_STORE_KEYS);
  return at * (Math.log10(at / CALIBRATION_STORE_KEYS) - 1 / Math.LN10) + CALIBRATION_STORE_KEYS / Math.LN10;
}

/**
 * The store term's amount for importing `c` into a store holding `before`: the keys it leaves,
 * summed over tenfolds past the calibration stores, integrated over the store's growth
 * while `c` is written (so a long era, whose store grows by orders of magnitude, is charged
 * each key at the size the store had when it came, not at one mean size).
 */
export function storeAmounts(c: Composition, before: StoreKeys): StoreAmounts {
  const k0 = storeKeyTotal(before);
  const k1 = storeKeyTotal(storeKeysAfter(before, c));
  return { storeKeyDecades: k1 > k0 ? decadeIntegral(k1) - decadeIntegral(k0) : 0 };
}

/**
 * A chain's windows with their store amounts, the store growing window by window from `start`
 * (an empty store with or without the address index, `emptyStore`: required, since a store
 * without the index keeps far fewer keys and its amounts would otherwise be counted as with it).
 */
export function withStoreAmounts<T extends Composition>(windows: readonly T[], start: StoreKeys): (T & StoreAmounts)[] {
  let keys = start;
  return windows.map((w) => {
    const amounts = storeAmounts(w, keys);
    keys = storeKeysAfter(keys, w);
    return { ...w, ...amounts };
  });
}
