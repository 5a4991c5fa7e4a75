// The HTTP front end's robustness contract, shared by the CI fuzz test (http.fuzz.test.ts) and
// the long run (test/long/http-fuzz.ts). A real server (startRpcServer, on a TCP port) serves
// mainnet blocks 0..20 with -rest; each input is sent as raw bytes on a connection of its own:
//   * every reply is one well-formed HTTP/1.1 reply (status line, header lines, a Content-Length
//     that is the body's length) with one of the statuses zcashd's HTTP server answers;
//   * an authenticated JSON-RPC POST to `/` is answered 200, 400, 404 or 500, and a JSON reply
//     parses, as an object with result, error and id or an array of them;
//   * nothing input crashes the server, and `getblockcount` answers 20 afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { MAINNET } from '../../src/chain/network.js';
import { loadNodeConfig } from '../../src/config.js';
import { startRpcServer, type RunningRpcServer } from '../../src/rpc/http/server.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { MemoryChainStore, mainnetGenesisRun } from '../support/memory-store.js';
import { readFacts } from '../support/vectors.js';

export const USER = 'fuzz';
export const PASSWORD = 'fuzz-pw';
export const AUTH = 'Basic ' + Buffer.from(`${USER}:${PASSWORD}`).toString('base64');

/** What zcashd's HTTP server (libevent and httprpc.cpp/rest.cpp) answers with, and nothing else. */
export const ZCASHD_STATUSES = new Set([200, 400, 401, 403, 404, 405, 408, 413, 417, 431, 500, 501, 503]);
/** zcashd's statuses for an authenticated JSON-RPC POST (HTTP_OK, BAD_REQUEST, NOT_FOUND, INTERNAL_SERVER_ERROR). */
const JSON_RPC_STATUSES = new Set([200, 400, 404, 500]);

export interface FuzzServer {
  server: RunningRpcServer;
  stop(): Promise<void>;
}

