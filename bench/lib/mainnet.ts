/**
 * The mainnet sizes the import and tree projections multiply their measured costs by. None is
 * measured here; each says where it comes from, so a projection can be redone when they change.
 */
export const MAINNET_ASSUMPTIONS = {
  /** Chain height the issues use (≈ 3.4 M blocks). */
  blocks: 3.4e6,
  /**
   * Transactions, coinbases included. zcashd's chainparams checkpoint data counted 4,653,556 at
   * height 525,000 (2019) with ≈ 5,100 a day then; ≈ 2,500 days at 5,000–7,000 a day since gives
   * 17–22 M. Assumed: 20 M (≈ 6 per block).
   */
  transactions: 20e6,
  /** Sapling note commitments (issue 11: ≈ 74 M by 2025). */
  saplingLeaves: 74e6,
  /** Orchard note commitments (issue 11: ≈ 49 M by 2025). */
  orchardLeaves: 49e6,
  /** Blocks from Sapling activation (419,200) to ≈ 3.4 M: each computes a Sapling root. */
  saplingBlocks: 3.4e6 - 419_200,
  /** Blocks from NU5 activation (1,687,104) to ≈ 3.4 M: each computes an Orchard root. */
  orchardBlocks: 3.4e6 - 1_687_104,
} as const;
