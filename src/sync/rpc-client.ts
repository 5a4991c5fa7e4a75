/**
 * A small JSON-RPC client for an upstream zcashd, zecrpc or Zebra: basic or cookie auth, batch
 * requests, a timeout on every request, and errors that name the URL and what went wrong.
 *
 * Single calls go as zcashd's clients send them (`"jsonrpc": "1.0"`, which Zebra maps to 2.0 and
 * back). Batch items say `"jsonrpc": "2.0"`: Zebra rewrites only a single request's version and
 * hands a batch unchanged to its strict JSON-RPC 2.0 parser, while zcashd and zecrpc ignore the member.
 */
import { COOKIE_FILE_LIMIT, readTextBounded } from '../bounded-read.js';
import { MAX_BLOCK_SIZE } from '../store/chain.js';
import { ImportError } from './block-sink.js';

/** A JSON-RPC client's credentials and limits. */
export interface RpcClientOptions {
  user?: string;
  password?: string;
  /** zcashd's `.cookie` file (`__cookie__:<password>`), read once at connect time. */
  cookieFile?: string;
  /** How long the server may stay silent: before the reply starts, and between its parts (default 30 s). */
  timeoutMs?: number;
  /** Ends every request in flight, and refuses new ones, once aborted (a stopping follower). */
  signal?: AbortSignal;
}

/** The server answered with a JSON-RPC error object: its code, as the server gave it. */
export class RpcReplyError extends ImportError {
  constructor(
    message: string,
    readonly code: number | null,
    origin: ConstructorParameters<typeof ImportError>[1],
  ) {
    super(message, origin);
  }
}

/**
 * jsonrpsee's code (Zebra's RPC server) for a batch whose replies together exceed the server's
 * response limit (50 MiB by default): the batch as a whole is answered with this one error.
 */
export const BATCH_RESPONSE_TOO_LARGE = -32011;

/** The request ended because the client's signal was aborted, not because anything failed. */
export class RequestAbortedError extends ImportError {}

/**
 * The most a reply may hold: each call's answer as large as the largest block in hex, and room
 * for the JSON around it. An endless or oversized reply is refused, not gathered.
 */
const replyLimit = (calls: number): number => 64 * 1024 + calls * (2 * MAX_BLOCK_SIZE + 1024);

export interface RpcCall {
  method: string;
  params: unknown[];
}

/** A JSON-RPC client for zcashd, zebrad or zecrpc (user and password or cookie file, batch requests). */
export class JsonRpcClient {
  /** The URL without credentials, for messages. */
  readonly displayUrl: string;
  private readonly url: string;
  private authHeader: string | null = null;
  private nextId = 1;

  private constructor(
    url: URL,
    private readonly timeoutMs: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    const clean = new URL(url.href);
    clean.username = '';
    clean.password = '';
    this.url = clean.href;
    this.displayUrl = clean.href;
  }

