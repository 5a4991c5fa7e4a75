// The render pool gives exactly the bytes the inline renderer gives (the library path the
// getblock tests check against zcashd's vectors), passes verification failures back as
// BlockReadError, ends idle threads, lends shared-memory slabs only to results that are not kept
// (and never one still held by a reply), and runs its threads below the event loop's priority.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { targetSpacing } from '../../src/chain/difficulty.js';
import { decodeBlock } from '../../src/codec/block.js';
import { BlockReadError } from '../../src/store/verify.js';
import { inlineBlockRenderer, type BlockRenderRequest } from '../../src/rpc/workers/block-renderer.js';
import { DEFAULT_IDLE_MS, RenderPool } from '../../src/rpc/workers/render-pool.js';
import type { ReplyScope } from '../../src/rpc/workers/reply-slab.js';
import { largeBlocks, LARGE_BLOCK_HEIGHT } from '../stress/fixtures.js';

const [block] = largeBlocks(1, 300_000);
const hash = decodeBlock(block!).hash;
const context = {
  height: LARGE_BLOCK_HEIGHT,
  confirmations: 3,
  chainWork: 123n,
  previousBlockHash: new Uint8Array(32).fill(7),
  nextBlockHash: null,
};
const pool = new RenderPool({ threads: 2, inlineMaxBytes: 1000, idleMs: 300 });
afterAll(() => pool.close());

const asText = (r: string | Buffer) => (typeof r === 'string' ? r : r.toString('utf8'));

describe('render pool', () => {
  it('renders every verbosity exactly as the inline renderer, in worker threads', async () => {
    for (const verbosity of [0, 1, 2] as const) {
      const req: BlockRenderRequest = { hash, bytes: block!, verbosity, context: verbosity ? context : null, network: MAINNET };
      const [threaded, inline] = await Promise.all([pool.render(req), inlineBlockRenderer.render(req)]);
      expect(asText(threaded)).toBe(asText(inline));
    }
    expect(pool.size).toBeGreaterThan(0);
  });

  it('reports a block whose transactions do not match its merkle root', async () => {
    const bad = new Uint8Array(block!);
    bad[bad.length - 5]! ^= 0x01; // inside the last transaction
    const req: BlockRenderRequest = { hash, bytes: bad, verbosity: 0, context: null, network: MAINNET };
    const failure = await pool.render(req).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BlockReadError);
    expect((failure as BlockReadError).reason).toMatch(/merkle root|does not decode/);
  });

  it('counts the time its threads are busy: nothing before a job, at most the wall time of one job on one thread', async () => {
    const fresh = new RenderPool({ threads: 1, inlineMaxBytes: 1000 });
    try {
      expect(fresh.busySeconds()).toBe(0);
      const started = performance.now();
      await fresh.render({ hash, bytes: block!, verbosity: 0, context: null, network: MAINNET });
      const wall = (performance.now() - started) / 1000;
      const busy = fresh.busySeconds();
      expect(busy).toBeGreaterThan(0);
      expect(busy).toBeLessThanOrEqual(wall);
      // Idle now: the total stays as it was.
      expect(fresh.busySeconds()).toBe(busy);
    } finally {
      await fresh.close();
    }
  });

  it('ends threads that stay idle', async () => {
    await pool.render({ hash, bytes: block!, verbosity: 0, context: null, network: MAINNET });
    // idleMs is 300; the deadline (within the test's own 60 s) is for a loaded machine, whose timers fire late.
    const deadline = Date.now() + 50_000;
    while (pool.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(pool.size).toBe(0);
  });
});

describe('render pool idle time (fake timers: no waiting)', () => {
  const req: BlockRenderRequest = { hash, bytes: block!, verbosity: 0, context: null, network: MAINNET };

  it('keeps a thread for jobs up to DEFAULT_IDLE_MS apart, ends it once idle that long, and counts starts and renders', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const p = new RenderPool({ threads: 1, inlineMaxBytes: 1000 });
    try {
      await p.render(req);
      expect([p.size, p.threadsStarted, p.threadRenders]).toEqual([1, 1, 1]);
      vi.advanceTimersByTime(DEFAULT_IDLE_MS - 1);
      expect(p.size).toBe(1);
      // The same thread renders the next job: no second start.
      await p.render(req);
      expect([p.size, p.threadsStarted, p.threadRenders]).toEqual([1, 1, 2]);
      vi.advanceTimersByTime(DEFAULT_IDLE_MS);
      expect(p.size).toBe(0);
      await p.render(req);
      expect([p.size, p.threadsStarted, p.threadRenders]).toEqual([1, 2, 3]);
    } finally {
      vi.useRealTimers();
      await p.close();
    }
  });

  it('outlasts the block interval: a client asking for each new block, with other requests between, finds its thread running', () => {
    expect(DEFAULT_IDLE_MS).toBeGreaterThan(targetSpacing(MAINNET, 3_000_000) * 1000);
  });
});

