/**
 * zcashd's JSON-RPC envelope (src/httprpc.cpp, src/rpc/server.cpp, src/rpc/protocol.cpp): body
 * parsing, request objects, single vs batch, parameter-count check, error mapping, reply text
 * and HTTP status. Transport-independent: takes the raw body bytes, returns status + body.
 *
 * Memory: every piece of a reply is counted against the request's budget as it is produced and
 * the pieces are kept as separate chunks (never joined into one string or buffer); a reply that
 * would outgrow its budget is dropped at once and answered with RPC_OUT_OF_MEMORY instead.
 */
import { LazyStringScope } from '../json/lazy-strings.js';
import type { KnownRuns } from '../json/known-strings.js';
import type { HexRuns } from '../json/hex-runs.js';
import { JsonParseError, parseJson } from '../json/reader.js';
import { JsonWriter, quoteJsonString } from '../json/writer.js';
import { JsonObject, type JsonValue } from '../json/value.js';
import { StoreReadError } from '../store/errors.js';
import { BlockReadError } from '../store/verify.js';
import { recordChecksumCause } from '../store/record-checksums.js';
import type { RequestBudget } from './http/memory-budget.js';
import { RPC, requestMemoryExceeded, RpcError, type RawJson, type RpcContext, type RpcMethod } from './method.js';
import type { MethodRegistry } from './registry.js';
import { isRetained } from './retained-replies.js';
import { databaseErrorText, hideDirectory } from './server-errors.js';

export interface RpcReply {
  status: number;
  /**
   * Compact JSON followed by one newline: text, or byte chunks written one after another when a
   * method returned bytes (a multi-megabyte block is then never copied into one reply buffer).
   */
  body: string | Buffer[];
  /** What the body asked for, for the request log (absent when it did not parse). */
  summary?: RequestSummary;
}

/** A request's JSON-RPC method and id (a single call), or its item count (a batch). */
export type RequestSummary = { method: string | null; id: string } | { batch: number };

export interface DispatchOptions {
  /** Counts the reply's bytes; without one, replies are unbounded (library and tests). */
  budget?: RequestBudget;
  /** Called between batch items every few milliseconds, so other work can run (fairness). */
  yieldTurn?: () => Promise<void>;
  /**
   * Told about failures that operators must see (unreadable or corrupt blocks, database and file
   * errors), once each, with what the client was answered.
   */
  onServerError?: (e: Error, answered: string) => void;
  /**
   * The data directory (absolute): a client's error message never names it (server-errors.ts);
   * an error that did is logged whole through `onServerError`.
   */
  privateDir?: string;
  /** The body's long strings found equal to strings a cache holds (parsedSizeEstimate): read without scanning them. */
  knownRuns?: KnownRuns;
  /** The body's long strings found to be hex by decoding them (parsedSizeEstimate): read without scanning them. */
  hexRuns?: HexRuns;
}

/** zcashd's RPC_OUT_OF_MEMORY. */
export const RPC_OUT_OF_MEMORY = RPC.OUT_OF_MEMORY;

/** How long a batch runs before it lets other requests and I/O in. */
const BATCH_SLICE_MS = 2;
/** Small text pieces are gathered up to this size before becoming one byte chunk. */
const TEXT_CHUNK_CHARS = 64 * 1024;

function idText(id: JsonValue): string {
  return new JsonWriter().value(id).toString();
}

/** A JSON-RPC error reply's text, without its newline. */
export function errorReply(code: number, message: string, id: JsonValue): string {
  return `{"result":null,"error":{"code":${code},"message":${quoteJsonString(message)}},"id":${idText(id)}}`;
}

const RESULT_PREFIX = Buffer.from('{"result":', 'latin1');

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

class BudgetExceeded extends Error {
  constructor(readonly which: 'request' | 'global') {
    super(which);
  }
}

/** Reply pieces in order: text gathered into modest chunks, byte results kept as they are. */
class ReplyBuilder {
  private readonly chunks: Buffer[] = [];
  private text = '';

  constructor(private readonly budget: RequestBudget | undefined) {}

  private charge(bytes: number, retained = false): void {
    if (!this.budget) return;
    const verdict = this.budget.take(bytes, retained);
    if (verdict !== 'ok') throw new BudgetExceeded(verdict);
  }

  addText(s: string): void {
    // One-byte strings cost their length; the budget is a bound, not an exact count.
    this.charge(s.length);
    this.text += s;
    if (this.text.length >= TEXT_CHUNK_CHARS) this.flushText();
  }

  addBytes(b: Buffer): void {
    // A cached result is held while the reply is written, but giving the reply back frees none of it.
    this.charge(b.length, isRetained(b));
    this.flushText();
    this.chunks.push(b);
  }

  private flushText(): void {
    if (this.text === '') return;
    this.chunks.push(Buffer.from(this.text, 'utf8'));
    this.text = '';
  }

  finish(): string | Buffer[] {
    if (this.chunks.length === 0) return this.text;
    this.flushText();
    return this.chunks;
  }
}

