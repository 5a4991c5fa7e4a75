/**
 * What LevelDB's growth adds to an import: the unit costs of bench/import-eras.ts are measured on
 * calibration stores of at most about 10^5 keys, while a mainnet import writes into a store that
 * grows towards 10^8. bench/leveldb-growth.ts measures how much a written row and a point read
 * cost more per tenfold growth; this module counts the rows and reads a chain's composition makes
 * and charges each the growth between the calibration stores' size and the store's size as it is
 * written (no credit where the fit's slope is negative: growth is not taken to make LevelDB faster).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Composition } from '../../test-vectors/era-chain.js';

/** bench/results/leveldb-growth.json's fitted slopes, µs per tenfold growth. */
export interface LevelDbGrowth {
  per_tenfold_growth: {
    write_cpu_us_per_row: { per_decade: number };
    write_wall_us_per_row: { per_decade: number };
    present_read_us: { per_decade: number };
    absent_read_us: { per_decade: number };
    /** The same reads' CPU (every thread's), where the growth bench measured it. */
    present_read_cpu_us?: { per_decade: number };
    absent_read_cpu_us?: { per_decade: number };
  };
  keys: number;
  generated_at: string;
}

/** Keys the calibration chains' stores hold at most: the size their unit costs already include. */
export const CALIBRATION_STORE_KEYS = 1e5;

/**
 * Rows a block writes besides its transactions' (`H`, `u`, `n`, `h`, `B`, the address index's `s`
 * and `S`, an anchor `A`, its undo record `U` and that of the block 100 back deleted; `T`, `C` and
 * the chain-tip set rewritten), and keys it leaves (undo records are kept for the last 100 blocks
 * only): see src/store/layout.ts. A store made with `-addressindex=0` has neither `s` nor `S`.
 */
const BLOCK_ROWS = 14;
const BLOCK_KEYS = 8;
const ADDRESS_INDEX_BLOCK_KEYS = 2;

export function readLevelDbGrowth(resultsDir: string): LevelDbGrowth | null {
  const file = join(resultsDir, 'leveldb-growth.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LevelDbGrowth) : null;
}

/** Rows written and point reads made, by kind, for a composition, into a store with or without the address index. */
export function levelDbWork(c: Composition, addressIndex = true): { rows: number; presentReads: number; absentReads: number } {
  const nullifiers = c.saplingSpends + c.orchardActions;
  // an output: its coin `c`, the address index's `d` and unspent `a`; an input: both deleted, its
  // `d` and spender `p` written; a txid-index `t` per transaction and an `N` per nullifier
  const perOutput = addressIndex ? 3 : 1;
  const perInput = addressIndex ? 4 : 1;
  const perBlock = addressIndex ? BLOCK_ROWS : BLOCK_ROWS - ADDRESS_INDEX_BLOCK_KEYS;
  return {
    rows: perOutput * c.outputs + perInput * c.inputs + c.txs + nullifiers + c.blocks * perBlock,
    // each input reads the coin it spends; each nullifier is checked absent
    presentReads: c.inputs,
    absentReads: nullifiers,
  };
}

/**
 * The store's keys: unspent coins apart, since spends delete them. `addressIndex` false for a
 * store made with `-addressindex=0` (absent: the default, with the index).
 */
export interface StoreKeys {
  coins: number;
  other: number;
  addressIndex?: boolean;
}

/** An empty store, with the address index or (`addressIndex` false) without. */
export const emptyStore = (addressIndex: boolean): StoreKeys =>
  addressIndex ? { coins: 0, other: 0 } : { coins: 0, other: 0, addressIndex: false };

/** Each unspent coin is the chain state's `c` and, with the address index, its `a`. */
export const storeKeyTotal = (k: StoreKeys): number => (k.addressIndex === false ? 1 : 2) * k.coins + k.other;

/**
 * The store's keys after `c`: its outputs less its inputs join the coins (never below none: an
 * era's sampled means can show more inputs than outputs, whose coins came before it), its
 * transactions, nullifiers and blocks add keys that stay.
 */
export function storeKeysAfter(before: StoreKeys, c: Composition): StoreKeys {
  const addressIndex = before.addressIndex !== false;
  return {
    coins: Math.max(0, before.coins + c.outputs - c.inputs),
    // the address index's `d` per output and input and `p` per input stay, as do `t`, `N` and the block's
    other:
      before.other +
      (addressIndex ? c.outputs + 2 * c.inputs : 0) +
      c.txs +
      c.saplingSpends +
      c.orchardActions +
      c.blocks * (addressIndex ? BLOCK_KEYS : BLOCK_KEYS - ADDRESS_INDEX_BLOCK_KEYS),
    ...(addressIndex ? {} : { addressIndex: false }),
  };
}

/**
 * What growth adds to importing `c` into a store that holds `before` when `c` begins: its rows
 * and reads at the store's mean size while `c` is written (midway between its sizes before and
 * after), against the calibration stores' size, in µs of
 * - `cpu`: every thread's CPU (a written row at the write CPU slope, compaction included; a read at
 *   the read CPU slope, or at the elapsed one from a growth file that predates it);
 * - `wall`: elapsed time on two cores (a written row at the write wall slope: LevelDB writes and
 *   compacts on threads of its own, which delay the import only as far as the bench saw writes
 *   take longer);
 * - `main`: the main thread's CPU (point reads only, at the read CPU slopes: an upper bound, since
 *   LevelDB reads run on libuv's pool).
 *
 * `coinReads`: how many of `c`'s coin reads reach LevelDB. An import answers most from memory
 * (the groups pending and the coins cache: bench/lib/coin-read-sim.ts counts them for a chain
 * whose blocks are at hand); without the count every input is charged a read, an upper bound.
 *
 * `chargeWrites` false leaves written rows out: unit costs fitted with the store terms
 * (bench/lib/store-terms.ts) already hold what a growing store adds to them.
 */
export function growthMicros(
  growth: LevelDbGrowth,
  c: Composition,
  before: StoreKeys,
  basis: 'cpu' | 'wall' | 'main',
  coinReads: number = c.inputs,
  chargeWrites = true,
): number {
  const work = { ...levelDbWork(c, before.addressIndex !== false), presentReads: coinReads };
  const midKeys = (storeKeyTotal(before) + storeKeyTotal(storeKeysAfter(before, c))) / 2;
  const decades = Math.max(0, Math.log10(Math.max(1, midKeys) / CALIBRATION_STORE_KEYS));
  const slope = (s: { per_decade: number }) => Math.max(0, s.per_decade) * decades;
  const g = growth.per_tenfold_growth;
  const writes = !chargeWrites
    ? 0
    : basis === 'cpu'
      ? slope(g.write_cpu_us_per_row)
      : basis === 'wall'
        ? slope(g.write_wall_us_per_row)
        : 0;
  // A CPU basis (every thread's, or the main thread's alone, which cannot cost more) takes the
  // reads' CPU slopes; elapsed time the elapsed ones.
  const onCpu = basis !== 'wall';
  const presentRead = onCpu ? (g.present_read_cpu_us ?? g.present_read_us) : g.present_read_us;
  const absentRead = onCpu ? (g.absent_read_cpu_us ?? g.absent_read_us) : g.absent_read_us;
  return work.rows * writes + work.presentReads * slope(presentRead) + work.absentReads * slope(absentRead);
}
