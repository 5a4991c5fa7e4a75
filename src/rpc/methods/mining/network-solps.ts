/**
 * GetNetworkHashPS (zcashd v6.12.2 src/rpc/mining.cpp): the chain work done between a block and
 * its `lookup`-th ancestor divided by the span of their block times (the earliest and latest
 * time among those blocks), in zcashd's arithmetic: arith_uint256::getdouble of the work, then a
 * truncation to int64. It reads one index entry per block of the window, so a window reaching
 * back to genesis costs one read per block of the chain (zcashd walks its in-memory index), and
 * lets other requests run every few thousand reads.
 */
import { int32LE } from '../../../codec/bytes.js';
import type { BlockIndexEntry, ChainStoreReader } from '../../../store/types.js';

/** nPowAveragingWindow (every network): the window of a non-positive `lookup`. */
export const POW_AVERAGING_WINDOW = 17;

/** Index reads between turns given to the event loop. */
const YIELD_EVERY = 4096;

/**
 * arith_uint256::getdouble: the eight 32-bit limbs, least significant first, each multiplied by
 * its power of 2^32 and added in turn (rounding after every addition, not once at the end).
 */
export function arith256ToDouble(value: bigint): number {
  let ret = 0;
  let fact = 1;
  for (let i = 0; i < 8; i++) {
    ret += fact * Number((value >> BigInt(32 * i)) & 0xffffffffn);
    fact *= 4294967296;
  }
  return ret;
}

function blockTime(entry: BlockIndexEntry): number {
  return int32LE(entry.header, 100) >>> 0;
}

/** GetNetworkHashPS(lookup, height) over the store's active chain. */
export async function networkHashPs(store: ChainStoreReader, lookup: number, height: number): Promise<number> {
  const tip = await store.tip();
  if (!tip) return 0;
  const hash = height >= 0 && height < tip.height ? await store.hashAtHeight(height) : tip.hash;
  const last = hash ? await store.blockIndex(hash) : null;
  if (!last || last.height === 0) return 0;
  let window = lookup <= 0 ? POW_AVERAGING_WINDOW : lookup;
  if (window > last.height) window = last.height;
  let first = last;
  let minTime = blockTime(last);
  let maxTime = minTime;
  for (let i = 0; i < window; i++) {
    // A window back to genesis is millions of reads: other requests get their turn meanwhile.
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    const prev = await store.blockIndex(first.prevHash);
    if (!prev) throw new Error(`block index entry missing below height ${first.height}`);
    first = prev;
    const time = blockTime(first);
    if (time < minTime) minTime = time;
    if (time > maxTime) maxTime = time;
  }
  if (minTime === maxTime) return 0;
  return Math.trunc(arith256ToDouble(last.chainWork - first.chainWork) / (maxTime - minTime));
}
