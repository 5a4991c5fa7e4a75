/**
 * The body-budget bytes each request holds (body.ts reserves them as the body is read), so that
 * every route that reads bodies gives them back once its request is answered or aborted. Kept
 * on the request itself, a property Fastify declares for every request of the context (a weak
 * map of short-lived requests would cost the garbage collector at every request).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BodyBuffers } from './body-buffers.js';
import type { MemoryBudget } from './memory-budget.js';

const RESERVED = 'zecrpcBodyReserved';
const POOLED = 'zecrpcBodyPooled';

type WithReserved = FastifyRequest & { [RESERVED]: number; [POOLED]: Buffer | null };

/** Declares the per-request count and pooled buffer on `app`'s requests (once per context). */
export function declareBodyReservations(app: FastifyInstance): void {
  if (!app.hasRequestDecorator(RESERVED)) app.decorateRequest(RESERVED, 0);
  if (!app.hasRequestDecorator(POOLED)) app.decorateRequest(POOLED, null);
}

/** Records the pooled buffer `request`'s body is a view of (body-buffers.ts). */
export function notePooledBody(request: FastifyRequest, buffer: Buffer | null): void {
  (request as WithReserved)[POOLED] = buffer;
}

/**
 * Gives `request`'s pooled body buffer back to `buffers` (once), with the reservation of its
 * whole size on `budget`: only when nothing will read the body again, i.e. once the request has
 * been executed, never on an abort while it may run.
 */
export function givePooledBody(request: FastifyRequest, budget: MemoryBudget, buffers: BodyBuffers | undefined): void {
  const r = request as WithReserved;
  const buffer = r[POOLED];
  if (buffer === null || buffer === undefined) return;
  r[POOLED] = null;
  releaseReservedBody(request, budget);
  buffers?.give(buffer);
}

/** Records the bytes reserved for `request`'s body. */
export function noteReservedBody(request: FastifyRequest, bytes: number): void {
  (request as WithReserved)[RESERVED] += bytes;
}

/**
 * Gives `request`'s body bytes back to `budget` (once; later calls release nothing), except a
 * pooled buffer's: it is still memory in use, counted until `givePooledBody` (an aborted
 * request's body may still be read by its running request).
 */
export function releaseReservedBody(request: FastifyRequest, budget: MemoryBudget): void {
  const r = request as WithReserved;
  const holding = r[POOLED]?.length ?? 0;
  const bytes = r[RESERVED] - holding;
  if (!(bytes > 0)) return;
  r[RESERVED] = holding;
  budget.release(bytes);
}
