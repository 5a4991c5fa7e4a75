/**
 * zecrpc's request policy, independent of the HTTP server it is mounted on: who may call
 * (allow-list, credentials with zcashd's penalty), how many run at once (zcashd's work queue:
 * `-rpcthreads` running, `-rpcworkqueue` waiting, "Work queue depth exceeded" beyond), and how
 * much memory requests may hold (process-wide budgets for bodies, parsed requests and replies,
 * and a per-request budget for each reply). Large blocks are rendered in worker threads whose
 * reply slabs are held until the reply is written. Once no request has come for a while, what
 * a burst left (the methods' reply caches, idle render threads) is given back (idle-trim.ts).
 */
import { BodyBuffers } from './body-buffers.js';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { NodeConfig } from '../../config.js';
import { rpcServerSettings } from '../../config.js';
import { ESTIMATED_BODY_MIN_BYTES, parsedSizeEstimate } from '../../json/size-estimate.js';
import { KnownRuns, type PlainStringSource } from '../../json/known-strings.js';
import { HexRuns } from '../../json/hex-runs.js';
import { storeDirectory } from '../../store/layout.js';
import {
  dispatchJsonRpcBody,
  errorReply,
  RPC_OUT_OF_MEMORY,
  type DispatchOptions,
  type RequestSummary,
  type RpcReply,
} from '../dispatch.js';
import type { BlockRenderer, BlockRenderRequest, MethodCache, RawJson, RpcContext, RpcMethod } from '../method.js';
import { helpMethod, stopMethod } from '../methods/control/index.js';
import { LENT_REPLY_BYTES, LentReplyMemory, MAX_KEPT_REPLY_BUFFERS, MAX_LENT_REPLY_BUFFERS } from '../methods/reply-memory.js';
import { MethodRegistry } from '../registry.js';
import { RenderPool } from '../workers/render-pool.js';
import type { ReplyScope } from '../workers/reply-slab.js';
import { parseAllowList, peerAllowed, type AllowSubnet } from './allow-ip.js';
import { createAuthenticator, type Authenticator } from './auth.js';
import { defaultMemoryLimits, MemoryBudget, RequestBudget, type MemoryLimits } from './memory-budget.js';
import { DEFAULT_IDLE_TRIM_MS, IdleTrimmer, type TrimOutcome, type TrimScheduler } from './idle-trim.js';
import { MemoryReleaser } from './memory-release.js';
import type { RpcMetrics } from './metrics.js';
import { WORK_QUEUE_FULL, WRONG_CREDENTIALS_DELAY_MS, type SimpleReply } from './reply.js';
import { FailedAuthPenalty, type AuthVerdict } from './auth-penalty.js';
import { isCheapCall } from './cheap-calls.js';
import { WorkQueue, type WorkSlot } from './work-queue.js';

/** How long a body waits for the body budget when -rpcservertimeout=0 sets no idle timeout. */
export const DEFAULT_BODY_WAIT_MS = 30_000;

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

const NOTHING = (): void => undefined;

/** A request's reply before it is answered (never sent: a request is handed back answered). */
const NO_REPLY: SimpleReply = { status: 500, body: '', own: 'none' };

const WORK_QUEUE_FULL_WARNING =
  'WARNING: request rejected because http work queue depth exceeded, it can be increased with the -rpcworkqueue= setting';

export interface RpcCoreOptions {
  config: NodeConfig;
  /** Methods besides `help` and `stop`. */
  methods: readonly RpcMethod[];
  /** Called when the `stop` method asks the server to shut down (after its reply is sent). */
  onStop?: () => void;
  /** Memory budgets in bytes; defaults from -rpcrequestmemory/-rpcmemory/-rpcbodymemory (MiB) or the machine's memory. */
  memory?: Partial<MemoryLimits>;
  /** Render-thread count (default -rpcthreads, at most MAX_RENDER_THREADS); 0 renders on the event loop. */
  renderThreads?: number;
  log?: Logger | null;
  /** Prometheus metrics to keep (`-metricsbind`); without, nothing is counted. */
  metrics?: RpcMetrics;
  /**
   * Longest a request body waits for room on the body budget before it is refused with 413
   * (milliseconds); default -rpcservertimeout, or DEFAULT_BODY_WAIT_MS when that is 0 (none).
   */
  bodyWaitMs?: number;
  /**
   * The Fastify instance the core is mounted on is zecrpc's own (`zecrpc serve`'s): no
   * application's hook sees its requests or replies, so the route answers from its onRequest
   * hook and writes every reply's chunks itself, in one gathered write (plugin.ts, reply.ts).
   */
  ownInstance?: boolean;
  /**
   * The instance the core is mounted on is an application's (the `zecrpc/fastify` plugin's own
   * core), whose onSend hooks may keep a reply's chunks after its response: no reply is then
   * written from a render thread's slab, which is lent to another reply once this one is written.
   */
  applicationInstance?: boolean;
  /**
   * Milliseconds without a request after which the reply caches are dropped, idle render
   * threads end and memory is collected (idle-trim.ts; default DEFAULT_IDLE_TRIM_MS, 0: never).
   */
  idleTrimMs?: number;
  /** The idle trim's timer (tests fire it themselves; default an unref'd setTimeout). */
  idleTrimScheduler?: TrimScheduler;
}