interface ExecResult {
  /** The reply object's text, or for a success with a byte result: prefix text, bytes, suffix. */
  parts: [string] | [Buffer, Buffer, string];
  code: number | null;
}

/** Executes one request value of a batch. */
function executeItem(req: JsonValue, registry: MethodRegistry, ctx: RpcContext, opts: DispatchOptions): ExecResult | Promise<ExecResult> {
  if (!(req instanceof JsonObject)) {
    return { parts: [errorReply(RPC.INVALID_REQUEST, 'Invalid Request object', null)], code: RPC.INVALID_REQUEST };
  }
  const id = req.get('id') ?? null;
  return executeCall(req, id, req.get('method'), registry, ctx, opts, null);
}

/**
 * Executes one request object whose id and method the caller has read: at once when the method
 * answers without waiting (a reply its cache holds), so such a reply costs no promise turn.
 */
function executeCall(
  req: JsonObject,
  id: JsonValue,
  method: JsonValue | undefined,
  registry: MethodRegistry,
  ctx: RpcContext,
  opts: DispatchOptions,
  /** The request's id as JSON when the caller has it already. */
  idJson: string | null,
): ExecResult | Promise<ExecResult> {
  if (method === undefined || method === null) return failure(RPC.INVALID_REQUEST, 'Missing method', id);
  if (typeof method !== 'string') return failure(RPC.INVALID_REQUEST, 'Method must be a string', id);
  const rawParams = req.get('params');
  let params: readonly JsonValue[];
  if (Array.isArray(rawParams)) params = rawParams;
  else if (rawParams === undefined || rawParams === null) params = [];
  else return failure(RPC.INVALID_REQUEST, 'Params must be an array', id);

  const m = registry.get(method);
  if (!m) return failure(RPC.METHOD_NOT_FOUND, 'Method not found', id);
  if (params.length < m.required || params.length > m.required + m.optional) {
    return failure(RPC.INVALID_PARAMS, paramCountMessage(m.name, m.required, m.optional, params.length, m.help), id);
  }
  let result: RawJson | Promise<RawJson>;
  try {
    result = m.call(params, ctx);
  } catch (e) {
    return exceptionFailure(e, id, opts);
  }
  if (typeof result === 'string' || result instanceof Uint8Array) return success(result, m, idJson ?? idText(id));
  return Promise.resolve(result).then(
    (r) => success(r, m, idJson ?? idText(id)),
    (e: unknown) => exceptionFailure(e, id, opts),
  );
}

function failure(code: number, message: string, id: JsonValue): ExecResult {
  return { parts: [errorReply(code, message, id)], code };
}

function exceptionFailure(e: unknown, id: JsonValue, opts: DispatchOptions): ExecResult {
  const answer = exceptionAnswer(e, opts);
  return failure(answer.code, answer.message, id);
}

function success(result: RawJson, m: RpcMethod, idJson: string): ExecResult {
  const suffix = `,"error":null,"id":${idJson}}`;
  if (typeof result === 'string') {
    if (m.asciiResults !== true) return { parts: [`{"result":${result}${suffix}`], code: null };
    // An ASCII result goes out as its latin1 bytes (= its UTF-8), encoded once, rather than
    // being flattened into the envelope text and then run through the UTF-8 encoder.
    result = Buffer.from(result, 'latin1');
  }
  return { parts: [RESULT_PREFIX, result, suffix], code: null };
}

/** The code and message a method's exception is answered with; server-side failures are logged. */
function exceptionAnswer(e: unknown, opts: DispatchOptions): { code: number; message: string } {
  const told = (error: Error, message: string): string => {
    opts.onServerError?.(error, message);
    return message;
  };
  const hidden = (message: string): string => (opts.privateDir ? hideDirectory(message, opts.privateDir) : message);
  if (e instanceof RpcError) {
    const message = hidden(e.message);
    if (e.cause instanceof Error) told(e.cause, message);
    else if (message !== e.message) told(e, message);
    return { code: e.code, message };
  }
  // A stored block or record failed verification: zcashd's ReadBlockFromDisk failure.
  const unreadable = e instanceof BlockReadError ? e : recordChecksumCause(e);
  if (unreadable) return { code: RPC.INTERNAL_ERROR, message: told(unreadable, "Can't read block from disk") };
  const error = e instanceof Error ? e : new Error(String(e));
  // A LevelDB failure: zcashd's dbwrapper_error text, an RPC_MISC_ERROR as any exception.
  const database = databaseErrorText(error);
  if (database !== null) return { code: RPC.MISC_ERROR, message: told(error, database) };
  // Any other failed read (the database closed under it): the binding's text, the key logged.
  if (error instanceof StoreReadError && error.cause instanceof Error) {
    return { code: RPC.MISC_ERROR, message: told(error, hidden(error.cause.message)) };
  }
  // zcashd turns any other exception into RPC_MISC_ERROR with its what() text.
  const message = hidden(error.message);
  if (message !== error.message) told(error, message);
  return { code: RPC.MISC_ERROR, message };
}

