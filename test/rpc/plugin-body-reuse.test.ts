/**
 * On an application's Fastify instance (the `zecrpc/fastify` plugin), `request.body` stays the
 * request's own bytes for the application's later hooks: a body kept by an onResponse hook, or
 * read there while another request of the same size is in flight, is not reused memory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, expect, it } from 'vitest';
import { loadNodeConfig } from '../../src/config.js';
import { zecrpcRpc } from '../../src/rpc/http/plugin.js';

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-plugin-body-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');
/** ~20 KB bodies (the 32 KiB pooled size), padded with `c`. */
const body = (c: string) => JSON.stringify({ method: 'help', params: [], id: c.repeat(20_000) });
/** The padding character a body's bytes hold now. */
const padding = (b: Buffer) => String.fromCharCode(b[b.length - 3]!);

async function appWith(hooks: (app: FastifyInstance) => void) {
  const app = Fastify();
  hooks(app);
  const config = loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', '-rpcuser=alice', '-rpcpassword=secret']);
  await app.register(zecrpcRpc, { config, renderThreads: 0 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const send = (id: string) =>
    fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { authorization: AUTH, 'x-req': id },
      body: body(id.toLowerCase()),
    }).then((r) => r.arrayBuffer());
  return { app, send };
}

it("a body kept by an application's onResponse hook stays that request's body", async () => {
  const kept = new Map<string, Buffer>();
  const { app, send } = await appWith((a) =>
    a.addHook('onResponse', async (request) => void kept.set(String(request.headers['x-req']), request.body as Buffer)),
  );
  await send('A');
  await send('B');
  await app.close();
  // A reused buffer would hold B's body by now.
  expect(padding(kept.get('A')!)).toBe('a');
});

it("an application's onResponse hook reads its own request's body (another request in flight)", async () => {
  let bArrived!: () => void;
  const bHere = new Promise<void>((r) => (bArrived = r));
  const readInHook = new Map<string, string>();
  let aRead!: () => void;
  const aHookDone = new Promise<void>((r) => (aRead = r));
  const { app, send } = await appWith((a) => {
    a.addHook('preHandler', async (request) => {
      if (request.headers['x-req'] === 'B') bArrived();
    });
    a.addHook('onResponse', async (request) => {
      const id = String(request.headers['x-req']);
      if (id === 'A') await bHere; // e.g. a logger that awaits its transport
      readInHook.set(id, padding(request.body as Buffer));
      if (id === 'A') aRead();
    });
  });
  await send('A');
  await send('B');
  await aHookDone;
  await app.close();
  expect(readInHook.get('A')).toBe('a');
});
