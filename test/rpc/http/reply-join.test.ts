// Small replies of several chunks (a result's bytes between the envelope's texts) are joined
// into one buffer of their own before Fastify sends them (the path an application's instance
// takes): every concurrent request gets its own reply, byte for byte.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHex } from '../../../src/codec/hex.js';
import { loadNodeConfig } from '../../../src/config.js';
import { JOINED_REPLY_MAX_BYTES } from '../../../src/rpc/http/reply.js';
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
  });
  ({ port, close } = await listenOnCore(core));
});

afterAll(async () => {
  agent.destroy();
  await close();
  rmSync(dir, { recursive: true, force: true });
});

describe('replies joined before Fastify sends them', () => {
  it('gives every concurrent request its own transaction, byte for byte', async () => {
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
    // Replies of this size are joined, not streamed.
    expect(expected.filter((b) => b.length <= JOINED_REPLY_MAX_BYTES).length).toBeGreaterThan(2);
    const rounds = 6;
    const all = await Promise.all(
      Array.from({ length: rounds * TXS.length }, (_, k) => post(decodeBody(TXS[k % TXS.length]!, k % TXS.length))),
    );
    for (const [k, r] of all.entries()) expect(r.body.equals(expected[k % TXS.length]!)).toBe(true);
  });
});
