/**
 * One import of a chain written by era-chain-file.ts, as `zecrpc import --blocks-dir` runs it: a
 * fresh store opened with group commit, the blk-file importer, Equihash solutions checked on a
 * solution thread while earlier blocks connect — or, for a chain whose headers carry stand-ins of
 * mainnet's size (test-vectors/era-chain.ts, EraSolutions), not checked, as
 * `zecrpc import --no-verify-equihash` runs (the benches charge Equihash (200, 9) apart). Times the whole import (wall, this process's
 * CPU, LevelDB's threads included, and its main thread's) and samples RSS and the store's size on disk as it goes.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import type { NetworkParams } from '../../src/chain/network.js';
import type { CoinReadCounts } from '../../src/store/committed-coins.js';
import { importBlkFiles, openChainStore } from '../../src/store/index.js';
import { SolutionPrefetcher } from '../../src/sync/solution-prefetch.js';
import { TreePrefetcher } from '../../src/sync/tree-prefetch.js';
import { hasStandInSolutions } from '../../test-vectors/era-chain.js';
import { cpuMicros } from './measure.js';
import { mainThreadCpuMicros, threadIds, threadsCpuMicros } from './process-cpu.js';

/**
 * `--address-index=0`: the benches import as `zecrpc import -addressindex=0` does, into stores
 * without the address index, and keep their projection apart (projectionFile).
 */
export const ADDRESS_INDEX = !process.argv.includes('--address-index=0');

/**
 * Every era bench imports with the tree thread (sync/tree-prefetch.ts), as `zecrpc import` does
 * with two cores or more; `--tree-thread=0` imports without it, every block's trees hashed on the
 * main thread, as on one core (the projections of runs before 1 Dec 2026 were made so).
 */
export const TREE_THREAD = !process.argv.includes('--tree-thread=0');

/** The projection file of the configuration measured: the default's, or -addressindex=0's. */
export const projectionFile = (resultsDir: string): string =>
  join(resultsDir, ADDRESS_INDEX ? 'import-projection.json' : 'import-projection-no-address-index.json');

export interface ImportTrace {
  /** Seconds since the import started. */
  t: number;
  height: number;
  rssMiB: number;
  diskMiB: number;
  load1: number;
}

export interface EraImportRun {
  wallMicros: number;
  cpuMicros: number;
  /** The main thread's share of `cpuMicros` (clock ticks of 10 ms). */
  mainThreadCpuMicros: number;
  /**
   * The tree thread's share of `cpuMicros` (0 without it; the threads started with it, told from the
   * process's others by when they appeared). The rest beside the main thread is LevelDB's writer
   * and compaction threads, the solution thread and the collector's helpers.
   */
  treeThreadCpuMicros: number;
  /** CPU and wall µs the tree thread's start took, ready with every pool's hasher built: outside `cpuMicros` and `wallMicros`. */
  treeThreadStartCpuMicros: number;
  treeThreadStartWallMicros: number;
  blocks: number;
  bytes: number;
  trace: ImportTrace[];
  /** Seconds from the start at which each window of `windowBlocks` blocks was connected. */
  windowEnds: number[];
  /** CPU seconds (all threads) and the main thread's, from the start to each window's end. */
  windowCpuEnds: number[];
  windowMainThreadCpuEnds: number[];
  /** Coin reads by who answered them, from the start to each window's end. */
  windowCoinReadEnds: CoinReadCounts[];
  /** Coin reads by who answered them (the coins cache, src/store/committed-coins.ts). */
  coinReads: CoinReadCounts;
  /** The most memory the coins cache held, sampled after every block. */
  coinCachePeakBytes: number;
  /** The most groups it held. */
  coinCachePeakGroups: number;
  /** Each group handed to LevelDB, in order: its blocks, key and value bytes, rows and memory. */
  groups: GroupWritten[];
}

/** One group-commit group as it was handed to LevelDB (src/store/chain-db.ts `startGroupWrite`). */
export interface GroupWritten {
  blocks: number;
  bytes: number;
  memoryBytes: number;
}

/**
 * The store's ChainDb, reached past its `private` modifier: the groups it writes are no part of
 * the store's interface, but the coin-read simulation (coin-read-sim.ts) is checked against them.
 */
interface GroupingDb {
  group: { blocks: number; bytes: number; memoryBytes: number } | null;
  startGroupWrite(): Promise<void>;
}

/** Bytes under `dir`, recursively; a file LevelDB's compaction removes meanwhile counts zero. */
export function diskBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += diskBytes(p);
    else total += statSync(p, { throwIfNoEntry: false })?.size ?? 0;
  }
  return total;
}

