/**
 * Mainnet's composition per era, what the import projection multiplies its measured unit costs
 * by. Each count says where it comes from:
 * - blocks per era: the upgrades' activation heights (zcashd's chainparams.cpp; NU6.3's from the
 *   nu6.3 vectors' README) and the tip, 3,439,807, of Zebra's getblockchaininfo in
 *   nu6.3/zebra-rpc/mainnet-getblockchaininfo-end.json;
 * - bytes, transactions, transparent inputs and outputs, Sapling spends per block: the mean of the
 *   era's real blocks in the vectors (test-vectors/era-shapes.ts says which), times its blocks;
 *   each Sprout JoinSplit counts as two nullifiers (Sapling-spend units);
 * - Sapling outputs and Orchard actions: ≈ 74 M and ≈ 49 M in all (issue 11's estimates; the
 *   vectors hold no mainnet tree size). The real blocks give the Sapling outputs outside the
 *   2022 spam; the rest is the spam, in full 1.9 MB blocks of 2,000 outputs carved out of the NU5
 *   era. The Orchard total is spread over the NU5 and NU6.3 eras in proportion to their samples'
 *   actions, each action beyond a sample's adding 3,156 bytes (820 of action, 2,272 of proof, 64
 *   of signature).
 * Zebra's size_on_disk at the same tip (276.7 GB, its whole state: blocks and indexes) bounds the
 * bytes from above.
 */
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { addComposition, compositionOf, emptyComposition, type Composition } from '../../test-vectors/era-chain.js';
import { eraSamples, type EraName, type SampledBlock } from '../../test-vectors/era-shapes.js';
import { readHexVector, readJsonVector } from '../../test/support/vectors.js';

/** Activation heights (zcashd chainparams.cpp; NU6.3: nu6.3/README.md). */
const SAPLING = 419_200;
const NU5 = 1_687_104;
const NU6_3 = 3_428_143;

export const MAINNET_TIP: number = readJsonVector<{ blocks: number }>('nu6.3', 'zebra-rpc', 'mainnet-getblockchaininfo-end.json').blocks;
export const ZEBRA_SIZE_ON_DISK: number = readJsonVector<{ size_on_disk: number }>(
  'nu6.3',
  'zebra-rpc',
  'mainnet-getblockchaininfo-end.json',
).size_on_disk;

/** Issue 11's estimates (not in the vectors). */
export const SAPLING_OUTPUTS_TOTAL = 74e6;
export const ORCHARD_ACTIONS_TOTAL = 49e6;

/** Sapling outputs in a full 1.9 MB spam block (era-shapes.ts' SPAM_BLOCK). */
const SPAM_OUTPUTS_PER_BLOCK = 2000;
const SAPLING_OUTPUT_BYTES = 948;
const ORCHARD_ACTION_BYTES = 820 + 2272 + 64;

export interface MainnetEra {
  era: EraName;
  composition: Composition;
  /** Real blocks behind the per-block means. */
  sampleBlocks: number;
}

/** A real block's composition (its JoinSplits' nullifiers counted as Sapling-spend units, its Ironwood actions as actions). */
function realComposition(s: SampledBlock): Composition {
  const parts =
    s.source === 'nu6.3'
      ? ['nu6.3', 'blocks', 'mainnet', `${s.height}.hex`]
      : s.source === 'zcashd-2019'
        ? ['zcashd-2019', `${s.height}.hex`]
        : ['blocks', 'mainnet', `${s.height}.hex`];
  const bytes = readHexVector(...parts);
  const block = decodeBlock(bytes, CURRENT_CHAIN_ACCEPTANCE);
  return compositionOf(block, bytes.length);
}

function scaled(c: Composition, factor: number): Composition {
  const out = emptyComposition();
  for (const k of Object.keys(out) as (keyof Composition)[]) out[k] = c[k] * factor;
  return out;
}

/** Mainnet per era, from genesis to MAINNET_TIP. */
export function mainnetEras(samples = eraSamples()): MainnetEra[] {
  const mean = (era: EraName): Composition => {
    const sum = samples[era].map(realComposition).reduce(addComposition, emptyComposition());
    return scaled(sum, 1 / samples[era].length);
  };
  const sprout = scaled(mean('sprout'), SAPLING);
  const sapling = scaled(mean('sapling'), NU5 - SAPLING);
  const nu63 = scaled(mean('nu63'), MAINNET_TIP + 1 - NU6_3);
  const nu5Mean = mean('nu5');
  const spamOutputs = SAPLING_OUTPUTS_TOTAL - sapling.saplingOutputs - nu5Mean.saplingOutputs * (NU6_3 - NU5) - nu63.saplingOutputs;
  const spamBlocks = Math.round(spamOutputs / SPAM_OUTPUTS_PER_BLOCK);
  const spam: Composition = {
    blocks: spamBlocks,
    bytes: spamBlocks * (SPAM_OUTPUTS_PER_BLOCK * SAPLING_OUTPUT_BYTES + 2 * 384 + 2_000 + 1_700),
    txs: spamBlocks * 3,
    inputs: 0,
    outputs: spamBlocks * 2,
    saplingSpends: spamBlocks * 2,
    saplingOutputs: spamOutputs,
    orchardActions: 0,
  };
  const nu5 = scaled(nu5Mean, NU6_3 - NU5 - spamBlocks);
  // The Orchard total, spread over the eras that have Orchard in proportion to their samples.
  const sampled = nu5.orchardActions + nu63.orchardActions;
  for (const c of [nu5, nu63]) {
    const target = (ORCHARD_ACTIONS_TOTAL * c.orchardActions) / sampled;
    c.bytes += (target - c.orchardActions) * ORCHARD_ACTION_BYTES;
    c.orchardActions = target;
  }
  return [
    { era: 'sprout', composition: sprout, sampleBlocks: samples.sprout.length },
    { era: 'sapling', composition: sapling, sampleBlocks: samples.sapling.length },
    { era: 'spam', composition: spam, sampleBlocks: 0 },
    { era: 'nu5', composition: nu5, sampleBlocks: samples.nu5.length },
    { era: 'nu63', composition: nu63, sampleBlocks: samples.nu63.length },
  ];
}

/** The sizes bench/trees.ts' tree-rebuild projection multiplies its per-leaf and per-root costs by. */
export const MAINNET_ASSUMPTIONS = {
  blocks: MAINNET_TIP + 1,
  saplingLeaves: SAPLING_OUTPUTS_TOTAL,
  orchardLeaves: ORCHARD_ACTIONS_TOTAL,
  /** Blocks from Sapling's activation on: each computes a Sapling root. */
  saplingBlocks: MAINNET_TIP + 1 - SAPLING,
  /** Blocks from NU5's activation on: each computes an Orchard root. */
  orchardBlocks: MAINNET_TIP + 1 - NU5,
} as const;
