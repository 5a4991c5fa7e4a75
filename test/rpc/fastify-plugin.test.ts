// zecrpc/fastify: the JSON-RPC plugin mounted on an application's own Fastify instance, beside
// the application's routes, with credentials, the reply budget and the store's methods in force
// on the JSON-RPC route only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { loadNodeConfig, zecrpcRpc } from '../../src/fastify.js';
import { MemoryChainStore, mainnetGenesisRun } from '../support/memory-store.js';
import { largeTextMethod } from '../support/http-rpc.js';

const AUTH = 'Basic ' + Buffer.from('app:pw').toString('base64');
/** A reply of 2 MiB, over the 1 MiB per-request budget the plugin is given. */
const large = largeTextMethod(2 * 1024 * 1024);

let dir: string;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zecrpc-plugin-'));
  app = Fastify();
  // The application's own routes, with Fastify's JSON parser.
  app.get('/health', async () => ({ ok: true }));
  app.post('/echo', async (request) => ({ got: request.body }));
  await app.register(zecrpcRpc, {
    config: loadNodeConfig([`-datadir=${dir}`, '-rpcuser=app', '-rpcpassword=pw']),
    store: new MemoryChainStore(MAINNET, mainnetGenesisRun()),
    methods: [large],
    memory: { perRequest: 1024 * 1024 },
    renderThreads: 0,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const rpc = (body: string, auth: string | null = AUTH) =>
  fetch(`${base}/`, { method: 'POST', body, headers: auth ? { authorization: auth, 'content-type': 'application/json' } : {} });

describe('zecrpcRpc mounted beside an application route', () => {
  it('serves the store’s methods at / with zcashd’s envelope', async () => {
    const r = await rpc('{"id":1,"method":"getblockcount"}');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(await r.text()).toBe('{"result":20,"error":null,"id":1}\n');
    const hash = await rpc('{"id":"h","method":"getblockhash","params":[0]}');
    expect(await hash.text()).toBe(`{"result":"${MAINNET.genesisHash}","error":null,"id":"h"}\n`);
  });

  it('refuses the JSON-RPC route without credentials, as zcashd does, and leaves the application’s routes open', async () => {
    const refused = await rpc('{"id":1,"method":"getblockcount"}', null);
    expect([refused.status, refused.headers.get('www-authenticate'), await refused.text()]).toEqual([401, 'Basic realm="jsonrpc"', '']);
    const t0 = performance.now();
    const wrong = await rpc('{"id":1,"method":"getblockcount"}', 'Basic ' + Buffer.from('app:guess').toString('base64'));
    expect(wrong.status).toBe(401);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(240); // zcashd's penalty
    const health = await fetch(`${base}/health`);
    expect([health.status, await health.json()]).toEqual([200, { ok: true }]);
    // The application's JSON parser still reads its own route's bodies.
    const echo = await fetch(`${base}/echo`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(await echo.json()).toEqual({ got: { a: 1 } });
  });

  it('answers a reply over the per-request budget with zcashd’s -7', async () => {
    const r = await rpc('{"id":3,"method":"large"}');
    expect(r.status).toBe(500);
    const reply = (await r.json()) as { error: { code: number; message: string }; id: number };
    expect(reply.error.code).toBe(-7);
    expect(reply.error.message).toContain('per-request memory budget of 1 MiB');
    expect(reply.id).toBe(3);
  });

  it('answers other methods and paths of the route as zcashd does', async () => {
    const get = await fetch(`${base}/`);
    expect([get.status, await get.text()]).toEqual([405, 'JSONRPC server handles only POST requests']);
    const query = await fetch(`${base}/?x`, { method: 'POST', body: '{}', headers: { authorization: AUTH } });
    expect(query.status).toBe(404);
  });
});
