/**
 * Memory lent to a transaction reply (decoderawtransaction, getrawtransaction), rendered on the
 * event loop, until the reply has been written: the text is written straight into it and sent
 * from a view of it, where otherwise it would be copied out of the render scratch into a fresh
 * buffer of its own (outside V8's pooled small allocations: a new ArrayBuffer per reply, which
 * costs more than the rendering's copy and makes the collector run more often). getblock's
 * render threads lend their replies shared slabs the same way (workers/reply-slab.ts).
 *
 * A buffer is lent to one reply at a time: it goes back to the pool only through the release
 * its request's scope runs once the reply is written or the connection is gone, and only once.
 * At most `maxLent` are out at once (beyond that a reply gets memory of its own, as before), and
 * at most `maxKept` wait for reuse, so what the pool holds stays bounded whatever many clients do.
 */
import { Buffer } from 'node:buffer';
import type { NetworkParams } from '../../chain/network.js';
import type { Transaction } from '../../codec/tx/transaction.js';
import { txJsonSizeEstimate, txToJsonBytes, txToJsonBytesInto, type TxJsonExtras } from '../../render/tx.js';
import type { ReplyScope } from '../workers/reply-slab.js';

/** Capacity of one lent buffer: the verbose text of a transaction of up to about 250 kB. */
export const LENT_REPLY_BYTES = 1024 * 1024;

export class LentReplyMemory {
  private readonly kept: Buffer[] = [];
  private lent = 0;

  constructor(
    readonly bufferBytes = LENT_REPLY_BYTES,
    private readonly maxLent = 64,
    private readonly maxKept = 8,
  ) {}

  /**
   * A buffer for a reply of at most `bytes`, held by `scope` until its release runs; null when
   * the reply would not fit or `maxLent` are out (the caller then renders into memory of its own).
   */
  lend(scope: ReplyScope, bytes: number): Buffer | null {
    if (bytes > this.bufferBytes || this.lent >= this.maxLent) return null;
    this.lent++;
    const buffer = this.kept.pop() ?? Buffer.allocUnsafeSlow(this.bufferBytes);
    let returned = false;
    scope.hold(() => {
      if (returned) return;
      returned = true;
      this.lent--;
      if (this.kept.length < this.maxKept) this.kept.push(buffer);
    });
    return buffer;
  }

  /** Buffers lent and kept, for tests. */
  stats(): { lent: number; kept: number } {
    return { lent: this.lent, kept: this.kept.length };
  }
}

/** The pool the transaction methods share (one event loop renders them all). */
export const transactionReplyMemory = new LentReplyMemory();

/**
 * TxToJSON of `tx` in memory lent to the reply until it has been written, where the server lends
 * it; else in memory of its own. Only for a result nobody keeps (a cache copies what it keeps).
 */
export function renderInLentMemory(
  tx: Transaction,
  network: NetworkParams,
  scope: ReplyScope | undefined,
  extras: TxJsonExtras = {},
): Buffer {
  const output = scope ? transactionReplyMemory.lend(scope, txJsonSizeEstimate(tx)) : null;
  return output ? txToJsonBytesInto(output, tx, network, extras) : txToJsonBytes(tx, network, extras);
}
