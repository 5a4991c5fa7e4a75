/**
 * Shared memory that render threads write replies into, reused from reply to reply.
 *
 * A reply moved from a thread as a transferred buffer is new memory to the event loop's heap:
 * each verbosity-2 rendering of a large block brought megabytes, and V8 counts such memory
 * towards its next full collection, so under a stream of them the event loop ran full
 * collections often and paused for each. A slab is allocated once per thread and lent to one
 * reply at a time: the thread copies its result in, the reply is written to the socket from a
 * view of it, and the slab is lent again only after that write has finished.
 */

/**
 * Capacity of one slab: a verbosity-2 rendering of a 2 MB block of inputs or shielded data fits
 * (≈ 12 MB); one of a 2 MB block of pool payouts (≈ 23 MB, an address per output) is
 * transferred instead.
 */
export const SLAB_BYTES = 16 * 1024 * 1024;

/** Slabs per render thread: its job in progress, one queued, one whose reply is being written. */
export const SLABS_PER_THREAD = 3;

let nextSlabId = 1;

export class ReplySlab {
  readonly id = nextSlabId++;
  readonly buffer: SharedArrayBuffer;
  /** Lent to a reply (from the job's dispatch until the reply is written). */
  lent = false;
  /** The thread owning it has been sent the buffer (later jobs name the slab by id). */
  sent = false;

  constructor(bytes = SLAB_BYTES) {
    this.buffer = new SharedArrayBuffer(bytes);
  }

  /** The first `length` bytes, as a Buffer over the shared memory (no copy). */
  view(length: number): Buffer {
    return Buffer.from(this.buffer, 0, length);
  }
}

/** Lends memory to replies rendered on the event loop (methods/reply-memory.ts). */
export interface ReplyMemoryLender {
  /**
   * A buffer for a reply of at most `bytes`, held by `scope` until its release runs; null: none.
   * `inputsInModule`: the reply's transparent inputs are written by the WebAssembly module, whose
   * memory the lender may lend (methods/reply-memory.ts).
   */
  lend(scope: ReplyScope, bytes: number, inputsInModule?: boolean): Buffer | null;
}

/** A request's hold on memory lent to its reply: each release runs once the reply is written. */
export interface ReplyScope {
  hold(release: () => void): void;
  /**
   * The server's memory for transaction replies, counted on its reply budget (-rpcmemory);
   * absent, the process's own pool lends it, uncounted (a scope of the library's or a test's).
   */
  readonly replyMemory?: ReplyMemoryLender;
}
