/**
 * zecrpc's JSON-RPC as a Fastify plugin: `app.register(zecrpcRpc, { config, store })` mounts
 * zcashd's JSON-RPC endpoint on an application's own Fastify instance, with the same policy as
 * `zecrpc serve` (which mounts it the same way): the allow-list, credentials checked in
 * `onRequest` before any body byte is read (with zcashd's 250 ms penalty for wrong ones, a timer
 * that holds no work-queue slot: auth-penalty.ts), the
 * body read under the process-wide body budget, zcashd's work queue and the reply budgets.
 *
 * The plugin's hooks, body reader and error handler are encapsulated: the application's other
 * routes keep theirs.
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { NodeConfig } from '../../config.js';
import type { ChainStoreReader } from '../../store/types.js';
import type { RequestSummary } from '../dispatch.js';
import type { AuthVerdict } from './auth-penalty.js';
import type { RpcMethod } from '../method.js';
import { storeMethods } from '../methods/index.js';
import { BodyError, readBudgetedBodyThen, type BodyWait, type ReadBody } from './body.js';
import { declareBodyReservations, givePooledBody, notePooledBody, noteReservedBody, releaseReservedBody } from './body-reservations.js';
import type { MemoryLimits } from './memory-budget.js';
import type { RpcMetrics } from './metrics.js';
import { errorPage, sendReply, UNAUTHORIZED, WORK_QUEUE_FULL, writeReply, type SimpleReply } from './reply.js';
import { mountRestRoutes } from './rest.js';
import { createRpcCore, type ExecutedRequest, type RpcCore } from './rpc-core.js';

/** Methods libevent passes to zcashd's handlers; the route answers each as zcashd does. */
export const RPC_ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'] as const;

/** Set on a request whose client waits for `100 Continue` (see `expectContinue`). */
const AWAITS_CONTINUE = Symbol('zecrpc.awaitsContinue');

type MarkedRequest = IncomingMessage & { [AWAITS_CONTINUE]?: boolean };

/**
 * Lets the JSON-RPC route decide on `Expect: 100-continue`: Node would send `100 Continue`
 * before any hook runs, inviting a client to send a body that is then refused. With this, the
 * interim reply goes out only once the request is authenticated, and a refused one closes the
 * connection after its reply (the client may send its body or not).
 */
export function expectContinue(server: HttpServer, handler: (req: IncomingMessage, res: ServerResponse) => void): void {
  server.on('checkContinue', (req: MarkedRequest, res) => {
    req[AWAITS_CONTINUE] = true;
    handler(req, res);
  });
}

/** Told when a connection starts and ends executing a request (its reply written), for shutdown. */
export interface ExecutionTracker {
  begin(socket: Socket): void;
  end(socket: Socket): void;
  /**
   * True when the server's idle-timeout handler spares a connection whose request is running
   * (begun, its reply not started): the route then leaves the socket's timeout as it is instead
   * of lifting it around each request.
   */
  readonly sparesRunningRequests?: boolean;
}

/** The Fastify plugin's options: zcashd-style settings and the store it serves. */
export interface ZecrpcRpcOptions {
  /** zcashd-style settings (`loadNodeConfig([...])`): credentials, -rpcallowip, -rpcthreads, budgets. */
  config: NodeConfig;
  /** The chain store to serve; its methods are zecrpc's (`storeMethods`). */
  store?: ChainStoreReader;
  /** Methods besides `help`, `stop` and the store's. */
  methods?: readonly RpcMethod[];
  /** Called when the `stop` method is called (after its reply is built). */
  onStop?: () => void;
  memory?: Partial<MemoryLimits>;
  renderThreads?: number;
  /** A core built by the caller (`zecrpc serve`); the plugin then neither writes the cookie nor closes it. */
  core?: RpcCore;
  tracker?: ExecutionTracker;
  /** Prometheus metrics the requests are counted in (serve them with `startMetricsListener`). */
  metrics?: RpcMetrics;
  /** zcashd's REST interface at `/rest/…` (unauthenticated, as `-rest` in zcashd); default off. */
  rest?: boolean;
  /** Longest a body waits for the body budget before a 413 (ms; default -rpcservertimeout, or 30 s). */
  bodyWaitMs?: number;
}

/** The JSON-RPC summary of a request, for its log line and metrics: a property of each request. */
const SUMMARY = 'zecrpcSummary';
/** The length of a reply the route wrote itself (writeReply), which Fastify's reply does not know. */
const REPLY_BYTES = 'zecrpcReplyBytes';
type WithSummary = FastifyRequest & { [SUMMARY]: RequestSummary | null; [REPLY_BYTES]: number | null };
const summaryOf = (request: FastifyRequest): RequestSummary | null => (request as WithSummary)[SUMMARY];

