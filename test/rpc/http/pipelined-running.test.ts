// Two pipelined requests on one connection, the first ending while the second still runs: the
// second is a running request too, which -rpcservertimeout does not cut (the connection counts
// its running requests, not one flag the first's end cleared). The method waits on a timer of
// its own: the test asserts both replies arrive, which no load can make fail.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadNodeConfig } from '../../../src/config.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { startRpcServer, type RunningRpcServer } from '../../../src/rpc/http/server.js';

const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');
const sleep: RpcMethod = {
  name: 'sleep',
  category: 'util',
  required: 1,
  optional: 0,
  help: 'sleep ms\n',
  call: async (params) => (await new Promise((r) => setTimeout(r, Number(params[0]))), '"done"'),
};
let dir: string;
let serve: RunningRpcServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zecrpc-pipelined-running-'));
  const config = loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', '-rpcuser=alice', '-rpcpassword=secret', '-rpcservertimeout=1']);
  serve = await startRpcServer({ config, methods: [sleep], renderThreads: 0 });
});
afterAll(async () => {
  await serve.close();
  rmSync(dir, { recursive: true, force: true });
});
const post = (body: string) =>
  `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

it('answers both pipelined requests, the second running 2.5 s past the first', async () => {
  const data = await new Promise<string>((resolve) => {
    let d = '';
    const s = connect(serve.port, '127.0.0.1', () =>
      s.write(post('{"id":1,"method":"sleep","params":["500"]}') + post('{"id":2,"method":"sleep","params":["3000"]}')),
    );
    s.on('data', (c: Buffer) => (d += c.toString('latin1')));
    s.on('close', () => resolve(d));
  });
  expect(data).toContain('"id":1}');
  expect(data).toContain('{"result":"done","error":null,"id":2}');
}, 30_000);
