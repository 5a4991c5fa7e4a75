/**
 * What zcashd's REST handlers share (src/rest.cpp): the format after the path's first dot, its
 * RESTERR replies, and the JSON-RPC call each answer is computed by, through the same work queue
 * and memory budgets as JSON-RPC.
 */
import type { FastifyReply } from 'fastify';
import { sendReply } from './reply.js';
import type { RpcCore } from './rpc-core.js';

export type Format = 'bin' | 'hex' | 'json' | null;

/** zcashd's ParseDataFormat: the text after the first dot up to the next, if it names a format. */
export function parseFormat(part: string): { path: string; format: Format } {
  const pieces = part.split('.');
  const f = pieces[1];
  return { path: pieces[0]!, format: f === 'bin' || f === 'hex' || f === 'json' ? f : null };
}

/** zcashd's ParseHashStr: 64 hex digits. */
export const isHash = (s: string): boolean => /^[0-9a-fA-F]{64}$/.test(s);

export const ALL_FORMATS = 'output format not found (available: .bin, .hex, .json)';

/** A method's outcome: its result's JSON text, or its error. */
export type Called =
  { ok: true; result: Buffer } | { ok: false; status: number; message: string; passThrough?: Parameters<typeof sendReply>[1] };

export const RESULT_PREFIX = '{"result":';
export const RESULT_SUFFIX = ',"error":null,"id":null}\n';

export async function call(core: RpcCore, method: string, params: string): Promise<Called> {
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

export function text(reply: FastifyReply, status: number, type: string, body: Buffer | string): FastifyReply {
  reply.code(status).header('Content-Type', type);
  return reply.send(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
}

/** zcashd's RESTERR: the message and CRLF as text/plain. */
export const restError = (reply: FastifyReply, status: number, message: string) => text(reply, status, 'text/plain', `${message}\r\n`);

/** The hex string a method returned (a JSON string), as bytes in the requested form. */
export function serialised(reply: FastifyReply, format: 'bin' | 'hex', jsonString: Buffer): FastifyReply {
  const hex = jsonString.toString('latin1').slice(1, -1);
  return format === 'bin'
    ? text(reply, 200, 'application/octet-stream', Buffer.from(hex, 'hex'))
    : text(reply, 200, 'text/plain', `${hex}\n`);
}

export const json = (reply: FastifyReply, result: Buffer) =>
  text(reply, 200, 'application/json', Buffer.concat([result, Buffer.from('\n')]));

export function failed(reply: FastifyReply, c: Extract<Called, { ok: false }>, notFound: string): FastifyReply {
  if (c.passThrough) return sendReply(reply, c.passThrough);
  return restError(reply, c.status, c.status === 404 ? notFound : c.message);
}
