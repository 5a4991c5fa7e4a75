/**
 * Request bodies of the JSON-RPC route, read from Node's parsed request stream (llhttp does the
 * framing): at most 32 MiB (zcashd's MAX_SIZE; exactly 32 MiB is accepted), and every byte
 * reserved on the process-wide body budget before it is kept, so the bodies of all clients
 * together stay bounded. A body is read only once its request is authenticated.
 */
import type { Readable } from 'node:stream';
import type { BoundedReadOptions } from '../../bounded-read.js';
import type { BodyBuffers } from './body-buffers.js';
import type { MemoryBudget } from './memory-budget.js';

/** zcashd's MAX_SIZE: the largest request body libevent accepts. */
export const MAX_BODY_SIZE = 0x02000000;

/**
 * Text a command reads to send in one JSON-RPC request (`zecrpc-cli -stdin`), or to decode as
 * if sent in one (`decode-tx`/`decode-block` with `@file` or `-`): nothing longer could reach
 * zcashd, so reading stops there (`@/dev/zero` ends with an error, not out of memory).
 */
export const REQUEST_TEXT_LIMIT: BoundedReadOptions = { maxBytes: MAX_BODY_SIZE, why: 'the most a JSON-RPC request to zcashd can carry' };

/** A body refused with an HTTP status (Fastify's error handler sends it). */
export class BodyError extends Error {
  constructor(
    readonly statusCode: 413 | 400,
    message: string,
  ) {
    super(message);
  }
}

/** How long a body may wait for the body budget, and what to do while it waits. */
export interface BodyWait {
  /** After this long without room on the budget, the body is refused (413) rather than kept waiting. */
  maxMs: number;
  /**
   * Called with the body's stream when it starts waiting; the function it returns, when the wait
   * ends. The server suspends the connection's idle timeout meanwhile: the client is not idle,
   * the server is not reading, and a timeout would end the connection without a reply.
   */
  onWait?: (stream: Readable) => () => void;
}

export interface ReadBody {
  body: Buffer;
  /** Bytes reserved on the budget; the caller releases them once the request is answered. */
  reserved: number;
  /**
   * The pooled buffer `body` is a view of (body-buffers.ts), or null: its owner gives it back
   * once nothing reads the body any more, and never before.
   */
  pooled: Buffer | null;
}

/** Told once, with the body or why there is none (the reservation already given back then). */
export type BodyCallback = (error: Error | null, read: ReadBody | null) => void;

/** The first buffer of a chunked body; it doubles as bytes come (the budget holds its whole size). */
const FIRST_CHUNKED_CAPACITY = 4096;

const clientClosed = (): Error => new Error('client closed the connection during the request body');

/** The read a stream's body is in, for the listeners shared by every read. */
const READ = Symbol('zecrpc.bodyRead');

// A listener taken off while the stream emits can still be called once (the emitter calls the
// listeners it had when the event began): the read is then gone, and the call does nothing.
type ReadStream = Readable & { [READ]?: BodyRead | null };

/**
 * One body being read: its listeners are functions shared by every read, which find the read on
 * the stream they are called on (no function made per request), and all of them go once the
 * body is settled (a request's stream closes after each request, and its 'close' must then cost
 * nothing).
 */
class BodyRead {
  private buffer: Buffer | null;
  /** `buffer` when it came from `buffers`, until it is handed on with the body. */
  private pooled: Buffer | null;
  private received = 0;

  private static onData(this: ReadStream, chunk: Buffer): void {
    this[READ]?.data(chunk);
  }

  private static onEnd(this: ReadStream): void {
    this[READ]?.end();
  }

  private static onError(this: ReadStream, e: Error): void {
    this[READ]?.fail(e);
  }

  private static onClose(this: ReadStream): void {
    this[READ]?.closed();
  }

  constructor(
    private readonly stream: Readable,
    private readonly budget: MemoryBudget,
    private reserved: number,
    private readonly callback: BodyCallback,
    private readonly buffers: BodyBuffers | null = null,
    /**
     * The declared length (null: chunked). llhttp lets no more through and ends the stream once
     * it has arrived, so the body is whole then, without waiting for the stream's 'end' (a
     * turn of the event loop's tick queue and the stream's own reads).
     */
    private readonly declared: number | null = null,
  ) {
    this.pooled = buffers !== null && reserved > 0 ? buffers.take(reserved) : null;
    this.buffer = this.pooled ?? (reserved > 0 ? Buffer.allocUnsafe(reserved) : null);
  }

  run(): void {
    const stream: ReadStream = this.stream;
    stream[READ] = this;
    stream.on('data', BodyRead.onData);
    stream.on('end', BodyRead.onEnd);
    stream.on('error', BodyRead.onError);
    stream.on('close', BodyRead.onClose);
    // Reading starts now rather than a tick later, when the listener's resume would start it:
    // chunks the parser pushes meanwhile then go straight to `data`, instead of filling the
    // stream's buffer past its mark, which stops the socket's reads only for the resume to start
    // them again (two system calls per request whose body comes with its head).
    stream.read(0);
  }

  private settle(): void {
    const stream: ReadStream = this.stream;
    stream.off('data', BodyRead.onData);
    stream.off('end', BodyRead.onEnd);
    stream.off('error', BodyRead.onError);
    stream.off('close', BodyRead.onClose);
    stream[READ] = null;
  }

  private fail(e: Error): void {
    this.settle();
    this.stream.pause();
    this.buffer = null;
    if (this.reserved > 0) this.budget.release(this.reserved);
    // Nothing but this read has seen a pooled buffer yet; kept, it counts on the budget again.
    if (this.pooled !== null) this.buffers!.give(this.pooled);
    this.pooled = null;
    this.callback(e, null);
  }

