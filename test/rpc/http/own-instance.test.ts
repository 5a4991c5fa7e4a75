// `zecrpc serve`'s own Fastify instance answers from the route's onRequest hook and writes its
// replies itself (plugin.ts, reply.ts writeReply); an application's instance goes through
// Fastify's body parser, handler and `send`. The same requests must get the same bytes from
// both, every header included (Date aside), and serve's log line the same byte count.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHex } from '../../../src/codec/hex.js';
import { loadNodeConfig } from '../../../src/config.js';
import { zecrpcRpc } from '../../../src/rpc/http/plugin.js';
import { startRpcServer, type RunningRpcServer } from '../../../src/rpc/http/server.js';
import { createDecodeRawTransaction } from '../../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { readHexVector } from '../../support/vectors.js';
import { largeTextMethod } from '../../support/http-rpc.js';

const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');
/** Mainnet 1687107's Orchard transaction (v5): a reply of several chunks, joined before it is sent. */
const V5 = toHex(decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex')).transactions.find((t) => t.data.orchard)!.bytes);
/** A reply above the size up to which chunks are joined (as text, one chunk). */
const large = largeTextMethod(300 * 1024);
/** Bodies above this wait for no budget: they are refused at once with 413. */
const BODY_MEMORY = 64 * 1024;

let dir: string;
let serve: RunningRpcServer;
let app: FastifyInstance;
let appPort: number;
const lines: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zecrpc-own-instance-'));
  const config = () => loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', '-rpcuser=alice', '-rpcpassword=secret']);
  const methods = [createDecodeRawTransaction(), large];
  serve = await startRpcServer({
    config: config(),
    methods,
    renderThreads: 0,
    memory: { bodies: BODY_MEMORY },
    logger: { level: 'info', stream: { write: (s: string) => void lines.push(s) } },
  });
  app = Fastify();
  await app.register(zecrpcRpc, { config: config(), methods, renderThreads: 0, memory: { bodies: BODY_MEMORY } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  appPort = (app.server.address() as { port: number }).port;
});

afterAll(async () => {
  await serve.close();
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Everything the server sends on one connection for `request` (which asks it to close), Date line out. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(request, 'latin1'));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () =>
      resolve(
        Buffer.concat(chunks)
          .toString('latin1')
          .replace(/\r\nDate: [^\r]*/, ''),
      ),
    );
  });
}

const post = (body: string, extra = '') =>
  `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nConnection: close\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

const chunked = (body: string) =>
  `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n` +
  `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;

/** Each case: its name, the request, and the status zcashd answers it with. */
const CASES: [string, string, number][] = [
  ['a text reply', post('{"id":1,"method":"help","params":["large"]}'), 200],
  // Escaped in the request (sent as Latin-1), echoed as UTF-8 in the reply.
  ['a text reply beyond ASCII', post('{"id":"\\u00e9\\u20ac\\ud83d\\ude00","method":"help","params":["\\u00fcnknown \\u2713"]}'), 200],
  ['a reply of several chunks', post(`{"id":2,"method":"decoderawtransaction","params":["${V5}"]}`), 200],
  ['a reply over the joined size', post('{"id":3,"method":"large"}'), 200],
  ['an unknown method', post('{"id":4,"method":"nope"}'), 404],
  ['a batch', post('[{"id":5,"method":"help","params":["large"]},{"id":6,"method":"nope"}]'), 200],
  ['a malformed body', post('{"id":7,'), 500],
  ['an empty body', post(''), 500],
  ['a chunked body', chunked('{"id":8,"method":"help","params":["large"]}'), 200],
  ['a body that waits for 100 Continue', post('{"id":9,"method":"help","params":["large"]}', 'Expect: 100-continue\r\n'), 200],
  ['a body over the body memory', post(`{"id":10,"method":"help","params":["${'y'.repeat(BODY_MEMORY)}"]}`), 413],
  ['a body over the body memory after 100 Continue', post(`{"params":["${'y'.repeat(BODY_MEMORY)}"]}`, 'Expect: 100-continue\r\n'), 413],
];

describe('zecrpc serve’s own instance against an application’s, the same request', () => {
  it.each(CASES)('%s: the same status line, headers and body', async (_name, request, status) => {
    const own = await exchange(serve.port, request);
    const application = await exchange(appPort, request);
    // After the interim reply, if the client asked for one.
    expect(own.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '').slice(0, 13)).toBe(`HTTP/1.1 ${status} `);
    expect(own).toBe(application);
  });

  it('gives concurrent text replies each their own bytes (a text reply is encoded into a reused buffer until written)', async () => {
    const bodies = Array.from(
      { length: 40 },
      (_, i) => `{"id":"${'\\u00fc'.repeat(i)}${i}","method":"help","params":["x${'\\u20ac'.repeat(i)}"]}`,
    );
    const own = await Promise.all(bodies.map((b) => exchange(serve.port, post(b))));
    const application = await Promise.all(bodies.map((b) => exchange(appPort, post(b))));
    expect(own).toEqual(application);
    expect(Buffer.from(own[39]!, 'latin1').toString('utf8')).toContain(`"id":"${'ü'.repeat(39)}39"`);
  });

  it('logs the byte count the Content-Length says, for a reply written by the route itself', async () => {
    lines.length = 0;
    const reply = await exchange(serve.port, post(`{"id":"d","method":"decoderawtransaction","params":["${V5}"]}`));
    const length = Number(/\r\ncontent-length: (\d+)\r\n/.exec(reply)![1]);
    expect(length).toBeGreaterThan(30_000);
    expect(Buffer.byteLength(reply.slice(reply.indexOf('\r\n\r\n') + 4), 'latin1')).toBe(length);
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.msg === 'request completed');
    expect(logged).toMatchObject([{ rpc: { method: 'decoderawtransaction', id: '"d"' }, statusCode: 200, bytes: length }]);
  });
});
