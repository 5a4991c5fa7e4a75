// The metrics' bounded labels, the readiness verdict and the listener's option parsing.
import { describe, expect, it } from 'vitest';
import { RpcMetrics, requestOutcome } from '../../src/rpc/http/metrics.js';
import {
  DEFAULT_READY_MAX_LAG,
  parseMetricsBind,
  parseReadyMaxLag,
  readiness,
  startMetricsListener,
} from '../../src/rpc/http/metrics-listener.js';

describe('RpcMetrics labels', () => {
  const m = new RpcMetrics({ processMetrics: false });
  m.setMethodNames(['getblock', 'getblockcount']);

  it('labels a request by a registered name only', () => {
    expect(m.methodLabel({ method: 'getblock', id: '1' })).toBe('getblock');
    expect(m.methodLabel({ method: 'getblocks', id: '1' })).toBe('other');
    expect(m.methodLabel({ method: '__proto__', id: '1' })).toBe('other');
    expect(m.methodLabel({ method: null, id: '1' })).toBe('none');
    expect(m.methodLabel({ batch: 3 })).toBe('batch');
    expect(m.methodLabel(null)).toBe('none');
  });

  it('says what a reply came to', () => {
    expect(requestOutcome({ method: 'getblock', id: '1' }, 200)).toBe('success');
    expect(requestOutcome({ method: 'getblock', id: '1' }, 500)).toBe('error');
    expect(requestOutcome(null, 401)).toBe('unauthorized');
    expect(requestOutcome(null, 403)).toBe('unauthorized');
    expect(requestOutcome(null, 500)).toBe('refused');
  });

  it("shows the RPC core's cache bytes and idle trims as they stand", async () => {
    const fresh = new RpcMetrics({ processMetrics: false });
    const figures = { running: 0, waiting: 0, renderThreads: 0, renderJobs: 0, renderBusySeconds: 0, cacheBytes: 8_123_456, idleTrims: 2 };
    fresh.attachRuntime(() => figures);
    let { text } = await fresh.exposition();
    expect(text).toContain('\nzecrpc_rpc_reply_cache_bytes 8123456\n');
    expect(text).toContain('\nzecrpc_rpc_idle_trims_total 2\n');
    figures.cacheBytes = 0;
    figures.idleTrims = 3;
    ({ text } = await fresh.exposition());
    expect(text).toContain('\nzecrpc_rpc_reply_cache_bytes 0\n');
    expect(text).toContain('\nzecrpc_rpc_idle_trims_total 3\n');
  });

  it('keeps one series per label pair however many distinct names clients send', async () => {
    const fresh = new RpcMetrics({ processMetrics: false });
    fresh.setMethodNames(['getblockcount']);
    for (let i = 0; i < 500; i++) fresh.observeRequest({ method: `m${i}`, id: '1' }, 404, 80, 0.001);
    fresh.observeRequest({ method: 'getblockcount', id: '1' }, 200, 33, 0.0002);
    const { text } = await fresh.exposition();
    const requestLines = text.split('\n').filter((l) => l.startsWith('zecrpc_rpc_requests_total{'));
    expect(requestLines).toEqual([
      'zecrpc_rpc_requests_total{method="other",outcome="error"} 500',
      'zecrpc_rpc_requests_total{method="getblockcount",outcome="success"} 1',
    ]);
    expect(text).toContain('zecrpc_rpc_reply_bytes_total{method="other"} 40000\n');
    expect(text).toContain('zecrpc_rpc_request_duration_seconds_bucket{le="0.0005",method="getblockcount"} 1\n');
  });
});

describe('readiness', () => {
  it('is ready with the store open and no upstream, not once it is closed', () => {
    expect(readiness({ storeOpen: true, storeHeight: 5, upstream: null, maxLag: 2 })).toEqual({
      ready: true,
      reason: 'the chain store is open',
      height: 5,
    });
    expect(readiness({ storeOpen: false, storeHeight: null, upstream: null, maxLag: 2 }).ready).toBe(false);
  });

  it('with an upstream: within maxLag of its tip, inclusive', () => {
    const at = (storeHeight: number, upstream: number | null) =>
      readiness({ storeOpen: true, storeHeight, upstream: { height: upstream }, maxLag: 2 }).ready;
    expect(at(10, null)).toBe(false);
    expect(at(10, 12)).toBe(true);
    expect(at(10, 13)).toBe(false);
    // A store ahead of what the upstream last said (it was polled before) is not behind.
    expect(at(10, 8)).toBe(true);
  });
});

describe('-metricsbind and -readymaxlag', () => {
  it('takes ADDR:PORT and [IPv6]:PORT, and nothing without a port', () => {
    expect(parseMetricsBind('127.0.0.1:9233')).toEqual({ host: '127.0.0.1', port: 9233 });
    expect(parseMetricsBind('[::1]:0')).toEqual({ host: '::1', port: 0 });
    expect(parseMetricsBind('localhost:9233')).toEqual({ host: 'localhost', port: 9233 });
    for (const bad of ['127.0.0.1', '::1:9233', '127.0.0.1:65536', ':9233', '127.0.0.1:']) {
      expect(() => parseMetricsBind(bad)).toThrow(`Invalid value for -metricsbind: '${bad}'`);
    }
  });

  it('takes a block count, default 2', () => {
    expect(parseReadyMaxLag(undefined)).toBe(DEFAULT_READY_MAX_LAG);
    expect(DEFAULT_READY_MAX_LAG).toBe(2);
    expect(parseReadyMaxLag('0')).toBe(0);
    for (const bad of ['-1', 'x', '2147483648', '1.5']) expect(() => parseReadyMaxLag(bad)).toThrow('Invalid value for -readymaxlag');
  });
});

describe('the metrics listener', () => {
  it('answers HEAD without a body, and 503 on /healthy and /ready once shutdown has begun', async () => {
    const metrics = new RpcMetrics({ processMetrics: false });
    const listener = await startMetricsListener({
      host: '127.0.0.1',
      port: 0,
      metrics,
      ready: async () => ({ ready: true, reason: 'the chain store is open', height: 7 }),
    });
    try {
      const url = `http://127.0.0.1:${listener.port}`;
      const head = await fetch(`${url}/ready`, { method: 'HEAD' });
      expect([head.status, await head.text()]).toEqual([200, '']);
      expect(listener.address).toBe(`127.0.0.1:${listener.port}`);
      listener.stopping();
      const healthy = await fetch(`${url}/healthy`);
      expect([healthy.status, await healthy.text()]).toEqual([503, '{"healthy":false,"reason":"shutting down"}\n']);
      const ready = await fetch(`${url}/ready`);
      expect([ready.status, await ready.text()]).toEqual([503, '{"ready":false,"reason":"shutting down"}\n']);
    } finally {
      await listener.close();
    }
  });

  it('answers 500 without the error text when a check throws; the error goes to onError', async () => {
    const failures: Error[] = [];
    const listener = await startMetricsListener({
      host: '127.0.0.1',
      port: 0,
      metrics: new RpcMetrics({ processMetrics: false }),
      ready: () => Promise.reject(new Error('IO error: /srv/zcash/zecrpc/index/000012.ldb: No such file or directory')),
      onError: (e) => failures.push(e),
    });
    try {
      const ready = await fetch(`http://127.0.0.1:${listener.port}/ready`);
      expect([ready.status, await ready.text()]).toEqual([500, '{"error":"the check failed: see the server log"}\n']);
      expect(failures.map((e) => e.message)).toEqual(['IO error: /srv/zcash/zecrpc/index/000012.ldb: No such file or directory']);
    } finally {
      await listener.close();
    }
  });
});
