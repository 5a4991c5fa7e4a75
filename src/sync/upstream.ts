/**
 * Imports from an upstream node over JSON-RPC (`getblockcount`, `getblockhash`, `getblock <hash> 0`)
 * and keeps following its tip. Requests go in batches (one HTTP request per `batchSize` calls) with
 * several batches in flight while earlier blocks are being stored.
 *
 * Reorg awareness: every pass first finds the highest height where our best chain and upstream's
 * agree (comparing block hashes, looking back further each round), then fetches upstream's blocks
 * from there. A competing upstream branch is stored as a side chain and becomes our best chain as
 * soon as it has more work — the store does the reorganization. If upstream switches chains while
 * we fetch, the next block's parent is unknown; the pass restarts from a fresh fork search.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { bytesEqual, isHex, reversedHexToBytes, toHexReversed } from '../codec/hex.js';
import { ChainStore } from '../store/chain.js';
import { BlockRejectedError, StoreNotWritableError, UnknownParentError } from '../store/errors.js';
import { ImportError } from './block-sink.js';
import type { ImportOptions, ImportResult } from './hex.js';
import { ImportProgress, stderrLogger, type ImportLogger } from './progress.js';
import { BATCH_RESPONSE_TOO_LARGE, JsonRpcClient, RequestAbortedError, RpcReplyError, type RpcClientOptions } from './rpc-client.js';

/** How blocks are fetched from an upstream node's RPC. */
export interface UpstreamOptions extends RpcClientOptions, ImportOptions {
  /** Blocks per batch request (default 16). */
  batchSize?: number;
  /** Batches fetched ahead of the one being stored (default 4). */
  pipeline?: number;
  /** Told the upstream's tip height each time a pass asks for it. */
  onUpstreamHeight?: (height: number) => void;
}

/** How an upstream node is followed: its RPC, and how often its tip is polled. */
export interface FollowOptions extends UpstreamOptions {
  /** Delay between polls of upstream's tip (default 5000 ms). */
  pollMs?: number;
  /** Longest delay after repeated failures (default 60000 ms). */
  maxBackoffMs?: number;
}

interface Fetched {
  height: number;
  hash: Uint8Array;
  bytes: Uint8Array;
}

const HASH_HEX = /^[0-9a-f]{64}$/;

/** A block height: zcashd's nHeight is an int32, so anything above 2^31 - 1 is not one. */
function heightReply(client: JsonRpcClient, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < -1 || v > 0x7fffffff) {
    throw new ImportError(`upstream ${client.displayUrl}: getblockcount returned ${JSON.stringify(v)}, expected a block height`);
  }
  return v;
}

async function upstreamHashes(client: JsonRpcClient, from: number, to: number): Promise<Uint8Array[]> {
  const heights = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const replies = await client.batch<unknown>(heights.map((h) => ({ method: 'getblockhash', params: [h] })));
  return replies.map((r, i) => {
    if (typeof r !== 'string' || !HASH_HEX.test(r)) {
      throw new ImportError(
        `upstream ${client.displayUrl}: getblockhash ${heights[i]} returned ${JSON.stringify(r).slice(0, 80)}, expected a block hash`,
      );
    }
    return reversedHexToBytes(r);
  });
}

async function fetchBlocks(client: JsonRpcClient, from: number, to: number): Promise<Fetched[]> {
  const hashes = await upstreamHashes(client, from, to);
  const replies = await blockHexes(client, hashes);
  return replies.map((r, i) => {
    const height = from + i;
    const where = `upstream ${client.displayUrl} (height ${height})`;
    if (typeof r !== 'string' || r.length % 2 !== 0 || !isHex(r)) {
      throw new ImportError(`${where}: getblock returned ${JSON.stringify(r).slice(0, 80)}, expected the block in hex`);
    }
    const bytes = new Uint8Array(Buffer.from(r, 'hex'));
    let got: Uint8Array;
    try {
      got = ChainStore.hashOf(bytes);
    } catch (e) {
      throw new ImportError(`${where}: getblock returned bytes whose header does not decode (${(e as Error).message})`);
    }
    if (!bytesEqual(got, hashes[i]!)) {
      throw new ImportError(`${where}: getblock ${toHexReversed(hashes[i]!)} returned block ${toHexReversed(got)}`);
    }
    return { height, hash: hashes[i]!, bytes };
  });
}

/**
 * `getblock <hash> 0` of each hash, in batches. A batch of large blocks can exceed what the
 * server returns in one reply (Zebra refuses the whole batch): it is then asked for in halves.
 */
