/**
 * zcashd's GetNextWorkRequired (src/pow.cpp) for the block after the tip, as
 * `getblockchaininfo` / `getdifficulty` use it (GetNetworkDifficulty passes no candidate block,
 * so testnet's minimum-difficulty exception never applies). Needs only the last 28 headers.
 */
import { isUpgradeActive, type NetworkParams } from '../../../chain/network.js';
import { compactToTarget, difficultyFromBits } from '../../../chain/pow.js';
import type { BlockIndexEntry, ChainStoreReader } from '../../../store/types.js';

const AVERAGING_WINDOW = 17;
const MEDIAN_TIME_SPAN = 11;
const PRE_BLOSSOM_SPACING = 150;
const POST_BLOSSOM_SPACING = 75;
const MAX_ADJUST_DOWN = 32;
const MAX_ADJUST_UP = 16;
const UINT256_MASK = (1n << 256n) - 1n;

/** arith_uint256::SetCompact; GetNextWorkRequired ignores the sign and overflow flags. */
function targetFromCompact(bits: number): bigint {
  return compactToTarget(bits).target;
}

/** arith_uint256::GetCompact(fNegative = false). */
export function compactFromTarget(target: bigint): number {
  let size = target === 0n ? 0 : Math.ceil(target.toString(2).length / 8);
  let compact = size <= 3 ? Number(target << BigInt(8 * (3 - size))) : Number(target >> BigInt(8 * (size - 3)));
  if (compact & 0x00800000) {
    compact >>>= 8;
    size++;
  }
  return (compact | (size << 24)) >>> 0;
}

function headerTime(entry: BlockIndexEntry): number {
  // nTime sits at offset 100 of the serialized header (after version and three hashes).
  return new DataView(entry.header.buffer, entry.header.byteOffset + 100, 4).getUint32(0, true);
}

function headerBits(entry: BlockIndexEntry): number {
  return new DataView(entry.header.buffer, entry.header.byteOffset + 104, 4).getUint32(0, true);
}

/** CBlockIndex::GetMedianTimePast over `chain[from]` and its up to 10 ancestors. */
function medianTimePast(chain: readonly BlockIndexEntry[], from: number): number {
  const times = chain.slice(from, from + MEDIAN_TIME_SPAN).map(headerTime);
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

function targetSpacing(network: NetworkParams, height: number): number {
  return isUpgradeActive(network, 'Blossom', height) ? POST_BLOSSOM_SPACING : PRE_BLOSSOM_SPACING;
}

/** Compact target required of the block after `last` (null = empty chain → powLimit). */
export async function nextWorkRequired(
  store: ChainStoreReader,
  last: BlockIndexEntry | null,
  network: NetworkParams,
): Promise<number> {
  const powLimitBits = network.powLimitBits;
  if (!last) return powLimitBits;
  // Regtest sets fPowNoRetargeting.
  if (network.name === 'regtest') return headerBits(last);

  // chain[0] = last, chain[i] = its i-th ancestor; the window needs 17 targets plus the
  // median-time span of the block 17 back.
  const chain: BlockIndexEntry[] = [last];
  const needed = AVERAGING_WINDOW + MEDIAN_TIME_SPAN;
  while (chain.length < needed && chain[chain.length - 1]!.height > 0) {
    const parent = await store.blockIndex(chain[chain.length - 1]!.prevHash);
    if (!parent) break;
    chain.push(parent);
  }
  // pindexFirst is the 17th ancestor; without it zcashd returns powLimit.
  if (chain.length <= AVERAGING_WINDOW) return powLimitBits;

  let total = 0n;
  for (let i = 0; i < AVERAGING_WINDOW; i++) total = (total + targetFromCompact(headerBits(chain[i]!))) & UINT256_MASK;
  const average = total / BigInt(AVERAGING_WINDOW);

  // CalculateNextWorkRequired with int64 arithmetic (C++ division truncates toward zero).
  const nextHeight = last.height + 1;
  const windowTimespan = AVERAGING_WINDOW * targetSpacing(network, nextHeight);
  const minTimespan = Math.trunc((windowTimespan * (100 - MAX_ADJUST_UP)) / 100);
  const maxTimespan = Math.trunc((windowTimespan * (100 + MAX_ADJUST_DOWN)) / 100);
  let actual = medianTimePast(chain, 0) - medianTimePast(chain, AVERAGING_WINDOW);
  actual = windowTimespan + Math.trunc((actual - windowTimespan) / 4);
  if (actual < minTimespan) actual = minTimespan;
  if (actual > maxTimespan) actual = maxTimespan;

  let next = ((average / BigInt(windowTimespan)) * BigInt(actual)) & UINT256_MASK;
  const powLimit = targetFromCompact(powLimitBits) | powLimitMantissaTail(powLimitBits);
  if (next > powLimit) next = powLimit;
  return compactFromTarget(next);
}

/**
 * powLimit itself is a full 256-bit value (mainnet 0007ffff…ff); its compact form drops the
 * trailing ff bytes. The cap compares against the real value, so restore them.
 */
function powLimitMantissaTail(bits: number): bigint {
  const size = bits >>> 24;
  return size > 3 ? (1n << BigInt(8 * (size - 3))) - 1n : 0n;
}

/**
 * GetNetworkDifficulty: the difficulty of the target required of the block after the tip
 * (zcashd answers 1.0 when there is no tip at all).
 */
export async function networkDifficulty(store: ChainStoreReader, tipEntry: BlockIndexEntry | null): Promise<number> {
  if (!tipEntry) return 1.0;
  return difficultyFromBits(await nextWorkRequired(store, tipEntry, store.network), store.network);
}
