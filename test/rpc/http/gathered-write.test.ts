// `zecrpc serve`'s own instance writes a reply's chunks (the envelope's texts around a result's
// bytes, a batch's many results) as one gathered write, never joined and never streamed, and
// keeps the reply's budget until the socket has taken its last byte: a client that does not
// read holds its own reply's reservation. The bytes are those of an application's instance,
// which still sends through Fastify (joined or streamed). Real transactions: testnet 141042's
// 97.5 kB JoinSplit transaction (a 574 kB reply) and mainnet 1687107's (v4 and v5).
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TESTNET } from '../../../src/chain/network.js';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHex } from '../../../src/codec/hex.js';
import { loadNodeConfig } from '../../../src/config.js';
import { zecrpcRpc } from '../../../src/rpc/http/plugin.js';
import { startRpcServer, type RunningRpcServer } from '../../../src/rpc/http/server.js';
import { createDecodeRawTransaction } from '../../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { txToJsonBytes } from '../../../src/render/tx.js';
import { readHexVector } from '../../support/vectors.js';

const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');
const JOINSPLIT_TX = decodeBlock(readHexVector('blocks', 'testnet', '141042.hex')).transactions[1]!;
const SMALL_TXS = decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex')).transactions.slice(0, 3);

let dir: string;
let serve: RunningRpcServer;
let app: FastifyInstance;
let appPort: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zecrpc-gathered-write-'));
  const config = (network: string[]) =>
    loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', '-rpcuser=alice', '-rpcpassword=secret', ...network]);
  serve = await startRpcServer({ config: config(['-testnet']), methods: [createDecodeRawTransaction()], renderThreads: 0 });
  app = Fastify({ bodyLimit: 64 * 1024 * 1024 });
  await app.register(zecrpcRpc, { config: config(['-testnet']), methods: [createDecodeRawTransaction()], renderThreads: 0 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  appPort = (app.server.address() as { port: number }).port;
});

afterAll(async () => {
  await serve.close();
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every write the server's sockets make: one entry per `_write` (1 chunk) or `_writev` (its chunks). */
let writes: { socket: Socket; chunks: number; bytes: number }[] = [];
const realWrite = Socket.prototype._write;
const realWritev = Socket.prototype._writev!;
beforeEach(() => {
  writes = [];
  const serverSide = (s: Socket) => s.localPort === serve.port;
  Socket.prototype._write = function (this: Socket, chunk: Buffer, encoding: BufferEncoding, cb: (e?: Error | null) => void) {
    if (serverSide(this)) writes.push({ socket: this, chunks: 1, bytes: Buffer.byteLength(chunk, encoding) });
    return realWrite.call(this, chunk, encoding, cb);
  };
  Socket.prototype._writev = function (
    this: Socket,
    chunks: { chunk: Buffer | string; encoding: BufferEncoding }[],
    cb: (e?: Error | null) => void,
  ) {
    if (serverSide(this))
      writes.push({ socket: this, chunks: chunks.length, bytes: chunks.reduce((n, c) => n + Buffer.byteLength(c.chunk, c.encoding), 0) });
    return realWritev.call(this, chunks, cb);
  };
});
afterEach(() => {
  Socket.prototype._write = realWrite;
  Socket.prototype._writev = realWritev;
});

/** Everything the server sends on one connection for `body` (the request asks it to close). */
function exchange(port: number, body: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(
        `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      ),
    );
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

const withoutDate = (reply: Buffer) => reply.toString('latin1').replace(/\r\nDate: [^\r]*/, '');
const decodeCall = (tx: { bytes: Uint8Array }, id: number) =>
  `{"id":${id},"method":"decoderawtransaction","params":["${toHex(tx.bytes)}"]}`;
/** The envelope around TxToJSON of `tx`, as zcashd sends it. */
const envelope = (tx: typeof JOINSPLIT_TX, id: number) =>
  `{"result":${txToJsonBytes(tx, TESTNET).toString('latin1')},"error":null,"id":${id}}`;

describe("serve's gathered writes", () => {
  it('send a reply of any size in one write of its head and every chunk, the bytes an application instance sends', async () => {
    const cases = [
      // A 574 kB reply: Fastify streams it in an application's instance.
      { body: decodeCall(JOINSPLIT_TX, 1), want: `${envelope(JOINSPLIT_TX, 1)}\n` },
      // A batch: a chunk per result and per text between them.
      {
        body: `[${SMALL_TXS.map((t, i) => decodeCall(t, i)).join(',')}]`,
        want: `[${SMALL_TXS.map((t, i) => envelope(t, i)).join(',')}]\n`,
      },
    ];
    // The replies of mainnet's transactions read as testnet's: their addresses render with testnet's prefixes.
    for (const c of cases) {
      for (let round = 0; round < 2; round++) {
        writes = [];
        const got = await exchange(serve.port, c.body);
        const text = withoutDate(got);
        expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe(c.want);
        expect(text).toBe(withoutDate(await exchange(appPort, c.body)));
        // Round 0 renders, round 1 answers from the cache: one write each time, all of it.
        expect(writes.map((w) => ({ chunks: w.chunks > 2, bytes: w.bytes }))).toEqual([{ chunks: true, bytes: got.length }]);
      }
    }
  });

  it("keep a reply's budget until the socket has taken the reply's last byte", async () => {
    // 32 replies of 574 kB: far more than the kernel's socket buffers hold for a client that does not read.
    const calls = Array.from({ length: 32 }, (_, i) => decodeCall(JOINSPLIT_TX, i));
    const want = `[${calls.map((_, i) => envelope(JOINSPLIT_TX, i)).join(',')}]\n`;
    const body = `[${calls.join(',')}]`;
    const client = connect(serve.port, '127.0.0.1');
    const received: Buffer[] = [];
    let total = 0;
    const firstData = new Promise<void>((resolve) =>
      client.once('data', (c: Buffer) => {
        client.pause();
        received.push(c);
        total += c.length;
        resolve();
      }),
    );
    client.write(
      `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await firstData;
    const server = writes.find((w) => w.bytes > want.length)!.socket;
    // The server has handed the whole reply to its socket at once, and the socket is still holding part of it.
    expect(writes.filter((w) => w.socket === server)).toHaveLength(1);
    expect(server.writableLength).toBeGreaterThan(0);
    expect(serve.stats().replyBytes).toBeGreaterThanOrEqual(want.length);
    const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
    const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
    client.on('data', (c: Buffer) => {
      received.push(c);
      total += c.length;
    });
    client.resume();
    await ended;
    const reply = Buffer.concat(received, total).toString('latin1');
    expect(reply.slice(reply.indexOf('\r\n\r\n') + 4) === want).toBe(true);
    await closed;
    client.destroy();
    // Given back with the response's close, which came once the socket had written the last byte.
    await new Promise((r) => setImmediate(r));
    expect(serve.stats().replyBytes).toBe(0);
  });
});
