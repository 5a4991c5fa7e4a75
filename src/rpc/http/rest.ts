/**
 * zcashd's REST interface (src/rest.cpp, `-rest`, off by default): unauthenticated GETs of
 * blocks, transactions, headers, chain and mempool state, as `.bin` (the serialisation), `.hex`
 * (its hex and a newline) or `.json` (the RPC result zcashd builds, and a newline). Each answer
 * is computed by the JSON-RPC methods themselves, through the same work queue and memory
 * budgets as JSON-RPC, and cut out of their reply. `/rest/getutxos` is not served (404).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { quoteJsonString } from '../../json/writer.js';
import { sendReply } from './reply.js';
import type { RpcCore } from './rpc-core.js';

type Format = 'bin' | 'hex' | 'json' | null;

/** zcashd's ParseDataFormat: the text after the first dot up to the next, if it names a format. */
function parseFormat(part: string): { path: string; format: Format } {
  const pieces = part.split('.');
  const f = pieces[1];
  return { path: pieces[0]!, format: f === 'bin' || f === 'hex' || f === 'json' ? f : null };
}

/** zcashd's ParseHashStr: 64 hex digits. */
const isHash = (s: string): boolean => /^[0-9a-fA-F]{64}$/.test(s);

const ALL_FORMATS = 'output format not found (available: .bin, .hex, .json)';

/** A method's outcome: its result's JSON text, or its error. */
type Called = { ok: true; result: Buffer } | { ok: false; status: number; message: string; passThrough?: Parameters<typeof sendReply>[1] };

const RESULT_PREFIX = '{"result":';
const RESULT_SUFFIX = ',"error":null,"id":null}\n';

async function call(core: RpcCore, method: string, params: string): Promise<Called> {
  const outcome = await core.execute(Buffer.from(`{"method":"${method}","params":${params},"id":null}`));
  try {
    const r = outcome.reply;
    if (r.own !== 'json') return { ok: false, status: r.status, message: '', passThrough: r };
    const bytes = typeof r.body === 'string' ? Buffer.from(r.body, 'utf8') : Buffer.concat(r.body);
    if (r.status === 200) return { ok: true, result: bytes.subarray(RESULT_PREFIX.length, bytes.length - RESULT_SUFFIX.length) };
    const error = (JSON.parse(bytes.toString('utf8')) as { error: { code: number; message: string } }).error;
    return { ok: false, status: error.code === -7 ? 500 : 404, message: error.message };
  } finally {
    outcome.done();
  }
}

function text(reply: FastifyReply, status: number, type: string, body: Buffer | string): FastifyReply {
  reply.code(status).header('Content-Type', type);
  return reply.send(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
}

/** zcashd's RESTERR: the message and CRLF as text/plain. */
const restError = (reply: FastifyReply, status: number, message: string) => text(reply, status, 'text/plain', `${message}\r\n`);

/** The hex string a method returned (a JSON string), as bytes in the requested form. */
function serialised(reply: FastifyReply, format: 'bin' | 'hex', jsonString: Buffer): FastifyReply {
  const hex = jsonString.toString('latin1').slice(1, -1);
  return format === 'bin'
    ? text(reply, 200, 'application/octet-stream', Buffer.from(hex, 'hex'))
    : text(reply, 200, 'text/plain', `${hex}\n`);
}

const json = (reply: FastifyReply, result: Buffer) => text(reply, 200, 'application/json', Buffer.concat([result, Buffer.from('\n')]));

function failed(reply: FastifyReply, c: Extract<Called, { ok: false }>, notFound: string): FastifyReply {
  if (c.passThrough) return sendReply(reply, c.passThrough);
  return restError(reply, c.status, c.status === 404 ? notFound : c.message);
}

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
const HANDLERS: [string, (core: RpcCore, reply: FastifyReply, part: string) => Promise<FastifyReply>][] = [
  ['/rest/tx/', transaction],
  ['/rest/block/notxdetails/', (core, reply, part) => block(core, reply, part, false)],
  ['/rest/block/', (core, reply, part) => block(core, reply, part, true)],
  ['/rest/chaininfo', (core, reply, part) => jsonOnly(core, reply, part, 'getblockchaininfo', '[]')],
  ['/rest/mempool/info', (core, reply, part) => jsonOnly(core, reply, part, 'getmempoolinfo', '[]')],
  ['/rest/mempool/contents', (core, reply, part) => jsonOnly(core, reply, part, 'getrawmempool', '[true]')],
  ['/rest/headers/', headers],
];

/** Mounts `/rest/…` on `app` (unauthenticated, as in zcashd; the allow-list applies). */
export function mountRestRoutes(app: FastifyInstance, core: RpcCore): void {
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT'],
    url: '/rest/*',
    handler: async (request, reply) => {
      if (!core.isAllowed(request.socket.remoteAddress)) return sendReply(reply, { status: 403, body: '', own: 'none' });
      // zcashd matches the whole target, query included.
      const uri = request.raw.url ?? '';
      for (const [prefix, handle] of HANDLERS) {
        if (uri.startsWith(prefix)) return handle(core, reply, uri.slice(prefix.length));
      }
      return sendReply(reply, { status: 404, body: '', own: 'none' });
    },
  });
}
