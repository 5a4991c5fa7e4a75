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

/**
 * Reads a body of `declared` bytes (Content-Length), or of unknown length (chunked). The
 * stream is read only after the reservation is granted: until then llhttp's socket stays
 * paused and the client's bytes wait in the kernel.
 */
export async function readBudgetedBody(stream: Readable, declared: number | null, budget: MemoryBudget): Promise<ReadBody> {
  if (declared !== null && declared > MAX_BODY_SIZE) throw new BodyError(413, 'Request body larger than 32 MiB');
  let reserved = 0;
  if (declared !== null && declared > 0) {
    if (!(await budget.reserve(declared))) throw new BodyError(413, 'Request body larger than the memory for request bodies');
    reserved = declared;
  }
  const parts: Buffer[] = [];
  let received = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (e: Error) => {
        if (failed) return;
        failed = true;
        stream.pause();
        reject(e);
      };
      stream.on('data', (chunk: Buffer) => {
        if (failed) return;
        received += chunk.length;
        if (received > MAX_BODY_SIZE) return fail(new BodyError(413, 'Request body larger than 32 MiB'));
        if (received > reserved) {
          // Chunked: each chunk is reserved as it comes; a full budget refuses rather than waits,
          // since the bytes are already here.
          const more = received - reserved;
          if (!budget.tryReserve(more)) return fail(new BodyError(413, 'Request body larger than the memory for request bodies'));
          reserved += more;
        }
        parts.push(chunk);
      });
      stream.once('end', () => (failed ? undefined : resolve()));
      stream.once('error', fail);
      stream.once('close', () => fail(new Error('client closed the connection during the request body')));
    });
  } catch (e) {
    if (reserved > 0) budget.release(reserved);
    throw e;
  }
  const body = parts.length === 1 ? parts[0]! : Buffer.concat(parts, received);
  // A declared length is exact once llhttp has ended the stream; any excess reservation goes back.
  if (reserved > received) {
    budget.release(reserved - received);
    reserved = received;
  }
  return { body, reserved };
}
