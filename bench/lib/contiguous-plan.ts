/**
 * The contiguous era-shaped chain the long import runs (bench/import-contiguous.ts): 100,000
 * blocks in mainnet's era order, each era's share of them its share of mainnet's 3,439,807
 * blocks (MAINNET_ERAS), the spam era's share that of the spam-equivalent blocks the Sapling
 * output count implies. Payout (`feeder`) blocks come on top where input-heavy blocks need them.
 */
import type { EraSegment } from '../../test-vectors/era-shapes.js';

export const CONTIGUOUS_SEGMENTS: EraSegment[] = [
  { era: 'sprout', blocks: 12_190 },
  { era: 'sapling', blocks: 36_860 },
  { era: 'nu5', blocks: 24_000 },
  { era: 'spam', blocks: 980 },
  { era: 'nu5', blocks: 25_630 },
  { era: 'nu63', blocks: 340 },
];

/**
 * The store calibration chain (built by `bench/import-contiguous.ts generate-store DIR`, imported
 * by `bench/import-eras.ts --store-chain=DIR`): a different, shorter chain whose
 * windows fit what a growing store adds to the unit costs. Its eras come out of mainnet's order
 * and more than once, so each era is imported into small, middling and large stores and the
 * fit can tell what an era costs from what the store's size adds; the contiguous chain, built
 * with another tag, stays out of the fit that predicts it.
 */
export const STORE_CALIBRATION_SEGMENTS: EraSegment[] = [
  { era: 'nu5', blocks: 6_000 },
  { era: 'sprout', blocks: 4_000 },
  { era: 'sapling', blocks: 8_000 },
  { era: 'nu5', blocks: 8_000 },
  { era: 'spam', blocks: 300 },
  { era: 'sprout', blocks: 3_000 },
  { era: 'sapling', blocks: 6_000 },
  { era: 'nu5', blocks: 6_000 },
  { era: 'nu63', blocks: 100 },
];

/** The store calibration chain's generator tag: other keys and hashes than the contiguous chain's. */
export const STORE_CHAIN_TAG = 'store-calibration';

/**
 * A second check chain (bench/import-contiguous.ts generate-check, run --record=second_check):
 * neither the contiguous chain, from whose earlier import's windows the store term's form was
 * chosen, nor the store calibration chain its size was fitted on; its eras in an order of its own.
 */
export const SECOND_CHECK_SEGMENTS: EraSegment[] = [
  { era: 'sapling', blocks: 15_000 },
  { era: 'sprout', blocks: 5_000 },
  { era: 'nu5', blocks: 20_000 },
  { era: 'spam', blocks: 200 },
  { era: 'sprout', blocks: 3_000 },
  { era: 'nu5', blocks: 7_000 },
  { era: 'nu63', blocks: 200 },
];
export const SECOND_CHECK_TAG = 'second-check';