  private closed(): void {
    this.fail(clientClosed());
  }

  private end(): void {
    this.settle();
    const { buffer, received, reserved, pooled } = this;
    if (buffer === null) return this.callback(null, { body: Buffer.alloc(0), reserved, pooled: null });
    // A pooled buffer is held whole (the budget holds its whole size) until it is given back.
    if (pooled !== null) return this.callback(null, { body: pooled.subarray(0, received), reserved, pooled });
    // Tight already (a declared length is exact once llhttp has ended the stream), or a chunked
    // body copied out at its size so that the doubling's slack goes back to the budget now.
    if (received === buffer.length) return this.callback(null, { body: buffer, reserved, pooled: null });
    const body = Buffer.from(buffer.subarray(0, received));
    this.budget.release(reserved - received);
    this.callback(null, { body, reserved: received, pooled: null });
  }

  private data(chunk: Buffer): void {
    const needed = this.received + chunk.length;
    if (needed > MAX_BODY_SIZE) return this.fail(new BodyError(413, 'Request body larger than 32 MiB'));
    let buffer = this.buffer;
    if (buffer === null || needed > buffer.length) {
      // Chunked (or more than declared, which llhttp does not let through): grow by doubling,
      // reserving the growth first; a full budget refuses rather than waits, since the bytes
      // are already here.
      const capacity = Math.min(MAX_BODY_SIZE, Math.max(needed, FIRST_CHUNKED_CAPACITY, 2 * (buffer?.length ?? 0)));
      if (!this.budget.tryReserve(capacity - this.reserved))
        return this.fail(new BodyError(413, 'Request body larger than the memory for request bodies'));
      this.reserved = capacity;
      const grown = Buffer.allocUnsafe(capacity);
      if (buffer !== null) buffer.copy(grown, 0, 0, this.received);
      this.buffer = buffer = grown;
      this.pooled = null;
    }
    chunk.copy(buffer, this.received);
    this.received = needed;
    if (needed === this.declared) this.end();
  }
}

/**
 * Reads a body of `declared` bytes (Content-Length), or of unknown length (chunked), and tells
 * `callback`. The stream is read only after the reservation is granted: until then llhttp's
 * socket stays paused and the client's bytes wait in the kernel. A body the budget has room for
 * at once is read without a promise (the route's body parser is a callback, as Fastify's own).
 *
 * Every chunk is copied into one buffer as it arrives, never kept: Node's parser copies each
 * chunk out of the socket's read buffer into a buffer of its own, so a body sent a byte per
 * packet would otherwise hold an object and a backing store per byte, memory the budget cannot
 * see. What the budget holds is the buffer's whole size, so the bytes reserved are the bytes
 * allocated.
 *
 * With `buffers`, a declared length of a pooled size is read into a reused buffer when the
 * budget has room for that buffer's whole size at once (else as without them); the body is
 * then a view of it, handed on as `pooled`.
 */
export function readBudgetedBodyThen(
  stream: Readable,
  declared: number | null,
  budget: MemoryBudget,
  wait: BodyWait | undefined,
  callback: BodyCallback,
  buffers?: BodyBuffers,
): void {
  if (declared !== null && declared > MAX_BODY_SIZE) return callback(new BodyError(413, 'Request body larger than 32 MiB'), null);
  if (declared === null || declared === 0) return new BodyRead(stream, budget, 0, callback).run();
  const pooledSize = buffers?.sizeFor(declared) ?? 0;
  if (pooledSize > 0 && budget.tryReserve(pooledSize)) return readReserved(stream, budget, declared, pooledSize, callback, buffers);
  if (budget.tryReserve(declared)) return readReserved(stream, budget, declared, declared, callback);
  reserveDeclared(budget, declared, stream, wait).then(
    (granted) => {
      if (!granted) callback(new BodyError(413, 'Request body larger than the memory for request bodies'), null);
      else readReserved(stream, budget, declared, declared, callback);
    },
    (e: unknown) => callback(e instanceof Error ? e : new Error(String(e)), null),
  );
}

/** `readBudgetedBodyThen` as a promise. */
export function readBudgetedBody(stream: Readable, declared: number | null, budget: MemoryBudget, wait?: BodyWait): Promise<ReadBody> {
  return new Promise<ReadBody>((resolve, reject) =>
    readBudgetedBodyThen(stream, declared, budget, wait, (error, read) => (error ? reject(error) : resolve(read!))),
  );
}

/** Reads a body of `declared` bytes, `reserved` on the budget (with `buffers`: the pooled size that holds it). */
function readReserved(
  stream: Readable,
  budget: MemoryBudget,
  declared: number,
  reserved: number,
  callback: BodyCallback,
  buffers?: BodyBuffers,
): void {
  // A client gone while its body waited for the budget: its stream closed with no one
  // listening, and a read started now would never settle, holding the reservation for good.
  if (stream.destroyed || stream.readableAborted) {
    budget.release(reserved);
    return callback(clientClosed(), null);
  }
  new BodyRead(stream, budget, reserved, callback, buffers ?? null, declared).run();
}

/** A declared length's reservation after a wait of at most `wait.maxMs`. */
async function reserveDeclared(budget: MemoryBudget, bytes: number, stream: Readable, wait: BodyWait | undefined): Promise<boolean> {
  if (bytes > budget.limit) return false;
  if (budget.tryReserve(bytes)) return true;
  const resume = wait?.onWait?.(stream);
  try {
    return await budget.reserve(bytes, wait?.maxMs);
  } finally {
    resume?.();
  }
}
