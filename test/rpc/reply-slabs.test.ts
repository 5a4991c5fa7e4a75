// Replies rendered into the render threads' shared slabs reach the client byte for byte, and a
// slab is never lent again while a reply written from it is still in use: many concurrent
// uncached getblock requests for different blocks each get their own block. Only uncached
// getblock asks for lent memory; with its reply cache on, results are owned.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { loadNodeConfig } from '../../src/config.js';
import { handleJsonRpcBody } from '../../src/rpc/dispatch.js';
import { startRpcServer, type RunningRpcServer } from '../../src/rpc/http/server.js';
import type { RpcContext } from '../../src/rpc/method.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { MethodRegistry } from '../../src/rpc/registry.js';
import { inlineBlockRenderer, type BlockRenderRequest } from '../../src/rpc/workers/block-renderer.js';
import type { Socket } from 'node:net';
import { largeBlocks, post, postBytes, rawRequest, storeWithLargeBlocks, PASSWORD, USER } from '../stress/fixtures.js';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/timeouts.js';

// 1.4 MB blocks: a verbosity-2 reply (≈ 8 MB) is more than the kernel's socket buffers hold, so
// a client that does not read keeps part of its reply waiting in the server.
const { store, hashes } = storeWithLargeBlocks(largeBlocks(4));
let dir: string;
let server: RunningRpcServer;

/** The reply the library path gives (inline rendering, no server). */
async function expected(body: string): Promise<string> {
  const ctx: RpcContext = { network: MAINNET, requestStop: () => undefined };
  const reply = await handleJsonRpcBody(Buffer.from(body), new MethodRegistry(storeMethods(store, { cacheReplies: false })), ctx);
  return typeof reply.body === 'string' ? reply.body : Buffer.concat(reply.body).toString('utf8');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zecrpc-reply-slabs-'));
  const config = loadNodeConfig([
    `-datadir=${dir}`,
    '-rpcport=0',
    `-rpcuser=${USER}`,
    `-rpcpassword=${PASSWORD}`,
    '-rpcthreads=1',
    '-rpcworkqueue=64',
  ]);
  server = await startRpcServer({ config, methods: storeMethods(store, { cacheReplies: false }) });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

// Each test here does seconds of CPU work (CLI processes started, multi-megabyte blocks rendered):
// on a machine whose cores are shared many times over that stretches past vitest's 60 s default,
// which is there to catch a hang. HEAVY_TEST_TIMEOUT_MS still catches one.
describe('replies written from reply slabs', { timeout: HEAVY_TEST_TIMEOUT_MS }, () => {
  it('give every client its own block, byte for byte, with more requests in flight than slabs', async () => {
    const bodies = Array.from(
      { length: 12 },
      (_, i) => `{"id":${i},"method":"getblock","params":["${hashes[i % hashes.length]}",${i % 3 === 0 ? 0 : 2}]}`,
    );
    const want = await Promise.all(bodies.map(expected));
    for (let round = 0; round < 2; round++) {
      const got = await Promise.all(bodies.map((b) => post(server.port, b)));
      got.forEach((r, i) => {
        expect(r.statusLine).toBe('HTTP/1.1 200 OK');
        expect(r.body.toString('utf8')).toBe(want[i]);
      });
    }
  });

  it('keep a slab for a reply its client is slow to take, while other replies are rendered', async () => {
    const slowBody = `{"id":"slow","method":"getblock","params":["${hashes[0]}",2]}`;
    const others = hashes.slice(1).flatMap((h, i) => [0, 1, 2].map((k) => `{"id":${i * 3 + k},"method":"getblock","params":["${h}",2]}`));
    const [slowWant, ...othersWant] = await Promise.all([slowBody, ...others].map(expected));
    let slowSocket: Socket | undefined;
    const slow = rawRequest(server.port, postBytes(slowBody), (sock) => {
      slowSocket = sock;
      sock.pause();
    });
    // The slow reply is rendered and partly written before the others start.
    while (server.stats().replyBytes === 0) await new Promise((r) => setTimeout(r, 5));
    const got = await Promise.all(others.map((b) => post(server.port, b)));
    got.forEach((r, i) => expect(r.body.toString('utf8')).toBe(othersWant[i]));
    slowSocket!.resume();
    expect((await slow).body.toString('utf8')).toBe(slowWant);
  });

  it('are asked for only when getblock keeps no cache', async () => {
    const seen: (boolean | undefined)[] = [];
    const spy: RpcContext = {
      network: MAINNET,
      requestStop: () => undefined,
      blockRenderer: {
        render: (req: BlockRenderRequest) => {
          seen.push(req.transient);
          return inlineBlockRenderer.render(req);
        },
      },
    };
    const body = Buffer.from(`{"id":1,"method":"getblock","params":["${hashes[0]}",2]}`);
    for (const cacheReplies of [false, true]) {
      await handleJsonRpcBody(body, new MethodRegistry(storeMethods(store, { cacheReplies })), spy);
    }
    expect(seen).toEqual([true, false]);
  });
});