export async function importChainDir(
  chainDir: string,
  datadir: string,
  network: NetworkParams,
  options: {
    traceEverySeconds?: number;
    windowBlocks?: number;
    signal?: AbortSignal;
    /** The coins cache's bound (`-dbcache` in bytes; default the store's). */
    coinCacheBytes?: number;
    /** Stop after this many blocks (genesis included): a slice of the chain. */
    maxBlocks?: number;
    /** Keep the address index (`-addressindex`, default true). */
    addressIndex?: boolean;
    /** Step the trees of blocks read ahead on a thread, as `zecrpc import` does with two cores (default TREE_THREAD). */
    treeThread?: boolean;
    /** Check Equihash solutions on a thread (default: unless the chain's are stand-ins, hasStandInSolutions). */
    verifySolutions?: boolean;
  } = {},
): Promise<EraImportRun> {
  const verifySolutions = options.verifySolutions ?? !hasStandInSolutions(network);
  const store = await openChainStore({
    datadir,
    network,
    groupCommit: true,
    verifySolutions,
    ...(options.addressIndex === undefined ? {} : { addressIndex: options.addressIndex }),
    ...(options.coinCacheBytes === undefined ? {} : { coinCacheBytes: options.coinCacheBytes }),
  });
  const slice = options.maxBlocks === undefined ? null : new AbortController();
  const signals = [options.signal, slice?.signal].filter((s) => s !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  let coinCachePeakBytes = 0;
  let coinCachePeakGroups = 0;
  const solutions = verifySolutions ? new SolutionPrefetcher(network, 1) : undefined;
  const trace: ImportTrace[] = [];
  const windowEnds: number[] = [];
  const windowCpuEnds: number[] = [];
  const windowMainThreadCpuEnds: number[] = [];
  const windowCoinReadEnds: CoinReadCounts[] = [];
  // The tree thread starts before the clocks: its start (under tsx, compiling its TypeScript;
  // then building the Orchard table, ≈ 1 s of CPU) is once an import, and timed inside it would
  // fall on the first shielded blocks of a chain of a few hundred, so the fit would charge it to
  // every Sapling output or Orchard action of mainnet. It is timed apart.
  const threadsBefore = new Set(threadIds());
  const s0 = cpuMicros();
  const sw0 = performance.now();
  const trees = (options.treeThread ?? TREE_THREAD) ? await TreePrefetcher.start(store, { warm: true }) : undefined;
  const treeThreadStartCpuMicros = trees ? cpuMicros() - s0 : 0;
  const treeThreadStartWallMicros = trees ? (performance.now() - sw0) * 1000 : 0;
  const treeThreadIds = trees ? threadIds().filter((t) => !threadsBefore.has(t)) : [];
  const t0 = performance.now();
  const c0 = cpuMicros();
  const m0 = mainThreadCpuMicros();
  const tt0 = threadsCpuMicros(treeThreadIds);
  let height = -1;
  const groups: GroupWritten[] = [];
  const db = (store as unknown as { db: GroupingDb }).db;
  const startGroupWrite = db.startGroupWrite.bind(db);
  db.startGroupWrite = async () => {
    const g = db.group;
    if (g && g.blocks > 0) groups.push({ blocks: g.blocks, bytes: g.bytes, memoryBytes: g.memoryBytes });
    return startGroupWrite();
  };
  const sample = (): void => {
    trace.push({
      t: (performance.now() - t0) / 1000,
      height,
      rssMiB: process.memoryUsage().rss / 2 ** 20,
      diskMiB: diskBytes(datadir) / 2 ** 20,
      load1: loadavg()[0]!,
    });
  };
  const timer = options.traceEverySeconds ? setInterval(sample, options.traceEverySeconds * 1000) : null;
  const windowBlocks = options.windowBlocks ?? 0;
  // Counts the blocks the importer adds (the genesis block is the store's first), to time windows.
  const add = store.addBlock.bind(store);
  store.addBlock = async (bytes, opts) => {
    const r = await add(bytes, opts);
    height++;
    coinCachePeakBytes = Math.max(coinCachePeakBytes, store.coinCache.bytes);
    coinCachePeakGroups = Math.max(coinCachePeakGroups, store.coinCache.groups);
    if (slice && height + 1 >= options.maxBlocks!) slice.abort();
    if (windowBlocks > 0 && (height + 1) % windowBlocks === 0) {
      windowEnds.push((performance.now() - t0) / 1000);
      windowCpuEnds.push((cpuMicros() - c0) / 1e6);
      windowMainThreadCpuEnds.push((mainThreadCpuMicros() - m0) / 1e6);
      windowCoinReadEnds.push({ ...store.coinCache.reads });
    }
    return r;
  };
  const result = await importBlkFiles(store, join(chainDir, 'blocks'), {
    progress: 'silent',
    ...(solutions ? { solutions } : {}),
    ...(trees ? { trees } : {}),
    ...(signal ? { signal } : {}),
  });
  await store.flush();
  const wallMicros = (performance.now() - t0) * 1000;
  const cpu = cpuMicros() - c0;
  const mainThread = mainThreadCpuMicros() - m0;
  const treeThread = threadsCpuMicros(treeThreadIds) - tt0;
  if (timer) clearInterval(timer);
  height = (await store.tip())?.height ?? 0;
  if (options.traceEverySeconds) sample();
  const coinReads = { ...store.coinCache.reads };
  await Promise.all([solutions?.close(), trees?.close()]);
  await store.close();
  return {
    wallMicros,
    cpuMicros: cpu,
    mainThreadCpuMicros: mainThread,
    treeThreadCpuMicros: treeThread,
    treeThreadStartCpuMicros,
    treeThreadStartWallMicros,
    blocks: result.added,
    bytes: result.bytes,
    trace,
    windowEnds,
    windowCpuEnds,
    windowMainThreadCpuEnds,
    windowCoinReadEnds,
    coinReads,
    coinCachePeakBytes,
    coinCachePeakGroups,
    groups,
  };
}