function addResult(out: ReplyBuilder, r: ExecResult): void {
  if (r.parts.length === 1) out.addText(r.parts[0]);
  else {
    out.addBytes(r.parts[0]);
    out.addBytes(r.parts[1]);
    out.addText(r.parts[2]);
  }
}

function budgetMessage(e: BudgetExceeded, budget: RequestBudget): string {
  return e.which === 'request'
    ? requestMemoryExceeded(budget.limit).message
    : 'Server memory budget for replies is in use by other requests; retry later';
}

/** Handles one HTTP body as zcashd's HTTPReq_JSONRPC does after authentication. */
export async function handleJsonRpcBody(
  body: Uint8Array,
  registry: MethodRegistry,
  ctx: RpcContext,
  opts: DispatchOptions = {},
): Promise<RpcReply> {
  return dispatchJsonRpcBody(body, registry, ctx, opts);
}

/**
 * handleJsonRpcBody, answering at once when nothing in the body needs to wait: a single call
 * whose method answers without waiting (a reply its cache holds) costs no promise turn.
 */
export function dispatchJsonRpcBody(
  body: Uint8Array,
  registry: MethodRegistry,
  ctx: RpcContext,
  opts: DispatchOptions = {},
): RpcReply | Promise<RpcReply> {
  // Long string parameters stay ranges of the body until a method reads them as strings; the
  // body's memory may be reused once the reply is built, so they are valid until then.
  const lazyStrings = new LazyStringScope();
  let reply: RpcReply | Promise<RpcReply>;
  try {
    reply = handleParsedBody(body, lazyStrings, registry, ctx, opts);
  } catch (e) {
    lazyStrings.end();
    throw e;
  }
  if (!(reply instanceof Promise)) {
    lazyStrings.end();
    return reply;
  }
  return reply.finally(() => lazyStrings.end());
}

function handleParsedBody(
  body: Uint8Array,
  lazyStrings: LazyStringScope,
  registry: MethodRegistry,
  ctx: RpcContext,
  opts: DispatchOptions,
): RpcReply | Promise<RpcReply> {
  let value: JsonValue;
  try {
    value = parseJson(body, { lazyStrings, knownRuns: opts.knownRuns, hexRuns: opts.hexRuns });
  } catch (e) {
    if (!(e instanceof JsonParseError)) throw e;
    return { status: 500, body: errorReply(RPC.PARSE_ERROR, 'Parse error', null) + '\n' };
  }
  if (value instanceof JsonObject) {
    const requestId = value.get('id') ?? null;
    const method = value.get('method');
    const summary = { method: typeof method === 'string' ? method : null, id: idText(requestId) };
    const r = executeCall(value, requestId, method, registry, ctx, opts, summary.id);
    return r instanceof Promise ? r.then((done) => singleReply(done, summary, requestId, opts)) : singleReply(r, summary, requestId, opts);
  }
  if (Array.isArray(value)) return batchReply(value, registry, ctx, opts);
  return { status: 500, body: errorReply(RPC.PARSE_ERROR, 'Top-level object parse error', null) + '\n' };
}

/** A single call's reply (its HTTP status zcashd's for its error code). */
function singleReply(r: ExecResult, summary: RequestSummary, requestId: JsonValue, opts: DispatchOptions): RpcReply {
  const out = new ReplyBuilder(opts.budget);
  try {
    addResult(out, r);
    out.addText('\n');
    return { status: httpStatusFor(r.code), body: out.finish(), summary };
  } catch (e) {
    return budgetRefusal(e, requestId, opts);
  }
}

/** Items run one after another, like zcashd's JSONRPCExecBatch; the HTTP status is always 200. */
async function batchReply(items: JsonValue[], registry: MethodRegistry, ctx: RpcContext, opts: DispatchOptions): Promise<RpcReply> {
  const out = new ReplyBuilder(opts.budget);
  try {
    out.addText('[');
    let sliceStart = performance.now();
    for (let i = 0; i < items.length; i++) {
      if (i > 0) out.addText(',');
      addResult(out, await executeItem(items[i]!, registry, ctx, opts));
      if (opts.yieldTurn && performance.now() - sliceStart > BATCH_SLICE_MS) {
        await opts.yieldTurn();
        sliceStart = performance.now();
      }
    }
    out.addText(']\n');
    return { status: 200, body: out.finish(), summary: { batch: items.length } };
  } catch (e) {
    return budgetRefusal(e, null, opts);
  }
}

/** A reply that outgrew its budget: everything built so far is dropped; the caller releases the budget with the reply. */
function budgetRefusal(e: unknown, id: JsonValue, opts: DispatchOptions): RpcReply {
  if (!(e instanceof BudgetExceeded)) throw e;
  opts.budget!.releaseAll();
  return { status: 500, body: errorReply(RPC_OUT_OF_MEMORY, budgetMessage(e, opts.budget!), id) + '\n' };
}
