// A malformed request after a whole keep-alive exchange gets the 400 page, as from libevent: a
// declared body is handed on with its last byte, so its reply can finish before llhttp marks the
// request complete; whether the last reply went out before its body had arrived is judged when
// the client error comes, not when that reply finished.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadNodeConfig } from '../../../src/config.js';
import { startRpcServer, type RunningRpcServer } from '../../../src/rpc/http/server.js';

const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');
let dir: string;
let serve: RunningRpcServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zecrpc-answered-early-'));
  const config = loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', '-rpcuser=alice', '-rpcpassword=secret']);
  serve = await startRpcServer({ config, methods: [], renderThreads: 0 });
});
afterAll(async () => {
  await serve.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (body: string) =>
  `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/** One whole exchange on a keep-alive connection, then `next`; everything received after the first reply. */
function afterFirst(first: string, next: string): Promise<{ firstReply: string; rest: string }> {
  return new Promise((resolve, reject) => {
    let data = '';
    let firstReply = '';
    const socket = connect(serve.port, '127.0.0.1', () => socket.write(first, 'latin1'));
    socket.on('error', reject);
    socket.on('data', (c: Buffer) => {
      data += c.toString('latin1');
      if (firstReply === '') {
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/\r\ncontent-length: (\d+)\r\n/i.exec(data.slice(0, end + 2))![1]);
        if (data.length < end + 4 + length) return;
        firstReply = data.slice(0, end + 4 + length);
        data = data.slice(end + 4 + length);
        socket.write(next, 'latin1');
      }
    });
    socket.on('close', () => resolve({ firstReply, rest: data }));
  });
}

it('answers a malformed request after a whole keep-alive exchange with the 400 page', async () => {
  for (let i = 0; i < 5; i++) {
    const { firstReply, rest } = await afterFirst(post('{"id":1,"method":"help","params":["stop"]}'), 'GARBAGE\r\n\r\n');
    expect(firstReply).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(rest).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  }
});
