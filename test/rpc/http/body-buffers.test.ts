// Request-body memory reused from request to request (rpc/http/body-buffers.ts): a buffer is
// never held by two requests at once, the budget holds each buffer's whole size, and a server
// answering many concurrent large bodies (real transactions) answers each with its own reply.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TESTNET } from '../../../src/chain/network.js';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHex } from '../../../src/codec/hex.js';
import { loadNodeConfig } from '../../../src/config.js';
import { txToJsonBytes } from '../../../src/render/tx.js';
import { BodyBuffers, MAX_POOLED_BYTES, MIN_POOLED_BYTES } from '../../../src/rpc/http/body-buffers.js';
import { readBudgetedBodyThen, type ReadBody } from '../../../src/rpc/http/body.js';
import { MemoryBudget } from '../../../src/rpc/http/memory-budget.js';
import { createRpcCore, type RpcCore } from '../../../src/rpc/http/rpc-core.js';
import { createDecodeRawTransaction } from '../../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { transactionReplyMemory } from '../../../src/rpc/methods/reply-memory.js';
import { listenOnCore } from '../../support/http-rpc.js';
import { readHexVector } from '../../support/vectors.js';

function streamOf(text: string, chunk = 16_384): Readable {
  const bytes = Buffer.from(text, 'latin1');
  let at = 0;
  return new Readable({
    read() {
      if (at < bytes.length) this.push(bytes.subarray(at, (at += chunk)));
      else this.push(null);
    },
  });
}

function readWith(stream: Readable, declared: number, budget: MemoryBudget, buffers: BodyBuffers): Promise<ReadBody> {
  return new Promise((resolve, reject) =>
    readBudgetedBodyThen(stream, declared, budget, undefined, (e, r) => (e ? reject(e) : resolve(r!)), buffers),
  );
}

describe('body buffers', () => {
  it('size bodies by powers of two within the pooled range', () => {
    const b = new BodyBuffers();
    expect(b.sizeFor(MIN_POOLED_BYTES / 2 - 1)).toBe(0);
    expect(b.sizeFor(MIN_POOLED_BYTES / 2)).toBe(MIN_POOLED_BYTES);
    expect(b.sizeFor(MIN_POOLED_BYTES + 1)).toBe(2 * MIN_POOLED_BYTES);
    expect(b.sizeFor(195_166)).toBe(256 * 1024);
    expect(b.sizeFor(MAX_POOLED_BYTES)).toBe(MAX_POOLED_BYTES);
    expect(b.sizeFor(MAX_POOLED_BYTES + 1)).toBe(0);
  });

  it('hand a buffer to one holder at a time, keep one given twice once, and keep a bounded amount', () => {
    const b = new BodyBuffers();
    const size = b.sizeFor(100_000);
    const held = [b.take(size), b.take(size), b.take(size)];
    expect(new Set(held).size).toBe(3);
    b.give(held[0]!);
    b.give(held[0]!);
    expect(b.bytesKept).toBe(size);
    const next = b.take(size);
    expect(next).toBe(held[0]);
    expect(b.take(size)).not.toBe(held[0]);
    expect(b.bytesKept).toBe(0);
    // A buffer of another size than the pool's is never kept.
    b.give(Buffer.alloc(size + 1));
    expect(b.bytesKept).toBe(0);
    for (let i = 0; i < 100; i++) b.give(Buffer.allocUnsafeSlow(MAX_POOLED_BYTES));
    expect(b.bytesKept).toBeLessThanOrEqual(8 * 1024 * 1024);
  });

  it('read a declared body into a pooled buffer whose whole size the budget holds, else as before', async () => {
    const text = 'x'.repeat(40_000);
    const buffers = new BodyBuffers();
    const budget = new MemoryBudget(1 << 20);
    const read = await readWith(streamOf(text), text.length, budget, buffers);
    expect(read.body.toString('latin1')).toBe(text);
    expect(read.pooled).not.toBeNull();
    expect(read.body.buffer).toBe(read.pooled!.buffer);
    expect([read.reserved, budget.inUse]).toEqual([65_536, 65_536]);
    // Without room for the whole buffer, the body's exact size.
    const tight = new MemoryBudget(50_000);
    const exact = await readWith(streamOf(text), text.length, tight, buffers);
    expect([exact.pooled, exact.reserved, tight.inUse, exact.body.toString('latin1')]).toEqual([null, 40_000, 40_000, text]);
  });

  it('take back the buffer of a body whose client went away, with its reservation', async () => {
    const buffers = new BodyBuffers();
    const budget = new MemoryBudget(1 << 20);
    const stream = new Readable({ read() {} });
    const outcome = new Promise<Error | null>((resolve) =>
      readBudgetedBodyThen(stream, 40_000, budget, undefined, (e) => resolve(e), buffers),
    );
    stream.push(Buffer.alloc(1000, 0x61));
    stream.destroy();
    expect(await outcome).toBeInstanceOf(Error);
    expect(budget.inUse).toBe(0);
    expect(buffers.bytesKept).toBe(65_536);
  });
});

