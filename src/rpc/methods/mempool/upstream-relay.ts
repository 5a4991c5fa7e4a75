/**
 * zecrpc has no peer-to-peer network and no mempool: with `-upstream=URL` the mempool and relay
 * methods are answered by the upstream node. A call is forwarded as-is; the upstream's result is
 * relayed as its exact JSON text, and its error object (code and message) as that RPC error.
 * An upstream that is unreachable, stalls past the timeout or answers garbage gives -9 with a
 * message saying so, never a hang.
 */
import { COOKIE_FILE_LIMIT, readTextBounded } from '../../../bounded-read.js';
import { parseJson } from '../../../json/reader.js';
import { parsedSizeEstimate } from '../../../json/size-estimate.js';
import { JsonObject, JsonNumber, type JsonValue } from '../../../json/value.js';
import { JsonWriter } from '../../../json/writer.js';
import { replyOf, RPC, requestMemoryExceeded, RpcError, type RawJson, type RpcContext } from '../../method.js';

/** RPC_CLIENT_NOT_CONNECTED: the node cannot reach the network it would relay to. */
export const UPSTREAM_UNAVAILABLE = -9;

export interface UpstreamRelayOptions {
  user?: string;
  password?: string;
  /** zcashd `.cookie` file, read for every request (zcashd rewrites it when it restarts). */
  cookieFile?: string;
  /** Per-request limit (default 10 s). */
  timeoutMs?: number;
}

/**
 * The reply's bytes, refused with -7 once they pass `maxBytes`: an upstream's answer (a large
 * mempool, or a node answering garbage) is read only as far as the request's memory allows,
 * not whole before anything is counted. A declared length beyond it is refused unread.
 */
async function replyBytes(res: Response, maxBytes: number, requestMemory: number): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0);
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await res.body.cancel().catch(() => undefined);
    throw requestMemoryExceeded(requestMemory);
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw requestMemoryExceeded(requestMemory);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/**
 * What relaying `bytes` holds at once: the bytes, their parsed tree (the estimate the server
 * charges a large request body before parsing it; its shape, not its length, decides: a reply
 * of `[{},{},…]` costs dozens of bytes a byte, a verbose mempool about nine) and the re-written
 * result, never longer than the reply. It stays above what the relay holds on every shape of
 * reply measured (verbose and plain mempool, address deltas, empty objects, arrays, zeros). As with the
 * insight methods' allowance, the bound is per call: a batch's calls run one after another.
 */
function relayCost(bytes: Uint8Array): number {
  return 2 * bytes.length + parsedSizeEstimate(bytes);
}

/** A connection closed or reset under a request, as fetch reports it (undici's code or the socket's). */
function connectionLost(e: unknown): boolean {
  const code = (e as { cause?: { code?: string } }).cause?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET';
}

export class UpstreamRelay {
  readonly displayUrl: string;
  private readonly url: string;
  private readonly timeoutMs: number;
  private nextId = 1;

  constructor(
    rawUrl: string,
    private readonly options: UpstreamRelayOptions = {},
  ) {
    const url = new URL(rawUrl);
    this.options = {
      ...options,
      user: options.user ?? (url.username ? decodeURIComponent(url.username) : undefined),
      password: options.password ?? (url.password ? decodeURIComponent(url.password) : undefined),
    };
    url.username = '';
    url.password = '';
    this.url = url.href;
    this.displayUrl = url.href;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  private authorization(): string | null {
    let { user, password } = this.options;
    if (this.options.cookieFile) {
      let cookie: string;
      try {
        cookie = readTextBounded(this.options.cookieFile, COOKIE_FILE_LIMIT).trim();
      } catch (e) {
        const reason = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
        throw this.unavailable(`cannot read its cookie file ${this.options.cookieFile} (${reason})`);
      }
      const colon = cookie.indexOf(':');
      user = cookie.slice(0, colon);
      password = cookie.slice(colon + 1);
    }
    if (!user && !password) return null;
    return 'Basic ' + Buffer.from(`${user ?? ''}:${password ?? ''}`).toString('base64');
  }

  private unavailable(what: string): RpcError {
    return new RpcError(UPSTREAM_UNAVAILABLE, `upstream node ${this.displayUrl}: ${what}`);
  }

  /**
   * One POST, sent again once on a new connection when the first is lost before any reply: fetch
   * keeps connections alive, and an upstream that closes an idle one (zcashd after
   * -rpcservertimeout, Node's http server after its keep-alive timeout) can do so just as a request
   * is written on it. Nothing was answered then, and every relayed method may be sent twice:
   * zcashd answers a transaction already in its mempool with its txid.
   */
  private async post(headers: Record<string, string>, body: string, signal: AbortSignal): Promise<Response> {
    try {
      return await fetch(this.url, { method: 'POST', headers, body, signal });
    } catch (e) {
      if (signal.aborted || !connectionLost(e)) throw e;
      return await fetch(this.url, { method: 'POST', headers, body, signal });
    }
  }

  /**
   * Forwards one call; resolves to the result's JSON text, or throws the upstream's error. With
   * `ctx.requestMemory`, a reply too large to relay within it gets -7.
   */
  async call(method: string, params: readonly JsonValue[], ctx?: Pick<RpcContext, 'requestMemory'>): Promise<RawJson> {
    const requestMemory = ctx?.requestMemory ?? Infinity;
    const body = new JsonWriter().beginObject();
    body.key('jsonrpc').plainStr('1.0').key('id').int(this.nextId++).key('method').str(method).key('params').beginArray();
    for (const p of params) body.value(p);
    body.endArray().endObject();
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    let bytes: Buffer;
    try {
      const auth = this.authorization();
      if (auth) headers.authorization = auth;
      const res = await this.post(headers, body.toString(), AbortSignal.timeout(this.timeoutMs));
      if (res.status === 401 || res.status === 403) throw this.unavailable(`authentication failed (HTTP ${res.status})`);
      // Before the exact cost can be taken, the bytes alone must fit three times: themselves,
      // a tree at least their size, the result.
      bytes = await replyBytes(res, Math.floor(requestMemory / 3), requestMemory);
    } catch (e) {
      if (e instanceof RpcError) throw e;
      const err = e as Error & { cause?: { code?: string; message?: string } };
      if (err.name === 'TimeoutError' || err.name === 'AbortError')
        throw this.unavailable(`no reply to ${method} within ${this.timeoutMs} ms`);
      throw this.unavailable(`cannot reach it (${err.cause?.code ?? err.cause?.message ?? err.message})`);
    }
    if (relayCost(bytes) > requestMemory) throw requestMemoryExceeded(requestMemory);
    let reply: JsonValue;
    try {
      reply = parseJson(bytes);
    } catch {
      throw this.unavailable(`its reply to ${method} is not JSON`);
    }
    if (!(reply instanceof JsonObject)) throw this.unavailable(`its reply to ${method} is not a JSON-RPC object`);
    const error = reply.get('error');
    if (error instanceof JsonObject) {
      const code = error.get('code');
      const message = error.get('message');
      const n = code instanceof JsonNumber ? Number(code.text) : NaN;
      throw new RpcError(Number.isInteger(n) ? n : RPC.MISC_ERROR, typeof message === 'string' ? message : '');
    }
    if (error !== null && error !== undefined) throw this.unavailable(`its reply to ${method} has a malformed error`);
    const result = reply.get('result');
    if (result === undefined) throw this.unavailable(`its reply to ${method} has no result`);
    // Written as bytes: a large result charged to the reply budget is then exactly what it holds.
    return replyOf(new JsonWriter(bytes.length).value(result));
  }
}
