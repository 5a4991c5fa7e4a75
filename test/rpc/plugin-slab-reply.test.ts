/**
 * On an application's Fastify instance (the `zecrpc/fastify` plugin), a getblock reply rendered
 * on a render thread is not written from the thread's reply slab, which is lent to the next
 * reply once this one's response has closed: an onSend hook that keeps the chunks it was given
 * (a response cache, an audit log) must go on holding this reply after later requests. Mainnet
 * 106598 (1.38 MB, a multi-megabyte verbosity-2 reply), 233924 (135 kB), then 106598 again, all
 * uncached and large enough for a render thread; one thread, so each would reuse the last one's slab.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { loadNodeConfig } from '../../src/config.js';
import { handleJsonRpcBody } from '../../src/rpc/dispatch.js';
import { zecrpcRpc } from '../../src/rpc/http/plugin.js';
import type { RpcContext } from '../../src/rpc/method.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { MethodRegistry } from '../../src/rpc/registry.js';
import { MemoryChainStore, mainnetGenesisRun, zcashd2019Side } from '../support/memory-store.js';
import { HEAVY_TEST_TIMEOUT_MS } from '../support/timeouts.js';

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-plugin-slab-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');
const sides = [zcashd2019Side(106598), zcashd2019Side(233924)];
const store = new MemoryChainStore(MAINNET, mainnetGenesisRun(), sides);
const [bigHash, smallHash] = sides.map((s) => decodeBlock(s.bytes).hashHex);
const body = (hash: string) => `{"id":1,"method":"getblock","params":["${hash}",2]}`;

/** The reply the library path gives (rendered inline, no server, no cache). */
async function expected(hash: string): Promise<Buffer> {
  const ctx: RpcContext = { network: MAINNET, requestStop: () => undefined };
  const reply = await handleJsonRpcBody(Buffer.from(body(hash)), new MethodRegistry(storeMethods(store, { cacheReplies: false })), ctx);
  return typeof reply.body === 'string' ? Buffer.from(reply.body) : Buffer.concat(reply.body);
}

describe("an application's hooks and the render threads' reply slabs", { timeout: HEAVY_TEST_TIMEOUT_MS }, () => {
  it('chunks an onSend hook keeps of an uncached getblock 2 stay the reply it was given', async () => {
    const app = Fastify();
    const kept = new Map<string, Buffer[]>();
    const answered = new Map<string, () => void>();
    app.addHook('onResponse', async (request) => answered.get(String(request.headers['x-req']))?.());
    app.addHook('onSend', async (request, _reply, payload) => {
      const id = String(request.headers['x-req']);
      if (Buffer.isBuffer(payload)) {
        kept.set(id, [payload]);
        return payload;
      }
      if (!(payload instanceof Readable)) return payload;
      const chunks: Buffer[] = [];
      kept.set(id, chunks);
      const out = new PassThrough();
      payload.on('data', (c: Buffer) => chunks.push(c)); // kept by reference, as a cache would
      payload.pipe(out);
      return out;
    });
    const config = loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', '-rpcuser=alice', '-rpcpassword=secret']);
    await app.register(zecrpcRpc, { config, renderThreads: 1, methods: storeMethods(store, { cacheReplies: false }) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = (app.server.address() as { port: number }).port;
      const call = (id: string, hash: string) =>
        fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { authorization: AUTH, 'x-req': id }, body: body(hash) }).then(
          async (r) => Buffer.from(await r.arrayBuffer()),
        );
      const [wantBig, wantSmall] = await Promise.all([expected(bigHash!), expected(smallHash!)]);
      const aDone = new Promise<void>((resolve) => answered.set('A', resolve));
      const sentA = await call('A', bigHash!);
      expect(sentA.equals(wantBig)).toBe(true);
      // A's response over on the server's side too, where a slab would be lent again.
      await aDone;
      await new Promise((r) => setImmediate(r));
      expect(Buffer.concat(kept.get('A')!).equals(wantBig)).toBe(true);
      expect((await call('B', smallHash!)).equals(wantSmall)).toBe(true);
      // A slab lent again would now hold B's reply under the start of A's kept chunks.
      expect(Buffer.concat(kept.get('A')!).equals(wantBig)).toBe(true);
      expect((await call('C', bigHash!)).equals(wantBig)).toBe(true);
      // And C's under B's.
      expect(Buffer.concat(kept.get('B')!).equals(wantSmall)).toBe(true);
    } finally {
      await app.close();
    }
  });
});
