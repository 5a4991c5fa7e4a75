/**
 * Request-body memory reused from request to request. A body of tens or hundreds of kilobytes
 * (a raw transaction's hex) read into a fresh buffer is a new ArrayBuffer outside V8's pooled
 * small allocations each time, which costs more than the copy into it, and its external memory
 * makes the collector run more often; memory written before costs neither.
 *
 * Buffers come in power-of-two sizes from MIN_POOLED_BYTES to MAX_POOLED_BYTES; a body is read
 * into the smallest that holds it. A buffer is handed to one request at a time: `take` removes
 * it from the pool, and it comes back only by `give`, which the request's owner calls once,
 * after the request has been answered and nothing reads its body any more (a buffer given back
 * twice is kept once). The pool keeps at most KEPT_PER_SIZE of each size and MAX_KEPT_BYTES in
 * all; whatever many connections do, what it holds between requests stays bounded. Both count on
 * the body budget: a buffer in use as its request's reservation of the buffer's whole size (the
 * reader reserves it before `take`), a kept one as the budget's kept bytes, which the budget takes
 * back (`dropKept`) when a body would not fit otherwise, as the idle trim does once the server is
 * idle.
 */
import { Buffer } from 'node:buffer';
import type { BufferKeeper, MemoryBudget } from './memory-budget.js';

export const MIN_POOLED_BYTES = 16 * 1024;
export const MAX_POOLED_BYTES = 1024 * 1024;
const KEPT_PER_SIZE = 8;
const MAX_KEPT_BYTES = 8 * 1024 * 1024;

export class BodyBuffers implements BufferKeeper {
  /** Kept buffers by size (a power of two). */
  private readonly kept = new Map<number, Buffer[]>();
  private keptBytes = 0;

  /** `budget`: the body budget kept buffers count on (none: uncounted, for tests of the pool alone). */
  constructor(private readonly budget?: MemoryBudget) {
    budget?.addKeeper(this);
  }

  /** The pooled size that holds `bytes`, or 0 when such a body is not pooled. */
  sizeFor(bytes: number): number {
    if (bytes < MIN_POOLED_BYTES / 2 || bytes > MAX_POOLED_BYTES) return 0;
    let size = MIN_POOLED_BYTES;
    while (size < bytes) size *= 2;
    return size;
  }

  /** A buffer of `size` (from sizeFor) no other request holds: a kept one, or a new one. */
  take(size: number): Buffer {
    const buffer = this.kept.get(size)?.pop();
    if (buffer === undefined) return Buffer.allocUnsafeSlow(size);
    this.keptBytes -= size;
    // Its request reserved the whole size already: the budget stops counting it as kept.
    this.budget?.unkeep(size);
    return buffer;
  }

  /**
   * Gives back a buffer from `take` once its request no longer reads it (after its reservation
   * was released: keeping it counts it again, if the budget has room, else it is dropped).
   */
  give(buffer: Buffer): void {
    const size = buffer.length;
    if (this.sizeFor(size) !== size || this.keptBytes + size > MAX_KEPT_BYTES) return;
    let list = this.kept.get(size);
    if (list === undefined) this.kept.set(size, (list = []));
    if (list.length >= KEPT_PER_SIZE || list.includes(buffer)) return;
    if (this.budget !== undefined && !this.budget.keep(size)) return;
    list.push(buffer);
    this.keptBytes += size;
  }

  /** Drops every kept buffer (the budget wants their room, or the server has gone idle). */
  dropKept(): number {
    const dropped = this.keptBytes;
    this.kept.clear();
    this.keptBytes = 0;
    if (dropped > 0) this.budget?.unkeep(dropped);
    return dropped;
  }

  /** Bytes kept for reuse, for tests. */
  get bytesKept(): number {
    return this.keptBytes;
  }
}
