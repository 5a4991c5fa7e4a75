/**
 * zcashd's JSON-RPC envelope (src/httprpc.cpp, src/rpc/server.cpp, src/rpc/protocol.cpp): body
 * parsing, request objects, single vs batch, parameter-count check, error mapping, reply text
 * and HTTP status. Transport-independent: takes the raw body bytes, returns status + body.
 */
import { JsonParseError, parseJson } from '../json/reader.js';
import { JsonWriter, quoteJsonString } from '../json/writer.js';
import { JsonObject, type JsonValue } from '../json/value.js';
import { RPC, RpcError, type RawJson, type RpcContext } from './method.js';
import type { MethodRegistry } from './registry.js';

export interface RpcReply {
  status: number;
  /**
   * Compact JSON followed by one newline: text, or byte chunks written one after another when a
   * method returned bytes (a multi-megabyte block is then never copied into one reply buffer).
   */
  body: string | Buffer[];
}

function idText(id: JsonValue): string {
  return new JsonWriter().value(id).toString();
}

function errorReply(code: number, message: string, id: JsonValue): string {
  return `{"result":null,"error":{"code":${code},"message":${quoteJsonString(message)}},"id":${idText(id)}}`;
}

type ReplyText = string | Buffer[];

function successReply(result: RawJson, id: JsonValue, ascii: boolean): ReplyText {
  if (typeof result === 'string') {
    if (!ascii) return `{"result":${result},"error":null,"id":${idText(id)}}`;
    // An ASCII result goes out as its latin1 bytes (= its UTF-8), encoded once, rather than
    // being flattened into the envelope text and then run through the UTF-8 encoder.
    result = Buffer.from(result, 'latin1');
  }
  return [RESULT_PREFIX, result, Buffer.from(`,"error":null,"id":${idText(id)}}`, 'utf8')];
}

const RESULT_PREFIX = Buffer.from('{"result":', 'latin1');

/** Joins reply pieces, staying with one string unless a piece is already bytes. */
function joinReply(parts: readonly ReplyText[]): ReplyText {
  if (parts.every((p) => typeof p === 'string')) return parts.join('');
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if (typeof p === 'string') chunks.push(Buffer.from(p, 'utf8'));
    else chunks.push(...p);
  }
  return chunks;
}

/** zcashd's HTTP status for a single request's error code (batches are always 200). */
export function httpStatusFor(code: number | null): number {
  if (code === null) return 200;
  if (code === RPC.INVALID_REQUEST) return 400;
  if (code === RPC.METHOD_NOT_FOUND) return 404;
  return 500;
}

function paramCountMessage(name: string, required: number, optional: number, received: number, help: string): string {
  const needed = optional === 0 ? `exactly ${required}` : `at least ${required} and at most ${required + optional}`;
  const which = received < required ? 'Not enough' : 'Too many';
  return `${which} parameters for method \`${name}\`. Needed ${needed}, but received ${received}\n\n${help}`;
}

interface ExecResult {
  text: ReplyText;
  code: number | null;
}

/** Executes one request value (an element of a batch, or the whole body). */
async function executeOne(req: JsonValue, registry: MethodRegistry, ctx: RpcContext): Promise<ExecResult> {
  if (!(req instanceof JsonObject)) {
    return { text: errorReply(RPC.INVALID_REQUEST, 'Invalid Request object', null), code: RPC.INVALID_REQUEST };
  }
  const id = req.get('id') ?? null;
  const fail = (code: number, message: string): ExecResult => ({ text: errorReply(code, message, id), code });
  const method = req.get('method');
  if (method === undefined || method === null) return fail(RPC.INVALID_REQUEST, 'Missing method');
  if (typeof method !== 'string') return fail(RPC.INVALID_REQUEST, 'Method must be a string');
  const rawParams = req.get('params');
  let params: readonly JsonValue[];
  if (Array.isArray(rawParams)) params = rawParams;
  else if (rawParams === undefined || rawParams === null) params = [];
  else return fail(RPC.INVALID_REQUEST, 'Params must be an array');

  const m = registry.get(method);
  if (!m) return fail(RPC.METHOD_NOT_FOUND, 'Method not found');
  if (params.length < m.required || params.length > m.required + m.optional) {
    return fail(RPC.INVALID_PARAMS, paramCountMessage(m.name, m.required, m.optional, params.length, m.help));
  }
  try {
    return { text: successReply(await m.call(params, ctx), id, m.asciiResults === true), code: null };
  } catch (e) {
    if (e instanceof RpcError) return fail(e.code, e.message);
    // zcashd turns any other exception into RPC_MISC_ERROR with its what() text.
    return fail(RPC.MISC_ERROR, e instanceof Error ? e.message : String(e));
  }
}

/** Handles one HTTP body as zcashd's HTTPReq_JSONRPC does after authentication. */
export async function handleJsonRpcBody(body: Uint8Array, registry: MethodRegistry, ctx: RpcContext): Promise<RpcReply> {
  let value: JsonValue;
  try {
    value = parseJson(body);
  } catch (e) {
    if (!(e instanceof JsonParseError)) throw e;
    return { status: 500, body: errorReply(RPC.PARSE_ERROR, 'Parse error', null) + '\n' };
  }
  if (value instanceof JsonObject) {
    const r = await executeOne(value, registry, ctx);
    return { status: httpStatusFor(r.code), body: joinReply([r.text, '\n']) };
  }
  if (Array.isArray(value)) {
    // Items run one after another, like zcashd's JSONRPCExecBatch; the HTTP status is always 200.
    const parts: ReplyText[] = ['['];
    for (const item of value) {
      if (parts.length > 1) parts.push(',');
      parts.push((await executeOne(item, registry, ctx)).text);
    }
    parts.push(']\n');
    return { status: 200, body: joinReply(parts) };
  }
  return { status: 500, body: errorReply(RPC.PARSE_ERROR, 'Top-level object parse error', null) + '\n' };
}