/** A server on mainnet 0..20 with -rest, a long -rpcservertimeout (no input may end by a timeout) and no render threads. */
export async function startFuzzServer(): Promise<FuzzServer> {
  const dir = mkdtempSync(join(tmpdir(), 'zecrpc-http-fuzz-'));
  const server = await startRpcServer({
    config: loadNodeConfig([
      `-datadir=${dir}`,
      '-rpcport=0',
      `-rpcuser=${USER}`,
      `-rpcpassword=${PASSWORD}`,
      '-rest',
      '-rpcservertimeout=600',
    ]),
    methods: storeMethods(new MemoryChainStore(MAINNET, mainnetGenesisRun())),
    renderThreads: 0,
  });
  return {
    server,
    stop: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Sends `bytes` on a new connection, half-closes it, and resolves with everything read until the server closes. */
export function exchange(port: number, bytes: Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sock = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => sock.end(bytes));
    sock.on('data', (d: Buffer) => chunks.push(d));
    sock.on('error', reject);
    sock.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

export interface ParsedReply {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

const STATUS_LINE = /^HTTP\/1\.1 (\d{3}) [^\r\n]*$/;
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+): ?([^\r\n]*)$/;

/** The one reply in `raw`, checked for well-formedness; throws a plain Error describing what is wrong. */
export function parseReply(raw: Buffer, head: boolean): ParsedReply {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete reply head in ${JSON.stringify(raw.subarray(0, 200).toString('latin1'))}`);
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const m = STATUS_LINE.exec(statusLine!);
  if (!m) throw new Error(`malformed status line ${JSON.stringify(statusLine)}`);
  const status = Number(m[1]);
  if (!ZCASHD_STATUSES.has(status)) throw new Error(`status ${status} is not one zcashd answers`);
  const headers = new Map<string, string>();
  for (const line of lines) {
    const h = HEADER_LINE.exec(line);
    if (!h) throw new Error(`malformed header line ${JSON.stringify(line)}`);
    const name = h[1]!.toLowerCase();
    if (headers.has(name)) throw new Error(`header ${name} twice`);
    headers.set(name, h[2]!);
  }
  const rest = raw.subarray(end + 4);
  const length = headers.get('content-length');
  if (headers.has('transfer-encoding')) throw new Error('a chunked reply (zcashd always sends Content-Length)');
  if (length === undefined || !/^\d+$/.test(length)) throw new Error(`status ${status} without a Content-Length`);
  // A HEAD reply has no body, except libevent's pages for a request it refuses before any
  // handler (400: it could not be parsed, so nothing says it was a HEAD; 417: an unknown
  // Expect), after which the connection closes.
  const allowed = head ? (status === 400 || status === 417 ? [0, Number(length)] : [0]) : [Number(length)];
  if (!allowed.includes(rest.length)) throw new Error(`Content-Length ${length} but ${rest.length} body bytes (HEAD: ${head})`);
  return { status, headers, body: rest };
}

/** An HTTP/1.1 request, its head in latin1 (so a fuzzed head carries any byte) and its Content-Length exact. */
export function request(method: string, target: string, body: Uint8Array, headers: string[] = []): Buffer {
  const head = [`${method} ${target} HTTP/1.1`, 'Host: fuzz', 'Connection: close', `Content-Length: ${body.length}`, ...headers].join(
    '\r\n',
  );
  return Buffer.concat([Buffer.from(head + '\r\n\r\n', 'latin1'), body]);
}

/** Checks a reply to an authenticated JSON-RPC POST to `/`. */
export function checkJsonRpcReply(reply: ParsedReply): void {
  if (!JSON_RPC_STATUSES.has(reply.status)) throw new Error(`JSON-RPC answered with status ${reply.status}`);
  if (reply.headers.get('content-type') !== 'application/json') {
    // zcashd's only non-JSON answer to an authenticated POST: its work queue being full.
    if (reply.body.toString('latin1') !== 'Work queue depth exceeded') throw new Error(`non-JSON reply ${reply.body.toString('latin1')}`);
    return;
  }
  const parsed = JSON.parse(reply.body.toString('utf8')) as unknown;
  const envelopes = Array.isArray(parsed) ? parsed : [parsed];
  for (const e of envelopes) {
    if (e === null || typeof e !== 'object' || !('result' in e) || !('error' in e) || !('id' in e))
      throw new Error(`not a JSON-RPC reply: ${reply.body.toString('utf8').slice(0, 200)}`);
  }
}

// ---- inputs ----------------------------------------------------------------------------------

/** Methods that only read (no `stop`, no method that changes the node's state or clock). */
const READ_METHODS = [
  'getblockcount',
  'getbestblockhash',
  'getblockhash',
  'getblock',
  'getblockheader',
  'getblockchaininfo',
  'getchaintips',
  'getdifficulty',
  'getrawtransaction',
  'decoderawtransaction',
  'decodescript',
  'gettxout',
  'gettxoutproof',
  'verifytxoutproof',
  'z_gettreestate',
  'getblocksubsidy',
  'getblockdeltas',
  'getblockhashes',
  'getinfo',
  'getmempoolinfo',
  'getrawmempool',
  'validateaddress',
  'z_validateaddress',
  'verifymessage',
  'createrawtransaction',
  'createmultisig',
  'help',
  'ping',
];

const facts = readFacts().blocks.filter((b) => b.network === 'mainnet' && b.height <= 10);
const realHash = fc.constantFrom(...facts.map((b) => b.hash));
const realTxid = fc.constantFrom(...facts.flatMap((b) => b.txids));

/** Numbers as text, since JSON.stringify cannot write what a fuzzer should send. */
const hugeNumber = fc.constantFrom(
  '1e400',
  '-1e400',
  '1e-400',
  '-0',
  '123456789012345678901234567890',
  '9007199254740993',
  '2147483648',
  '-2147483649',
  '4294967296',
  '0.00000001',
  '21000000.00000001',
  '1E+2',
  '0x10',
  'NaN',
  'Infinity',
);

/** A JSON value as text: random JSON, real hashes and txids, huge numbers, strings with any code unit. */
const paramText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  { weight: 2, arbitrary: hugeNumber },
  { weight: 2, arbitrary: realHash.map((h) => JSON.stringify(h)) },
  { weight: 1, arbitrary: realTxid.map((h) => JSON.stringify(h)) },
  { weight: 1, arbitrary: fc.integer({ min: -5, max: 30 }).map(String) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40, size: 'max' }).map((s) => JSON.stringify(s)) },
);

const methodText = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...READ_METHODS).map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20, size: 'max' }).map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.constantFrom('null', '1', '[]', '{}', 'true', '"getblock\\u0000"', '""') },
);

const idText = fc.oneof(fc.constantFrom('null', '1', '"x"', '[]', '{"a":1}', '1e400', '-0'), paramText);

/** One JSON-RPC call object as text, its members possibly missing, repeated or odd. */
const callText: fc.Arbitrary<string> = fc
  .tuple(
    methodText,
    fc.option(
      fc.oneof(
        fc.array(paramText, { maxLength: 4 }).map((p) => `[${p.join(',')}]`),
        paramText,
      ),
      { nil: undefined },
    ),
    fc.option(idText, { nil: undefined }),
    fc.option(fc.constantFrom('"1.0"', '"2.0"', '1', 'null'), { nil: undefined }),
  )
  .map(([method, params, id, version]) => {
    const members = [`"method":${method}`];
    if (params !== undefined) members.push(`"params":${params}`);
    if (id !== undefined) members.push(`"id":${id}`);
    if (version !== undefined) members.push(`"jsonrpc":${version}`);
    return `{${members.join(',')}}`;
  });

/** A JSON-RPC body: calls, batches, malformed and truncated JSON, deep nesting, bad UTF-8. */
export const jsonRpcBody: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 6, arbitrary: callText.map((t) => Buffer.from(t, 'utf8')) },
  { weight: 2, arbitrary: fc.array(callText, { maxLength: 5 }).map((c) => Buffer.from(`[${c.join(',')}]`, 'utf8')) },
  {
    weight: 2,
    arbitrary: fc.tuple(callText, fc.nat()).map(([t, cut]) => Buffer.from(t.slice(0, cut % (t.length + 1)), 'utf8')),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 200_000 }), fc.constantFrom('[', '{"a":'))
      .map(([depth, open]) => Buffer.from(`{"method":"getblockcount","params":${open.repeat(depth)}`, 'utf8')),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(callText, fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 })).map(([t, at, bad]) => {
      const b = Buffer.from(t, 'utf8');
      const i = at % (b.length + 1);
      // Bytes that are never valid UTF-8 where they land (continuation bytes alone, 0xc0/0xf8…).
      const invalid = Buffer.from(bad.map((x) => 0x80 | (x & 0x3f) | (x & 1 ? 0x40 : 0)).map((x) => (x === 0xc2 ? 0xc0 : x)));
      return Buffer.concat([b.subarray(0, i), invalid, b.subarray(i)]);
    }),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300, size: 'max' }) },
);

/** A REST path: zcashd's routes with good and bad hashes, counts and formats, or junk. */
export const restPath: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(
        fc.constantFrom('tx/', 'block/', 'block/notxdetails/', 'headers/', 'chaininfo', 'mempool/info', 'mempool/contents', 'getutxos/'),
        fc.oneof(
          realHash,
          realTxid,
          fc.constantFrom('', '0', '00'.repeat(32), 'zz'.repeat(32), 'checkmempool/', '1/'),
          fc.integer({ min: -2, max: 3000 }).map((n) => `${n}/`),
          fc.string({ maxLength: 70, size: 'max' }),
        ),
        fc.oneof(realHash, fc.constantFrom('', '/', `/${'00'.repeat(32)}-0`)),
        fc.constantFrom('.json', '.bin', '.hex', '', '.xml', '.json.json', '.JSON', '?a=1', '.json?x', '%2ejson'),
      )
      .map(([route, a, b, format]) => `/rest/${route}${route === 'headers/' ? a + b : a}${format}`),
  },
  { weight: 1, arbitrary: fc.webPath().map((p) => `/rest${p}`) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 60, size: 'max' }).map((s) => `/rest/${s.replace(/[\s]/g, '')}`) },
);

/** Methods, targets and headers on the wire, among them ones no client library would send. */
export const rawRequest: fc.Arbitrary<{ bytes: Buffer; head: boolean }> = fc
  .tuple(
    fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'BREW', 'get', 'P0ST'),
    fc.oneof(fc.constantFrom('/', '/rest/chaininfo.json', '/wallet/x', '*', '//', '/?a', '/%00', 'http://x/'), fc.webPath()),
    fc.array(
      fc.oneof(
        fc.constantFrom(
          `Authorization: ${AUTH}`,
          'Authorization: Basic !!!',
          'Authorization: Bearer x',
          `Authorization: Basic ${Buffer.from('fuzz:wrong').toString('base64')}`,
          'Content-Type: text/plain',
          'Expect: something',
          'X-Odd: \x01\x7f',
          'Transfer-Encoding: gzip',
        ),
        fc.string({ unit: 'binary-ascii', maxLength: 30, size: 'max' }).map((s) => `X-F: ${s.replace(/[\r\n]/g, '')}`),
      ),
      { maxLength: 3 },
    ),
    fc.uint8Array({ maxLength: 64, size: 'max' }),
  )
  .map(([method, target, headers, body]) => ({ bytes: request(method, target, body, headers), head: method === 'HEAD' }));

/** A request with a Content-Length zcashd refuses (more than its limit) or that disagrees with a Transfer-Encoding. */
export const framingRequest: fc.Arbitrary<Buffer> = fc.constantFrom(
  Buffer.from(`POST / HTTP/1.1\r\nHost: f\r\nConnection: close\r\nAuthorization: ${AUTH}\r\nContent-Length: 99999999999\r\n\r\n`, 'latin1'),
  Buffer.from(`POST / HTTP/1.1\r\nHost: f\r\nConnection: close\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab`, 'latin1'),
  Buffer.from(`POST / HTTP/1.1\r\nHost: f\r\nConnection: close\r\nContent-Length: -1\r\n\r\n`, 'latin1'),
  Buffer.from(
    `POST / HTTP/1.1\r\nHost: f\r\nConnection: close\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n`,
    'latin1',
  ),
  Buffer.from(`POST / HTTP/1.1\r\nHost: f\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n`, 'latin1'),
  Buffer.from(`GET / HTTP/9.9\r\nHost: f\r\n\r\n`, 'latin1'),
  Buffer.from(`GET /\x00 HTTP/1.1\r\nHost: f\r\n\r\n`, 'latin1'),
  // Empty lines before a request line are skipped (RFC 9112 §2.2).
  Buffer.from(`\r\n\r\nGET / HTTP/1.1\r\nHost: f\r\nConnection: close\r\n\r\n`, 'latin1'),
  Buffer.from(`GET / HTTP/1.1\r\nHost: f\r\nX: ${'a'.repeat(9000)}\r\n\r\n`, 'latin1'),
);

/** `getblockcount` through JSON-RPC: the server's answer, checked against the 21 blocks it serves. */
export async function checkAlive(port: number): Promise<void> {
  const raw = await exchange(
    port,
    request('POST', '/', Buffer.from('{"id":1,"method":"getblockcount","params":[]}'), [`Authorization: ${AUTH}`]),
  );
  const reply = parseReply(raw, false);
  const text = reply.body.toString('utf8');
  if (reply.status !== 200 || text !== '{"result":20,"error":null,"id":1}\n')
    throw new Error(`getblockcount answered ${reply.status} ${text}`);
}