  static async create(rawUrl: string, opts: RpcClientOptions = {}): Promise<JsonRpcClient> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new ImportError(`upstream URL ${JSON.stringify(rawUrl)} is not a valid URL (expected e.g. http://127.0.0.1:8232/)`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ImportError(`upstream URL ${rawUrl}: only http:// and https:// are supported`);
    }
    const client = new JsonRpcClient(url, opts.timeoutMs ?? 30_000, opts.signal);
    let user = opts.user ?? decodeURIComponent(url.username);
    let password = opts.password ?? decodeURIComponent(url.password);
    if (opts.cookieFile) {
      let cookie: string;
      try {
        cookie = readTextBounded(opts.cookieFile, COOKIE_FILE_LIMIT).trim();
      } catch (e) {
        throw new ImportError(`cannot read RPC cookie file ${opts.cookieFile}: ${(e as Error).message}`);
      }
      const colon = cookie.indexOf(':');
      if (colon < 0) throw new ImportError(`RPC cookie file ${opts.cookieFile} is not of the form user:password`);
      user = cookie.slice(0, colon);
      password = cookie.slice(colon + 1);
    }
    if (user || password) client.authHeader = 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');
    return client;
  }

  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const body = await this.post({ jsonrpc: '1.0', id: this.nextId++, method, params }, method, 1);
    return this.unwrap(body, method) as T;
  }

  /** One HTTP request carrying all calls; results in call order. Any failed item fails the batch. */
  async batch<T = unknown>(calls: readonly RpcCall[]): Promise<T[]> {
    if (calls.length === 0) return [];
    const first = this.nextId;
    this.nextId += calls.length;
    const what = `batch of ${calls.length} ${calls[0]!.method}`;
    const body = await this.post(
      calls.map((c, i) => ({ jsonrpc: '2.0', id: first + i, method: c.method, params: c.params })),
      what,
      calls.length,
    );
    if (!Array.isArray(body)) {
      // A server that refuses the batch as a whole (Zebra's reply too large, say) answers with one error object.
      const error = body && typeof body === 'object' ? (body as { error?: { code?: number; message?: string } | null }).error : null;
      if (error) throw this.replyError(`${what} failed`, error);
      throw this.error(`reply to a ${what} is not a JSON array`);
    }
    const byId = new Map<unknown, unknown>();
    for (const item of body) if (item && typeof item === 'object') byId.set((item as { id?: unknown }).id, item);
    return calls.map((c, i) => {
      const item = byId.get(first + i);
      if (item === undefined) throw this.error(`reply to a ${what} lacks the answer for id ${first + i}`);
      return this.unwrap(item, c.method) as T;
    });
  }

  private unwrap(body: unknown, method: string): unknown {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw this.error(`reply to ${method} is not a JSON-RPC object`);
    const { result, error } = body as { result?: unknown; error?: { code?: number; message?: string } | null };
    if (error) throw this.replyError(`${method} failed`, error);
    if (result === undefined) throw this.error(`reply to ${method} has no result`);
    return result;
  }

  private async post(payload: unknown, what: string, calls: number): Promise<unknown> {
    if (this.signal?.aborted) throw this.stopped(what);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.authHeader) headers.authorization = this.authHeader;
    // The server may be silent for `timeoutMs` at a time, before the reply and between its parts:
    // a large batch over a slow link takes as long as it needs while bytes keep arriving.
    const silence = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const quietFor = () => {
      clearTimeout(timer);
      timer = setTimeout(() => silence.abort(), this.timeoutMs);
    };
    // The client's signal ends the request through a listener removed afterwards (AbortSignal.any
    // of a long-lived signal keeps every request's signal in Node 20).
    const stop = () => silence.abort();
    this.signal?.addEventListener('abort', stop, { once: true });
    try {
      let res: Response | null = null;
      // Every call is a read, so one retry is safe; it covers a kept-alive socket the server closed.
      for (let attempt = 0; !res; attempt++) {
        quietFor();
        try {
          res = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify(payload), signal: silence.signal });
        } catch (e) {
          const err = e as Error & { cause?: { code?: string; message?: string } };
          if (this.signal?.aborted) throw this.stopped(what);
          if (silence.signal.aborted) throw this.error(`no reply to ${what} within ${this.timeoutMs} ms`);
          const code = err.cause?.code;
          if (attempt === 0 && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')) continue;
          throw this.error(`cannot reach the server (${code ?? err.cause?.message ?? err.message})`);
        }
      }
      const limit = replyLimit(calls);
      const parts: Uint8Array[] = [];
      let received = 0;
      try {
        for await (const part of (res.body ?? []) as AsyncIterable<Uint8Array>) {
          quietFor();
          received += part.length;
          if (received > limit) {
            silence.abort();
            throw this.error(`reply to ${what} is larger than ${limit} bytes, more than its answers can need`);
          }
          parts.push(part);
        }
      } catch (e) {
        if (e instanceof ImportError) throw e;
        if (this.signal?.aborted) throw this.stopped(what);
        if (silence.signal.aborted) throw this.error(`reply to ${what} stalled: nothing for ${this.timeoutMs} ms`);
        throw this.error(`reply to ${what} broke off (${(e as Error).message})`);
      }
      const text = Buffer.concat(parts).toString('utf8');
      if (res.status === 401 || res.status === 403) {
        throw this.error(`authentication failed (HTTP ${res.status}); check --rpc-user/--rpc-password or --rpc-cookie`);
      }
      try {
        return JSON.parse(text) as unknown;
      } catch {
        const snippet = text.length > 80 ? `${text.slice(0, 80)}…` : text;
        throw this.error(`reply to ${what} is not JSON (HTTP ${res.status}): ${JSON.stringify(snippet)}`);
      }
    } finally {
      clearTimeout(timer);
      this.signal?.removeEventListener('abort', stop);
    }
  }

  private stopped(what: string): RequestAbortedError {
    return new RequestAbortedError(`upstream ${this.displayUrl}: ${what} stopped`, { source: this.displayUrl, position: 'rpc', offset: 0 });
  }

  private replyError(what: string, error: { code?: number; message?: string }): RpcReplyError {
    const code = typeof error.code === 'number' ? error.code : null;
    return new RpcReplyError(`upstream ${this.displayUrl}: ${what}: code ${code ?? '?'} ${error.message ?? JSON.stringify(error)}`, code, {
      source: this.displayUrl,
      position: 'rpc',
      offset: 0,
    });
  }

  private error(message: string): ImportError {
    return new ImportError(`upstream ${this.displayUrl}: ${message}`, { source: this.displayUrl, position: 'rpc', offset: 0 });
  }
}
