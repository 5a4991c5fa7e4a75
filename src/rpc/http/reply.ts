/**
 * The replies zcashd's HTTP layer sends besides JSON-RPC results, and how any reply is handed
 * to Fastify: zcashd's own header (Content-Type for JSON, or WWW-Authenticate), and libevent's
 * default Content-Type on everything else, as zcashd's clients see it.
 */
import { Readable } from 'node:stream';
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

/** Sends `r` through Fastify (so an application's onSend/onResponse hooks see it). */
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
  reply.header('Content-Length', length);
  // Chunks as they are: a multi-megabyte block rendering is never copied into one buffer.
  return reply.send(Readable.from(r.body, { objectMode: false }));
}
