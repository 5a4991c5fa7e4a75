/**
 * Block subsidy and halvings as zcashd v6.12.2 computes them (`Consensus::Params::GetBlockSubsidy`,
 * `Halving`, `HalvingHeight`, src/consensus/params.cpp; ZIP 208 for the Blossom change), and the
 * pre-Canopy founders' reward amount (ContextualCheckBlock in src/main.cpp). Spec §3.3.
 *
 * Heights are JS numbers; amounts are BigInt zatoshis. Every division mirrors the C++ integer
 * division (truncation toward zero) so results match at every height, including the odd ones
 * (slow start, heights before a network's Blossom activation, regtest's short intervals).
 */
import { networkParams, type NetworkName, type NetworkParams, type NetworkUpgrade } from './network.js';

/** 12.5 ZEC: `12.5 * COIN` in GetBlockSubsidy. */
export const MAX_BLOCK_SUBSIDY = 1_250_000_000n;

/** Blossom halved the block interval (150 s → 75 s), so post-Blossom subsidies and halving intervals scale by 2. */
export const BLOSSOM_POW_TARGET_SPACING_RATIO = 2;

/** The founders' reward is `subsidy / FOUNDERS_REWARD_DIVISOR` (20 %). */
export const FOUNDERS_REWARD_DIVISOR = 5n;

/** The network parameters the subsidy schedule depends on. */
export interface SubsidySchedule {
  slowStartInterval: number;
  preBlossomHalvingInterval: number;
  postBlossomHalvingInterval: number;
  /** Blossom's activation height; null when Blossom never activates (default regtest). */
  blossomHeight: number | null;
  /** Canopy's activation height (ends the founders' reward); null when it never activates. */
  canopyHeight: number | null;
}

/**
 * A network by its parameters, or by name for its default schedule: a name cannot carry
 * `-nuparams`, so regtest by name activates nothing. Node code passes the parameters.
 */
export type NetworkRef = NetworkName | NetworkParams;

export function resolveNetwork(network: NetworkRef): NetworkParams {
  return typeof network === 'string' ? networkParams(network) : network;
}

/** Activation height of an upgrade, or null when it does not activate on this network. */
export function activationHeight(network: NetworkRef, upgrade: NetworkUpgrade): number | null {
  return resolveNetwork(network).activationHeights[upgrade];
}

const PRE_BLOSSOM_HALVING_INTERVAL = 840_000;
const PRE_BLOSSOM_REGTEST_HALVING_INTERVAL = 144;
const SLOW_START_INTERVAL = 20_000;

const schedules = new WeakMap<NetworkParams, SubsidySchedule>();

/** The subsidy parameters of a network (chainparams.cpp: regtest has no slow start and 144-block halvings). */
export function subsidySchedule(network: NetworkRef): SubsidySchedule {
  const params = resolveNetwork(network);
  let s = schedules.get(params);
  if (s === undefined) {
    const pre = params.name === 'regtest' ? PRE_BLOSSOM_REGTEST_HALVING_INTERVAL : PRE_BLOSSOM_HALVING_INTERVAL;
    s = {
      slowStartInterval: params.name === 'regtest' ? 0 : SLOW_START_INTERVAL,
      preBlossomHalvingInterval: pre,
      postBlossomHalvingInterval: pre * BLOSSOM_POW_TARGET_SPACING_RATIO,
      blossomHeight: activationHeight(params, 'Blossom'),
      canopyHeight: activationHeight(params, 'Canopy'),
    };
    schedules.set(params, s);
  }
  return s;
}

/** SubsidySlowStartShift: half the slow-start interval (10000 on mainnet/testnet, 0 on regtest). */
function slowStartShift(s: SubsidySchedule): number {
  return Math.trunc(s.slowStartInterval / 2);
}

function blossomActive(s: SubsidySchedule, height: number): s is SubsidySchedule & { blossomHeight: number } {
  return s.blossomHeight !== null && height >= s.blossomHeight;
}

