/**
 * The JSON-RPC HTTP server: zcashd's request pipeline (rpc-http-json.md §1.2) on plain TCP
 * sockets, with libevent's framing written byte for byte (framing.ts) and zcashd's work queue
 * (`-rpcthreads` running, `-rpcworkqueue` waiting, "Work queue depth exceeded" beyond).
 *
 * What protects the process from its clients:
 * - memory: request bodies being received, and replies being built or written, hold
 *   reservations on process-wide budgets; each reply also on a per-request budget (a reply that
 *   would outgrow it is answered with an error instead, see dispatch.ts);
 * - CPU: large blocks are decoded and rendered in worker threads (workers/render-pool.ts), and
 *   long batches hand their work-queue slot around between items;
 * - credentials are checked from the request head, before any body is read;
 * - shutdown closes idle and half-sent connections at once, lets replies in progress finish
 *   for at most `shutdownGraceMs`, then closes everything.
 */
import { createServer, isIPv6, type Server, type Socket } from 'node:net';
import { pino, type Logger } from 'pino';
import { rpcServerSettings, type NodeConfig } from '../../config.js';
import { storeDirectory } from '../../store/layout.js';
import { parseAllowList, peerAllowed, type AllowSubnet } from './allow-ip.js';
import { createAuthenticator, type Authenticator } from './auth.js';
import { Connection, WORK_QUEUE_FULL, type ConnectionHost, type SimpleReply } from './connection.js';
import { errorReply, handleJsonRpcBody, RPC_OUT_OF_MEMORY } from '../dispatch.js';
import { parsedSizeEstimate } from '../../json/reader.js';
import { defaultMemoryLimits, MemoryBudget, RequestBudget, type MemoryLimits } from './memory-budget.js';
import { MemoryReleaser } from './memory-release.js';
import type { RequestHead } from './request-head.js';
import { WorkQueue } from './work-queue.js';
import type { RpcContext, RpcMethod } from '../method.js';
import { helpMethod, stopMethod } from '../methods/control/index.js';
import { MethodRegistry } from '../registry.js';
import { RenderPool } from '../workers/render-pool.js';
import type { ReplyScope } from '../workers/reply-slab.js';

export { MAX_BODY_SIZE } from './request-body.js';
export { MAX_HEADERS_SIZE } from './request-head.js';
export { WRONG_CREDENTIALS_DELAY_MS } from './connection.js';

/**
 * At most this many render threads, whatever `-rpcthreads` says: zcashd accepts any thread
 * count, and past a few per core a render thread only adds a heap.
 */
export const MAX_RENDER_THREADS = 64;

/** The answer to a request whose parsed form could never fit the memory for requests. */
const REQUEST_TOO_LARGE: SimpleReply = {
  status: 500,
  body:
    errorReply(
      RPC_OUT_OF_MEMORY,
      "Request too large: parsing it would take more than the server's memory for requests (-rpcbodymemory); send fewer or smaller calls per request",
      null,
    ) + '\n',
  own: 'json',
};

const WORK_QUEUE_FULL_WARNING =
  'WARNING: request rejected because http work queue depth exceeded, it can be increased with the -rpcworkqueue= setting';

/** How long replies in progress may take to finish once shutdown has begun. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 3000;

export interface RpcServerOptions {
  config: NodeConfig;
  /** Methods besides `help` and `stop`. */
  methods: readonly RpcMethod[];
  /**
   * pino logger options (`stream` may carry a destination), true for pino's defaults, false
   * (default) for none. Authorization headers are never logged.
   */
  logger?: boolean | Record<string, unknown>;
  /** Called when the `stop` method asks the server to shut down (after its reply is sent). */
  onStop?: () => void;
  /** Memory budgets in bytes; defaults from -rpcrequestmemory/-rpcmemory/-rpcbodymemory (MiB) or the machine's memory. */
  memory?: Partial<MemoryLimits>;
  /** Render-thread count (default -rpcthreads, at most MAX_RENDER_THREADS); 0 renders on the event loop. */
  renderThreads?: number;
  shutdownGraceMs?: number;
}

export interface RunningRpcServer {
  /** The port actually bound (useful with -rpcport=0). */
  port: number;
  /** Every `address:port` listened on. */
  addresses: string[];
  /** The cookie file in cookie mode. */
  cookieFile: string | null;
  /** Live figures, for tests and monitoring. */
  stats(): { connections: number; running: number; waiting: number; replyBytes: number; bodyBytes: number };
  close(): Promise<void>;
}

/**
 * Allow-list verdicts per peer address: peers are few, and a verdict parses the address and
 * tries every subnet, at thousands of requests per second.
 */
