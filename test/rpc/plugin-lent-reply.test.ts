/**
 * On an application's Fastify instance (the `zecrpc/fastify` plugin), a transaction reply is not
 * rendered into memory lent for reuse: a reply above the join limit reaches the application's
 * onSend hook as a stream of chunks, and a hook that keeps them (a response cache, an audit log)
 * must go on holding that reply after later requests. Mainnet 106598's 447-input transaction
 * (a 386 kB reply) then a small one, caches off so both are rendered afresh.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex } from '../../src/codec/hex.js';
import { loadNodeConfig } from '../../src/config.js';
import { zecrpcRpc } from '../../src/rpc/http/plugin.js';
import { createDecodeRawTransaction } from '../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { zcashd2019Side } from '../support/memory-store.js';

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-plugin-lent-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');
const block = decodeBlock(zcashd2019Side(106598).bytes);
const big = toHex(block.transactions[40]!.bytes); // 66 kB, 447 inputs: a reply above 256 KiB
const small = toHex(block.transactions[1]!.bytes);

it("chunks an application's onSend hook keeps stay the reply it was given", async () => {
  const app = Fastify({ bodyLimit: 4 * 1024 * 1024 });
  const kept = new Map<string, Buffer[]>();
  const answered = new Map<string, () => void>();
  app.addHook('onResponse', async (request) => answered.get(String(request.headers['x-req']))?.());
  app.addHook('onSend', async (request, _reply, payload) => {
    if (!(payload instanceof Readable)) return payload;
    const chunks: Buffer[] = [];
    kept.set(String(request.headers['x-req']), chunks);
    const out = new PassThrough();
    payload.on('data', (c: Buffer) => chunks.push(c)); // kept by reference, as a cache would
    payload.pipe(out);
    return out;
  });
  const config = loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', '-rpcuser=alice', '-rpcpassword=secret']);
  await app.register(zecrpcRpc, { config, renderThreads: 0, methods: [createDecodeRawTransaction({ cacheBytes: 0 })] });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const call = (id: string, hex: string) =>
    fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { authorization: AUTH, 'x-req': id },
      body: `{"id":1,"method":"decoderawtransaction","params":["${hex}"]}`,
    }).then(async (r) => Buffer.from(await r.arrayBuffer()));
  const aDone = new Promise<void>((resolve) => answered.set('A', resolve));
  const sentA = await call('A', big);
  expect(sentA.length).toBeGreaterThan(256 * 1024);
  // A's response over on the server's side too, where lent memory would be given back.
  await aDone;
  await new Promise((r) => setImmediate(r));
  expect(Buffer.concat(kept.get('A')!).equals(sentA)).toBe(true);
  await call('B', small);
  await app.close();
  // Lent memory would now hold B's reply under A's kept chunks.
  expect(Buffer.concat(kept.get('A')!).equals(sentA)).toBe(true);
});
