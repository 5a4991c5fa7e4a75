// On zecrpc's own instance each request listens for its reply's end on the response and the
// connection with plain listeners (plugin.ts answerExecuted), each taken off by the first call:
// a connection that serves many requests must end each one with no listener left behind, and a
// request's memory must be given back when its reply is written.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadNodeConfig } from '../../../src/config.js';
import { startRpcServer, type RunningRpcServer } from '../../../src/rpc/http/server.js';
import { wholeReplies } from '../../support/http-replies.js';

const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');

let dir: string;
let serve: RunningRpcServer;
const serverSockets: Socket[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zecrpc-request-end-'));
  const config = loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', '-rpcuser=alice', '-rpcpassword=secret']);
  serve = await startRpcServer({ config, methods: [], renderThreads: 0 });
  serve.app.server.on('connection', (s: Socket) => serverSockets.push(s));
});

afterAll(async () => {
  await serve.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (body: string) =>
  `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/** Sends `count` requests one after another on one connection; after each whole reply, `after(i)`. */
function sequential(count: number, after: (i: number) => void): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const statuses: number[] = [];
    const request = post('{"id":1,"method":"help","params":["stop"]}');
    const socket = connect(serve.port, '127.0.0.1', () => socket.write(request, 'latin1'));
    socket.on('error', reject);
    socket.on(
      'data',
      wholeReplies((head) => {
        statuses.push(Number(head.slice(9, 12)));
        // The reply's 'close' comes once it is written, after the client may have read it.
        setImmediate(() => {
          after(statuses.length - 1);
          if (statuses.length === count) {
            socket.destroy();
            resolve(statuses);
          } else socket.write(request, 'latin1');
        });
      }),
    );
  });
}

it('leaves no listener on a kept-alive connection and gives back each reply budget, request after request', async () => {
  const closeListeners: number[] = [];
  const replyBytes: number[] = [];
  const statuses = await sequential(20, () => {
    closeListeners.push(serverSockets.at(-1)!.listenerCount('close'));
    replyBytes.push(serve.stats().replyBytes);
  });
  expect(statuses).toEqual(Array(20).fill(200));
  expect(new Set(closeListeners).size).toBe(1);
  expect(replyBytes).toEqual(Array(20).fill(0));
});
