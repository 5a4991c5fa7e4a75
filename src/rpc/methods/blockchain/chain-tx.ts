/**
 * nChainTx (transactions from genesis through a block) for getblockchaininfo's
 * verificationprogress, summed from per-block tx counts.
 */
import { Buffer } from 'node:buffer';
import type { BlockIndexEntry, ChainStoreReader } from '../../../store/types.js';

const REMEMBERED_TIPS = 64;

/**
 * nChainTx of best-chain blocks, computed by walking parents until a remembered block (or
 * genesis). The first call on a long chain walks it all once; later tips only walk the blocks
 * added since. Only a few recent answers are kept, so memory stays constant.
 */
export class ChainTxCounter {
  private readonly known = new Map<string, number>();

  constructor(private readonly store: ChainStoreReader) {}

  async chainTx(entry: BlockIndexEntry): Promise<number> {
    const key = Buffer.from(entry.hash).toString('hex');
    const cached = this.known.get(key);
    if (cached !== undefined) return cached;

    let sum = 0;
    let cursor: BlockIndexEntry | null = entry;
    while (cursor) {
      const hit = this.known.get(Buffer.from(cursor.hash).toString('hex'));
      if (hit !== undefined) {
        sum += hit;
        break;
      }
      sum += cursor.txCount;
      cursor = cursor.height > 0 ? await this.store.blockIndex(cursor.prevHash) : null;
    }
    if (this.known.size >= REMEMBERED_TIPS) this.known.delete(this.known.keys().next().value!);
    this.known.set(key, sum);
    return sum;
  }
}
