// The server's idle trim on real requests: getblock of a large block fills the reply cache and
// starts a render thread (with reply slabs when uncached); once the server is idle they are
// back to nothing, and the next request answers the same bytes. Never while a reply is still
// held. The trim's timer is the test's own, fired by hand; the idle time is 1 ms, so whether the
// machine is fast or slow only changes how often it is fired.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadNodeConfig } from '../../../src/config.js';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHexReversed } from '../../../src/codec/hex.js';
import type { TrimScheduler } from '../../../src/rpc/http/idle-trim.js';
import { createRpcCore, type ExecutedRequest, type RpcCore } from '../../../src/rpc/http/rpc-core.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { largeBlocks, storeWithLargeBlocks } from '../../stress/fixtures.js';

const blocks = largeBlocks(1, 300_000);
const { store } = storeWithLargeBlocks(blocks);
const hash = toHexReversed(decodeBlock(blocks[0]!).hash);
const dir = mkdtempSync(join(tmpdir(), 'zecrpc-idle-trim-'));
const config = loadNodeConfig([`-datadir=${dir}`, '-rpcuser=alice', '-rpcpassword=secret']);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function manualTimers() {
  let pending: (() => void)[] = [];
  const schedule: TrimScheduler = (fire) => {
    pending.push(fire);
    return () => (pending = pending.filter((f) => f !== fire));
  };
  const fire = () => {
    const due = pending;
    pending = [];
    for (const f of due) f();
  };
  return { schedule, fire, count: () => pending.length };
}

const body = (r: ExecutedRequest) => (typeof r.reply.body === 'string' ? r.reply.body : Buffer.concat(r.reply.body).toString('utf8'));
const getblock = (core: RpcCore, verbosity: number) =>
  core.execute(Buffer.from(`{"id":1,"method":"getblock","params":["${hash}",${verbosity}]}`));

/** Fires the trim's timer until it has trimmed once more than `before` (re-armed while the 1 ms has not passed). */
async function untilTrimmed(core: RpcCore, timers: ReturnType<typeof manualTimers>, before: number): Promise<void> {
  const deadline = Date.now() + 50_000;
  while (core.stats().idleTrims === before && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 2));
    timers.fire();
    await core.trimSettled();
  }
}

describe('idle trim in the RPC core', () => {
  it('drops the reply cache and ends the render thread once idle, and logs it; the next request answers the same bytes', async () => {
    const timers = manualTimers();
    const logged: { msg: string; droppedCacheBytes?: number; endedRenderThreads?: number }[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const l of chunk.toString('utf8').split('\n')) if (l !== '') logged.push(JSON.parse(l) as (typeof logged)[number]);
        done();
      },
    });
    const core = createRpcCore({
      config,
      methods: storeMethods(store),
      renderThreads: 1,
      idleTrimMs: 1,
      idleTrimScheduler: timers.schedule,
      log: pino({ level: 'info' }, stream),
    });
    try {
      const first = await getblock(core, 2);
      const text = body(first);
      first.done();
      expect(text.startsWith(`{"result":{"hash":"${hash}",`)).toBe(true);
      const filled = core.stats();
      // The cache holds the result: the reply less its envelope.
      expect(filled.cacheBytes).toBe(Buffer.byteLength(text) - '{"result":,"error":null,"id":1}\n'.length);
      expect(filled.renderThreads).toBe(1);
      expect(timers.count()).toBe(1);

      await untilTrimmed(core, timers, 0);
      expect(core.stats()).toMatchObject({ idleTrims: 1, cacheBytes: 0, renderThreads: 0, slabBytes: 0 });
      expect(timers.count()).toBe(0);
      expect(logged.filter((l) => l.msg.startsWith('idle for'))).toEqual([
        expect.objectContaining({
          droppedCacheBytes: filled.cacheBytes,
          endedRenderThreads: 1,
          msg: `idle for 0.001 s: dropped ${filled.cacheBytes} bytes of cached replies, ended 1 render thread(s), collected garbage`,
        }),
      ]);

      const again = await getblock(core, 2);
      expect(body(again)).toBe(text);
      again.done();
      expect(core.stats()).toMatchObject({ cacheBytes: filled.cacheBytes, renderThreads: 1 });
    } finally {
      await core.close();
    }
  });

  it('returns the reply slabs of uncached renders, and waits while a reply is still held', async () => {
    const timers = manualTimers();
    const core = createRpcCore({
      config,
      methods: storeMethods(store, { cacheReplies: false }),
      renderThreads: 1,
      idleTrimMs: 1,
      idleTrimScheduler: timers.schedule,
    });
    try {
      const held = await getblock(core, 2);
      const text = body(held);
      expect(core.stats().slabBytes).toBeGreaterThan(0);
      expect(core.stats().cacheBytes).toBe(0);
      // The reply is not written yet (done not called): the server is busy, whatever the time.
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 2));
        timers.fire();
        await core.trimSettled();
      }
      expect(core.stats()).toMatchObject({ idleTrims: 0, renderThreads: 1 });
      held.done();
      await untilTrimmed(core, timers, 0);
      expect(core.stats()).toMatchObject({ idleTrims: 1, renderThreads: 0, slabBytes: 0 });
      const again = await getblock(core, 2);
      expect(body(again)).toBe(text);
      again.done();
    } finally {
      await core.close();
    }
  });

  it('is not armed by cheap calls alone (a monitor polling getblockcount leaves the server idle)', async () => {
    const timers = manualTimers();
    const core = createRpcCore({
      config,
      methods: storeMethods(store),
      renderThreads: 1,
      idleTrimMs: 1,
      idleTrimScheduler: timers.schedule,
    });
    try {
      const r = await core.execute(Buffer.from('{"id":1,"method":"getblockcount"}'));
      expect(body(r)).toBe('{"result":20,"error":null,"id":1}\n');
      r.done();
      expect(timers.count()).toBe(0);
    } finally {
      await core.close();
    }
  });
});