/** `Halving(height)`: the number of halvings that have happened by `height` (ZIP 208). */
export function halvingIndex(height: number, network: NetworkRef): number {
  const s = subsidySchedule(network);
  const shift = slowStartShift(s);
  if (blossomActive(s, height)) {
    // Scaled by the post-Blossom interval so the pre-Blossom part stays an integer.
    const scaled = (s.blossomHeight - shift) * BLOSSOM_POW_TARGET_SPACING_RATIO + (height - s.blossomHeight);
    return Math.trunc(scaled / s.postBlossomHalvingInterval);
  }
  return Math.trunc((height - shift) / s.preBlossomHalvingInterval);
}

/**
 * `HalvingHeight(height, i)`: the first height of the i-th halving as known at `height` (whether
 * Blossom is active at `height` decides which formula applies, exactly as in zcashd).
 */
export function halvingHeight(height: number, index: number, network: NetworkRef): number {
  if (!(index > 0)) throw new RangeError(`halving index must be positive, got ${index}`);
  const s = subsidySchedule(network);
  const shift = slowStartShift(s);
  if (blossomActive(s, height)) {
    return s.postBlossomHalvingInterval * index - BLOSSOM_POW_TARGET_SPACING_RATIO * (s.blossomHeight - shift) + s.blossomHeight;
  }
  return s.preBlossomHalvingInterval * index + shift;
}

/** `GetBlockSubsidy(height)` in zatoshis. */
export function blockSubsidy(height: number, network: NetworkRef): bigint {
  const s = subsidySchedule(network);
  const shift = slowStartShift(s);
  // Slow start ramps linearly and skips the middle payout (MAX/2), as zcashd does.
  if (height < shift) return (MAX_BLOCK_SUBSIDY / BigInt(s.slowStartInterval)) * BigInt(height);
  if (height < s.slowStartInterval) return (MAX_BLOCK_SUBSIDY / BigInt(s.slowStartInterval)) * BigInt(height + 1);
  const halvings = halvingIndex(height, network);
  // The C++ right shift is undefined from 64 on; zcashd pins the subsidy to 0 there.
  if (halvings >= 64) return 0n;
  if (blossomActive(s, height)) {
    return (MAX_BLOCK_SUBSIDY / BigInt(BLOSSOM_POW_TARGET_SPACING_RATIO)) >> BigInt(halvings);
  }
  return MAX_BLOCK_SUBSIDY >> BigInt(halvings);
}

/** `GetLastFoundersRewardBlockHeight(height)`: the height before the first halving, as known at `height`. */
export function lastFoundersRewardHeight(height: number, network: NetworkRef): number {
  return halvingHeight(height, 1, network) - 1;
}

/** Whether the coinbase at `height` owes the founders' reward: 1 ≤ h ≤ last FR height, only before Canopy. */
export function hasFoundersReward(height: number, network: NetworkRef): boolean {
  const s = subsidySchedule(network);
  if (s.canopyHeight !== null && height >= s.canopyHeight) return false;
  return height > 0 && height <= lastFoundersRewardHeight(height, network);
}

/** The founders' reward the coinbase at `height` must pay (`GetBlockSubsidy / 5`), or 0 when none is due. */
export function foundersRewardAmount(height: number, network: NetworkRef): bigint {
  return hasFoundersReward(height, network) ? blockSubsidy(height, network) / FOUNDERS_REWARD_DIVISOR : 0n;
}

/** Σ blockSubsidy(h) for h in [from, to] (inclusive), in closed form per constant-subsidy run. */
export function cumulativeSubsidy(from: number, to: number, network: NetworkRef): bigint {
  let total = 0n;
  let h = Math.max(from, 0);
  const s = subsidySchedule(network);
  // The slow start changes every block; it is short, so sum it directly.
  for (; h <= to && h < s.slowStartInterval; h++) total += blockSubsidy(h, network);
  while (h <= to) {
    const value = blockSubsidy(h, network);
    const runEnd = Math.min(to, nextSubsidyChange(h, network) - 1);
    total += value * BigInt(runEnd - h + 1);
    h = runEnd + 1;
  }
  return total;
}

/** The first height after `height` (≥ the slow-start end) where the subsidy formula can change. */
function nextSubsidyChange(height: number, network: NetworkRef): number {
  const s = subsidySchedule(network);
  let next = halvingHeight(height, halvingIndex(height, network) + 1, network);
  if (s.blossomHeight !== null && height < s.blossomHeight) next = Math.min(next, s.blossomHeight);
  return next;
}