/** The reply's body length as its Content-Length says, or null without one. */
function replyBytes(request: FastifyRequest, reply: FastifyReply): number | null {
  const written = (request as WithSummary)[REPLY_BYTES];
  if (written !== null) return written;
  const length = reply.getHeader('content-length');
  return length === undefined ? null : Number(length);
}
const EMPTY = Buffer.alloc(0);

/** An onRequest hook's callback: called to go on to the route's next stage, or with an error. */
type HookDone = (error?: Error) => void;

const goneSignals = new WeakMap<Socket, AbortSignal>();

/**
 * Aborted when the connection closes: a client gone while its request runs stops methods that
 * scan (gettxoutsetinfo). One per connection, made at its first request, not one per request.
 */
function connectionGone(socket: Socket): AbortSignal {
  let signal = goneSignals.get(socket);
  if (signal === undefined) {
    if (socket.destroyed) return AbortSignal.abort();
    const gone = new AbortController();
    socket.once('close', () => gone.abort());
    signal = gone.signal;
    goneSignals.set(socket, signal);
  }
  return signal;
}

function answer(reply: FastifyReply, r: SimpleReply): FastifyReply {
  return sendReply(reply, r);
}

const verdictReply = (verdict: AuthVerdict): SimpleReply | null =>
  verdict === 'granted' ? null : verdict === 'busy' ? WORK_QUEUE_FULL : UNAUTHORIZED;

/**
 * zcashd's checks that need no body (rpc-http-json.md §1.2), in its order; null lets an
 * authenticated POST through. Decided at once except for wrong credentials, whose penalty is waited
 * out (a promise then).
 */
function answerFromHead(core: RpcCore, request: FastifyRequest, exact: ExactTargets): SimpleReply | null | Promise<SimpleReply | null> {
  if (!core.isAllowed(request.socket.remoteAddress)) return { status: 403, body: '', own: 'none' };
  if (request.method === 'DELETE') return { status: 405, body: '', own: 'none' };
  // The router matched the path without its query: zcashd's handler wants the exact target.
  if (!exact.isRouteUrl(request)) return { status: 404, body: '', own: 'none' };
  if (request.method !== 'POST') return { status: 405, body: 'JSONRPC server handles only POST requests', own: 'none' };
  const verdict = core.authenticate(request.headers.authorization, request.socket.remoteAddress);
  return typeof verdict === 'string' ? verdictReply(verdict) : verdict.then(verdictReply);
}

/**
 * Whether a request's target is its route's URL exactly. Fastify builds a new routeOptions object
 * at every read, so a target once found equal is remembered: the same target always reaches the
 * same route. Only route URLs are remembered (the route and, under a prefix, its slash twin).
 */
class ExactTargets {
  private readonly known = new Set<string>();

  isRouteUrl(request: FastifyRequest): boolean {
    const target = request.raw.url;
    if (target === undefined) return false;
    if (this.known.has(target)) return true;
    if (target !== request.routeOptions.url) return false;
    this.known.add(target);
    return true;
  }
}

function logFields(request: FastifyRequest, reply: FastifyReply) {
  return {
    rpc: summaryOf(request),
    statusCode: reply.statusCode,
    bytes: replyBytes(request, reply),
    ms: Math.round(reply.elapsedTime * 1000) / 1000,
    remoteAddress: request.socket.remoteAddress,
  };
}

