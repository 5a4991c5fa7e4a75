/**
 * The body-budget bytes each request holds (body.ts reserves them as the body is read), so that
 * every route that reads bodies gives them back once its request is answered or aborted.
 */
import type { FastifyRequest } from 'fastify';
import type { MemoryBudget } from './memory-budget.js';

const reserved = new WeakMap<FastifyRequest, number>();

/** Records the bytes reserved for `request`'s body. */
export function noteReservedBody(request: FastifyRequest, bytes: number): void {
  if (bytes > 0) reserved.set(request, (reserved.get(request) ?? 0) + bytes);
}

/** Gives `request`'s body bytes back to `budget` (once; later calls release nothing). */
export function releaseReservedBody(request: FastifyRequest, budget: MemoryBudget): void {
  const bytes = reserved.get(request);
  if (bytes === undefined) return;
  reserved.delete(request);
  budget.release(bytes);
}
