/**
 * The body-budget bytes each request holds (body.ts reserves them as the body is read), so that
 * every route that reads bodies gives them back once its request is answered or aborted. Kept
 * on the request itself, a property Fastify declares for every request of the context (a weak
 * map of short-lived requests would cost the garbage collector at every request).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MemoryBudget } from './memory-budget.js';

const RESERVED = 'zecrpcBodyReserved';

type WithReserved = FastifyRequest & { [RESERVED]: number };

/** Declares the per-request count on `app`'s requests (once per context). */
export function declareBodyReservations(app: FastifyInstance): void {
  if (!app.hasRequestDecorator(RESERVED)) app.decorateRequest(RESERVED, 0);
}

/** Records the bytes reserved for `request`'s body. */
export function noteReservedBody(request: FastifyRequest, bytes: number): void {
  (request as WithReserved)[RESERVED] += bytes;
}

/** Gives `request`'s body bytes back to `budget` (once; later calls release nothing). */
export function releaseReservedBody(request: FastifyRequest, budget: MemoryBudget): void {
  const r = request as WithReserved;
  const bytes = r[RESERVED];
  if (!(bytes > 0)) return;
  r[RESERVED] = 0;
  budget.release(bytes);
}