/** Mounts the route on `app` (an encapsulated context) for a core built elsewhere. */
export function mountRpcRoute(app: FastifyInstance, core: RpcCore, tracker?: ExecutionTracker): void {
  // The request line's fields cost a few microseconds: computed only when they are logged, which
  // is asked per request because setlogfilter changes the level while the server runs.
  const logRequests = (request: FastifyRequest): boolean =>
    (request.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? false;
  const metrics = core.metrics;
  const exactTargets = new ExactTargets();
  if (!app.hasRequestDecorator(SUMMARY)) app.decorateRequest(SUMMARY, null);
  if (!app.hasRequestDecorator(REPLY_BYTES)) app.decorateRequest(REPLY_BYTES, null);
  declareBodyReservations(app);
  app.removeAllContentTypeParsers();
  // The server reads nothing while a body waits for the budget: the idle timeout would end the
  // connection without a reply, so the wait's own limit replaces it meanwhile.
  const bodyWait: BodyWait = {
    maxMs: core.bodyWaitMs,
    onWait: (stream) => {
      const socket = (stream as IncomingMessage).socket;
      const idleTimeout = app.server.timeout;
      socket.setTimeout(0);
      return () => {
        if (!socket.destroyed) socket.setTimeout(idleTimeout);
      };
    },
  };
  // zcashd reads every body as JSON-RPC text, whatever its Content-Type. A callback parser, as
  // Fastify's own: a body granted at once costs no promise.
  app.addContentTypeParser('*', (request: FastifyRequest, payload: IncomingMessage, done: (e: Error | null, body?: Buffer) => void) => {
    const length = request.headers['content-length'];
    const declared = length === undefined ? null : Number(length);
    const bodyRead = (error: Error | null, read: ReadBody | null): void => {
      if (error !== null) return done(error);
      noteReservedBody(request, read!.reserved);
      notePooledBody(request, read!.pooled);
      done(null, read!.body);
    };
    // No reused body buffers here: an application's hooks may read or keep `request.body` after
    // the request has run, when a reused buffer would hold another request's bytes; and on
    // zecrpc's own instance only the REST routes read bodies through this parser, and they give
    // back no pooled buffer (JSON-RPC reads its body in the onRequest hook).
    readBudgetedBodyThen(payload, declared, core.bodies, bodyWait, bodyRead, undefined);
  });
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (error instanceof BodyError) return answer(reply, errorPage(error.statusCode));
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: { message: error.message } }, 'JSON-RPC request failed');
    return answer(reply, errorPage(status));
  });
  const releaseBody = (request: FastifyRequest) => releaseReservedBody(request, core.bodies);

  // The request's own work, once its body is read: the route's handler, or (on zecrpc's own
  // instance) the onRequest hook itself.
  const liftTimeout = tracker?.sparesRunningRequests !== true;
  const run = (request: FastifyRequest, reply: FastifyReply, body: Buffer): FastifyReply | Promise<FastifyReply> => {
    const socket = request.raw.socket;
    tracker?.begin(socket);
    let outcome: ExecutedRequest | Promise<ExecutedRequest>;
    try {
      outcome = core.execute(body, connectionGone(socket));
    } catch (e) {
      tracker?.end(socket);
      afterExecute(request);
      throw e;
    }
    // A request answered at once gave no timer a chance to run, and its reply is written now.
    if (!(outcome instanceof Promise)) {
      afterExecute(request);
      return answerExecuted(request, reply, socket, outcome);
    }
    // No idle timeout while the request runs: zcashd reads nothing from a connection whose
    // request is being processed. The timeout counts again while the reply is written.
    const idleTimeout = liftTimeout ? request.server.server.timeout : 0;
    if (liftTimeout) socket.setTimeout(0);
    const restoreTimeout = () => {
      if (liftTimeout && !socket.destroyed) socket.setTimeout(idleTimeout);
    };
    return outcome.then(
      (executed) => {
        afterExecute(request);
        restoreTimeout();
        return answerExecuted(request, reply, socket, executed);
      },
      (e: unknown) => {
        tracker?.end(socket);
        afterExecute(request);
        restoreTimeout();
        throw e;
      },
    );
  };
  /** What a request holds only until it has been executed. */
  const afterExecute = (request: FastifyRequest): void => {
    releaseBody(request);
    // Nothing reads the body once it has been executed (its reply holds none of it).
    givePooledBody(request, core.bodies, core.bodyBuffers);
  };
  const answerExecuted = (request: FastifyRequest, reply: FastifyReply, socket: Socket, outcome: ExecutedRequest): FastifyReply => {
    // 'close' comes once the reply is written or the connection is gone, whichever first; a
    // connection gone while the request ran has had its 'close' already. A pipelined response
    // queued behind an earlier one has no socket yet and gets no 'close' of its own when the
    // connection goes: the socket's 'close' (after its pending writes are cancelled) ends it.
    // Plain listeners, each taken off by the first call (`once` would wrap each in two objects more).
    const res = reply.raw;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      socket.off('close', finish);
      res.off('close', finish);
      outcome.done();
      tracker?.end(socket);
    };
    if (socket.destroyed) finish();
    else {
      res.on('close', finish);
      socket.on('close', finish);
    }
    (request as WithSummary)[SUMMARY] = outcome.summary;
    if (!core.ownInstance) return sendReply(reply, outcome.reply);
    (request as WithSummary)[REPLY_BYTES] = writeReply(reply, outcome.reply);
    return reply;
  };
  /** `run` from a callback: a failure goes to Fastify's error handling, synchronous or not. */
  const runThen = (request: FastifyRequest, reply: FastifyReply, body: Buffer, done: HookDone): void => {
    try {
      const running = run(request, reply, body);
      if (running instanceof Promise) running.catch(done);
    } catch (e) {
      done(e as Error);
    }
  };

  /**
   * On zecrpc's own instance (`core.ownInstance`) the onRequest hook reads the body and runs
   * the request itself: no application hook can want to see the request's later stages, and
   * Fastify's body parsing (an async resource per body) and pre-handler stages cost more than a
   * small request's own work. Bodies are read by the same code, under the same budget.
   */
  const readAndRun = (request: FastifyRequest, reply: FastifyReply, done: HookDone, bodyComing: boolean): void => {
    if (!bodyComing) {
      runThen(request, reply, EMPTY, done);
      return;
    }
    const length = request.headers['content-length'];
    const bodyRead = (error: Error | null, read: ReadBody | null): void => {
      if (error !== null) {
        // As Fastify's body parsing answers a failed body: the client may still be sending it.
        reply.header('connection', 'close');
        return done(error);
      }
      noteReservedBody(request, read!.reserved);
      notePooledBody(request, read!.pooled);
      runThen(request, reply, read!.body, done);
    };
    readBudgetedBodyThen(request.raw, length === undefined ? null : Number(length), core.bodies, bodyWait, bodyRead, core.bodyBuffers);
  };

  /** The route's onRequest hook once zcashd's checks have given their verdict (`early`: a refusal). */
  const afterHead = (request: FastifyRequest, reply: FastifyReply, done: HookDone, early: SimpleReply | null): void => {
    const awaitsContinue = (request.raw as MarkedRequest)[AWAITS_CONTINUE] === true;
    if (early) {
      if (awaitsContinue) reply.header('Connection', 'close');
      answer(reply, early);
      return;
    }
    // As libevent: the interim reply only when a body is to be read.
    const length = request.headers['content-length'];
    const bodyComing = request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    if (awaitsContinue && bodyComing) reply.raw.writeContinue();
    if (core.ownInstance) return readAndRun(request, reply, done, bodyComing);
    // The body is read as bytes by the parser above, whatever the client declared.
    delete request.raw.headers['content-type'];
    done();
  };

  app.route({
    method: [...RPC_ROUTE_METHODS],
    url: '/',
    // A callback hook: a granted request goes on without a promise or a turn of the event loop.
    onRequest: (request, reply, done) => {
      const early = answerFromHead(core, request, exactTargets);
      // A failure answering after the penalty goes to Fastify, never an unhandled rejection.
      if (early instanceof Promise) early.then((verdict) => afterHead(request, reply, done, verdict)).catch(done);
      // A refusal waits for the rest of the packet to be parsed, as libevent reads the whole
      // request first: a malformed body in it gets the 400 page, not the refusal.
      else if (early) queueMicrotask(() => afterHead(request, reply, done, early));
      else afterHead(request, reply, done, null);
    },
    onResponse: (request, reply, next) => {
      releaseBody(request);
      if (logRequests(request)) request.log.info(logFields(request, reply), 'request completed');
      if (metrics) metrics.observeRequest(summaryOf(request), reply.statusCode, replyBytes(request, reply) ?? 0, reply.elapsedTime / 1000);
      next();
    },
    // On zecrpc's own instance the body's reader gives its reservation back on an abort, and the
    // request's run once it is executed: no listener per request for Fastify's abort hook.
    ...(core.ownInstance ? {} : { onRequestAbort: async (request: FastifyRequest) => releaseBody(request) }),
    handler: async (request, reply) => run(request, reply, Buffer.isBuffer(request.body) ? request.body : EMPTY),
  });
}

/**
 * The plugin for embedders. With `store`, serves zecrpc's methods on it; cookie mode writes the
 * cookie once the application is ready and removes it when the application closes.
 */
export const zecrpcRpc: FastifyPluginAsync<ZecrpcRpcOptions> = async (app, opts) => {
  let core = opts.core;
  if (!core) {
    const methods = [...(opts.store ? storeMethods(opts.store) : []), ...(opts.methods ?? [])];
    const owned = createRpcCore({
      config: opts.config,
      methods,
      onStop: opts.onStop,
      memory: opts.memory,
      renderThreads: opts.renderThreads,
      log: app.log as unknown as Logger,
      metrics: opts.metrics,
      bodyWaitMs: opts.bodyWaitMs,
      applicationInstance: true,
    });
    app.addHook('onReady', async () => owned.auth.writeCookie());
    app.addHook('onClose', async () => owned.close());
    core = owned;
  }
  mountRpcRoute(app, core, opts.tracker);
  if (opts.rest) mountRestRoutes(app, core);
};