/** A request scope as the server keeps one: releases run when the reply has been written. */
function scope(): { scope: ReplyScope; release(): void } {
  const held: (() => void)[] = [];
  return { scope: { hold: (r) => held.push(r) }, release: () => held.splice(0).forEach((r) => r()) };
}

const inShared = (r: string | Buffer) => Buffer.isBuffer(r) && r.buffer instanceof SharedArrayBuffer;

describe('reply slabs', () => {
  const slabbed = new RenderPool({ threads: 1, inlineMaxBytes: 1000, slabsPerThread: 2 });
  afterAll(() => slabbed.close());
  const req = (verbosity: 0 | 2, transient = true): BlockRenderRequest => ({
    hash,
    bytes: block!,
    verbosity,
    context: verbosity ? context : null,
    network: MAINNET,
    transient,
  });

  it('lends a slab to a transient render: the same bytes as the inline renderer, raw blocks as bytes too', async () => {
    for (const verbosity of [0, 2] as const) {
      const s = scope();
      const [threaded, inline] = await Promise.all([slabbed.render(req(verbosity), s.scope), inlineBlockRenderer.render(req(verbosity))]);
      expect(inShared(threaded)).toBe(true);
      expect(asText(threaded)).toBe(asText(inline));
      s.release();
    }
  });

  it('keeps a slab lent until its reply is released, then lends it again', async () => {
    const first = scope();
    const a = (await slabbed.render(req(2), first.scope)) as Buffer;
    const aBytes = Buffer.from(a);
    const second = scope();
    const b = (await slabbed.render(req(0), second.scope)) as Buffer;
    expect(inShared(b)).toBe(true);
    expect(b.buffer).not.toBe(a.buffer);
    expect(a.equals(aBytes)).toBe(true);
    second.release();
    first.release();
    const again = scope();
    const c = await slabbed.render(req(2), again.scope);
    expect([a.buffer, b.buffer]).toContain((c as Buffer).buffer);
    again.release();
  });

  it('transfers the result instead when every slab is lent, when it does not fit, or when it is kept', async () => {
    const held = [scope(), scope()];
    const lent = await Promise.all(held.map((s) => slabbed.render(req(2), s.scope)));
    expect(lent.every(inShared)).toBe(true);
    const third = scope();
    const expected = asText(await inlineBlockRenderer.render(req(2)));
    const extra = await slabbed.render(req(2), third.scope);
    expect(inShared(extra)).toBe(false);
    expect(asText(extra)).toBe(expected);
    for (const s of [...held, third]) s.release();

    const tiny = new RenderPool({ threads: 1, inlineMaxBytes: 1000, slabBytes: 1000 });
    try {
      const s = scope();
      const big = await tiny.render(req(2), s.scope);
      expect(inShared(big)).toBe(false);
      expect(asText(big)).toBe(expected);
      s.release();
    } finally {
      await tiny.close();
    }

    const kept = scope();
    const owned = await slabbed.render(req(2, false), kept.scope);
    expect(inShared(owned)).toBe(false);
    expect(inShared(await slabbed.render(req(2)))).toBe(false);
    expect(asText(owned)).toBe(expected);
  });
});

describe('render thread priority', () => {
  const hasThreadIds = existsSync('/proc/thread-self');
  const niceOf = (tid: string) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);

  it.skipIf(!hasThreadIds)('runs render threads below the event loop and leaves the event loop as it was', async () => {
    const before = getPriority();
    const threads = new Set(readdirSync('/proc/self/task'));
    const low = new RenderPool({ threads: 1, inlineMaxBytes: 1000, niceness: 3 });
    try {
      await low.render({ hash, bytes: block!, verbosity: 0, context: null, network: MAINNET });
      const started = readdirSync('/proc/self/task').filter((t) => !threads.has(t));
      expect(started.map(niceOf)).toContain(Math.min(19, before + 3));
      expect(getPriority()).toBe(before);
    } finally {
      await low.close();
    }
  });
});
