// Every connection -rpcservertimeout closes is logged at info (what `zecrpc serve -debug=rpc`
// shows), with the client's address and port and why it was idle: waiting for the next request,
// in the middle of a request, or not taking its reply. A client that saw its connection end can
// find which rule ended it. The waits are for the server's close, whenever it comes.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadNodeConfig } from '../../../src/config.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { startRpcServer, type RunningRpcServer } from '../../../src/rpc/http/server.js';
import { largeTextMethod } from '../../support/http-rpc.js';

const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');

/** A reply far larger than the kernel's socket buffers hold, so its writing waits on the client. */
const REPLY_TEXT_BYTES = 16 * 1024 * 1024;
const large = largeTextMethod(REPLY_TEXT_BYTES);
const echo: RpcMethod = {
  name: 'echo',
  category: 'util',
  required: 1,
  optional: 0,
  help: 'echo\n',
  call: (params) => JSON.stringify(params[0]),
};

interface LogLine {
  level: number;
  msg: string;
  reason?: string;
  remotePort?: number;
  remoteAddress?: string;
  timeoutMs?: number;
}

const lines: LogLine[] = [];
let server: RunningRpcServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zecrpc-timeout-log-'));
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l !== '') lines.push(JSON.parse(l) as LogLine);
      done();
    },
  });
  server = await startRpcServer({
    config: loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', '-rpcuser=alice', '-rpcpassword=secret', '-rpcservertimeout=1']),
    methods: [echo, large],
    logger: pino({ level: 'info' }, stream),
  });
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (body: string) => `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${body.length}\r\n\r\n${body}`;

/**
 * Opens a connection, lets `act` drive it, and resolves with the server's log line about it once
 * there is one (a paused client never sees the close itself). The deadline, within the test's
 * 60 s, is for a loaded machine.
 */
async function closeLogged(act: (sock: Socket) => void): Promise<LogLine | undefined> {
  const sock = connect(server.port, '127.0.0.1');
  sock.on('error', () => undefined);
  await new Promise<void>((resolve) => sock.once('connect', () => resolve()));
  const port = sock.localPort!;
  act(sock);
  const deadline = Date.now() + 50_000;
  let line: LogLine | undefined;
  while (!(line = lines.find((l) => l.reason !== undefined && l.remotePort === port)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  sock.destroy();
  return line;
}

describe('connections closed by -rpcservertimeout', () => {
  it('are logged with the port and the reason: between requests, within a request, or a reply not taken', async () => {
    const [idle, partial, stalled] = await Promise.all([
      // One whole exchange, then nothing: the keep-alive wait ends.
      closeLogged((sock) => {
        sock.write(post('{"id":1,"method":"echo","params":["x"]}'));
        sock.on('data', () => undefined);
      }),
      // Half a head, then nothing.
      closeLogged((sock) => sock.write('POST / HTTP/1.1\r\nHost: x\r\nAuthoriz')),
      // A 16 MiB reply the client never reads.
      closeLogged((sock) => {
        sock.pause();
        sock.write(post('{"id":1,"method":"large"}'));
      }),
    ]);
    expect(idle).toMatchObject({
      level: 30,
      reason: 'between-requests',
      remoteAddress: '127.0.0.1',
      timeoutMs: 1000,
      msg: 'connection closed after -rpcservertimeout (1 s) without a byte read or written: no request after the last reply (keep-alive)',
    });
    expect(partial).toMatchObject({
      reason: 'request-incomplete',
      msg: 'connection closed after -rpcservertimeout (1 s) without a byte read or written: the client sent part of a request and stopped',
    });
    expect(stalled).toMatchObject({
      reason: 'reply-not-taken',
      msg: 'connection closed after -rpcservertimeout (1 s) without a byte read or written: the client stopped taking its reply',
    });
    expect(lines.filter((l) => l.reason !== undefined)).toHaveLength(3);
  });

  it('logs nothing for a connection the client closes itself', async () => {
    const before = lines.length;
    await new Promise<void>((resolve) => {
      const sock = connect(server.port, '127.0.0.1', () => sock.write(post('{"id":1,"method":"echo","params":["y"]}')));
      sock.once('data', () => sock.end());
      sock.on('close', () => resolve());
    });
    expect(lines.slice(before).filter((l) => l.reason !== undefined)).toEqual([]);
  });
});