async function blockHexes(client: JsonRpcClient, hashes: Uint8Array[]): Promise<unknown[]> {
  try {
    return await client.batch<unknown>(hashes.map((h) => ({ method: 'getblock', params: [toHexReversed(h), 0] })));
  } catch (e) {
    if (!(e instanceof RpcReplyError && e.code === BATCH_RESPONSE_TOO_LARGE && hashes.length > 1)) throw e;
    const half = Math.ceil(hashes.length / 2);
    return [...(await blockHexes(client, hashes.slice(0, half))), ...(await blockHexes(client, hashes.slice(half)))];
  }
}

/**
 * Highest height at which our best chain and upstream's agree, or -1 (empty store). Upstream is
 * asked only about heights the store holds: a store started from a checkpoint has nothing below
 * its first header to compare (and the heights it holds are contiguous).
 */
async function findCommonHeight(store: ChainStore, client: JsonRpcClient, upstreamHeight: number, batch: number): Promise<number> {
  const tip = await store.tip();
  if (!tip || upstreamHeight < 0) return -1;
  let top = Math.min(tip.height, upstreamHeight);
  let step = batch;
  let lowest = top;
  while (top >= 0) {
    const low = Math.max(0, top - step + 1);
    const ours: (Uint8Array | null)[] = [];
    for (let h = low; h <= top; h++) ours.push(await store.hashAtHeight(h));
    let floor = low;
    while (floor <= top && !ours[floor - low]) floor++;
    if (floor > top) break;
    lowest = floor;
    const theirs = await upstreamHashes(client, floor, top);
    for (let h = top; h >= floor; h--) {
      if (bytesEqual(ours[h - low]!, theirs[h - floor]!)) return h;
    }
    if (floor > low) break;
    top = low - 1;
    step = Math.min(step * 2, 2000);
  }
  const what = lowest === 0 ? 'its genesis block matches ours' : `its block ${lowest}, the first this store holds, matches ours`;
  throw new ImportError(`upstream ${client.displayUrl} serves a different chain: not even ${what} (${store.network.name}); wrong network?`);
}

/**
 * One pass: fetch and store everything upstream has beyond the common point. `opts.signal` ends
 * it between blocks (what was stored is written out); the client should carry the same signal,
 * so requests in flight end with it.
 */
export async function syncFromUpstream(store: ChainStore, client: JsonRpcClient, opts: UpstreamOptions = {}): Promise<ImportResult> {
  const started = Date.now();
  const batch = Math.max(1, opts.batchSize ?? 16);
  const depth = Math.max(1, opts.pipeline ?? 4);
  const stats = { added: 0, duplicates: 0, sideChain: 0, reorganizations: 0, bytes: 0 };
  const stopped = () => opts.signal?.aborted === true;
  try {
    await syncPasses();
  } catch (e) {
    if (!(stopped() && e instanceof RequestAbortedError)) throw e;
  }
  // A pass ends with its blocks on disk (an importing store holds them in a group commit).
  await store.flush();
  return { ...stats, tipHeight: (await store.tip())?.height ?? -1, seconds: (Date.now() - started) / 1000 };

  async function syncPasses(): Promise<void> {
    for (let attempt = 0; !stopped(); attempt++) {
      const upstreamHeight = heightReply(client, await client.call('getblockcount'));
      opts.onUpstreamHeight?.(upstreamHeight);
      const common = await findCommonHeight(store, client, upstreamHeight, batch);
      const start = common + 1;
      if (start > upstreamHeight) break;
      const progress = new ImportProgress({
        label: 'import rpc',
        unit: 'blocks',
        total: upstreamHeight - start + 1,
        mode: opts.progress,
        logger: opts.logger,
      });
      const inflight: Promise<Fetched[]>[] = [];
      // Windows of `batch` heights, made as they are fetched (upstream's height is only a number).
      let next = start;
      const fill = (): void => {
        while (inflight.length < depth && next <= upstreamHeight && !stopped()) {
          const a = next;
          const b = Math.min(a + batch - 1, upstreamHeight);
          next = b + 1;
          const p = fetchBlocks(client, a, b);
          p.catch(() => undefined); // surfaced when awaited; avoid unhandled rejections after an abort
          // Solutions are checked on the solution threads while earlier windows connect.
          void p.then(
            (blocks) => blocks.forEach((x) => (opts.solutions ? opts.solutions.prefetch(x.bytes) : store.prefetch(x.bytes))),
            () => undefined,
          );
          inflight.push(p);
        }
      };
      let restart = false;
      try {
        fill();
        while (inflight.length && !stopped()) {
          const blocks = await inflight.shift()!;
          fill();
          // Trees are stepped in chain order (each block's after its parent's), so a window is
          // handed to the tree thread as it comes up, not as it arrives.
          if (opts.trees) for (const b of blocks) opts.trees.prefetch(b.bytes);
          for (const b of blocks) {
            if (stopped()) break;
            try {
              const r = await store.addBlock(b.bytes, { solutions: opts.solutions, trees: opts.trees });
              await opts.trees?.seedAfterGap(store);
              if (r.status === 'duplicate') stats.duplicates++;
              else {
                stats.added++;
                stats.bytes += b.bytes.length;
                if (r.status === 'side-chain') stats.sideChain++;
                if (r.status === 'reorganized') stats.reorganizations++;
              }
            } catch (e) {
              if (e instanceof UnknownParentError) {
                restart = true; // upstream changed chains between our requests
                break;
              }
              if (e instanceof BlockRejectedError)
                throw new ImportError(`upstream ${client.displayUrl} (height ${b.height}): ${e.message}`);
              throw e;
            }
            progress.tick(b.bytes.length, 1);
          }
          if (restart) break;
        }
      } finally {
        progress.stop();
      }
      if (!restart) break;
      if (attempt >= 5)
        throw new ImportError(`upstream ${client.displayUrl}: its chain keeps changing while we fetch; giving up this pass`);
    }
  }
}

