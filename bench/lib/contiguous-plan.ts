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
