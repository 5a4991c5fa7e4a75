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
 *
 * A server's pool counts on its reply budget (-rpcmemory): a lent buffer reserves its whole size
 * until it is given back (besides the reply's own bytes, which its request's budget counts as any
 * reply's), a request holds at most one (a batch's other replies get memory of their own), and a
 * reply the budget has no room for, buffer and text together, is rendered into memory of its own, as a
 * cached reply is, which its request's budget counts; a kept buffer counts as the budget's kept
 * bytes, dropped when a reservation needs their room or the server goes idle.
 */
import { Buffer } from 'node:buffer';
import type { NetworkParams } from '../../chain/network.js';
import type { Transaction } from '../../codec/tx/transaction.js';
import { txJsonSizeEstimate, txToJsonBytes, txToJsonBytesInto, type TxJsonExtras } from '../../render/tx.js';
import type { BufferKeeper, MemoryBudget } from '../http/memory-budget.js';
import type { ReplyMemoryLender, ReplyScope } from '../workers/reply-slab.js';
import { markRetained } from '../retained-replies.js';
import { inputRunWriter, REPLY_SLOT_BYTES, returnReplySlot, type InputRunWriter } from '../../render/input-wasm.js';

/** Capacity of one lent buffer: the verbose text of a transaction of up to about 250 kB. */
export const LENT_REPLY_BYTES = 1024 * 1024;

/** Buffers lent at once (beyond, replies get memory of their own), and kept for reuse, by default. */
export const MAX_LENT_REPLY_BUFFERS = 64;
export const MAX_KEPT_REPLY_BUFFERS = 8;

export class LentReplyMemory implements ReplyMemoryLender, BufferKeeper {
  private readonly kept: Buffer[] = [];
  private lent = 0;
  /**
   * Requests holding a lent buffer: one each, so a batch holds at most one buffer beyond the
   * replies its own budget (-rpcrequestmemory) counts.
   */
  private readonly holders = new WeakSet<ReplyScope>();
  /** Closed (its server has stopped): a buffer given back is not kept, so a reply slot goes back to its module. */
  private closed = false;

  constructor(
    readonly bufferBytes = LENT_REPLY_BYTES,
    private readonly maxLent = MAX_LENT_REPLY_BUFFERS,
    private readonly maxKept = MAX_KEPT_REPLY_BUFFERS,
    /** The reply budget lent and kept buffers count on (none: uncounted). */
    private readonly budget?: MemoryBudget,
  ) {
    budget?.addKeeper(this);
  }

  /**
   * A buffer for a reply of at most `bytes`, held by `scope` until its release runs; null when
   * the reply would not fit, `maxLent` are out, `scope` holds one already, or the budget has no
   * room for the buffer and the reply's own bytes beside it (which its request's budget counts
   * when the reply is built): the caller then renders into memory of its own. With
   * `inputsInModule` (a reply whose transparent inputs the WebAssembly module writes), one of that
   * module's reply slots where one is kept or free (render/input-wasm.ts: the module writes the
   * inputs in place instead of copying them into the reply), counted as any lent buffer.
   */
  lend(scope: ReplyScope, bytes: number, inputsInModule = false): Buffer | null {
    if (bytes > this.bufferBytes || this.lent >= this.maxLent || this.holders.has(scope)) return null;
    const module = inputsInModule && this.bufferBytes === REPLY_SLOT_BYTES ? inputRunWriter() : null;
    const buffer = (module !== null ? this.slotFor(module, bytes) : null) ?? this.bufferFor(bytes);
    if (buffer === null) return null;
    this.lent++;
    this.holders.add(scope);
    let returned = false;
    scope.hold(() => {
      if (returned) return;
      returned = true;
      this.lent--;
      this.holders.delete(scope);
      this.budget?.release(this.bufferBytes);
      if (!this.closed && this.kept.length < this.maxKept && (this.budget?.keep(this.bufferBytes) ?? true)) this.kept.push(buffer);
      else returnReplySlot(buffer);
    });
    return buffer;
  }

  /** A kept buffer, or a new one the budget has room for; null otherwise. */
  private bufferFor(bytes: number): Buffer | null {
    const buffer = this.kept.pop();
    if (buffer !== undefined) {
      // A kept buffer already counts (as kept bytes): the reply's own bytes must fit beside it.
      if (this.budget !== undefined && !this.budget.hasRoom(bytes)) {
        this.kept.push(buffer);
        return null;
      }
      this.budget?.useKept(this.bufferBytes);
      return buffer;
    }
    return this.budget === undefined || this.budget.tryReserve(this.bufferBytes, bytes) ? Buffer.allocUnsafeSlow(this.bufferBytes) : null;
  }

  /** A kept reply slot of the inputs module, or a free one the budget has room for; null otherwise. */
  private slotFor(module: InputRunWriter, bytes: number): Buffer | null {
    for (let i = this.kept.length - 1; i >= 0; i--) {
      if (this.kept[i]!.buffer !== module.memory) continue;
      if (this.budget !== undefined && !this.budget.hasRoom(bytes)) return null;
      const slot = this.kept.splice(i, 1)[0]!;
      this.budget?.useKept(this.bufferBytes);
      return slot;
    }
    // Reserved first: the first slot lent adds the slots' memory to the module's, for good.
    if (this.budget !== undefined && !this.budget.tryReserve(this.bufferBytes, bytes)) return null;
    const slot = module.lendSlot();
    if (slot === null) this.budget?.release(this.bufferBytes);
    return slot;
  }

  /**
   * Drops the kept buffers (the budget wants their room, or the server has gone idle); returns
   * their bytes. A kept reply slot goes back to its module, whose memory keeps it.
   */
  dropKept(): number {
    const dropped = this.kept.length * this.bufferBytes;
    for (const b of this.kept) returnReplySlot(b);
    this.kept.length = 0;
    if (dropped > 0) this.budget?.unkeep(dropped);
    return dropped;
  }

  /**
   * Drops the kept buffers and keeps none given back from now on (the server has stopped): the
   * inputs module has only REPLY_SLOTS slots, which another server in the process may lend.
   */
  close(): void {
    this.closed = true;
    this.dropKept();
  }

  /** Buffers lent and kept, for tests. */
  stats(): { lent: number; kept: number } {
    return { lent: this.lent, kept: this.kept.length };
  }
}

/** The pool for scopes that bring none (the library's, tests'): uncounted, bounded by its own limits. */
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
  /** HexStr(tx.bytes) as text the decoder vouched for (txToJsonBytes). */
  hexText?: Uint8Array,
): Buffer {
  // The module writes plain inputs (no spent-index members) of any transaction but a coinbase.
  const inputsInModule = tx.data.vin.length > 0 && extras.spent === undefined && !tx.isCoinbase;
  const output = scope ? (scope.replyMemory ?? transactionReplyMemory).lend(scope, txJsonSizeEstimate(tx), inputsInModule) : null;
  if (!output) return txToJsonBytes(tx, network, extras, hexText);
  const reply = txToJsonBytesInto(output, tx, network, extras, hexText);
  // Written into the lent buffer, which goes back to be lent again: giving the reply back frees
  // none of it (a rendering that outgrew the buffer is memory of its own, garbage once written).
  if (reply.buffer === output.buffer) markRetained(reply);
  return reply;
}
