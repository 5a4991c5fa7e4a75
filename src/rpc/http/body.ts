/**
 * Request bodies of the JSON-RPC route, read from Node's parsed request stream (llhttp does the
 * framing): at most 32 MiB (zcashd's MAX_SIZE; exactly 32 MiB is accepted), and every byte
 * reserved on the process-wide body budget before it is kept, so the bodies of all clients
 * together stay bounded. A body is read only once its request is authenticated.
 */
import type { Readable } from 'node:stream';
import type { BoundedReadOptions } from '../../bounded-read.js';
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

export interface ReadBody {
  body: Buffer;
  /** Bytes reserved on the budget; the caller releases them once the request is answered. */
  reserved: number;
}

/** The first buffer of a chunked body; it doubles as bytes come (the budget holds its whole size). */
const FIRST_CHUNKED_CAPACITY = 4096;

/**
 * Reads a body of `declared` bytes (Content-Length), or of unknown length (chunked). The
 * stream is read only after the reservation is granted: until then llhttp's socket stays
 * paused and the client's bytes wait in the kernel.
 *
 * Every chunk is copied into one buffer as it arrives, never kept: a chunk is a view of the
 * socket's read buffer, so a body sent a byte per packet would otherwise hold an object and a
 * read buffer per byte, memory the budget cannot see. What the budget holds is the buffer's
 * whole size, so the bytes reserved are the bytes allocated.
 */
export async function readBudgetedBody(stream: Readable, declared: number | null, budget: MemoryBudget): Promise<ReadBody> {
  if (declared !== null && declared > MAX_BODY_SIZE) throw new BodyError(413, 'Request body larger than 32 MiB');
  let reserved = 0;
  if (declared !== null && declared > 0) {
    if (!(await budget.reserve(declared))) throw new BodyError(413, 'Request body larger than the memory for request bodies');
    reserved = declared;
  }
  let buffer: Buffer | null = reserved > 0 ? Buffer.allocUnsafe(reserved) : null;
  let received = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      // Every listener goes once the body is settled: a request's stream closes after each
      // request, and its 'close' must then cost nothing.
      const settle = (): void => {
        stream.off('data', onData);
        stream.off('end', onEnd);
        stream.off('error', fail);
        stream.off('close', onClose);
      };
      const fail = (e: Error): void => {
        settle();
        stream.pause();
        reject(e);
      };
      const onData = (chunk: Buffer): void => {
        const needed = received + chunk.length;
        if (needed > MAX_BODY_SIZE) return fail(new BodyError(413, 'Request body larger than 32 MiB'));
        if (buffer === null || needed > buffer.length) {
          // Chunked (or more than declared, which llhttp does not let through): grow by doubling,
          // reserving the growth first; a full budget refuses rather than waits, since the bytes
          // are already here.
          const capacity = Math.min(MAX_BODY_SIZE, Math.max(needed, FIRST_CHUNKED_CAPACITY, 2 * (buffer?.length ?? 0)));
          if (!budget.tryReserve(capacity - reserved))
            return fail(new BodyError(413, 'Request body larger than the memory for request bodies'));
          reserved = capacity;
          const grown = Buffer.allocUnsafe(capacity);
          if (buffer !== null) buffer.copy(grown, 0, 0, received);
          buffer = grown;
        }
        chunk.copy(buffer, received);
        received = needed;
      };
      const onEnd = (): void => {
        settle();
        resolve();
      };
      const onClose = (): void => fail(new Error('client closed the connection during the request body'));
      stream.on('data', onData);
      stream.once('end', onEnd);
      stream.once('error', fail);
      stream.once('close', onClose);
    });
  } catch (e) {
    buffer = null;
    if (reserved > 0) budget.release(reserved);
    throw e;
  }
  if (buffer === null) return { body: Buffer.alloc(0), reserved };
  // Tight already (a declared length is exact once llhttp has ended the stream), or a chunked
  // body copied out at its size so that the doubling's slack goes back to the budget now.
  if (received === buffer.length) return { body: buffer, reserved };
  const body = Buffer.from(buffer.subarray(0, received));
  budget.release(reserved - received);
  return { body, reserved: received };
}
