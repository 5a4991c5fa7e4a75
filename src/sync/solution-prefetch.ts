/**
 * Equihash solutions checked ahead, on worker threads (crypto/equihash-pool.ts), for the blocks
 * an importer has read but not added yet: the importer prefetches each block it reads ahead and
 * hands the store the verdict when it adds the block (ChainStore.addBlock's `solutions`), while
 * this thread validates and connects the current one. The store owns no thread.
 */
import { equihashParams } from '../chain/header-rules.js';
import type { NetworkParams } from '../chain/network.js';
import { decodeBlockHeader, type BlockHeader } from '../codec/block.js';
import type { EquihashResult } from '../crypto/equihash.js';
import { EquihashPool } from '../crypto/equihash-pool.js';
import { sha256d } from '../crypto/hash.js';
import type { SolutionVerdicts } from '../store/block-acceptance.js';

/** Solution verdicts kept for blocks not yet added (an importer reads a few hundred ahead at most). */
const MAX_PREFETCHED = 4096;

/** Checks the Equihash solutions of blocks read ahead on a thread pool, so that connecting a block finds its verdict ready. */
export class SolutionPrefetcher implements SolutionVerdicts {
  private readonly pool: EquihashPool;
  /** Verdicts on the solutions of prefetched blocks, by block hash (latin1), oldest first. */
  private readonly prefetched = new Map<string, Promise<EquihashResult | null>>();

  constructor(
    private readonly network: NetworkParams,
    threads: number,
  ) {
    this.pool = new EquihashPool(threads);
  }

  /**
   * Starts checking the Equihash solution of a block the caller will add soon. Bytes that are
   * not a header of this network are left to addBlock to refuse.
   */
  prefetch(bytes: Uint8Array): void {
    let header: BlockHeader;
    try {
      header = decodeBlockHeader(bytes);
    } catch {
      return;
    }
    if (header.solution.length !== this.network.solutionSize) return;
    const key = Buffer.from(sha256d(header.bytes)).toString('latin1');
    if (this.prefetched.has(key)) return;
    if (this.prefetched.size >= MAX_PREFETCHED) this.prefetched.delete(this.prefetched.keys().next().value!);
    const { n, k } = equihashParams(this.network);
    // A failed thread is not a verdict: the block's solution is then checked inline.
    const verdict = this.pool.verify(n, k, header.bytes.subarray(0, 140), header.solution).catch(() => null);
    this.prefetched.set(key, verdict);
  }

  take(hash: Uint8Array): Promise<EquihashResult | null> | null {
    if (this.prefetched.size === 0) return null;
    const key = Buffer.from(hash).toString('latin1');
    const verdict = this.prefetched.get(key);
    if (!verdict) return null;
    this.prefetched.delete(key);
    return verdict;
  }

  /** Resolves once every prefetched solution has its verdict (for measurements and tests). */
  async settled(): Promise<void> {
    await Promise.all(this.prefetched.values());
  }

  async close(): Promise<void> {
    this.prefetched.clear();
    await this.pool.close();
  }
}
