/**
 * GetNetworkDifficulty (zcashd src/rpc/blockchain.cpp) for getdifficulty/getblockchaininfo: the
 * difficulty of the work required of the block after the tip, computed by chain/difficulty.ts
 * from the tip's last headers (no candidate block, so testnet's minimum-difficulty exception
 * never applies). Also the tip's median time past, which estimatedheight needs.
 */
import { medianTimePast, NEXT_WORK_WINDOW, nextWorkRequired, type HeaderTiming } from '../../../chain/difficulty.js';
import { difficultyFromBits } from '../../../chain/pow.js';
import { int32LE } from '../../../codec/bytes.js';
import type { BlockIndexEntry, ChainStoreReader } from '../../../store/types.js';

/** The timings of `last` and up to `count − 1` ancestors, oldest first. */
export async function recentTimings(store: ChainStoreReader, last: BlockIndexEntry, count: number): Promise<HeaderTiming[]> {
  const out: HeaderTiming[] = [];
  let entry: BlockIndexEntry | null = last;
  while (entry && out.length < count) {
    out.push({ height: entry.height, time: int32LE(entry.header, 100) >>> 0, bits: int32LE(entry.header, 104) >>> 0 });
    entry = entry.height > 0 ? await store.blockIndex(entry.prevHash) : null;
  }
  return out.reverse();
}

/** Compact target required of the block after `last` (null = empty chain → powLimit). */
export async function nextWorkAfter(store: ChainStoreReader, last: BlockIndexEntry | null): Promise<number> {
  if (!last) return store.network.powLimitBits;
  return nextWorkRequired(store.network, await recentTimings(store, last, NEXT_WORK_WINDOW));
}

/** GetNetworkDifficulty (1.0 when there is no tip at all). */
export async function networkDifficulty(store: ChainStoreReader, tipEntry: BlockIndexEntry | null): Promise<number> {
  if (!tipEntry) return 1.0;
  return difficultyFromBits(await nextWorkAfter(store, tipEntry), store.network);
}

/** CBlockIndex::GetMedianTimePast of `entry`. */
export async function medianTimePastOf(store: ChainStoreReader, entry: BlockIndexEntry): Promise<number> {
  return medianTimePast(await recentTimings(store, entry, 11));
}
