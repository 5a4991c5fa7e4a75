// Buffers reused from request to request count on the memory budgets: a lent reply buffer
// reserves its whole size on the reply budget (-rpcmemory) until it is given back, a pooled body
// buffer its whole size on the body budget (-rpcbodymemory) until it is given back (an aborted
// request's included), and kept buffers count as the budget's kept bytes, which it takes back
// when a reservation would not fit otherwise.
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { BodyBuffers } from '../../../src/rpc/http/body-buffers.js';
import { givePooledBody, notePooledBody, noteReservedBody, releaseReservedBody } from '../../../src/rpc/http/body-reservations.js';
import { MemoryBudget } from '../../../src/rpc/http/memory-budget.js';
import { LentReplyMemory } from '../../../src/rpc/methods/reply-memory.js';

const KIB = 1024;

/** A `ReplyScope` whose releases the test runs. */
function scope(): { hold: (release: () => void) => void; release: () => void } {
  const releases: (() => void)[] = [];
  return { hold: (r) => releases.push(r), release: () => releases.splice(0).forEach((r) => r()) };
}

/** A request with the properties body-reservations.ts declares on every request. */
const request = () => ({ zecrpcBodyReserved: 0, zecrpcBodyPooled: null }) as unknown as FastifyRequest;

describe('lent reply memory on the reply budget', () => {
  it('reserves a lent buffer whole until it is given back, and counts a kept one as kept', () => {
    const budget = new MemoryBudget(10 * KIB);
    const pool = new LentReplyMemory(4 * KIB, 8, 2, budget);
    const s = scope();
    const buffer = pool.lend(s, 100);
    expect(buffer?.length).toBe(4 * KIB);
    expect([budget.inUse, budget.kept]).toEqual([4 * KIB, 0]);
    s.release();
    expect([budget.inUse, budget.kept, pool.stats().kept]).toEqual([0, 4 * KIB, 1]);
    // Lent again, the kept buffer becomes the reservation of its new reply.
    const t = scope();
    expect(pool.lend(t, 100)).toBe(buffer);
    expect([budget.inUse, budget.kept]).toEqual([4 * KIB, 0]);
    t.release();
  });

  it('lends nothing the budget has no room for (the reply renders into memory of its own)', () => {
    const budget = new MemoryBudget(10 * KIB);
    const pool = new LentReplyMemory(4 * KIB, 8, 2, budget);
    const [s, t] = [scope(), scope()];
    expect(pool.lend(s, 100)).not.toBeNull();
    expect(pool.lend(t, 100)).not.toBeNull();
    expect(pool.lend(scope(), 100)).toBeNull();
    expect([budget.inUse, pool.stats().lent]).toEqual([8 * KIB, 2]);
    // Another request's reply takes what is left, and the pool still lends nothing.
    expect(budget.tryReserve(2 * KIB)).toBe(true);
    s.release();
    t.release();
    expect([budget.inUse, budget.kept, pool.stats().kept]).toEqual([2 * KIB, 8 * KIB, 2]);
  });

  it('lends one buffer a request, and none without room for the reply beside the buffer', () => {
    const budget = new MemoryBudget(10 * KIB);
    const pool = new LentReplyMemory(4 * KIB, 8, 2, budget);
    const s = scope();
    expect(pool.lend(s, 100)).not.toBeNull();
    expect(pool.lend(s, 100)).toBeNull();
    // 4 KiB of buffer fit in the 6 KiB left, but not with 2.5 KiB of reply beside it.
    expect(pool.lend(scope(), 2.5 * KIB)).toBeNull();
    expect(pool.lend(scope(), 2 * KIB)).not.toBeNull();
    expect(pool.stats().lent).toBe(2);
  });

  it('gives its kept buffers up when a reply needs their room, and keeps none beyond the room left', () => {
    const budget = new MemoryBudget(10 * KIB);
    const pool = new LentReplyMemory(4 * KIB, 8, 2, budget);
    const [s, t0] = [scope(), scope()];
    pool.lend(s, 100);
    pool.lend(t0, 100);
    s.release();
    t0.release();
    expect(budget.kept).toBe(8 * KIB);
    // 5 KiB fit only once the kept buffers are dropped.
    expect(budget.tryReserve(5 * KIB)).toBe(true);
    expect([budget.inUse, budget.kept, pool.stats().kept]).toEqual([5 * KIB, 0, 0]);
    const t = scope();
    expect(pool.lend(t, 100)).not.toBeNull();
    expect(budget.tryReserve(2 * KIB)).toBe(false);
    t.release();
    // Given back beside 5 KiB in use: kept, as 4 KiB still fit.
    expect([budget.inUse, budget.kept]).toEqual([5 * KIB, 4 * KIB]);
    expect(pool.dropKept()).toBe(4 * KIB);
    expect([budget.kept, pool.stats().kept]).toEqual([0, 0]);
  });
});

