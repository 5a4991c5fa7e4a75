/**
 * The server's Prometheus metrics (prom-client), served by the opt-in listener of
 * metrics-listener.ts (`-metricsbind`), never on the RPC port.
 *
 * Label values come from bounded sets only: a method label is a registered method's name, or
 * one of `batch`, `none` (no call was read: refused before dispatch, or an unparsable body) and
 * `other` (a name no method has). A client's string never becomes a label, so no client can make
 * the series grow without bound.
 *
 * Per request, a reply costs a few map lookups and three increments on cached label children;
 * everything else (queue, render threads, store, upstream, disk) is read when scraped.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RequestSummary } from '../dispatch.js';
import type { ReplyCacheName } from '../method.js';

/** What an answered request came to, as the `outcome` label says it. */
export type RequestOutcome = 'success' | 'error' | 'unauthorized' | 'refused';

/** The RPC core's live figures the metrics read when scraped. */
export interface RpcRuntimeFigures {
  /** Requests executing (holding a work-queue slot). */
  running: number;
  /** Requests admitted and waiting for a slot (zcashd's queue depth). */
  waiting: number;
  /** Render threads started. */
  renderThreads: number;
  /** Jobs handed to render threads and not yet answered. */
  renderJobs: number;
  /** Seconds render threads have spent with at least one job, since the server started. */
  renderBusySeconds: number;
  /** Bytes of replies the methods' caches hold. */
  cacheBytes: number;
  /** Idle trims run since the server started (idle-trim.ts). */
  idleTrims: number;
}

/** Figures of the node around the RPC server, read when scraped. */
export interface NodeFigures {
  /** The active chain's height in the store, or null when the store holds no block. */
  storeHeight(): Promise<number | null>;
  /** The upstream's tip height as last seen, or null before the first poll answered (absent without -upstream). */
  upstreamHeight?(): number | null;
  /** Bytes on disk of the store's parts (cached by the caller: a scrape must stay cheap). */
  diskBytes?(): Promise<{ index: number; blocks: number }>;
  /** Store values read whose checksum did not match, since the store opened. */
  damagedReads?(): number;
}

/** prom-client's default gauges whose names end in `_total`. */
const MISNAMED_DEFAULT_GAUGES = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/** Latency buckets in seconds: sub-millisecond cached replies up to the slowest large batches. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** `outcome` from what the reply was: a JSON-RPC reply when a call was read, an HTTP refusal otherwise. */
export function requestOutcome(summary: RequestSummary | null, status: number): RequestOutcome {
  if (summary !== null) return status === 200 ? 'success' : 'error';
  if (status === 401 || status === 403) return 'unauthorized';
  return 'refused';
}

interface RequestSeries {
  duration: Histogram.Internal<string>;
  replyBytes: Counter.Internal;
  outcomes: Map<RequestOutcome, Counter.Internal>;
}

export class RpcMetrics {
  readonly registry = new Registry();
  private readonly methodNames = new Set<string>();
  private readonly series = new Map<string, RequestSeries>();
  private readonly requests: Counter<'method' | 'outcome'>;
  private readonly duration: Histogram<'method'>;
  private readonly replyBytes: Counter<'method'>;
  private readonly rejections: Counter;
  private readonly cacheLookups: Counter<'cache' | 'result'>;
  private runtime: (() => RpcRuntimeFigures) | null = null;
  private node: NodeFigures | null = null;

