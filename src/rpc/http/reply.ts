/**
 * The replies zcashd's HTTP layer sends besides JSON-RPC results, and how any reply is handed
 * to Fastify: zcashd's own header (Content-Type for JSON, or WWW-Authenticate), and libevent's
 * default Content-Type on everything else, as zcashd's clients see it.
 */
import { Readable } from 'node:stream';
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

export type OwnHeader = 'json' | 'www-authenticate' | 'none';

export interface SimpleReply {
  status: number;
  /** Text, or byte chunks written one after another (a large reply is never joined into one buffer). */
  body: string | Buffer[];
  own: OwnHeader;
}

/** The Content-Type libevent adds to a reply that set none. */
export const LIBEVENT_DEFAULT_TYPE = 'text/html; charset=ISO-8859-1';

/** zcashd's penalty for wrong credentials (not for missing ones). */
export const WRONG_CREDENTIALS_DELAY_MS = 250;

/** zcashd's answer when its work queue is full (httpserver.cpp). */
export const WORK_QUEUE_FULL: SimpleReply = { status: 500, body: 'Work queue depth exceeded', own: 'none' };

export const UNAUTHORIZED: SimpleReply = { status: 401, body: '', own: 'www-authenticate' };

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Request Entity Too Large',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/**
 * libevent's HTML error page for the statuses it answers itself. Clients that show a failed
 * request's body (zcash-cli prints it) keep seeing the same text.
 */
export function errorPage(status: number): SimpleReply {
  return { status, body: errorPageBody(status), own: 'none' };
}

function errorPageBody(status: number): string {
  const reason = REASONS[status] ?? 'Error';
  return `<HTML><HEAD>\n<TITLE>${status} ${reason}</TITLE>\n</HEAD><BODY>\n<H1>${reason}</H1>\n</BODY></HTML>\n`;
}

/**
 * The whole reply to a request Fastify never sees (llhttp could not parse it, or it is a
 * CONNECT): libevent's page, after which the connection closes.
 */
export function rawErrorReply(status: 400 | 408 | 417 | 431 | 501): Buffer {
  const body = errorPageBody(status);
  return Buffer.from(
    `HTTP/1.1 ${status} ${REASONS[status]!}\r\nContent-Type: text/html\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    'latin1',
  );
}

/** Replies of chunks sent through Fastify (sendReply) up to this size go as one buffer, larger ones as a stream of their chunks. */
export const JOINED_REPLY_MAX_BYTES = 256 * 1024;

/**
 * Sends `r` through Fastify (so an application's onSend/onResponse hooks see it); small replies
 * of several chunks are joined into a buffer of their own, which a hook may keep.
 */
export function sendReply(reply: FastifyReply, r: SimpleReply): FastifyReply {
  reply.code(r.status);
  // Node's reason phrase for 413 is "Payload Too Large"; zcashd's clients read libevent's.
  if (r.status === 413) reply.raw.statusMessage = 'Request Entity Too Large';
  if (r.own === 'json') reply.header('Content-Type', 'application/json');
  else {
    if (r.own === 'www-authenticate') reply.header('WWW-Authenticate', 'Basic realm="jsonrpc"');
    reply.header('Content-Type', LIBEVENT_DEFAULT_TYPE);
  }
  // Bytes, not text: Fastify would append a charset to zcashd's `application/json`.
  if (typeof r.body === 'string') return reply.send(Buffer.from(r.body, 'utf8'));
  if (r.body.length === 1) return reply.send(r.body[0]);
  let length = 0;
  for (const c of r.body) length += c.length;
  // A small reply in a few chunks (a result's bytes between the envelope's texts) is joined: a
  // stream per reply costs more than the copy. The copy takes the chunks' place (they are
  // garbage once joined), so the memory the reply's budget holds still covers it.
  if (length <= JOINED_REPLY_MAX_BYTES) return reply.send(Buffer.concat(r.body, length));
  reply.header('Content-Length', length);
  // Chunks as they are: a multi-megabyte block rendering is never copied into one buffer.
  return reply.send(Readable.from(r.body, { objectMode: false }));
}

/**
 * The headers Fastify's `send` writes for each own header, in its order and spelling (names in
 * lower case, Content-Length last), as name, value pairs; the last value is the reply's length,
 * set as each reply's head is written (`writeHead` reads the list at once and keeps none of it).
 */
const HEADERS: Record<OwnHeader, (string | number)[]> = {
  json: ['content-type', 'application/json', 'content-length', 0],
  'www-authenticate': ['www-authenticate', 'Basic realm="jsonrpc"', 'content-type', LIBEVENT_DEFAULT_TYPE, 'content-length', 0],
  none: ['content-type', LIBEVENT_DEFAULT_TYPE, 'content-length', 0],
};

/** `r`'s header list with a body of `length` bytes. */
function headersFor(r: SimpleReply, length: number): (string | number)[] {
  const headers = HEADERS[r.own];
  headers[headers.length - 1] = length;
  return headers;
}

/**
 * A first chunk up to this size is written as text: Node joins text written first to the
 * response's head, so the envelope's `{"result":` leaves in the head's chunk, not one of its own.
 */
const JOINED_FIRST_CHUNK_BYTES = 64;

/**
 * Writes `r` on the response itself, byte for byte what `sendReply` sends, for a Fastify instance
 * no application's hook can reach (`zecrpc serve`'s): Fastify's `send` machinery (its
 * Content-Type parsing, its onSend stage, a stream per large reply) is more than a reply's own
 * cost. The reply is hijacked; its onResponse hooks still run when it is written. Returns the
 * body's length in bytes (what the Content-Length says), which Fastify's reply no longer knows.
 *
 * A reply of several chunks (the envelope's texts around a result's bytes, a getblock render's
 * slabs) is never joined: the response is corked while they are written, so the head and every
 * chunk leave in one gathered write (`writev`) when `end` uncorks it, whatever their size. The
 * socket keeps referring to the chunks until the kernel has taken them, and the response's
 * 'close', which gives back the reply's budget and lent memory (plugin.ts), comes only after
 * that: a client that reads slowly holds its reply's reservation, never more.
 */
export function writeReply(reply: FastifyReply, r: SimpleReply): number {
  const body = r.body;
  let length: number;
  if (typeof body === 'string') length = Buffer.byteLength(body, 'utf8');
  else {
    length = 0;
    for (const c of body) length += c.length;
  }
  reply.hijack();
  const res = reply.raw;
  if (r.status === 413) res.statusMessage = 'Request Entity Too Large';
  res.writeHead(r.status, headersFor(r, length));
  // Text as it is: Node writes it after the head in one write.
  if (typeof body === 'string') res.end(body);
  else writeGathered(res, body);
  return length;
}

/** `chunks` after the response's head, as one gathered write on its socket. */
function writeGathered(res: ServerResponse, chunks: readonly Buffer[]): void {
  const last = chunks.length - 1;
  if (last < 0) {
    res.end();
    return;
  }
  res.cork();
  let i = 0;
  // Latin-1 text carries any bytes unchanged.
  if (last > 0 && chunks[0]!.length <= JOINED_FIRST_CHUNK_BYTES) res.write(chunks[i++]!.toString('latin1'), 'latin1');
  for (; i < last; i++) res.write(chunks[i]!);
  res.end(chunks[last]!);
}
