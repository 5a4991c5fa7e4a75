// Concurrent uncached `getblock <hash> 2` requests for the vectors' largest block (testnet
// 141042: 1.93 MB, 20 Sprout JoinSplits, an 11 MB reply) over HTTP: every client gets the
// library path's reply byte for byte, each request is rendered exactly once on a render thread,
// no more threads start than -rpcthreads allows, and a later burst is served by the same threads
// rather than new ones (a thread started afresh costs many renders' worth of CPU).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TESTNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { loadNodeConfig } from '../../src/config.js';
import { handleJsonRpcBody } from '../../src/rpc/dispatch.js';
import { startRpcServer, type RunningRpcServer } from '../../src/rpc/http/server.js';
import type { RpcContext } from '../../src/rpc/method.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { MethodRegistry } from '../../src/rpc/registry.js';
import { post, PASSWORD, USER } from '../stress/fixtures.js';
import { MemoryChainStore } from '../support/memory-store.js';
import { testnetChain } from '../support/store.js';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/timeouts.js';
import { readHexVector } from '../support/vectors.js';

const RENDER_THREADS = 2;
const CONCURRENT = 8;

const bytes = readHexVector('blocks', 'testnet', '141042.hex');
const hash = decodeBlock(bytes).hashHex;
// The testnet run from genesis as the best chain, 141042 as a side block (its parents are not in the vectors).
const store = new MemoryChainStore(TESTNET, testnetChain(), [{ bytes, height: 141042, chainWork: 1n }]);
const body = (id: number) => `{"jsonrpc":"1.0","id":${id},"method":"getblock","params":["${hash}",2]}`;

/** The reply the library path gives (inline rendering, no server, no cache). */
async function expected(id: number): Promise<Buffer> {
  const ctx: RpcContext = { network: TESTNET, requestStop: () => undefined };
  const reply = await handleJsonRpcBody(Buffer.from(body(id)), new MethodRegistry(storeMethods(store, { cacheReplies: false })), ctx);
  return typeof reply.body === 'string' ? Buffer.from(reply.body) : Buffer.concat(reply.body);
}

let dir: string;
let server: RunningRpcServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zecrpc-getblock-threads-'));
  const config = loadNodeConfig([
    `-datadir=${dir}`,
    '-rpcport=0',
    `-rpcuser=${USER}`,
    `-rpcpassword=${PASSWORD}`,
    '-testnet',
    `-rpcthreads=${RENDER_THREADS}`,
    '-rpcworkqueue=64',
  ]);
  server = await startRpcServer({ config, methods: storeMethods(store, { cacheReplies: false }) });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

// Seconds of CPU on a shared machine: HEAVY_TEST_TIMEOUT_MS, which still catches a hang.
describe('concurrent uncached getblock 2 of testnet 141042', { timeout: HEAVY_TEST_TIMEOUT_MS }, () => {
  it('renders each request once on the render threads and answers each byte for byte', async () => {
    const ids = Array.from({ length: CONCURRENT }, (_, i) => i + 1);
    const want = await Promise.all(ids.map(expected));
    expect(want[0]!.length).toBeGreaterThan(11_000_000);
    expect(server.stats()).toMatchObject({ renderThreadsStarted: 0, threadRenders: 0 });

    const first = await Promise.all(ids.map((id) => post(server.port, body(id))));
    first.forEach((r, i) => {
      expect(r.statusLine).toBe('HTTP/1.1 200 OK');
      expect(r.body.equals(want[i]!)).toBe(true);
    });
    const afterFirst = server.stats();
    expect(afterFirst.threadRenders).toBe(CONCURRENT);
    expect(afterFirst.renderThreadsStarted).toBeGreaterThanOrEqual(1);
    expect(afterFirst.renderThreadsStarted).toBeLessThanOrEqual(RENDER_THREADS);

    const second = await Promise.all(ids.map((id) => post(server.port, body(id))));
    second.forEach((r, i) => expect(r.body.equals(want[i]!)).toBe(true));
    expect(server.stats()).toMatchObject({
      threadRenders: 2 * CONCURRENT,
      renderThreadsStarted: afterFirst.renderThreadsStarted,
    });
  });
});
