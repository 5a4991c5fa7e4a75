// REST requests on zecrpc serve's instance give back their whole body reservation: the REST routes
// read bodies through the shared content-type parser, which therefore never takes a reused body
// buffer (only JSON-RPC, reading its body in the onRequest hook, gives one back). Before, each
// POST of 8 KiB–1 MiB kept its pooled size reserved on -rpcbodymemory for good, and the JSON-RPC
// requests after 64 of them waited and got 413.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { loadNodeConfig } from '../../src/config.js';
import { startRpcServer } from '../../src/rpc/http/server.js';

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-rest-body-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const AUTH = 'Basic ' + Buffer.from('u:p').toString('base64');

async function server(extra: string[] = []) {
  return startRpcServer({
    config: loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', '-rpcuser=u', '-rpcpassword=p', '-rest', '-rpcbodymemory=1', ...extra]),
    methods: [],
    renderThreads: 0,
    logger: { level: 'silent' },
  });
}

it('three 100 KiB REST POSTs leave no body bytes reserved', async () => {
  const s = await server();
  try {
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`http://127.0.0.1:${s.port}/rest/getutxos/bin`, { method: 'POST', body: Buffer.alloc(100 * 1024, 0x41) });
      await r.arrayBuffer();
    }
    // The reservation is given back in the route's response hook, which may follow the client's read.
    await vi.waitFor(() => expect(s.stats().bodyBytes).toBe(0), { timeout: 10_000, interval: 20 });
    expect(s.stats().bodyKeptBytes).toBe(0);
  } finally {
    await s.close();
  }
});

it('a 600 KiB REST POST on -rpcbodymemory=1 leaves room for a JSON-RPC body after it', async () => {
  const s = await server(['-rpcservertimeout=5']);
  try {
    const r = await fetch(`http://127.0.0.1:${s.port}/rest/getutxos/bin`, { method: 'POST', body: Buffer.alloc(600 * 1024, 0x41) });
    await r.arrayBuffer();
    const body = `{"id":1,"method":"help","params":[],"pad":"${'x'.repeat(20_000)}"}`;
    const a = await fetch(`http://127.0.0.1:${s.port}/`, { method: 'POST', body, headers: { Authorization: AUTH } });
    await a.arrayBuffer();
    expect(a.status).toBe(200);
  } finally {
    await s.close();
  }
}, 30_000);
