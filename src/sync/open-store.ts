/**
 * Opens a chain store for a process that imports into it: with `solutionThreads`, an Equihash
 * prefetcher (solution-prefetch.ts) is attached to the store, so that `store.prefetch` checks
 * the solutions of blocks read ahead on worker threads and `addBlock` takes their verdicts. The
 * store itself owns no thread; it closes the prefetcher it was given when it closes.
 */
import { ChainStore, type ChainStoreOptions } from '../store/chain.js';
import { SolutionPrefetcher } from './solution-prefetch.js';

export interface ImportStoreOptions extends ChainStoreOptions {
  /**
   * Threads that check Equihash solutions of blocks an importer has read ahead (`prefetch`),
   * while this thread validates and connects the current block (default 0: every solution is
   * checked when its block is added).
   */
  solutionThreads?: number;
}

/** Opens (or creates) a chain store as `zecrpc import` does, checking Equihash solutions on `solutionThreads` threads. */
export function openChainStore(opts: ImportStoreOptions): Promise<ChainStore> {
  const { solutionThreads = 0, ...store } = opts;
  const verifies = opts.verifySolutions ?? true;
  if (!verifies || solutionThreads <= 0 || opts.solutions) return ChainStore.open(store);
  return ChainStore.open({ ...store, solutions: new SolutionPrefetcher(opts.network, solutionThreads) });
}
