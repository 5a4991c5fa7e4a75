// The server's reused memory on real requests, on zecrpc serve's kind of instance: an uncached
// decoderawtransaction reply lent a 1 MiB buffer holds that buffer on the reply budget
// (-rpcmemory) until it is written, a reply the budget has no room for is rendered into memory
// of its own with the same bytes, and once the server is idle the trim drops the kept reply and
// body buffers. Mainnet 106598's transactions #40 (66 kB, 447 inputs: a 386 kB reply, a 132 kB
// body read into a 256 KiB pooled buffer) and #1 (a 217 kB reply).
// The trim's timer is the test's own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MAINNET } from '../../../src/chain/network.js';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHex } from '../../../src/codec/hex.js';
import { loadNodeConfig } from '../../../src/config.js';
import { txToJsonBytes } from '../../../src/render/tx.js';
import type { TrimScheduler } from '../../../src/rpc/http/idle-trim.js';
import { createRpcCore, type ExecutedRequest, type RpcCoreOptions } from '../../../src/rpc/http/rpc-core.js';
import { createDecodeRawTransaction } from '../../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { LENT_REPLY_BYTES } from '../../../src/rpc/methods/reply-memory.js';
import { listenOnCore, postJsonRpc } from '../../support/http-rpc.js';
import { zcashd2019Side } from '../../support/memory-store.js';

const MIB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'zecrpc-kept-buffers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = loadNodeConfig([`-datadir=${dir}`, '-rpcuser=alice', '-rpcpassword=secret']);
const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');
const block = decodeBlock(zcashd2019Side(106598).bytes);
const [big, small] = [block.transactions[40]!, block.transactions[1]!];
const body = (hex: string) => `{"id":1,"method":"decoderawtransaction","params":["${hex}"]}`;
const want = (tx: typeof big) =>
  Buffer.concat([Buffer.from('{"result":'), txToJsonBytes(tx, MAINNET), Buffer.from(',"error":null,"id":1}\n')]).toString('utf8');
const text = (r: ExecutedRequest) => (typeof r.reply.body === 'string' ? r.reply.body : Buffer.concat(r.reply.body).toString('utf8'));

function core(options: Partial<RpcCoreOptions> = {}) {
  return createRpcCore({
    config,
    methods: [createDecodeRawTransaction({ cacheBytes: 0 })],
    renderThreads: 0,
    ownInstance: true,
    ...options,
  });
}

describe('reused memory on the budgets of a server', () => {
  it('holds a lent reply buffer whole on the reply budget until the reply is written, then counts it as kept', async () => {
    const c = core();
    try {
      const r = await c.execute(Buffer.from(body(toHex(big.bytes))));
      const reply = text(r);
      expect(reply).toBe(want(big));
      // The buffer's whole size, besides the reply's bytes its request's budget holds.
      expect(c.stats()).toMatchObject({ lentReplyBuffers: 1, replyKeptBytes: 0 });
      expect(c.stats().replyBytes).toBeGreaterThanOrEqual(LENT_REPLY_BYTES + Buffer.byteLength(reply));
      r.done();
      expect(c.stats()).toMatchObject({ lentReplyBuffers: 0, replyBytes: 0, replyKeptBytes: LENT_REPLY_BYTES });
    } finally {
      await c.close();
    }
  });

  it('renders a reply into memory of its own, with the same bytes, when the reply budget has no room for a buffer', async () => {
    const c = core({ memory: { replies: 1.75 * MIB, perRequest: MIB } });
    try {
      const held = await c.execute(Buffer.from(body(toHex(big.bytes))));
      expect(c.stats().lentReplyBuffers).toBe(1);
      const r = await c.execute(Buffer.from(body(toHex(small.bytes))));
      expect(text(r)).toBe(want(small));
      expect(c.stats().lentReplyBuffers).toBe(1);
      expect(c.stats().replyBytes).toBeLessThanOrEqual(1.75 * MIB);
      r.done();
      held.done();
      expect(c.stats()).toMatchObject({ replyBytes: 0, replyKeptBytes: LENT_REPLY_BYTES });
    } finally {
      await c.close();
    }
  });

  it('drops the kept reply and body buffers at the idle trim, and logs it', async () => {
    let pending: (() => void)[] = [];
    const schedule: TrimScheduler = (fire) => {
      pending.push(fire);
      return () => (pending = pending.filter((f) => f !== fire));
    };
    const logged: { msg: string; droppedKeptBufferBytes?: number }[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const l of chunk.toString('utf8').split('\n')) if (l !== '') logged.push(JSON.parse(l) as (typeof logged)[number]);
        done();
      },
    });
    const c = core({ idleTrimMs: 1, idleTrimScheduler: schedule, log: pino({ level: 'info' }, stream) });
    const { port, close } = await listenOnCore(c);
    try {
      const reply = await postJsonRpc(port, AUTH, body(toHex(big.bytes)));
      expect(reply.body).toBe(want(big));
      // The reply's buffer goes back once its response has closed on the server's side.
      await vi.waitFor(() => expect(c.stats().lentReplyBuffers).toBe(0), { timeout: 60_000, interval: 5 });
      const kept = LENT_REPLY_BYTES + 256 * 1024;
      expect(c.stats()).toMatchObject({ replyKeptBytes: LENT_REPLY_BYTES, bodyKeptBytes: 256 * 1024 });
      expect(c.bodyBuffers!.bytesKept).toBe(256 * 1024);
      const deadline = Date.now() + 50_000;
      while (c.stats().idleTrims === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 2));
        const due = pending;
        pending = [];
        for (const f of due) f();
        await c.trimSettled();
      }
      expect(c.stats()).toMatchObject({ idleTrims: 1, replyKeptBytes: 0, bodyKeptBytes: 0 });
      expect(c.bodyBuffers!.bytesKept).toBe(0);
      expect(logged.filter((l) => l.msg.startsWith('idle for'))).toEqual([
        expect.objectContaining({
          droppedKeptBufferBytes: kept,
          msg: `idle for 0.001 s: dropped 0 bytes of cached replies and ${kept} bytes of buffers kept for reuse, ended 0 render thread(s), collected garbage`,
        }),
      ]);
      // The next request is answered the same, with buffers afresh.
      expect((await postJsonRpc(port, AUTH, body(toHex(big.bytes)))).body).toBe(want(big));
    } finally {
      await close();
    }
  });
});
