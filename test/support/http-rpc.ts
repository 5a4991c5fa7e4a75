import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadNodeConfig } from '../../src/config.js';
import type { RpcMethod } from '../../src/rpc/method.js';
import Fastify, { type FastifyInstance } from 'fastify';
import { mountRpcRoute } from '../../src/rpc/http/plugin.js';
import type { RpcCore } from '../../src/rpc/http/rpc-core.js';
import { startRpcServer, type RunningRpcServer } from '../../src/rpc/http/server.js';

/**
 * `core`'s JSON-RPC route on a Fastify instance of its own, listening on a free local port;
 * `close` closes the instance and then the core.
 */
export async function listenOnCore(core: RpcCore): Promise<{ app: FastifyInstance; port: number; close: () => Promise<void> }> {
  const app = Fastify();
  mountRpcRoute(app, core);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const close = async () => {
    await app.close();
    await core.close();
  };
  return { app, port: (app.server.address() as { port: number }).port, close };
}

/** A method `large` whose result is a JSON string of `textBytes` 'x's: a reply of a chosen size. */
export function largeTextMethod(textBytes: number): RpcMethod {
  return {
    name: 'large',
    category: 'util',
    required: 0,
    optional: 0,
    help: 'large\n',
    call: () => `"${'x'.repeat(textBytes)}"`,
  };
}

/** POSTs a JSON-RPC body on a fresh connection; resolves with the status and the body as text. */
export function postJsonRpc(port: number, authorization: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/',
        agent: false,
        headers: { Authorization: authorization, 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('latin1');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A server for alice:secret with the given methods, one worker and a queue of one (the smallest
 * zcashd work queue), in a data directory of its own; `close` removes it.
 */
export async function startOneWorkerServer(
  methods: readonly RpcMethod[],
): Promise<{ server: RunningRpcServer; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'zecrpc-one-worker-'));
  const config = loadNodeConfig([
    `-datadir=${dir}`,
    '-rpcport=0',
    '-rpcuser=alice',
    '-rpcpassword=secret',
    '-rpcthreads=1',
    '-rpcworkqueue=1',
  ]);
  const server = await startRpcServer({ config, methods: [...methods], logger: { level: 'silent' } });
  return {
    server,
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