export interface ExecutedRequest {
  reply: SimpleReply;
  /** What the body asked for, for the request log. */
  summary: RequestSummary | null;
  /**
   * Gives the reply's memory back; called once the reply is written or abandoned, as a method
   * (it may be one of an object that needs its `this`).
   */
  done(): void;
}

/** A body on its way to a work-queue slot. */
interface PendingRequest {
  body: Buffer;
  signal: AbortSignal | undefined;
  cheap: boolean;
  knownRuns: KnownRuns | undefined;
  hexRuns: HexRuns | undefined;
  /** The memory reserved for its parsed form (0: none). */
  parseCost: number;
}

export interface RpcCoreStats {
  running: number;
  waiting: number;
  replyBytes: number;
  bodyBytes: number;
  /** Bodies waiting for room in the body budget. */
  bodyWaiters: number;
  /** Bytes of replies the methods' caches hold. */
  cacheBytes: number;
  /** Bytes of buffers kept for reuse: lent reply memory (on the reply budget) and body buffers (on the body budget). */
  replyKeptBytes: number;
  bodyKeptBytes: number;
  /** Buffers lent to transaction replies not yet written. */
  lentReplyBuffers: number;
  /** Render threads running, and the bytes of reply slabs they hold. */
  renderThreads: number;
  slabBytes: number;
  /** Render threads started since the server started, and renders handed to them. */
  renderThreadsStarted: number;
  threadRenders: number;
  /** Idle trims run so far. */
  idleTrims: number;
}

export interface RpcCore {
  readonly auth: Authenticator;
  readonly bodies: MemoryBudget;
  /** Request-body memory reused from request to request (body-buffers.ts); absent: each body its own. */
  readonly bodyBuffers?: BodyBuffers;
  /** -rpcservertimeout in milliseconds (0: none). */
  readonly timeoutMs: number;
  /** Longest a body waits for the body budget before it is refused (milliseconds). */
  readonly bodyWaitMs: number;
  /** The metrics requests are counted in, if any. */
  readonly metrics: RpcMetrics | null;
  /** Mounted on zecrpc's own Fastify instance (`ownInstance`). */
  readonly ownInstance: boolean;
  isAllowed(address: string | undefined): boolean;
  /**
   * The request's credentials: 'missing' without an Authorization header, 'refused' after
   * zcashd's penalty delay, 'busy' (zcashd's "Work queue depth exceeded") unchecked while too
   * many wrong ones are being penalized (auth-penalty.ts).
   */
  authenticate(authorization: string | undefined, address: string | undefined): AuthVerdict | Promise<AuthVerdict>;
  /**
   * Runs an authenticated JSON-RPC body through the work queue: the request at once when nothing
   * in it had to wait (a reply a cache holds, a free slot), else a promise of it. `signal`:
   * aborted when the client is gone (methods that scan stop early).
   */
  execute(body: Buffer, signal?: AbortSignal): ExecutedRequest | Promise<ExecutedRequest>;
  stats(): RpcCoreStats;
  /** Resolves once an idle trim in progress (if any) has finished. */
  trimSettled(): Promise<void>;
  /** Stops the render threads and removes the cookie file. */
  close(): Promise<void>;
}

