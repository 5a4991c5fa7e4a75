// zcashd reads nothing from a connection while its request runs, so -rpcservertimeout never
// closes it then: in `zecrpc serve` the server's timeout handler spares a connection whose
// request is running (its reply not started), and the timeout counts again from the reply on.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadNodeConfig } from '../../../src/config.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { startRpcServer, type RunningRpcServer } from '../../../src/rpc/http/server.js';

const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');
/** Runs for twice the 1 s timeout without a byte read or written on its connection. */
const RUN_MS = 2000;
const long: RpcMethod = {
  name: 'long',
  category: 'util',
  required: 0,
  optional: 0,
  help: 'long\n',
  call: async () => (await new Promise((r) => setTimeout(r, RUN_MS)), '"done"'),
};

const logged: { msg: string; reason?: string }[] = [];
let server: RunningRpcServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zecrpc-running-timeout-'));
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l !== '') logged.push(JSON.parse(l) as { msg: string });
      done();
    },
  });
  server = await startRpcServer({
    config: loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', '-rpcuser=alice', '-rpcpassword=secret', '-rpcservertimeout=1']),
    methods: [long],
    logger: pino({ level: 'info' }, stream),
  });
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a request that runs longer than -rpcservertimeout', () => {
  it('gets its reply, and the connection is closed only once idle after it, between requests', async () => {
    const body = '{"id":1,"method":"long"}';
    const started = Date.now();
    const { data, replyMs } = await new Promise<{ data: string; replyMs: number }>((resolve) => {
      let data = '';
      let replyMs = -1;
      const sock = connect(server.port, '127.0.0.1', () =>
        sock.write(`POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${body.length}\r\n\r\n${body}`),
      );
      sock.on('data', (c: Buffer) => {
        if (replyMs < 0) replyMs = Date.now() - started;
        data += c.toString('latin1');
      });
      // Keep-alive: the server closes the connection after its idle timeout.
      sock.on('close', () => resolve({ data, replyMs }));
    });
    expect(replyMs).toBeGreaterThanOrEqual(RUN_MS - 50);
    expect(data.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(data.endsWith('\r\n\r\n{"result":"done","error":null,"id":1}\n')).toBe(true);
    const closes = logged.filter((l) => l.msg.startsWith('connection closed after -rpcservertimeout'));
    expect(closes.map((l) => l.reason)).toEqual(['between-requests']);
  });
});
