// A client that disconnects while its request runs: the method's context signal is aborted, so
// a long scan (gettxoutsetinfo) stops instead of reading on for nobody.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { loadNodeConfig, zecrpcRpc } from '../../src/fastify.js';
import type { RpcMethod } from '../../src/rpc/method.js';
import { MemoryChainStore, mainnetGenesisRun } from '../support/memory-store.js';

it('aborts the running method’s signal when the client disconnects', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zecrpc-disconnect-'));
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  let sawAbort!: (aborted: boolean) => void;
  const outcome = new Promise<boolean>((resolve) => (sawAbort = resolve));
  const waits: RpcMethod = {
    name: 'waitforclient',
    category: 'util',
    required: 0,
    optional: 0,
    help: 'waitforclient\n',
    call: (_params, ctx) =>
      new Promise((resolve) => {
        const signal = ctx.signal;
        if (!signal) {
          sawAbort(false);
          resolve('null');
          return;
        }
        signal.addEventListener('abort', () => {
          sawAbort(true);
          resolve('null');
        });
        started();
      }),
  };
  const app = Fastify();
  await app.register(zecrpcRpc, {
    config: loadNodeConfig([`-datadir=${dir}`, '-rpcuser=u', '-rpcpassword=p']),
    store: new MemoryChainStore(MAINNET, mainnetGenesisRun()),
    methods: [waits],
    renderThreads: 0,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const port = (app.server.address() as { port: number }).port;
    const body = '{"id":1,"method":"waitforclient"}';
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/',
      auth: 'u:p',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('error', () => undefined);
    req.end(body);
    await Promise.race([running, outcome]);
    req.destroy();
    expect(await outcome).toBe(true);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