  /** `processMetrics`: prom-client's default collectors (memory, CPU, event loop lag, handles); default on. */
  constructor(opts: { processMetrics?: boolean } = {}) {
    if (opts.processMetrics !== false) {
      collectDefaultMetrics({ register: this.registry });
      // Gauges named like counters, which promtool's lint refuses; the handle and request counts
      // they show say little about this server's work.
      for (const name of MISNAMED_DEFAULT_GAUGES) this.registry.removeSingleMetric(name);
    }
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'zecrpc_rpc_requests_total',
      help: 'JSON-RPC requests answered, by method (batch, none or other when not a registered name) and outcome',
      labelNames: ['method', 'outcome'],
      registers,
    });
    this.duration = new Histogram({
      name: 'zecrpc_rpc_request_duration_seconds',
      help: 'Time from the request line to the last reply byte handed to the socket, by method',
      labelNames: ['method'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.replyBytes = new Counter({
      name: 'zecrpc_rpc_reply_bytes_total',
      help: 'Reply body bytes sent, by method',
      labelNames: ['method'],
      registers,
    });
    this.cacheLookups = new Counter({
      name: 'zecrpc_rpc_reply_cache_lookups_total',
      help: 'Lookups in the reply caches (getblock, decoderawtransaction), by cache and result (hit or miss)',
      labelNames: ['cache', 'result'],
      registers,
    });
    this.rejections = new Counter({
      name: 'zecrpc_rpc_work_queue_rejections_total',
      help: 'Requests refused because the work queue was full (-rpcworkqueue)',
      registers,
    });
    const figures = () => this.runtime?.();
    new Gauge({
      name: 'zecrpc_rpc_work_queue_depth',
      help: 'Requests admitted and waiting for a work-queue slot',
      registers,
      collect() {
        this.set(figures()?.waiting ?? 0);
      },
    });
    new Gauge({
      name: 'zecrpc_rpc_requests_running',
      help: 'Requests holding a work-queue slot (at most -rpcthreads)',
      registers,
      collect() {
        this.set(figures()?.running ?? 0);
      },
    });
    new Gauge({
      name: 'zecrpc_render_threads',
      help: 'Render threads started (idle ones end after a while)',
      registers,
      collect() {
        this.set(figures()?.renderThreads ?? 0);
      },
    });
    new Gauge({
      name: 'zecrpc_render_jobs_in_flight',
      help: 'Block renders handed to render threads and not yet answered',
      registers,
      collect() {
        this.set(figures()?.renderJobs ?? 0);
      },
    });
    new Counter({
      name: 'zecrpc_render_thread_busy_seconds_total',
      help: 'Seconds render threads spent with at least one job (its rate over the thread count is their utilisation)',
      registers,
      collect() {
        // A total kept by the render pool: the counter shows it as it stands.
        this.reset();
        this.inc(figures()?.renderBusySeconds ?? 0);
      },
    });
    new Gauge({
      name: 'zecrpc_rpc_reply_cache_bytes',
      help: 'Bytes of replies kept by the reply caches of getblock, getrawtransaction and decoderawtransaction (dropped when the server goes idle)',
      registers,
      collect() {
        this.set(figures()?.cacheBytes ?? 0);
      },
    });
    new Counter({
      name: 'zecrpc_rpc_idle_trims_total',
      help: 'Times the server, idle, dropped its reply caches, ended idle render threads and collected garbage',
      registers,
      collect() {
        // A total kept by the RPC core: the counter shows it as it stands.
        this.reset();
        this.inc(figures()?.idleTrims ?? 0);
      },
    });
    this.nodeGauges(registers);
  }

  private nodeGauges(registers: Registry[]): void {
    const node = () => this.node;
    new Gauge({
      name: 'zecrpc_store_height',
      help: "Height of the store's active chain tip (-1: no block)",
      registers,
      async collect() {
        this.set((await node()?.storeHeight()) ?? -1);
      },
    });
    new Gauge({
      name: 'zecrpc_upstream_height',
      help: "The -upstream node's tip height as last seen (-1: not yet seen or no -upstream)",
      registers,
      collect() {
        this.set(node()?.upstreamHeight?.() ?? -1);
      },
    });
    new Gauge({
      name: 'zecrpc_upstream_lag_blocks',
      help: "Blocks the store is behind the -upstream node's tip as last seen (-1: not yet seen or no -upstream)",
      registers,
      async collect() {
        const upstream = node()?.upstreamHeight?.() ?? null;
        const height = upstream === null ? null : await node()!.storeHeight();
        this.set(upstream === null ? -1 : Math.max(0, upstream - (height ?? -1)));
      },
    });
    new Counter({
      name: 'zecrpc_store_damaged_reads_total',
      help: 'Store values read whose checksum did not match (each answered as an unreadable block, never as data)',
      registers,
      collect() {
        // A total kept by the store: the counter shows it as it stands.
        this.reset();
        this.inc(node()?.damagedReads?.() ?? 0);
      },
    });
    new Gauge({
      name: 'zecrpc_store_disk_bytes',
      help: "Bytes on disk of the chain store: part index is LevelDB's directory, blocks the flat block files",
      labelNames: ['part'],
      registers,
      async collect() {
        const sizes = await node()?.diskBytes?.();
        this.reset();
        if (!sizes) return;
        this.set({ part: 'index' }, sizes.index);
        this.set({ part: 'blocks' }, sizes.blocks);
      },
    });
  }

  /** The names that are their own `method` label: the registry's. */
  setMethodNames(names: Iterable<string>): void {
    for (const n of names) this.methodNames.add(n);
  }

  /** Where the queue and render-thread figures come from (the RPC core). */
  attachRuntime(read: () => RpcRuntimeFigures): void {
    this.runtime = read;
  }

  /** Where the store and upstream figures come from (`zecrpc serve`). */
  attachNode(figures: NodeFigures): void {
    this.node = figures;
  }

  noteQueueRejection(): void {
    this.rejections.inc();
  }

  /** A lookup in a method's reply cache (an arrow: methods call it detached from the metrics). */
  readonly noteCacheLookup = (cache: ReplyCacheName, hit: boolean): void => {
    this.cacheLookups.inc({ cache, result: hit ? 'hit' : 'miss' });
  };

  /** The `method` label of a request: never the client's text unless it names a registered method. */
  methodLabel(summary: RequestSummary | null): string {
    if (summary === null) return 'none';
    if ('batch' in summary) return 'batch';
    if (summary.method === null) return 'none';
    return this.methodNames.has(summary.method) ? summary.method : 'other';
  }

  observeRequest(summary: RequestSummary | null, status: number, bytes: number, seconds: number): void {
    const method = this.methodLabel(summary);
    let s = this.series.get(method);
    if (!s) {
      s = { duration: this.duration.labels(method), replyBytes: this.replyBytes.labels(method), outcomes: new Map() };
      this.series.set(method, s);
    }
    const outcome = requestOutcome(summary, status);
    let counter = s.outcomes.get(outcome);
    if (!counter) {
      counter = this.requests.labels(method, outcome);
      s.outcomes.set(outcome, counter);
    }
    counter.inc();
    s.duration.observe(seconds);
    if (bytes > 0) s.replyBytes.inc(bytes);
  }

  /** The exposition text (Prometheus text format 0.0.4) and its Content-Type. */
  async exposition(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
