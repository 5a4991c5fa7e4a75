// `zecrpc serve -metricsbind=…`: Prometheus metrics checked by promtool, /healthy and /ready.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startNode, type ServeHandle } from '../../src/cli/serve.js';
import { ConfigError } from '../../src/config.js';
import { mainnetChain, tempDir } from '../support/store.js';
import { UpstreamServer, waitFor } from '../support/upstream-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function post(port: number, body: unknown, auth = 'u:p'): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    headers: { authorization: 'Basic ' + Buffer.from(auth).toString('base64') },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

async function get(port: number, path: string): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The value of one sample in exposition text, e.g. `zecrpc_rpc_requests_total{method="getblockcount",outcome="success"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function startWithMetrics(extra: string[] = []): Promise<{ node: ServeHandle; metricsPort: number }> {
  const dir = tempDir('metrics');
  cleanups.push(dir.remove);
  const node = await startNode(
    [`-datadir=${dir.path}`, '-rpcport=0', '-rpcuser=u', '-rpcpassword=p', '-metricsbind=127.0.0.1:0', ...extra],
    {
      log: false,
    },
  );
  cleanups.push(() => node.shutdown());
  expect(node.metrics).not.toBeNull();
  return { node, metricsPort: node.metrics!.port };
}

function promtoolPath(): string | null {
  const r = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
  return r.error ? null : 'promtool';
}

describe('-metricsbind: /metrics', () => {
  it('counts requests by bounded method labels and outcome, and passes promtool check metrics', async (ctx) => {
    const { node, metricsPort } = await startWithMetrics();
    const rpcPort = node.server.port;
    expect(metricsPort).not.toBe(rpcPort);
    for (let i = 0; i < 3; i++) expect(await post(rpcPort, { id: i, method: 'getblockcount', params: [] })).toBe(200);
    // A name no method has is counted as `other`: the client's text never becomes a label.
    expect(await post(rpcPort, { id: 9, method: 'attackerChosenName123', params: [] })).toBe(404);
    expect(
      await post(rpcPort, [
        { id: 1, method: 'getblockcount' },
        { id: 2, method: 'getbestblockhash' },
      ]),
    ).toBe(200);
    expect(await post(rpcPort, { id: 1, method: 'getblockcount' }, 'u:wrong')).toBe(401);
    // The RPC port does not serve the metrics.
    expect((await get(rpcPort, '/metrics')).status).toBe(404);

    const { status, type, text } = await get(metricsPort, '/metrics');
    expect(status).toBe(200);
    expect(type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(sample(text, 'zecrpc_rpc_requests_total{method="getblockcount",outcome="success"}')).toBe(3);
    expect(sample(text, 'zecrpc_rpc_requests_total{method="other",outcome="error"}')).toBe(1);
    expect(sample(text, 'zecrpc_rpc_requests_total{method="batch",outcome="success"}')).toBe(1);
    expect(sample(text, 'zecrpc_rpc_requests_total{method="none",outcome="unauthorized"}')).toBe(1);
    expect(text).not.toContain('attackerChosenName123');
    expect(sample(text, 'zecrpc_rpc_request_duration_seconds_count{method="getblockcount"}')).toBe(3);
    // `{"result":0,"error":null,"id":N}\n` is 33 bytes for a one-digit id.
    expect(sample(text, 'zecrpc_rpc_reply_bytes_total{method="getblockcount"}')).toBe(3 * 33);
    expect(sample(text, 'zecrpc_rpc_work_queue_rejections_total')).toBe(0);
    expect(sample(text, 'zecrpc_rpc_work_queue_depth')).toBe(0);
    // A fresh mainnet store holds the genesis block.
    expect(sample(text, 'zecrpc_store_height')).toBe(0);
    expect(sample(text, 'zecrpc_upstream_height')).toBe(-1);
    expect(sample(text, 'zecrpc_store_disk_bytes{part="index"}')).toBeGreaterThan(0);
    expect(sample(text, 'zecrpc_store_disk_bytes{part="blocks"}')).toBeGreaterThanOrEqual(1692); // the genesis block's bytes
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);

    const promtool = promtoolPath();
    if (!promtool) {
      if (process.env.CI) throw new Error("promtool is not installed (Debian's prometheus package; .ci/run installs it)");
      ctx.skip();
      return;
    }
    const check = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect({ status: check.status, out: check.stdout + check.stderr }).toEqual({ status: 0, out: '' });
  });

  it('counts reply-cache hits and misses of getblock and decoderawtransaction', async () => {
    const { node, metricsPort } = await startWithMetrics();
    const rpcPort = node.server.port;
    const genesis = '00040fe8ec8471911baa1db1266ea15dd06b4a8a5c453883c000b031973dce08';
    const tx =
      '01000000010000000000000000000000000000000000000000000000000000000000000000ffffffff025100ffffffff0250c30000000000002321027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875acd43000000000000017a9147d46a730d31f97b1930d3368a967c309bd4d136a8700000000';
    for (let i = 0; i < 3; i++) expect(await post(rpcPort, { id: i, method: 'getblock', params: [genesis, 1] })).toBe(200);
    for (let i = 0; i < 2; i++) expect(await post(rpcPort, { id: i, method: 'decoderawtransaction', params: [tx] })).toBe(200);
    const { text } = await get(metricsPort, '/metrics');
    expect(sample(text, 'zecrpc_rpc_reply_cache_lookups_total{cache="getblock",result="miss"}')).toBe(1);
    expect(sample(text, 'zecrpc_rpc_reply_cache_lookups_total{cache="getblock",result="hit"}')).toBe(2);
    expect(sample(text, 'zecrpc_rpc_reply_cache_lookups_total{cache="decoderawtransaction",result="miss"}')).toBe(1);
    expect(sample(text, 'zecrpc_rpc_reply_cache_lookups_total{cache="decoderawtransaction",result="hit"}')).toBe(1);
    const promtool = promtoolPath();
    if (promtool) {
      const check = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
      expect({ status: check.status, out: check.stdout + check.stderr }).toEqual({ status: 0, out: '' });
    }
  });

  it('/healthy and /ready answer 200 with a JSON reason; other paths and methods are refused', async () => {
    const { metricsPort } = await startWithMetrics();
    expect(await get(metricsPort, '/healthy')).toEqual({
      status: 200,
      type: 'application/json',
      text: '{"healthy":true,"reason":"serving"}\n',
    });
    expect(await get(metricsPort, '/ready')).toEqual({
      status: 200,
      type: 'application/json',
      text: '{"ready":true,"reason":"the chain store is open","height":0}\n',
    });
    expect((await get(metricsPort, '/')).status).toBe(404);
    const post = await fetch(`http://127.0.0.1:${metricsPort}/ready`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
  });

  it('with -upstream, /ready is 503 while the store is more than -readymaxlag blocks behind the tip last seen', async () => {
    const upstream = new UpstreamServer({ user: 'up', password: 'pw' });
    upstream.setChain(mainnetChain().slice(0, 15));
    const url = await upstream.start();
    cleanups.push(() => upstream.stop());
    const { node, metricsPort } = await startWithMetrics([
      `-upstream=${url}`,
      '-upstreamuser=up',
      '-upstreampassword=pw',
      '-upstreampoll=0.05',
      '-readymaxlag=3',
    ]);
    await waitFor(async () => (await node.store.tip())?.height === 14, 'the store to reach height 14');
    // The upstream now claims a tip of 30 while it has blocks up to 14: the store stays at 14.
    upstream.countOverride = 30;
    await waitFor(async () => (await get(metricsPort, '/ready')).status === 503, '/ready to answer 503');
    const lagging = await get(metricsPort, '/ready');
    expect(lagging.status).toBe(503);
    expect(JSON.parse(lagging.text)).toEqual({
      ready: false,
      reason: "16 blocks behind the upstream's tip (more than -readymaxlag=3)",
      height: 14,
      upstreamHeight: 30,
    });
    const text = (await get(metricsPort, '/metrics')).text;
    expect(sample(text, 'zecrpc_upstream_height')).toBe(30);
    expect(sample(text, 'zecrpc_upstream_lag_blocks')).toBe(16);
    upstream.countOverride = 16; // two blocks it cannot serve: within 3
    await waitFor(async () => (await get(metricsPort, '/ready')).status === 200, '/ready to answer 200');
    expect(JSON.parse((await get(metricsPort, '/ready')).text)).toEqual({
      ready: true,
      reason: "2 blocks behind the upstream's tip (at most -readymaxlag=3)",
      height: 14,
      upstreamHeight: 16,
    });
  });

  it('before the upstream answered, /ready is 503', async () => {
    const { metricsPort } = await startWithMetrics(['-upstream=http://u:p@127.0.0.1:1/', '-upstreampoll=60']);
    const r = await get(metricsPort, '/ready');
    expect(r.status).toBe(503);
    expect(JSON.parse(r.text)).toEqual({
      ready: false,
      reason: "the upstream's tip has not been seen yet",
      height: 0,
      upstreamHeight: null,
    });
  });

  it('refuses a malformed -metricsbind or -readymaxlag, and a port in use, with the fix', async () => {
    const dir = tempDir('metrics-bad');
    cleanups.push(dir.remove);
    const base = [`-datadir=${dir.path}`, '-rpcport=0', '-rpcuser=u', '-rpcpassword=p'];
    await expect(startNode([...base, '-metricsbind=127.0.0.1'], { log: false })).rejects.toThrow(
      new ConfigError(
        "Error: Invalid value for -metricsbind: '127.0.0.1' (expected ADDR:PORT, e.g. 127.0.0.1:9233, or [::1]:9233 for IPv6)",
      ),
    );
    await expect(startNode([...base, '-metricsbind=127.0.0.1:0', '-readymaxlag=-1'], { log: false })).rejects.toThrow(
      "Error: Invalid value for -readymaxlag: '-1' (expected a number of blocks from 0 to 2147483647)",
    );
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => taken.close(() => r())));
    const port = (taken.address() as { port: number }).port;
    await expect(startNode([...base, `-metricsbind=127.0.0.1:${port}`], { log: false })).rejects.toThrow(
      `Error: Unable to start the metrics listener: 127.0.0.1 port ${port} is already in use. Choose another with -metricsbind=ADDR:PORT.`,
    );
  });
});
