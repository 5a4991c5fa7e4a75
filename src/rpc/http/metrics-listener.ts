/**
 * The opt-in operations listener (`-metricsbind=ADDR:PORT`): Prometheus metrics at `/metrics`,
 * liveness at `/healthy` and readiness at `/ready`, for scrapers and load balancers. It is a
 * plain HTTP server of its own, never the RPC port: it has no credentials, so it must not share
 * the RPC's allow-list or be reachable wherever the RPC is.
 *
 * `/healthy` answers 200 while the process serves (503 once it is shutting down); `/ready` 200
 * when the store is open and, with `-upstream`, at most `-readymaxlag` blocks behind the
 * upstream's tip as last seen, 503 otherwise. Both bodies are one short JSON object saying why.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIPv6 } from 'node:net';
import type { RpcMetrics } from './metrics.js';

/** `-readymaxlag`'s default: a node this close to its upstream's tip serves current data. */
export const DEFAULT_READY_MAX_LAG = 2;

export interface ReadinessInput {
  /** False once shutdown has begun. */
  storeOpen: boolean;
  storeHeight: number | null;
  /** With -upstream: its tip height as last seen (null: not yet seen); null without -upstream. */
  upstream: { height: number | null } | null;
  maxLag: number;
}

export interface ReadinessVerdict {
  ready: boolean;
  reason: string;
  height: number | null;
  upstreamHeight?: number | null;
}

/** Whether a load balancer should send this node requests, and why. */
export function readiness(i: ReadinessInput): ReadinessVerdict {
  const base = { height: i.storeHeight, ...(i.upstream ? { upstreamHeight: i.upstream.height } : {}) };
  if (!i.storeOpen) return { ready: false, reason: 'the chain store is closed (shutting down)', ...base };
  if (!i.upstream) return { ready: true, reason: 'the chain store is open', ...base };
  if (i.upstream.height === null) return { ready: false, reason: "the upstream's tip has not been seen yet", ...base };
  const lag = Math.max(0, i.upstream.height - (i.storeHeight ?? -1));
  if (lag > i.maxLag) {
    return { ready: false, reason: `${lag} blocks behind the upstream's tip (more than -readymaxlag=${i.maxLag})`, ...base };
  }
  return { ready: true, reason: `${lag} blocks behind the upstream's tip (at most -readymaxlag=${i.maxLag})`, ...base };
}

/**
 * `ADDR:PORT` (`[v6addr]:PORT` for IPv6); the port is required (0 binds any free port). Throws
 * with the expected form otherwise.
 */
export function parseMetricsBind(text: string): { host: string; port: number } {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+):(\d{1,5})$/.exec(text);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) {
    throw new Error(`Invalid value for -metricsbind: '${text}' (expected ADDR:PORT, e.g. 127.0.0.1:9233, or [::1]:9233 for IPv6)`);
  }
  const host = m[1]!.startsWith('[') ? m[1]!.slice(1, -1) : m[1]!;
  return { host, port };
}

/** The `-readymaxlag=N` value: a block count from 0 to 2^31 − 1. */
export function parseReadyMaxLag(text: string | undefined): number {
  if (text === undefined) return DEFAULT_READY_MAX_LAG;
  if (!/^\d{1,10}$/.test(text.trim()) || Number(text) > 0x7fffffff) {
    throw new Error(`Invalid value for -readymaxlag: '${text}' (expected a number of blocks from 0 to 2147483647)`);
  }
  return Number(text);
}

export interface MetricsListenerOptions {
  host: string;
  port: number;
  metrics: RpcMetrics;
  ready: () => Promise<ReadinessVerdict>;
  /** Told about a scrape that failed (a collector threw): the scrape answers 500. */
  onError?: (e: Error) => void;
}

export interface RunningMetricsListener {
  /** `host:port` actually bound. */
  address: string;
  port: number;
  /** From now on `/healthy` and `/ready` answer 503 (shutdown has begun; replies in progress still finish). */
  stopping(): void;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, type: string, body: string, head: boolean): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
  res.end(head ? undefined : body);
}

const JSON_TYPE = 'application/json';

export async function startMetricsListener(opts: MetricsListenerOptions): Promise<RunningMetricsListener> {
  let closing = false;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?', 1)[0];
    const head = req.method === 'HEAD';
    if (path !== '/metrics' && path !== '/healthy' && path !== '/ready') {
      return send(res, 404, JSON_TYPE, '{"error":"not found: the paths are /metrics, /healthy and /ready"}\n', head);
    }
    if (req.method !== 'GET' && !head) {
      res.setHeader('Allow', 'GET, HEAD');
      return send(res, 405, JSON_TYPE, '{"error":"only GET and HEAD"}\n', head);
    }
    if (path === '/healthy') {
      const body = closing ? { healthy: false, reason: 'shutting down' } : { healthy: true, reason: 'serving' };
      return send(res, closing ? 503 : 200, JSON_TYPE, JSON.stringify(body) + '\n', head);
    }
    if (path === '/ready') {
      const verdict = closing ? { ready: false, reason: 'shutting down' } : await opts.ready();
      return send(res, verdict.ready ? 200 : 503, JSON_TYPE, JSON.stringify(verdict) + '\n', head);
    }
    const { text, contentType } = await opts.metrics.exposition();
    return send(res, 200, contentType, text, head);
  };
  const server: Server = createServer((req, res) => {
    // The request body, if any, is not read: drain it so the connection stays usable.
    req.resume();
    handle(req, res).catch((e: unknown) => {
      opts.onError?.(e as Error);
      // The error may name the data directory (a LevelDB failure): the log gets it, the
      // unauthenticated scraper only that it failed.
      if (!res.headersSent) send(res, 500, JSON_TYPE, '{"error":"the check failed: see the server log"}\n', false);
      else res.destroy();
    });
  });
  // A scraper's connection is short; one that stalls must not hold a socket for long.
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: opts.host, port: opts.port, ipv6Only: isIPv6(opts.host) }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as { port: number }).port;
  let closed: Promise<void> | null = null;
  return {
    address: `${isIPv6(opts.host) ? `[${opts.host}]` : opts.host}:${port}`,
    port,
    stopping: () => void (closing = true),
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        closing = true;
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
