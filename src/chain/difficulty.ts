/**
 * zcashd v6.12.2's difficulty adjustment (src/pow.cpp GetNextWorkRequired and
 * CalculateNextWorkRequired, src/chain.h GetMedianTimePast), as pure functions over the
 * previous headers' (height, time, bits). No store access: callers pass the window.
 *
 * Rules, in zcashd's order:
 *  1. No previous block (genesis): powLimit.
 *  2. fPowNoRetargeting (regtest): the previous block's bits.
 *  3. Testnet from pindexLast.height ≥ 299187: a candidate whose time is more than
 *     6 × PoWTargetSpacing(h) after the previous block's time may use powLimit.
 *  4. Fewer than 17 ancestors (pindexLast.height < 17): powLimit.
 *  5. Otherwise: mean of the last 17 targets, scaled by the damped, clamped median-time-past
 *     span over the 17-block averaging window, capped at powLimit.
 */
import { isUpgradeActive, type NetworkName, type NetworkParams } from './network.js';
import { compactToTarget } from './pow.js';

export const POW_AVERAGING_WINDOW = 17;
export const MEDIAN_TIME_SPAN = 11;
/** Headers nextWorkRequired may read: the averaging window plus the MTP span of its first block. */
export const NEXT_WORK_WINDOW = POW_AVERAGING_WINDOW + MEDIAN_TIME_SPAN;

const PRE_BLOSSOM_SPACING = 150;
const POST_BLOSSOM_SPACING = 75;
const UINT256_MASK = (1n << 256n) - 1n;

/** What difficulty adjustment needs of one header. */
export interface HeaderTiming {
  height: number;
  /** nTime. */
  time: number;
  /** nBits (compact target). */
  bits: number;
}

/** Per-network PoW parameters that are not in NetworkParams (chainparams.cpp). */
interface PowRules {
  /** consensus.powLimit as the full 256-bit number (its compact form loses the low bits). */
  powLimit: bigint;
  maxAdjustDown: number;
  maxAdjustUp: number;
  noRetargeting: boolean;
  /** nPowAllowMinDifficultyBlocksAfterHeight; null = never. */
  minDifficultyAfterHeight: number | null;
}

const POW_RULES: Readonly<Record<NetworkName, PowRules>> = {
  mainnet: {
    powLimit: 0x0007ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffn,
    maxAdjustDown: 32,
    maxAdjustUp: 16,
    noRetargeting: false,
    minDifficultyAfterHeight: null,
  },
  testnet: {
    powLimit: 0x07ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffn,
    maxAdjustDown: 32,
    maxAdjustUp: 16,
    noRetargeting: false,
    minDifficultyAfterHeight: 299187,
  },
  regtest: {
    powLimit: 0x0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0fn,
    maxAdjustDown: 0,
    maxAdjustUp: 0,
    noRetargeting: true,
    // Set to 0 in chainparams, but unreachable: no-retargeting returns first.
    minDifficultyAfterHeight: 0,
  },
};

/** consensus.powLimit: the largest target a header may claim (difficulty 1). */
export function powLimit(network: NetworkParams): bigint {
  return POW_RULES[network.name].powLimit;
}

/** PoWTargetSpacing(height): 150 s before Blossom, 75 s from its activation on (ZIP 208). */
export function targetSpacing(network: NetworkParams, height: number): number {
  return isUpgradeActive(network, 'Blossom', height) ? POST_BLOSSOM_SPACING : PRE_BLOSSOM_SPACING;
}

/** arith_uint256::GetCompact(fNegative = false): the compact form of a non-negative target. */
export function targetToCompact(target: bigint): number {
  if (target < 0n || target > UINT256_MASK) throw new RangeError('targetToCompact: target outside 0..2^256-1');
  let size = target === 0n ? 0 : Math.ceil(target.toString(2).length / 8);
  let compact = size <= 3 ? Number(target << BigInt(8 * (3 - size))) : Number(target >> BigInt(8 * (size - 3)));
  // The mantissa's top bit is a sign bit; a value that would set it moves up one byte.
  if (compact & 0x00800000) {
    compact >>>= 8;
    size++;
  }
  return (compact | (size << 24)) >>> 0;
}

/**
 * CBlockIndex::GetMedianTimePast of the last entry of `chain` (oldest first): the median of
 * the times of that block and up to 10 ancestors. Near genesis fewer exist; the median is
 * then the upper middle of the sorted times, as zcashd's `(end − begin) / 2` index picks.
 */
