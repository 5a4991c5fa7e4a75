/**
 * zcashd's REST interface (src/rest.cpp, `-rest`, off by default): unauthenticated GETs of
 * blocks, transactions, headers, chain and mempool state, as `.bin` (the serialisation), `.hex`
 * (its hex and a newline) or `.json` (the RPC result zcashd builds, and a newline). Each answer
 * is computed by the JSON-RPC methods themselves, through the same work queue and memory
 * budgets as JSON-RPC, and cut out of their reply (`/rest/getutxos`: rest-getutxos.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { quoteJsonString } from '../../json/writer.js';
import { declareBodyReservations, releaseReservedBody } from './body-reservations.js';
import { sendReply } from './reply.js';
import { ALL_FORMATS, call, failed, isHash, json, parseFormat, restError, serialised, text } from './rest-common.js';
import { getUtxos } from './rest-getutxos.js';
import type { RpcCore } from './rpc-core.js';

async function block(core: RpcCore, reply: FastifyReply, part: string, details: boolean): Promise<FastifyReply> {
  const { path: hash, format } = parseFormat(part);
  if (!isHash(hash)) return restError(reply, 400, `Invalid hash: ${hash}`);
  const verbosity = format === 'json' ? (details ? 2 : 1) : 0;
  const c = await call(core, 'getblock', `[${quoteJsonString(hash)},${verbosity}]`);
  if (!c.ok) return failed(reply, c, `${hash} not found`);
  if (format === null) return restError(reply, 404, ALL_FORMATS);
  return format === 'json' ? json(reply, c.result) : serialised(reply, format, c.result);
}

async function transaction(core: RpcCore, reply: FastifyReply, part: string): Promise<FastifyReply> {
  const { path: txid, format } = parseFormat(part);
  if (!isHash(txid)) return restError(reply, 400, `Invalid hash: ${txid}`);
  const c = await call(core, 'getrawtransaction', `[${quoteJsonString(txid)},${format === 'json' ? 1 : 0}]`);
  if (!c.ok) return failed(reply, c, `${txid} not found`);
  if (format === null) return restError(reply, 404, ALL_FORMATS);
  return format === 'json' ? json(reply, c.result) : serialised(reply, format, c.result);
}

/** strtol(s, NULL, 10): leading white space, a sign, digits; 0 when there are none. */
function strtol(s: string): number {
  const m = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(s);
  return m ? Number(m[1]) : 0;
}

async function headers(core: RpcCore, reply: FastifyReply, part: string): Promise<FastifyReply> {
  const { path, format } = parseFormat(part);
  const pieces = path.split('/');
  if (pieces.length !== 2) return restError(reply, 400, 'No header count specified. Use /rest/headers/<count>/<hash>.<ext>.');
  const count = strtol(pieces[0]!);
  if (count < 1 || count > 2000) return restError(reply, 400, `Header count out of range: ${pieces[0]!}`);
  const hash = pieces[1]!;
  if (!isHash(hash)) return restError(reply, 400, `Invalid hash: ${hash}`);
  // The headers from `hash` on along the best chain; none when it is not on it.
  const found: Buffer[] = [];
  let next: string | undefined = hash;
  while (next !== undefined && found.length < count) {
    const c = await call(core, 'getblockheader', `[${quoteJsonString(next)},true]`);
    if (!c.ok) {
      if (c.passThrough) return sendReply(reply, c.passThrough);
      break;
    }
    const header = JSON.parse(c.result.toString('utf8')) as { confirmations: number; nextblockhash?: string };
    if (header.confirmations === -1) break;
    if (format === 'json') found.push(c.result);
    else {
      const raw = await call(core, 'getblockheader', `[${quoteJsonString(next)},false]`);
      if (!raw.ok) return failed(reply, raw, `${next} not found`);
      found.push(Buffer.from(raw.result.toString('latin1').slice(1, -1), 'hex'));
    }
    next = header.nextblockhash;
  }
  if (format === 'json') return json(reply, Buffer.from(`[${found.map((b) => b.toString('utf8')).join(',')}]`, 'utf8'));
  if (format === 'bin') return text(reply, 200, 'application/octet-stream', Buffer.concat(found));
  if (format === 'hex') return text(reply, 200, 'text/plain', `${Buffer.concat(found).toString('hex')}\n`);
  return restError(reply, 404, 'output format not found (available: .bin, .hex)');
}

async function jsonOnly(core: RpcCore, reply: FastifyReply, part: string, method: string, params: string): Promise<FastifyReply> {
  if (parseFormat(part).format !== 'json') return restError(reply, 404, 'output format not found (available: json)');
  const c = await call(core, method, params);
  if (!c.ok) return failed(reply, c, c.message);
  return json(reply, c.result);
}

/** zcashd's handlers by URI prefix, the first that matches wins (its registration order). */
const HANDLERS: [string, (core: RpcCore, reply: FastifyReply, part: string, body: Buffer) => Promise<FastifyReply>][] = [
  ['/rest/tx/', transaction],
  ['/rest/block/notxdetails/', (core, reply, part) => block(core, reply, part, false)],
  ['/rest/block/', (core, reply, part) => block(core, reply, part, true)],
  ['/rest/chaininfo', (core, reply, part) => jsonOnly(core, reply, part, 'getblockchaininfo', '[]')],
  ['/rest/mempool/info', (core, reply, part) => jsonOnly(core, reply, part, 'getmempoolinfo', '[]')],
  ['/rest/mempool/contents', (core, reply, part) => jsonOnly(core, reply, part, 'getrawmempool', '[true]')],
  ['/rest/headers/', headers],
  ['/rest/getutxos', getUtxos],
];

const EMPTY = Buffer.alloc(0);

/**
 * Mounts `/rest/…` on `app` (unauthenticated, as in zcashd; the allow-list applies before any
 * body byte is read). A body (getutxos reads one) is read under the body budget by the JSON-RPC
 * route's parser, which `app` shares, and released once the request is answered.
 */
export function mountRestRoutes(app: FastifyInstance, core: RpcCore): void {
  declareBodyReservations(app);
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT'],
    url: '/rest/*',
    onRequest: async (request, reply) => {
      if (!core.isAllowed(request.socket.remoteAddress)) return sendReply(reply, { status: 403, body: '', own: 'none' });
      // zcashd reads the body as bytes, whatever the client declared.
      delete request.raw.headers['content-type'];
      return undefined;
    },
    onResponse: (request, _reply, next) => {
      releaseReservedBody(request, core.bodies);
      next();
    },
    onRequestAbort: async (request) => releaseReservedBody(request, core.bodies),
    handler: async (request, reply) => {
      // zcashd matches the whole target, query included.
      const uri = request.raw.url ?? '';
      const body = Buffer.isBuffer(request.body) ? request.body : EMPTY;
      for (const [prefix, handle] of HANDLERS) {
        if (uri.startsWith(prefix)) return handle(core, reply, uri.slice(prefix.length), body);
      }
      return sendReply(reply, { status: 404, body: '', own: 'none' });
    },
  });
}
