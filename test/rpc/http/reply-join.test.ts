// Small replies of several chunks (a result's bytes between the envelope's texts) are joined
// into one buffer before Fastify sends them; `zecrpc serve`'s own server joins them in reusable
// buffers, each lent until its response closes.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHex } from '../../../src/codec/hex.js';
import { loadNodeConfig } from '../../../src/config.js';
import { JOIN_BUFFER_BYTES, ReplyJoinBuffers } from '../../../src/rpc/http/reply.js';
import { createRpcCore, type RpcCore } from '../../../src/rpc/http/rpc-core.js';
import { createDecodeRawTransaction } from '../../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { listenOnCore } from '../../support/http-rpc.js';
import { readHexVector } from '../../support/vectors.js';

const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');
/** The transactions of mainnet 1687107 (NU5: v4 and v5, transparent, Sapling and Orchard). */
const TXS = decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex')).transactions.map((t) => toHex(t.bytes));

let dir: string;
let close: () => Promise<void>;
let core: RpcCore;
let port: number;
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

function post(body: string): Promise<{ status: number; type: string | undefined; length: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/',
        agent,
        headers: { Authorization: AUTH, 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            type: res.headers['content-type'],
            length: res.headers['content-length'],
            body: Buffer.concat(parts),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const decodeBody = (hex: string, id: number) => `{"id":${id},"method":"decoderawtransaction","params":["${hex}"]}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zecrpc-reply-join-'));
  core = createRpcCore({
    config: loadNodeConfig([`-datadir=${dir}`, '-rpcuser=alice', '-rpcpassword=secret', '-rpcworkqueue=64']),
    methods: [createDecodeRawTransaction()],
    renderThreads: 0,
    reuseReplyBuffers: true,
  });
  ({ port, close } = await listenOnCore(core));
});

afterAll(async () => {
  agent.destroy();
  await close();
  rmSync(dir, { recursive: true, force: true });
});

describe('replies joined in reusable buffers', () => {
  it('gives every concurrent request its own transaction, byte for byte, and lends every buffer back', async () => {
    expect(TXS.length).toBeGreaterThan(2);
    const expected: Buffer[] = [];
    for (const [i, hex] of TXS.entries()) {
      const r = await post(decodeBody(hex, i));
      expect(r.status).toBe(200);
      expect(r.type).toBe('application/json');
      expect(Number(r.length)).toBe(r.body.length);
      const text = r.body.toString('utf8');
      expect(text.startsWith(`{"result":{"txid":"`)).toBe(true);
      expect(text.endsWith(`,"error":null,"id":${i}}\n`)).toBe(true);
      expected.push(r.body);
    }
    // Every reply but the largest fits a join buffer: the test covers reuse, not only allocation.
    expect(expected.filter((b) => b.length <= JOIN_BUFFER_BYTES).length).toBeGreaterThan(2);
    const rounds = 6;
    const all = await Promise.all(
      Array.from({ length: rounds * TXS.length }, (_, k) => post(decodeBody(TXS[k % TXS.length]!, k % TXS.length))),
    );
    for (const [k, r] of all.entries()) expect(r.body.equals(expected[k % TXS.length]!)).toBe(true);
    const joins = core.replyJoins!;
    // Each buffer goes back when its response closes, which may come just after the client has the reply.
    await new Promise((r) => setTimeout(r, 50));
    expect(joins.stats().lent).toBe(0);
    expect(joins.stats().kept).toBeGreaterThan(0);
    expect(joins.stats().kept).toBeLessThanOrEqual(8);
  });

  it('lends at most its limit at once and keeps at most its limit for reuse', () => {
    const joins = new ReplyJoinBuffers(3, 2);
    const taken = [joins.take(), joins.take(), joins.take()];
    expect(taken.every((b) => b !== null && b.length === JOIN_BUFFER_BYTES)).toBe(true);
    expect(new Set(taken).size).toBe(3);
    expect(joins.take()).toBeNull();
    for (const b of taken) joins.give(b!);
    expect(joins.stats()).toEqual({ lent: 0, kept: 2 });
    const again = joins.take();
    expect(taken.includes(again)).toBe(true);
  });
});