export function medianTimePast(chain: readonly HeaderTiming[]): number {
  if (chain.length === 0) throw new RangeError('medianTimePast: empty chain');
  const times = chain.slice(-MEDIAN_TIME_SPAN).map((h) => h.time);
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/**
 * CalculateNextWorkRequired: the target for the block at `nextHeight` from the mean target of
 * the averaging window and the median times past at its two ends. int64 arithmetic with
 * C's truncating division; uint256 division and wrapping multiplication for the target.
 */
export function calculateNextWorkRequired(
  network: NetworkParams,
  meanTarget: bigint,
  lastMedianTimePast: number,
  firstMedianTimePast: number,
  nextHeight: number,
): number {
  const rules = POW_RULES[network.name];
  const windowTimespan = POW_AVERAGING_WINDOW * targetSpacing(network, nextHeight);
  const minTimespan = Math.trunc((windowTimespan * (100 - rules.maxAdjustUp)) / 100);
  const maxTimespan = Math.trunc((windowTimespan * (100 + rules.maxAdjustDown)) / 100);
  let actual = lastMedianTimePast - firstMedianTimePast;
  // Damp the adjustment to a quarter of the deviation (truncating toward zero, as int64 does).
  actual = windowTimespan + Math.trunc((actual - windowTimespan) / 4);
  if (actual < minTimespan) actual = minTimespan;
  if (actual > maxTimespan) actual = maxTimespan;

  let next = ((meanTarget / BigInt(windowTimespan)) * BigInt(actual)) & UINT256_MASK;
  if (next > rules.powLimit) next = rules.powLimit;
  return targetToCompact(next);
}

/**
 * GetNextWorkRequired: the nBits required of the block after the last entry of `chain`.
 *
 * @param chain the previous headers, oldest first, at consecutive heights, ending with the
 *   parent of the block being checked (pindexLast). Empty = the block is genesis. It must reach
 *   back NEXT_WORK_WINDOW (28) blocks, or to genesis; extra older entries are ignored.
 * @param candidateTime the new block's nTime, for testnet's minimum-difficulty rule. Omit it
 *   for the "next work" of the tip that getblockchaininfo/getdifficulty show (zcashd passes no
 *   block there, so the rule never applies).
 */
export function nextWorkRequired(network: NetworkParams, chain: readonly HeaderTiming[], candidateTime?: number): number {
  const rules = POW_RULES[network.name];
  const limitBits = targetToCompact(rules.powLimit);
  if (chain.length === 0) return limitBits;
  const last = chain[chain.length - 1]!;
  if (rules.noRetargeting) return last.bits;

  if (
    candidateTime !== undefined &&
    rules.minDifficultyAfterHeight !== null &&
    last.height >= rules.minDifficultyAfterHeight &&
    candidateTime > last.time + 6 * targetSpacing(network, last.height + 1)
  ) {
    return limitBits;
  }

  // pindexFirst is the 17th ancestor of pindexLast; without one zcashd returns powLimit.
  if (last.height < POW_AVERAGING_WINDOW) return limitBits;

  const needed = Math.min(NEXT_WORK_WINDOW, last.height + 1);
  if (chain.length < needed) {
    throw new RangeError(`nextWorkRequired: ${needed} headers ending at height ${last.height} are needed, ${chain.length} given`);
  }
  const window = chain.slice(-needed);
  for (let i = 1; i < window.length; i++) {
    if (window[i]!.height !== window[i - 1]!.height + 1) {
      throw new RangeError(`nextWorkRequired: heights not consecutive at ${window[i - 1]!.height} → ${window[i]!.height}`);
    }
  }

  let total = 0n;
  for (let i = window.length - POW_AVERAGING_WINDOW; i < window.length; i++) {
    // SetCompact's value; GetNextWorkRequired ignores its negative/overflow flags.
    total = (total + compactToTarget(window[i]!.bits).target) & UINT256_MASK;
  }
  const mean = total / BigInt(POW_AVERAGING_WINDOW);
  // pindexFirst = window[length − 18]; its median time past spans it and up to 10 ancestors.
  const firstEnd = window.length - POW_AVERAGING_WINDOW;
  return calculateNextWorkRequired(network, mean, medianTimePast(window), medianTimePast(window.slice(0, firstEnd)), last.height + 1);
}
