/**
 * `zecrpc serve`'s HTTP server: Fastify 5 on Node's HTTP/1.1 parser (llhttp), with zecrpc's
 * JSON-RPC plugin (plugin.ts) at `/` and zcashd's answers everywhere else: 403 for peers outside
 * `-rpcallowip`, 405 for DELETE, 404 for other paths, 501 for methods libevent does not pass
 * on. Where an HTTP-level detail differs from zcashd's libevent it is listed in deviations.ts.
 *
 * What protects the process from its clients:
 * - memory: request bodies being received, and replies being built or written, hold
 *   reservations on process-wide budgets; each reply also on a per-request budget (a reply that
 *   would outgrow it is answered with an error instead, see dispatch.ts);
 * - CPU: large blocks are decoded and rendered in worker threads (workers/render-pool.ts), and
 *   long batches hand their work-queue slot around between items;
 * - credentials are checked in `onRequest`, before any body byte is read; a refused request's
 *   body is discarded by Node as it arrives, never stored;
 * - shutdown closes idle and half-sent connections at once, lets replies in progress finish
 *   for at most `shutdownGraceMs`, then closes everything.
 */
import { createServer as createHttpServer, ServerResponse, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { createServer, isIPv6, type Server, type Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import type { NodeConfig } from '../../config.js';
import type { RpcMethod } from '../method.js';
import type { MemoryLimits } from './memory-budget.js';
import type { RpcMetrics } from './metrics.js';
import { expectContinue, RPC_ROUTE_METHODS, zecrpcRpc, type ExecutionTracker } from './plugin.js';
import { rawErrorReply, errorPage, sendReply } from './reply.js';
import { createRpcCore, type RpcCoreStats } from './rpc-core.js';
import { raiseAllocatorThresholds } from './allocator-thresholds.js';
import { exposeGc } from './memory-release.js';

export { MAX_BODY_SIZE } from './body.js';
export { WRONG_CREDENTIALS_DELAY_MS } from './reply.js';
export { MAX_RENDER_THREADS } from './rpc-core.js';

/**
 * Request line plus headers, at most: libevent's limit as zcashd sets it, given to llhttp
 * (which counts line ends too, and answers 431 beyond it).
 */
export const MAX_HEADERS_SIZE = 8192;

/** How long replies in progress may take to finish once shutdown has begun. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 3000;

/** What `startRpcServer` serves: the settings and the methods. */
export interface RpcServerOptions {
  config: NodeConfig;
  /** Methods besides `help` and `stop`. */
  methods: readonly RpcMethod[];
  /**
   * The logger: a pino instance (used as Fastify's own), pino options (`stream` may carry a
   * destination), true for pino's defaults, false (default) for none. Credentials are never logged.
   */
  logger?: boolean | Record<string, unknown> | Logger;
  /** Called when the `stop` method asks the server to shut down (after its reply is sent). */
  onStop?: () => void;
  /** Memory budgets in bytes; defaults from -rpcrequestmemory/-rpcmemory/-rpcbodymemory (MiB) or the machine's memory. */
  memory?: Partial<MemoryLimits>;
  /** Render-thread count (default -rpcthreads, at most MAX_RENDER_THREADS); 0 renders on the event loop. */
  renderThreads?: number;
  shutdownGraceMs?: number;
  /** Prometheus metrics to count requests in (served by metrics-listener.ts, never on the RPC port). */
  metrics?: RpcMetrics;
  /** Longest a body waits for the body budget before a 413 (ms; default -rpcservertimeout, or 30 s). */
  bodyWaitMs?: number;
  /** Milliseconds without a request before caches and idle render threads are released (rpc-core.ts; 0: never). */
  idleTrimMs?: number;
}

/** A running JSON-RPC server: the port it bound and how to close it. */
export interface RunningRpcServer {
  /** The port actually bound (useful with -rpcport=0). */
  port: number;
  /** Every `address:port` listened on. */
  addresses: string[];
  /** The cookie file in cookie mode. */
  cookieFile: string | null;
  /** The Fastify instance serving (routes may not be added once it runs). */
  app: FastifyInstance;
  /** Live figures, for tests and monitoring. */
  stats(): { connections: number } & RpcCoreStats;
  close(): Promise<void>;
}

/** Addresses to bind, per zcashd's rules (§1.1). */
export function bindAddresses(config: NodeConfig): string[] {
  if (config.rpcAllowIp.length === 0) return ['127.0.0.1', '::1'];
  if (config.rpcBind.length > 0) return config.rpcBind;
  return ['0.0.0.0', '::'];
}

/**
 * zcashd's SplitHostPort (netbase.cpp): the text after the last colon is the port when that colon
 * follows `[…]` or is the only one, and the text is a port from 1 to 65535; otherwise all of it is
 * the host (`127.0.0.3:0` is a host, whose bind then fails, as in zcashd). Brackets are stripped.
 */
export function splitHostPort(bind: string, defaultPort: number): { host: string; port: number } {
  let host = bind;
  let port = defaultPort;
  const colon = bind.lastIndexOf(':');
  if (colon >= 0) {
    const bracketed = bind.startsWith('[') && bind[colon - 1] === ']';
    const onlyColon = bind.lastIndexOf(':', colon - 1) < 0 || colon === 0;
    const text = bind.slice(colon + 1);
    const n = /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
    if ((colon === 0 || bracketed || onlyColon) && n > 0 && n < 0x10000) {
      host = bind.slice(0, colon);
      port = n;
    }
  }
  if (host.length > 1 && host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return { host, port };
}

const isLogger = (x: unknown): x is Logger => typeof (x as Logger | undefined)?.child === 'function';

function makeLogger(setting: RpcServerOptions['logger']): Logger | null {
  if (!setting) return null;
  if (isLogger(setting)) return setting;
  const options = setting === true ? {} : { ...setting };
  const stream = (options as { stream?: unknown }).stream;
  delete (options as { stream?: unknown }).stream;
  const redact = { paths: ['req.headers.authorization'], remove: true };
  return stream ? pino({ ...options, redact }, stream as NodeJS.WritableStream) : pino({ ...options, redact });
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // `::` alone would also take IPv4 on a dual-stack host and collide with a 0.0.0.0 bind.
    server.listen({ port, host, ipv6Only: isIPv6(host) }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Why a connection was idle when -rpcservertimeout closed it. */
export type IdleReason = 'reply-not-taken' | 'request-incomplete' | 'between-requests';

const IDLE_REASONS: Record<IdleReason, string> = {
  'reply-not-taken': 'the client stopped taking its reply',
  'request-incomplete': 'the client sent part of a request and stopped',
  'between-requests': 'no request after the last reply (keep-alive)',
};

/** Bytes read from a connection when its last reply was written (a property of the socket). */
const READ_AT_LAST_REPLY = Symbol('zecrpc.readAtLastReply');

/** Set while a connection's request runs or its reply is being written (a property of the socket). */
const EXECUTING = Symbol('zecrpc.executing');

type TrackedSocket = Socket & {
  _httpMessage?: { headersSent: boolean } | null;
  [READ_AT_LAST_REPLY]?: number;
  [EXECUTING]?: number;
};

/** A request has begun on the connection and its reply has not started: the server is at work, not the client. */
const requestRunning = (socket: TrackedSocket): boolean =>
  (socket[EXECUTING] ?? 0) > 0 && socket._httpMessage !== undefined && socket._httpMessage !== null && !socket._httpMessage.headersSent;

/**
 * What the connection was doing: writing a reply (Node's response still holds the socket),
 * receiving a request (bytes arrived since the last reply, or since it opened, that made no
 * whole request), or waiting for the next request. A request being executed is never timed out
 * (plugin.ts lifts the timeout then).
 */
function idleReason(socket: TrackedSocket): IdleReason {
  if (socket._httpMessage) return 'reply-not-taken';
  return socket.bytesRead > (socket[READ_AT_LAST_REPLY] ?? 0) ? 'request-incomplete' : 'between-requests';
}

/**
 * Node's response, advertising `Keep-Alive: timeout=N` for -rpcservertimeout as a server with
 * that `keepAliveTimeout` would, while the server's own `keepAliveTimeout` stays 0: the socket's
 * one idle timer (`server.timeout`, the same length) then covers the wait between requests too,
 * instead of Node setting a keep-alive timer after every reply and the idle one back at the next
 * request. Node sets `_keepAliveTimeout` on each response it makes; here that value is fixed.
 */
function responseAdvertising(keepAliveMs: number): typeof ServerResponse {
  return class KeepAliveAdvertisingResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
    get _keepAliveTimeout(): number {
      return keepAliveMs;
    }

    set _keepAliveTimeout(_serverValue: number) {
      // Node's own assignment (the server's keepAliveTimeout, 0) is not what is advertised.
    }
  };
}

/** Methods libevent hands to zcashd; it answers any other with its 501 page. */
const LIBEVENT_METHODS = new Set<string>(RPC_ROUTE_METHODS);

/** The allocator's thresholds are the process's: raised by its first server, once (allocator-thresholds.ts). */
let allocatorThresholdsRaised = false;

/** Starts zcashd's JSON-RPC over HTTP with the methods given, on the addresses the settings name. */
export async function startRpcServer(opts: RpcServerOptions): Promise<RunningRpcServer> {
  const { config } = opts;
  if (config.getBoolArg('rpcssl', false)) throw new Error('SSL mode for RPC (-rpcssl) is no longer supported.');
  if (!allocatorThresholdsRaised) {
    allocatorThresholdsRaised = true;
    raiseAllocatorThresholds(exposeGc());
  }
  const log = makeLogger(opts.logger);
  const core = createRpcCore({
    config,
    methods: opts.methods,
    onStop: opts.onStop,
    memory: opts.memory,
    renderThreads: opts.renderThreads,
    log,
    metrics: opts.metrics,
    bodyWaitMs: opts.bodyWaitMs,
    idleTrimMs: opts.idleTrimMs,
    // This Fastify instance is the server's own: no application's hook sees a request or reply.
    ownInstance: true,
  });
  const binds = bindAddresses(config).map((x) => splitHostPort(x, config.rpcPort));
  const timeoutMs = core.timeoutMs;
  const sockets = new Set<Socket>();
  let closing = false;
  // Whether a connection's request runs or its reply is being written is a flag on its socket.
  const tracker: ExecutionTracker = {
    begin: (socket: TrackedSocket) => void (socket[EXECUTING] = (socket[EXECUTING] ?? 0) + 1),
    end: (socket: TrackedSocket) => {
      socket[EXECUTING] = Math.max(0, (socket[EXECUTING] ?? 0) - 1);
      // During shutdown a connection ends with the reply it was waiting for.
      if (closing && socket[EXECUTING] === 0) socket.destroySoon();
    },
    sparesRunningRequests: true,
  };

  // A timeout can fall due while the event loop was busy (rendering other replies) with this
  // client's bytes already waiting in the kernel: the close is confirmed only after the loop's
  // I/O phase has delivered them (setImmediate runs after it), as libevent delivers a ready read
  // before a timeout. Any progress re-arms Node's timer. Node asks the server that accepted the
  // socket, so every listener answers. Each close is logged at info (shown with -debug=rpc):
  // a client that sees its connection end can learn from the log which rule ended it.
  // A connection whose request is running is never closed: zcashd reads nothing from it
  // meanwhile. Its timer starts again with the reply's first write.
  const confirmTimeout = (socket: Socket) => {
    if (requestRunning(socket)) return;
    const read = socket.bytesRead;
    const written = socket.bytesWritten;
    setImmediate(() => {
      if (socket.destroyed || socket.bytesRead !== read || socket.bytesWritten !== written || requestRunning(socket)) return;
      // The peer's address is gone from a destroyed socket: read first.
      const peer = { remoteAddress: socket.remoteAddress, remotePort: socket.remotePort };
      const reason = idleReason(socket);
      socket.destroy();
      log?.info(
        { ...peer, reason, timeoutMs },
        `connection closed after -rpcservertimeout (${timeoutMs / 1000} s) without a byte read or written: ${IDLE_REASONS[reason]}`,
      );
    });
  };
  /** Connections whose last reply went out before its request's body had all arrived. */
  const lastAnswered = new WeakMap<Socket, IncomingMessage>();
  let http!: HttpServer;
  const app = Fastify({
    ...(log ? { loggerInstance: log as unknown as FastifyBaseLogger } : { logger: false }),
    // The JSON-RPC route logs each request itself, with its JSON-RPC method and id.
    logController: new LogController({ disableRequestLogging: true }),
    clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => {
      if (socket.destroyed || error.code === 'ECONNRESET') return;
      // After a reply to a request whose body was still coming, a malformed rest of that body
      // ends the connection with no second reply.
      const inProgress = (socket as Socket & { _httpMessage?: { headersSent: boolean } | null })._httpMessage;
      // Judged now, not when the reply finished: a declared body is handed on with its last byte,
      // and its reply can finish before llhttp's on_message_complete marks the request complete.
      const answeredEarly = lastAnswered.get(socket)?.complete === false;
      if (socket.writable && !answeredEarly && !inProgress?.headersSent) {
        const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
        socket.end(rawErrorReply(status));
      }
      socket.destroy();
    },
    exposeHeadRoutes: false,
    serverFactory: (handler) => {
      http = createHttpServer(
        {
          noDelay: true,
          maxHeaderSize: MAX_HEADERS_SIZE,
          requestTimeout: 0,
          requireHostHeader: false,
          ServerResponse: responseAdvertising(timeoutMs),
        },
        handler,
      );
      // -rpcservertimeout, as libevent applies it: a connection idle (no byte read or written)
      // that long is closed, between requests as within one. One timer does both: Node's
      // keep-alive timer is off (its `Keep-Alive` header is still sent, responseAdvertising).
      http.timeout = timeoutMs;
      http.keepAliveTimeout = 0;
      // A client that sends its request and then its FIN still gets the reply, as from zcashd.
      (http as HttpServer & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
      http.on('timeout', confirmTimeout);
      // libevent answers these itself, with its pages, and closes.
      http.on('connect', (_req, socket: Socket) => socket.end(rawErrorReply(501)));
      http.on('checkExpectation', (_req, res: ServerResponse) => {
        res.socket?.end(rawErrorReply(417));
        res.socket?.destroySoon();
      });
      expectContinue(http, handler);
      http.on('connection', (socket: Socket) => {
        if (closing) {
          socket.destroy();
          return;
        }
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      });
      return http;
    },
  });
  // zcashd's answers before its handlers (httpserver.cpp http_request_cb), for every path. A
  // callback hook, not an async one: a request let through costs no promise. A refusal is sent
  // once the rest of the packet is parsed, as libevent reads the whole request first (a
  // malformed body in it gets the 400 page instead).
  app.addHook('onRequest', (request, reply, done) => {
    const refusal = closing
      ? errorPage(503)
      : !core.isAllowed(request.socket.remoteAddress)
        ? { status: 403, body: '', own: 'none' as const }
        : !LIBEVENT_METHODS.has(request.method)
          ? errorPage(501)
          : request.method === 'DELETE'
            ? { status: 405, body: '', own: 'none' as const }
            : null;
    if (refusal === null) return done();
    queueMicrotask(() => {
      if (refusal.status === 503) reply.header('Connection', 'close');
      sendReply(reply, refusal);
    });
  });
  app.addHook('onResponse', (request, _reply, next) => {
    lastAnswered.set(request.socket, request.raw);
    (request.socket as TrackedSocket)[READ_AT_LAST_REPLY] = request.socket.bytesRead;
    next();
  });
  app.setNotFoundHandler((_request, reply) => sendReply(reply, { status: 404, body: '', own: 'none' }));
  await app.register(zecrpcRpc, { config, core, tracker, rest: config.getBoolArg('rest', false) });
  try {
    await app.ready();
  } catch (e) {
    await core.close();
    throw e;
  }

  const servers: Server[] = [];
  const addresses: string[] = [];
  let boundPort = 0;
  let firstError: Error | null = null;
  for (const b of binds) {
    // A port of 0 means "any" for the first bind and "the same port" for the others.
    const port = b.port === 0 && boundPort !== 0 ? boundPort : b.port;
    // Every listener hands its connections to the one HTTP server.
    const server = createServer({ noDelay: true, allowHalfOpen: true }, (socket) => http.emit('connection', socket));
    server.on('timeout', confirmTimeout);
    try {
      await listen(server, port, b.host);
    } catch (e) {
      firstError ??= e as Error;
      // zcashd logs "Binding RPC on address … failed" and carries on with the others.
      log?.warn(`Binding RPC on address ${b.host} port ${port} failed: ${(e as Error).message}`);
      continue;
    }
    if (boundPort === 0) boundPort = (server.address() as { port: number }).port;
    servers.push(server);
    addresses.push(`${b.host}:${port === 0 ? boundPort : port}`);
  }
  const stopListening = () => Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  if (servers.length === 0) {
    await app.close();
    await core.close();
    throw firstError ?? new Error('Unable to bind any endpoint for RPC server');
  }
  try {
    core.auth.writeCookie();
  } catch (e) {
    await stopListening();
    await app.close();
    await core.close();
    throw e;
  }

  let closed: Promise<void> | null = null;
  return {
    port: boundPort,
    addresses,
    cookieFile: core.auth.cookieFile,
    app,
    stats: () => ({ connections: sockets.size, ...core.stats() }),
    close() {
      return (closed ??= (async () => {
        closing = true;
        const stopped = stopListening();
        for (const s of sockets) if (((s as TrackedSocket)[EXECUTING] ?? 0) === 0) s.destroy();
        const grace = opts.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
        const all = Promise.all([...sockets].map((s) => new Promise<void>((r) => (s.destroyed ? r() : s.once('close', () => r())))));
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<void>((r) => (timer = setTimeout(r, grace)));
        await Promise.race([all, late]);
        clearTimeout(timer);
        for (const s of sockets) s.destroy();
        await all;
        await stopped;
        await app.close();
        await core.close();
      })());
    },
  };
}