function allowChecker(list: readonly AllowSubnet[]): (address: string | undefined) => boolean {
  const verdicts = new Map<string, boolean>();
  return (address) => {
    if (!address) return false;
    let ok = verdicts.get(address);
    if (ok === undefined) {
      ok = peerAllowed(list, address);
      if (verdicts.size >= 4096) verdicts.clear();
      verdicts.set(address, ok);
    }
    return ok;
  };
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

function makeLogger(setting: RpcServerOptions['logger']): Logger | null {
  if (!setting) return null;
  const options = setting === true ? {} : { ...setting };
  const stream = (options as { stream?: unknown }).stream;
  delete (options as { stream?: unknown }).stream;
  const redact = { paths: ['req.headers.authorization'], remove: true };
  return stream ? pino({ ...options, redact }, stream as NodeJS.WritableStream) : pino({ ...options, redact });
}

const MIB = 1024 * 1024;

/** Budgets from explicit options, then `-rpcrequestmemory`/`-rpcmemory`/`-rpcbodymemory` (MiB), then defaults. */
function memoryLimits(config: NodeConfig, explicit: Partial<MemoryLimits> | undefined): MemoryLimits {
  const d = defaultMemoryLimits();
  const mib = (name: string): number | undefined => {
    const v = config.getArg(name);
    if (v === undefined) return undefined;
    // At most 2^31 − 1 MiB (2 PiB): more than any machine has, and budgets in bytes stay exact
    // integers (below 2^53).
    if (!/^\d+$/.test(v.trim()) || Number(v) < 1 || Number(v) > 0x7fffffff) {
      throw new Error(`Invalid value for -${name}: '${v}' (expected MiB from 1 to 2147483647)`);
    }
    return Number(v) * MIB;
  };
  return {
    perRequest: explicit?.perRequest ?? mib('rpcrequestmemory') ?? d.perRequest,
    replies: explicit?.replies ?? mib('rpcmemory') ?? d.replies,
    bodies: explicit?.bodies ?? mib('rpcbodymemory') ?? d.bodies,
  };
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

export async function startRpcServer(opts: RpcServerOptions): Promise<RunningRpcServer> {
  const { config } = opts;
  if (config.getBoolArg('rpcssl', false)) throw new Error('SSL mode for RPC (-rpcssl) is no longer supported.');
  const log = makeLogger(opts.logger);
  const isAllowed = allowChecker(parseAllowList(config.rpcAllowIp));
  const limits = memoryLimits(config, opts.memory);
  const replyBudget = new MemoryBudget(limits.replies);
  const bodyBudget = new MemoryBudget(limits.bodies);
  // Large requests' parsed forms (estimated from the body), a pool of the same size as the bodies'.
  const parsedBudget = new MemoryBudget(limits.bodies);
  const settings = rpcServerSettings(config);
  const queue = new WorkQueue(settings.threads, settings.workQueue);
  /** A work-queue slot, or null with zcashd's warning when the queue is full. */
  const enterQueue = () => {
    const admitted = queue.enter();
    if (!admitted) log?.warn(WORK_QUEUE_FULL_WARNING);
    return admitted;
  };
  // `help` lists the registry it belongs to, hence the late-bound reference.
  const registry: MethodRegistry = new MethodRegistry([helpMethod(() => registry), stopMethod(), ...opts.methods]);
  const binds = bindAddresses(config).map((x) => splitHostPort(x, config.rpcPort));
  // The cookie path is checked here, before the render threads start; the cookie is written
  // once a listener is bound (below).
  const auth: Authenticator = createAuthenticator({
    rpcUser: config.rpcUser,
    rpcPassword: config.rpcPassword,
    rpcAuth: config.rpcAuth,
    cookieFile: config.rpcCookieFile,
    protectedDirs: [storeDirectory(config.datadir)],
  });
  const renderThreads = opts.renderThreads ?? Math.min(settings.threads, MAX_RENDER_THREADS);
  const pool = renderThreads > 0 ? new RenderPool({ threads: renderThreads }) : null;
  const renderBacklog = { count: 0, max: 2 * Math.max(1, renderThreads) };
  const releaser = new MemoryReleaser({ busy: () => queue.active > 0 || replyBudget.inUse > 0 || (pool?.pending ?? 0) > 0 });
  const ctx: RpcContext = {
    network: config.network,
    profile: config.compat,
    requestMemory: limits.perRequest,
    requestStop: () => setImmediate(() => opts.onStop?.()),
    ...(pool ? { blockRenderer: pool } : {}),
  };
  const timeoutMs = settings.serverTimeout * 1000;
  const connections = new Set<Connection>();
  let closing = false;

  const host: ConnectionHost = {
    timeoutMs,
    get closing() {
      return closing;
    },
    isAllowed,
    checkAuth: (authorization) => (authorization === undefined ? null : auth.check(authorization)),
    bodies: bodyBudget,
    async penalize(ms) {
      const admitted = enterQueue();
      if (!admitted) return false;
      const slot = await admitted;
      await new Promise((r) => setTimeout(r, ms));
      slot.release();
      return true;
    },
    async execute(body) {
      // A large request's parsed form is reserved before it takes a work-queue slot, so a request
      // waiting for that memory holds nothing other requests need to give it back.
      const parseCost = parsedSizeEstimate(body);
      if (parseCost > 0 && !(await parsedBudget.reserve(parseCost))) return { reply: REQUEST_TOO_LARGE, done: () => undefined };
      const releaseParsed = () => parsedBudget.release(parseCost);
      const admitted = enterQueue();
      if (!admitted) {
        releaseParsed();
        return { reply: WORK_QUEUE_FULL, done: () => undefined };
      }
      const slot = await admitted;
      // Memory lent to this reply by the render threads, given back once the reply is written.
      const held: (() => void)[] = [];
      const scope: ReplyScope = { hold: (release) => held.push(release) };
      const giveBack = () => {
        for (const release of held.splice(0)) release();
      };
      // Renders in a thread run off the slot, so cheap requests are not queued behind them;
      // at most `renderBacklog` do, beyond that a render keeps its slot (backpressure).
      const requestCtx: RpcContext = pool
        ? {
            ...ctx,
            blockRenderer: {
              render: async (req) => {
                if (!pool.usesThread(req) || renderBacklog.count >= renderBacklog.max) return pool.render(req, scope);
                renderBacklog.count++;
                const resume = slot.suspend();
                try {
                  return await pool.render(req, scope);
                } finally {
                  renderBacklog.count--;
                  await resume();
                }
              },
            },
          }
        : ctx;
      const budget = new RequestBudget(replyBudget, limits.perRequest, (bytes) => releaser.noteRelease(bytes));
      const done = () => {
        budget.releaseAll();
        giveBack();
      };
      try {
        const reply = await handleJsonRpcBody(body, registry, requestCtx, {
          budget,
          yieldTurn: async () => {
            await new Promise((r) => setImmediate(r));
            await slot.yield();
          },
          onServerError: (e) => log?.error({ err: { message: e.message } }, "Can't read block from disk"),
        });
        const status = reply.status;
        return { reply: { status, body: reply.body, own: 'json' }, done };
      } catch (e) {
        done();
        throw e;
      } finally {
        releaseParsed(); // the parsed request is garbage once its reply is built
        slot.release();
      }
    },
    logIncoming(head, remote) {
      log?.info({ req: { method: head.method, url: head.target, remoteAddress: remote } }, 'incoming request');
    },
    logRequest(head: RequestHead, status, started, remote) {
      log?.info(
        {
          req: { method: head.method, url: head.target, remoteAddress: remote },
          res: { statusCode: status },
          responseTime: performance.now() - started,
        },
        'request completed',
      );
    },
  };

  const onSocket = (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    const conn = new Connection(socket, host);
    connections.add(conn);
    void conn.finished.then(() => connections.delete(conn));
    conn.serve().catch((e: unknown) => {
      log?.error({ err: { message: (e as Error).message } }, 'connection failed');
      conn.destroy();
    });
  };

  const servers: Server[] = [];
  const addresses: string[] = [];
  let boundPort = 0;
  let firstError: Error | null = null;
  for (const b of binds) {
    // A port of 0 means "any" for the first bind and "the same port" for the others.
    const port = b.port === 0 && boundPort !== 0 ? boundPort : b.port;
    // Half-open: a client that sends its request and then its FIN still gets the reply, as from
    // zcashd, which reads no more while a request runs; the connection ends after it.
    const server = createServer({ noDelay: true, allowHalfOpen: true }, onSocket);
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
  if (servers.length === 0) {
    await pool?.close();
    throw firstError ?? new Error('Unable to bind any endpoint for RPC server');
  }
  try {
    auth.writeCookie();
  } catch (e) {
    await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
    await pool?.close();
    throw e;
  }

  let closed: Promise<void> | null = null;
  return {
    port: boundPort,
    addresses,
    cookieFile: auth.cookieFile,
    stats: () => ({
      connections: connections.size,
      running: queue.active,
      waiting: queue.depth,
      replyBytes: replyBudget.inUse,
      bodyBytes: bodyBudget.inUse,
    }),
    close() {
      return (closed ??= (async () => {
        closing = true;
        const stopped = Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
        for (const c of connections) if (c.state !== 'busy') c.destroy();
        const grace = opts.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
        const all = Promise.all([...connections].map((c) => c.finished));
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<void>((r) => (timer = setTimeout(r, grace)));
        await Promise.race([all, late]);
        clearTimeout(timer);
        for (const c of connections) c.destroy();
        await all;
        await stopped;
        await pool?.close();
        releaser.close();
        auth.removeCookie();
      })());
    },
  };
}