/** Imports everything from `url` once (the `zecrpc import --rpc URL` command). */
export async function importFromUpstream(store: ChainStore, url: string, opts: UpstreamOptions = {}): Promise<ImportResult> {
  return syncFromUpstream(store, await JsonRpcClient.create(url, opts), opts);
}

/** An upstream node being followed. */
export interface UpstreamFollower {
  /** Stops polling and the pass in progress (between blocks); resolves once it has ended. */
  stop(): Promise<void>;
  /** Resolves when the follower stopped. */
  readonly done: Promise<void>;
  /** The last pass's error, cleared by the next successful pass. */
  readonly lastError: Error | null;
  /** Completed passes (successful or not). */
  readonly passes: number;
  /** The upstream's tip height as last seen, null until a pass has asked for it. */
  readonly upstreamHeight: number | null;
  /** Blocks stored since the follower started. */
  readonly added: number;
  /** Reorganizations since the follower started. */
  readonly reorganizations: number;
}

/**
 * Keeps the store at upstream's tip: a sync pass, then a poll every `pollMs`, forever. Failures are
 * logged and retried with exponential backoff; they never stop the follower or touch stored data,
 * except a store that takes no more writes (a full disk): retrying cannot help, so it stops.
 */
export async function followUpstream(store: ChainStore, url: string, opts: FollowOptions = {}): Promise<UpstreamFollower> {
  const abort = new AbortController();
  const client = await JsonRpcClient.create(url, { ...opts, signal: abort.signal });
  const logger: ImportLogger = opts.logger ?? stderrLogger;
  const pollMs = opts.pollMs ?? 5000;
  const maxBackoff = opts.maxBackoffMs ?? 60_000;
  let lastError: Error | null = null;
  let passes = 0;
  let failures = 0;
  let upstreamHeight: number | null = null;
  let added = 0;
  let reorganizations = 0;
  const onUpstreamHeight = (h: number) => {
    upstreamHeight = h;
    opts.onUpstreamHeight?.(h);
  };

  const loop = async (): Promise<void> => {
    let first = true;
    while (!abort.signal.aborted) {
      try {
        const r = await syncFromUpstream(store, client, {
          ...opts,
          signal: abort.signal,
          progress: first ? opts.progress : 'silent',
          onUpstreamHeight,
        });
        first = false;
        failures = 0;
        lastError = null;
        added += r.added;
        reorganizations += r.reorganizations;
        if (r.added > 0) {
          // Lag as of the pass's last getblockcount: what an operator compares across replicas.
          const tip = await store.tip();
          const upstreamAt = upstreamHeight ?? -1;
          const lag = tip ? Math.max(0, upstreamAt - tip.height) : upstreamAt + 1;
          logger.info(
            `upstream: stored ${r.added} block(s)${r.reorganizations ? `, ${r.reorganizations} reorganization(s)` : ''}; tip ${tip?.height} ${tip ? toHexReversed(tip.hash) : ''}; upstream height ${upstreamAt}, ${lag} behind`,
          );
        }
      } catch (e) {
        if (abort.signal.aborted) break;
        failures++;
        lastError = e as Error;
        if (e instanceof StoreNotWritableError) {
          logger.warn(`upstream: stopped following: ${e.message}`);
          passes++;
          break;
        }
        logger.warn(`${(e as Error).message}; retrying`);
      }
      passes++;
      const wait = failures ? Math.min(pollMs * 2 ** (failures - 1), maxBackoff) : pollMs;
      await sleep(wait, undefined, { signal: abort.signal }).catch(() => undefined);
    }
  };
  const done = loop();
  return {
    stop: async () => {
      abort.abort();
      await done;
    },
    done,
    get lastError() {
      return lastError;
    },
    get passes() {
      return passes;
    },
    get upstreamHeight() {
      return upstreamHeight;
    },
    get added() {
      return added;
    },
    get reorganizations() {
      return reorganizations;
    },
  };
}