describe('a server reusing body buffers and lending reply memory', () => {
  const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');
  /** testnet 141042: 21 transactions, 20 of them JoinSplit transactions of 30-98 kB. */
  const TXS = decodeBlock(readHexVector('blocks', 'testnet', '141042.hex')).transactions.filter((t) => t.size >= 8_000);
  let dir: string;
  let close: () => Promise<void>;
  let core: RpcCore;
  let port: number;
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const live = new Set<Buffer>();
  const overlaps: string[] = [];
  let taken = 0;

  function post(body: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const req = request(
        { port, host: '127.0.0.1', method: 'POST', path: '/', agent, headers: { Authorization: AUTH, 'Content-Length': body.length } },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => resolve(Buffer.concat(parts)));
        },
      );
      req.on('error', reject);
      req.end(body, 'latin1');
    });
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zecrpc-body-buffers-'));
    core = createRpcCore({
      config: loadNodeConfig([`-datadir=${dir}`, '-rpcuser=alice', '-rpcpassword=secret', '-rpcworkqueue=64', '-testnet']),
      methods: [createDecodeRawTransaction({ cacheBytes: 0 })],
      renderThreads: 0,
      // Bodies and replies use reused memory only on zecrpc's own instance (no application hook
      // could keep them).
      ownInstance: true,
    });
    // Every buffer handed out is recorded until it is given back: none may be handed out twice meanwhile.
    const buffers = core.bodyBuffers!;
    const take = buffers.take.bind(buffers);
    const give = buffers.give.bind(buffers);
    buffers.take = (size) => {
      const b = take(size);
      if (live.has(b)) overlaps.push(`buffer of ${size} bytes handed to a second request`);
      live.add(b);
      taken++;
      return b;
    };
    buffers.give = (b) => {
      live.delete(b);
      give(b);
    };
    ({ port, close } = await listenOnCore(core));
  });

  afterAll(async () => {
    agent.destroy();
    await close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every one of many concurrent large bodies with its own transaction, buffers never shared', async () => {
    expect(TXS.length).toBeGreaterThanOrEqual(10);
    const lentBefore = transactionReplyMemory.stats().lent;
    const want = TXS.map((tx) =>
      Buffer.concat([Buffer.from('{"result":'), txToJsonBytes(tx, TESTNET), Buffer.from(',"error":null,"id":1}\n')]),
    );
    const bodies = TXS.map((tx) => `{"id":1,"method":"decoderawtransaction","params":["${toHex(tx.bytes)}"]}`);
    for (let round = 0; round < 3; round++) {
      const replies = await Promise.all(bodies.map(post));
      replies.forEach((r, i) => expect(r.equals(want[i]!)).toBe(true));
    }
    expect(overlaps).toEqual([]);
    expect(taken).toBe(3 * TXS.length);
    // Every body's buffer was given back, and reused (fewer buffers than bodies were made).
    expect(live.size).toBe(0);
    expect(core.bodyBuffers!.bytesKept).toBeGreaterThan(0);
    // Every reply's lent memory is given back once its response closes (which the server sees
    // on its side of the socket, in no fixed order with the client's reading the last bytes).
    await vi.waitFor(() => expect(transactionReplyMemory.stats().lent).toBe(lentBefore), { timeout: 60_000, interval: 5 });
  });
});
