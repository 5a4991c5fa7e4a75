/**
 * Where a stored block's transactions start, as far as getrawtransaction has stepped through it,
 * kept for the most recently looked-up blocks. Explorers and indexers ask for a block's
 * transactions one after another, and without it every request steps over all the
 * transactions before its own. It is only a hint: the transaction read at a remembered start
 * must still hash to the requested txid, and where it does not (or does not decode) the caller
 * forgets the block's starts and steps through the block again. Transactions before a
 * remembered start are not decoded again: the block's hash commits to its bytes, so only a
 * store whose bytes changed under the same hash and length could tell the difference (the
 * transaction is then found, as zcashd's txindex finds it by seeking to it, where a cold lookup
 * fails on the earlier transaction).
 */
import { toHex } from '../../../codec/hex.js';

/**
 * Blocks whose starts are kept. A block's starts are one number a transaction: a few kilobytes
 * for a block of hundreds, at most about 280 kB for a valid 2 MB block of the smallest (60-byte)
 * transactions, so at most about 4.5 MB in all. A corrupt stored block the decoder still reads
 * (10-byte transactions with neither inputs nor outputs) holds about 2 MB of starts: 16 of them
 * about 33 MB, still bounded.
 */
const KEPT_BLOCKS = 16;

export class TransactionStarts {
  private readonly byBlock = new Map<string, number[]>();

  constructor(private readonly keptBlocks = KEPT_BLOCKS) {}

  /**
   * The starts known for the block with this hash and these bytes (empty at first), which the
   * caller extends in order: element i is where transaction i begins in the block's bytes. The
   * bytes' length is part of the key, so other bytes stored under the same hash start afresh.
   */
  of(blockHash: Uint8Array, bytes: Uint8Array): number[] {
    const key = `${toHex(blockHash)}:${bytes.length}`;
    let starts = this.byBlock.get(key);
    if (starts) {
      // Most recently used last, so the first is the one to drop.
      this.byBlock.delete(key);
    } else {
      starts = [];
      if (this.byBlock.size >= this.keptBlocks) this.byBlock.delete(this.byBlock.keys().next().value!);
    }
    this.byBlock.set(key, starts);
    return starts;
  }

  get blocks(): number {
    return this.byBlock.size;
  }
}
