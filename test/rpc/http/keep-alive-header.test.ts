// `zecrpc serve` keeps one idle timer per connection (-rpcservertimeout, `server.timeout`) and
// leaves Node's keep-alive timer off, so that no timer is re-armed after every reply and again
// at the next request; its responses still advertise `Keep-Alive: timeout=N` as before
// (server.ts, responseAdvertising). Every reply on a kept-alive connection, the JSON-RPC route's
// and Fastify's 404 alike, carries it.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadNodeConfig } from '../../../src/config.js';
import { startRpcServer, type RunningRpcServer } from '../../../src/rpc/http/server.js';
import { wholeReplies } from '../../support/http-replies.js';

const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');

let dir: string;
let serve: RunningRpcServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zecrpc-keep-alive-'));
  const config = loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', '-rpcuser=alice', '-rpcpassword=secret', '-rpcservertimeout=7']);
  serve = await startRpcServer({ config, methods: [], renderThreads: 0 });
});

afterAll(async () => {
  await serve.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Sends `requests` one after another on one connection, each once the previous reply is whole; the heads received. */
function heads(requests: readonly string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const seen: string[] = [];
    const socket = connect(serve.port, '127.0.0.1', () => socket.write(requests[0]!, 'latin1'));
    socket.on('error', reject);
    socket.on(
      'data',
      wholeReplies((head) => {
        seen.push(head.replace(/\r\nDate: [^\r]*/, ''));
        if (seen.length === requests.length) {
          socket.destroy();
          resolve(seen);
        } else socket.write(requests[seen.length]!, 'latin1');
      }),
    );
  });
}

const post = (body: string) =>
  `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

it('advertises -rpcservertimeout as Keep-Alive on every reply while Node keeps no keep-alive timer', async () => {
  expect(serve.app.server.keepAliveTimeout).toBe(0);
  expect(serve.app.server.timeout).toBe(7000);
  const got = await heads([
    post('{"id":1,"method":"help","params":["stop"]}'),
    'GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n',
    post('{"id":2}'),
  ]);
  expect(got).toHaveLength(3);
  expect(got[0]).toMatch(/^HTTP\/1\.1 200 OK\r\ncontent-type: application\/json\r\ncontent-length: \d+\r\n/);
  expect(got[1]).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
  expect(got[2]).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  for (const head of got) expect(head).toMatch(/\r\nConnection: keep-alive\r\nKeep-Alive: timeout=7\r\n$/);
});
