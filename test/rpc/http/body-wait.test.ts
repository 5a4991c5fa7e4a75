// Issue 41, item 7: a body that waited for the body budget longer than -rpcservertimeout was
// reset without an HTTP reply. The wait is now bounded by an option of its own (default
// -rpcservertimeout) during which the idle timeout is suspended, and ends with the 413 page
// the server gives every body the budget refuses.
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadNodeConfig } from '../../../src/config.js';
import { MemoryBudget } from '../../../src/rpc/http/memory-budget.js';
import { errorPage } from '../../../src/rpc/http/reply.js';
import { startRpcServer, type RunningRpcServer } from '../../../src/rpc/http/server.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { post, PASSWORD, USER } from '../../stress/fixtures.js';
import { tempDir } from '../../support/store.js';

describe('MemoryBudget.reserve with a longest wait', () => {
  afterEach(() => void vi.useRealTimers());

  it('refuses a waiter still queued after maxWaitMs and lets the one behind it in', async () => {
    vi.useFakeTimers();
    const budget = new MemoryBudget(100);
    expect(budget.tryReserve(80)).toBe(true);
    const first = budget.reserve(60, 1000);
    const second = budget.reserve(20, 5000);
    // Queued behind the first, the second waits although 20 bytes are free.
    expect(budget.inUse).toBe(80);
    await vi.advanceTimersByTimeAsync(999);
    expect(budget.inUse).toBe(80);
    await vi.advanceTimersByTimeAsync(1);
    await expect(first).resolves.toBe(false);
    await expect(second).resolves.toBe(true);
    expect(budget.inUse).toBe(100);
  });

  it('grants a waiter whose bytes are released in time, and its timer then does nothing', async () => {
    vi.useFakeTimers();
    const budget = new MemoryBudget(100);
    expect(budget.tryReserve(100)).toBe(true);
    const waiting = budget.reserve(50, 1000);
    budget.release(60);
    await expect(waiting).resolves.toBe(true);
    await vi.advanceTimersByTimeAsync(2000);
    expect(budget.inUse).toBe(90);
  });
});

/** A method that runs until the test lets it go: its body's reservation stays held meanwhile. */
function holdingMethod(): { hold: RpcMethod; releaseHold: () => void } {
  let releaseHold!: () => void;
  const held = new Promise<void>((r) => (releaseHold = r));
  const hold: RpcMethod = {
    name: 'hold',
    category: 'control',
    required: 0,
    optional: 1,
    help: 'hold',
    call: async () => (await held, '"released"'),
  };
  return { hold, releaseHold };
}

describe('a body that waits for the body budget', () => {
  let server: RunningRpcServer | null = null;
  const dir = tempDir('body-wait');
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('gets the 413 page after its wait, past -rpcservertimeout, not a reset; the holder is answered after', async () => {
    const { hold, releaseHold } = holdingMethod();
    const config = loadNodeConfig([
      `-datadir=${dir.path}`,
      '-rpcport=0',
      `-rpcuser=${USER}`,
      `-rpcpassword=${PASSWORD}`,
      '-rpcservertimeout=1',
    ]);
    // The wait outlasts the 1 s idle timeout, which used to end the connection first.
    server = await startRpcServer({ config, methods: [hold], memory: { bodies: 4096 }, bodyWaitMs: 1500 });
    const port = server.port;
    const holder = post(port, JSON.stringify({ id: 1, method: 'hold', params: ['x'.repeat(3000)] }));
    // The holder is executing (its body reserved) before the second body asks for room.
    await expect.poll(() => server!.stats().running, { timeout: 60_000 }).toBe(1);
    expect(server.stats().bodyBytes).toBeGreaterThan(3000);
    const started = Date.now();
    const refused = await post(port, JSON.stringify({ id: 2, method: 'hold', params: ['y'.repeat(2000)] }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    const page = errorPage(413);
    expect(refused.statusLine).toBe('HTTP/1.1 413 Request Entity Too Large');
    expect(refused.body.toString('latin1')).toBe(page.body);
    releaseHold();
    const answered = await holder;
    expect(answered.statusLine).toBe('HTTP/1.1 200 OK');
    expect(answered.body.toString('utf8')).toBe('{"result":"released","error":null,"id":1}\n');
    expect(server.stats().bodyBytes).toBe(0);
  }, 120_000);

  it('gives back the reservation of a client that left while its body waited', async () => {
    const { hold, releaseHold } = holdingMethod();
    const config = loadNodeConfig([`-datadir=${dir.path}`, '-rpcport=0', `-rpcuser=${USER}`, `-rpcpassword=${PASSWORD}`]);
    server = await startRpcServer({ config, methods: [hold], memory: { bodies: 4096 }, bodyWaitMs: 600_000 });
    const port = server.port;
    const holder = post(port, JSON.stringify({ id: 1, method: 'hold', params: ['x'.repeat(3000)] }));
    await expect.poll(() => server!.stats().running, { timeout: 60_000 }).toBe(1);
    // A head that declares 2,000 bytes, then the client goes while its body waits for room.
    const leaver = connect(port, '127.0.0.1');
    const auth = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
    leaver.write(`POST / HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${auth}\r\nContent-Length: 2000\r\n\r\n`);
    await expect.poll(() => server!.stats().bodyWaiters, { timeout: 60_000 }).toBe(1);
    await new Promise<void>((r) => leaver.destroy().once('close', () => r()));
    await expect.poll(() => server!.stats().connections, { timeout: 60_000 }).toBe(1);
    releaseHold();
    expect((await holder).statusLine).toBe('HTTP/1.1 200 OK');
    // Granted after its client left, the waiter's reservation is given back, not held for good.
    await expect.poll(() => server!.stats(), { timeout: 60_000 }).toMatchObject({ bodyBytes: 0, bodyWaiters: 0 });
    expect(server.stats().bodyBytes).toBe(0);
  }, 120_000);
});