/** A server-side failure as logged: its message, the key it concerns, and what caused it. */
function errorFields(e: Error): Record<string, string> {
  const fields: Record<string, string> = { message: e.message };
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') fields.code = code;
  if (e.cause instanceof Error && !e.message.includes(e.cause.message)) fields.cause = e.cause.message;
  return fields;
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

/**
 * Builds the policy from zcashd's options. In cookie mode the cookie path is checked here and
 * the cookie made; `auth.writeCookie()` writes it once a listener is bound.
 */
export function createRpcCore(opts: RpcCoreOptions): RpcCore {
  const { config } = opts;
  const log = opts.log ?? null;
  const isAllowed = allowChecker(parseAllowList(config.rpcAllowIp));
  const limits = memoryLimits(config, opts.memory);
  const replyBudget = new MemoryBudget(limits.replies);
  const bodyBudget = new MemoryBudget(limits.bodies);
  // Reused memory, counted on the budgets while lent and while kept.
  const replyMemory = new LentReplyMemory(LENT_REPLY_BYTES, MAX_LENT_REPLY_BUFFERS, MAX_KEPT_REPLY_BUFFERS, replyBudget);
  const bodyBuffers = new BodyBuffers(bodyBudget);
  // Large requests' parsed forms (estimated from the body), a pool of the same size as the bodies'.
  const parsedBudget = new MemoryBudget(limits.bodies);
  const settings = rpcServerSettings(config);
  const queue = new WorkQueue(settings.threads, settings.workQueue);
  // As many wrong credentials waiting at once as zcashd's workers and queue could hold.
  const maxPending = settings.threads + settings.workQueue;
  const penalty = new FailedAuthPenalty(
    { ms: WRONG_CREDENTIALS_DELAY_MS, maxPending, maxPerAddress: Math.max(1, Math.ceil(maxPending / 4)) },
    (turnedAway) => log?.warn(`${turnedAway} request(s) with unchecked credentials refused: too many wrong credentials at once`),
  );
  // Calls answered from memory in microseconds get a queue of their own, so that a storm of
  // heavy calls sheds heavy calls, not the probes of every client (cheap-calls.ts).
  const cheapQueue = new WorkQueue(settings.threads, settings.workQueue);
  /** A work-queue slot, or null with zcashd's warning when the queue is full. */
  const enterQueue = (cheap: boolean) => {
    const admitted = (cheap ? cheapQueue : queue).enter();
    if (!admitted) {
      log?.warn(WORK_QUEUE_FULL_WARNING);
      opts.metrics?.noteQueueRejection();
    }
    return admitted;
  };
  // `help` lists the registry it belongs to, hence the late-bound reference.
  const registry: MethodRegistry = new MethodRegistry([helpMethod(() => registry), stopMethod(), ...opts.methods]);
  // The cookie path is checked before the render threads start.
  const auth = createAuthenticator({
    rpcUser: config.rpcUser,
    rpcPassword: config.rpcPassword,
    rpcAuth: config.rpcAuth,
    cookieFile: config.rpcCookieFile,
    protectedDirs: [storeDirectory(config.datadir)],
  });
  const renderThreads = opts.renderThreads ?? Math.min(settings.threads, MAX_RENDER_THREADS);
  const pool = renderThreads > 0 ? new RenderPool({ threads: renderThreads }) : null;
  const renderBacklog = { count: 0, max: 2 * Math.max(1, renderThreads) };
  opts.metrics?.setMethodNames(registry.names());
  opts.metrics?.attachRuntime(() => ({
    running: queue.active,
    waiting: queue.depth,
    renderThreads: pool?.size ?? 0,
    renderJobs: pool?.pending ?? 0,
    renderBusySeconds: pool?.busySeconds() ?? 0,
    cacheBytes: cacheBytes(),
    idleTrims: trimmer.trims,
  }));
  const busy = () => queue.active > 0 || replyBudget.inUse > 0 || (pool?.pending ?? 0) > 0;
  const releaser = new MemoryReleaser({ busy });
  const caches = opts.methods.flatMap((m) => (m.cache ? [m.cache] : []));
  // Caches keyed by long strings that requests repeat: such a string is compared, not scanned.
  const plainStrings: PlainStringSource[] = caches.filter((c): c is MethodCache & PlainStringSource => c.plainStringEqualTo !== undefined);
  const cacheBytes = () => caches.reduce((n, c) => n + c.bytes, 0);
  const trimmer = new IdleTrimmer({
    idleMs: opts.idleTrimMs,
    busy,
    schedule: opts.idleTrimScheduler,
    trim: async (): Promise<TrimOutcome> => {
      const outcome = { cacheBytes: cacheBytes(), renderThreads: 0, keptBufferBytes: replyMemory.dropKept() + bodyBuffers.dropKept() };
      for (const c of caches) c.clear();
      try {
        outcome.renderThreads = (await pool?.retireIdle()) ?? 0;
      } catch (e) {
        log?.warn({ err: errorFields(e as Error) }, 'ending idle render threads failed');
      }
      // Requests may have arrived while the threads were ending: a full collection would stall them.
      if (!busy()) releaser.collectNow();
      return outcome;
    },
    onTrim: (o) => {
      const idleMs = opts.idleTrimMs ?? DEFAULT_IDLE_TRIM_MS;
      const keptBytes = o.keptBufferBytes ?? 0;
      const kept = keptBytes > 0 ? ` and ${keptBytes} bytes of buffers kept for reuse` : '';
      log?.info(
        {
          idleMs,
          droppedCacheBytes: o.cacheBytes,
          ...(keptBytes > 0 ? { droppedKeptBufferBytes: keptBytes } : {}),
          endedRenderThreads: o.renderThreads,
        },
        `idle for ${idleMs / 1000} s: dropped ${o.cacheBytes} bytes of cached replies${kept}, ended ${o.renderThreads} render thread(s), collected garbage`,
      );
    },
  });
  const privateDir = resolve(config.datadir);
  const ctx: RpcContext = {
    network: config.network,
    profile: config.compat,
    requestMemory: limits.perRequest,
    requestStop: () => setImmediate(() => opts.onStop?.()),
    ...(pool ? { blockRenderer: pool } : {}),
    ...(opts.metrics ? { noteCacheLookup: opts.metrics.noteCacheLookup } : {}),
  };

  // The whole error, with the path and the key or file, for the operator only.
  const onServerError = (e: Error, answered: string) => log?.error({ err: errorFields(e) }, answered);
  const noteRelease = (bytes: number) => releaser.noteRelease(bytes);
  const lendReplies = opts.ownInstance === true;
  // The same for the render threads' slabs, which a core mounted nowhere (tests) lends too.
  const lendSlabs = opts.applicationInstance !== true;
  /**
   * One request in its work-queue slot. The one object is its reply scope, its dispatch options,
   * its block renderer and, once answered, the ExecutedRequest handed back: methods of one
   * object, not closures made for each request.
   */
  class SlotRun implements ReplyScope, DispatchOptions, BlockRenderer, ExecutedRequest {
    readonly replyMemory = replyMemory;
    readonly budget = new RequestBudget(replyBudget, limits.perRequest, noteRelease);
    readonly onServerError = onServerError;
    readonly privateDir = privateDir;
    readonly knownRuns: KnownRuns | undefined;
    readonly hexRuns: HexRuns | undefined;
    reply: SimpleReply = NO_REPLY;
    summary: RequestSummary | null = null;
    /** Memory lent to this reply by the render threads, given back once the reply is written. */
    private held: (() => void)[] | null = null;
    private readonly cheap: boolean;
    private readonly parseCost: number;

    constructor(
      request: PendingRequest,
      private readonly slot: WorkSlot,
    ) {
      this.knownRuns = request.knownRuns;
      this.hexRuns = request.hexRuns;
      this.cheap = request.cheap;
      this.parseCost = request.parseCost;
    }

    hold(release: () => void): void {
      (this.held ??= []).push(release);
    }

    async yieldTurn(): Promise<void> {
      await new Promise((r) => setImmediate(r));
      await this.slot.yield();
    }

    /**
     * Renders in a thread run off the slot, so cheap requests are not queued behind them; at
     * most `renderBacklog` do, beyond that a render keeps its slot (backpressure).
     */
    async render(req: BlockRenderRequest): Promise<RawJson> {
      const slabScope = lendSlabs ? this : undefined;
      if (!pool!.usesThread(req) || renderBacklog.count >= renderBacklog.max) return pool!.render(req, slabScope);
      renderBacklog.count++;
      const resume = this.slot.suspend();
      try {
        return await pool!.render(req, slabScope);
      } finally {
        renderBacklog.count--;
        await resume();
      }
    }

    /** The context the request runs in: what it adds to the server's are its signal and render-thread policy. */
    context(signal: AbortSignal | undefined): RpcContext {
      // Transaction replies are lent memory only on zecrpc's own instance: on an application's, an
      // onSend hook may keep a reply's chunks past the response, after the memory is lent again.
      const replyScope = lendReplies ? this : undefined;
      if (!pool) return { ...ctx, signal, replyScope };
      // Every member of `ctx` written out rather than spread: one object of one shape per request.
      return {
        network: ctx.network,
        profile: ctx.profile,
        requestMemory: ctx.requestMemory,
        requestStop: ctx.requestStop,
        signal,
        noteCacheLookup: ctx.noteCacheLookup,
        replyScope,
        blockRenderer: this,
      };
    }

    /** Gives the reply's memory back. */
    done(): void {
      this.budget.releaseAll();
      const held = this.held;
      this.held = null;
      if (held !== null) for (const release of held) release();
      if (!this.cheap) trimmer.noteActivity();
    }

    /** The parsed request is garbage once its reply is built. */
    leave(): void {
      if (this.parseCost > 0) parsedBudget.release(this.parseCost);
      this.slot.release();
    }

    answered(r: RpcReply): ExecutedRequest {
      this.leave();
      this.reply = { status: r.status, body: r.body, own: 'json' };
      this.summary = r.summary ?? null;
      return this;
    }

    failed(e: unknown): never {
      this.done();
      this.leave();
      throw e;
    }
  }

  /**
   * Runs a body: at once when the memory for its parsed form and a work-queue slot are free now
   * and its method answers without waiting (a reply a cache holds), otherwise as a promise.
   */
  function execute(body: Buffer, signal?: AbortSignal): ExecutedRequest | Promise<ExecutedRequest> {
    // A large request's parsed form is reserved before it takes a work-queue slot, so a request
    // waiting for that memory holds nothing other requests need to give it back.
    // Cheap calls (a monitor's probes) use no cache or render thread: they leave the server idle.
    const cheap = isCheapCall(body);
    if (!cheap) trimmer.noteActivity();
    // Only a body the estimate reads can hold a long string to look for.
    const knownRuns = plainStrings.length > 0 && body.length >= ESTIMATED_BODY_MIN_BYTES ? new KnownRuns(plainStrings) : undefined;
    const hexRuns = body.length >= ESTIMATED_BODY_MIN_BYTES ? new HexRuns() : undefined;
    const parseCost = parsedSizeEstimate(body, knownRuns, hexRuns);
    const request: PendingRequest = { body, signal, cheap, knownRuns, hexRuns, parseCost };
    if (parseCost > 0 && !parsedBudget.tryReserve(parseCost)) return reserveAndRun(request);
    const slot = (cheap ? cheapQueue : queue).enterNow();
    return slot !== null ? runInSlot(request, slot) : queueAndRun(request);
  }

  /** `execute` once the parsed form's memory is free (or could never be). */
  async function reserveAndRun(request: PendingRequest): Promise<ExecutedRequest> {
    if (!(await parsedBudget.reserve(request.parseCost))) return { reply: REQUEST_TOO_LARGE, summary: null, done: NOTHING };
    return queueAndRun(request);
  }

  /** `execute` once a work-queue slot is free; refused at once when the queue is full. */
  async function queueAndRun(request: PendingRequest): Promise<ExecutedRequest> {
    const admitted = enterQueue(request.cheap);
    if (!admitted) {
      if (request.parseCost > 0) parsedBudget.release(request.parseCost);
      return { reply: WORK_QUEUE_FULL, summary: null, done: NOTHING };
    }
    return runInSlot(request, await admitted);
  }

  function runInSlot(request: PendingRequest, slot: WorkSlot): ExecutedRequest | Promise<ExecutedRequest> {
    const run = new SlotRun(request, slot);
    let reply: RpcReply | Promise<RpcReply>;
    try {
      reply = dispatchJsonRpcBody(request.body, registry, run.context(request.signal), run);
    } catch (e) {
      return run.failed(e);
    }
    return reply instanceof Promise
      ? reply.then(
          (r) => run.answered(r),
          (e: unknown) => run.failed(e),
        )
      : run.answered(reply);
  }

  let closed: Promise<void> | null = null;
  return {
    auth,
    bodies: bodyBudget,
    bodyBuffers,
    timeoutMs: settings.serverTimeout * 1000,
    // No longer than a connection may stay idle: a client waiting that long hears why.
    bodyWaitMs: opts.bodyWaitMs ?? (settings.serverTimeout > 0 ? settings.serverTimeout * 1000 : DEFAULT_BODY_WAIT_MS),
    metrics: opts.metrics ?? null,
    ownInstance: opts.ownInstance === true,
    isAllowed,
    authenticate: (authorization, address) => penalty.authenticate(authorization, address ?? '', (a) => auth.check(a)),
    execute,
    stats: () => ({
      running: queue.active,
      waiting: queue.depth,
      replyBytes: replyBudget.inUse,
      bodyBytes: bodyBudget.inUse,
      bodyWaiters: bodyBudget.queued,
      cacheBytes: cacheBytes(),
      replyKeptBytes: replyBudget.kept,
      bodyKeptBytes: bodyBudget.kept,
      lentReplyBuffers: replyMemory.stats().lent,
      renderThreads: pool?.size ?? 0,
      slabBytes: pool?.slabBytes ?? 0,
      renderThreadsStarted: pool?.threadsStarted ?? 0,
      threadRenders: pool?.threadRenders ?? 0,
      idleTrims: trimmer.trims,
    }),
    trimSettled: () => trimmer.settled(),
    close() {
      return (closed ??= (async () => {
        trimmer.close();
        await trimmer.settled();
        await pool?.close();
        replyMemory.close();
        releaser.close();
        auth.removeCookie();
      })());
    },
  };
}