describe('pooled body buffers on the body budget', () => {
  /** A buffer of `size` as the body reader gets one: its whole size reserved, then taken. */
  const taken = (budget: MemoryBudget, buffers: BodyBuffers, size: number): Buffer => {
    expect(budget.tryReserve(size)).toBe(true);
    return buffers.take(size);
  };

  it("count a kept buffer as kept, and as its new body's reservation once taken again", () => {
    const budget = new MemoryBudget(1024 * KIB);
    const buffers = new BodyBuffers(budget);
    const b = taken(budget, buffers, 64 * KIB);
    budget.release(64 * KIB);
    buffers.give(b);
    expect([budget.inUse, budget.kept, buffers.bytesKept]).toEqual([0, 64 * KIB, 64 * KIB]);
    expect(taken(budget, buffers, 64 * KIB)).toBe(b);
    expect([budget.inUse, budget.kept, buffers.bytesKept]).toEqual([64 * KIB, 0, 0]);
  });

  it('are dropped for a body that needs their room, kept only where the budget has room, and make room for a waiter', async () => {
    const budget = new MemoryBudget(100 * KIB);
    const buffers = new BodyBuffers(budget);
    const b = taken(budget, buffers, 64 * KIB);
    budget.release(64 * KIB);
    buffers.give(b);
    expect(budget.kept).toBe(64 * KIB);
    // 80 KiB fit only without the kept buffer.
    expect(budget.tryReserve(80 * KIB)).toBe(true);
    expect([budget.inUse, budget.kept, buffers.bytesKept]).toEqual([80 * KIB, 0, 0]);
    // A buffer given back with no room for it beside the bodies in use is not kept.
    const c = taken(budget, buffers, 16 * KIB);
    budget.release(16 * KIB);
    budget.tryReserve(16 * KIB);
    buffers.give(c);
    expect([budget.kept, buffers.bytesKept]).toEqual([0, 0]);
    budget.release(96 * KIB);
    buffers.give(c);
    expect(budget.kept).toBe(16 * KIB);
    // A body that cannot fit even without the kept buffer waits; none is kept while it does.
    expect(budget.tryReserve(60 * KIB)).toBe(true);
    const waiting = budget.reserve(50 * KIB);
    expect(budget.queued).toBe(1);
    const d = buffers.take(32 * KIB);
    buffers.give(d);
    expect(buffers.bytesKept).toBe(16 * KIB);
    // Once 20 KiB are given back, the waiter fits only if the kept buffer goes: it is granted.
    budget.release(20 * KIB);
    expect(await waiting).toBe(true);
    expect([budget.inUse, budget.kept, buffers.bytesKept, budget.queued]).toEqual([90 * KIB, 0, 0, 0]);
  });

  it("hold a pooled body's whole size until its buffer is given back, even once its request was aborted", () => {
    const budget = new MemoryBudget(1024 * KIB);
    const buffers = new BodyBuffers(budget);
    const r = request();
    expect(budget.tryReserve(64 * KIB)).toBe(true);
    const b = buffers.take(64 * KIB);
    noteReservedBody(r, 64 * KIB);
    notePooledBody(r, b);
    // The connection went (onRequestAbort) while the request still runs and reads its body.
    releaseReservedBody(r, budget);
    expect(budget.inUse).toBe(64 * KIB);
    givePooledBody(r, budget, buffers);
    expect([budget.inUse, budget.kept, buffers.bytesKept]).toEqual([0, 64 * KIB, 64 * KIB]);
    // Once given back, nothing more is released.
    releaseReservedBody(r, budget);
    givePooledBody(r, budget, buffers);
    expect([budget.inUse, budget.kept]).toEqual([0, 64 * KIB]);
  });
});
