/**
 * The server under test for test/long/stress/run.ts, in its own process so its memory and event
 * loop are measured apart from the load generator: mainnet blocks 0..20 plus `BLOCKS` distinct
 * ~1.4 MB blocks (test/stress/fixtures.ts), getblock replies uncached unless CACHE=1.
 * Prints `PORT <n>` when listening; stops on SIGTERM; SIGUSR2 prints memory figures, a line
 * `loopdelay` on standard input the event-loop delay, a line `memory` a `MEMORY {json}` line
 * (memoryReport). Options come from the environment:
 * BLOCKS, CACHE, ARGS (zcashd-style options, e.g. "-rpcthreads=4 -rpcworkqueue=16"), and LOG_FILE:
 * where the server's log goes at info level (as `zecrpc serve -debug=rpc` logs: its idle trims
 * and the connections its timeout closes; per-request lines are the route's, not written here).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pino } from 'pino';
import { loadNodeConfig } from '../../../src/config.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { startRpcServer } from '../../../src/rpc/http/server.js';
import { largeBlocks, storeWithLargeBlocks, PASSWORD, USER } from '../../stress/fixtures.js';

const count = Number(process.env.BLOCKS ?? 40);
const { store } = storeWithLargeBlocks(largeBlocks(count));
const dir = mkdtempSync(join(tmpdir(), 'zecrpc-stress-server-'));
const extra = (process.env.ARGS ?? '').split(' ').filter((a) => a !== '');
const config = loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', `-rpcuser=${USER}`, `-rpcpassword=${PASSWORD}`, ...extra]);
/** The server's info log, less the per-request lines (thousands a second under load). */
function stressLog(file: string) {
  return pino(
    {
      level: 'info',
      hooks: {
        logMethod(args, method) {
          if (args[1] !== 'request completed') method.apply(this, args);
        },
      },
    },
    pino.destination({ dest: file, sync: true }),
  );
}
const renderThreads = process.env.RENDER_THREADS === undefined ? undefined : Number(process.env.RENDER_THREADS);
const server = await startRpcServer({
  config,
  ...(process.env.LOG_FILE ? { logger: stressLog(process.env.LOG_FILE) } : {}),
  methods: storeMethods(store, { cacheReplies: process.env.CACHE === '1' }),
  ...(renderThreads === undefined ? {} : { renderThreads }),
});
// The event loop's delay (how late a 1 ms timer fires): how long a request that has arrived
// may wait before it is read.
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();
process.stdout.write(`PORT ${server.port}\n`);
process.once('SIGTERM', () => {
  const t0 = performance.now();
  void server.close().then(() => {
    rmSync(dir, { recursive: true, force: true });
    process.stdout.write(`CLOSED ${Math.round(performance.now() - t0)}\n`);
    process.exit(0);
  });
});
process.on('SIGUSR2', () => {
  const m = process.memoryUsage();
  const f = (n: number) => `${Math.round(n / 1048576)} MB`;
  process.stderr.write(
    `memory: rss ${f(m.rss)} heapUsed ${f(m.heapUsed)} heapTotal ${f(m.heapTotal)} external ${f(m.external)} arrayBuffers ${f(m.arrayBuffers)}\n`,
  );
});
/**
 * Where the process's memory is: V8's figures, the server's own (budgets, caches, render
 * threads), and the kernel's view of the resident pages (/proc/self/status, and /proc/self/smaps
 * summed by kind of mapping: glibc's per-thread malloc arenas are 64 MiB-aligned anonymous
 * mappings of at most 64 MiB, V8's heap pages are 256 KiB-aligned chunks).
 */
function memoryReport(): Record<string, unknown> {
  const m = process.memoryUsage();
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
  const smaps = readFileSync('/proc/self/smaps', 'utf8').split('\n');
  const kinds: Record<string, number> = {};
  let kind = '';
  for (const line of smaps) {
    const head = /^([0-9a-f]+)-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[2]!;
      const arenaAligned = BigInt(`0x${head[1]!}`) % BigInt(64 * 1048576) === 0n;
      kind = name !== '' ? (name.startsWith('[') ? name : 'files') : arenaAligned ? 'arena heaps (64 MiB-aligned)' : 'anonymous';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kinds[kind] = (kinds[kind] ?? 0) + Number(rss[1]) * 1024;
  }
  for (const k of Object.keys(kinds)) kinds[k] = Math.round(kinds[k]! / 1048576);
  return {
    rss: m.rss,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    rssAnon: kb('RssAnon'),
    rssFile: kb('RssFile'),
    rssShmem: kb('RssShmem'),
    threads: Number(/Threads:\s+(\d+)/.exec(status)?.[1]),
    mappings: kinds,
    server: server.stats(),
  };
}

process.stdin.on('data', (d: Buffer) => {
  const text = d.toString();
  if (text.includes('memory')) process.stdout.write(`MEMORY ${JSON.stringify(memoryReport())}\n`);
  // `loopdelay` on standard input: the event-loop delay since the previous one, then a new window.
  if (!text.includes('loopdelay')) return;
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  process.stdout.write(
    `LOOPDELAY p50 ${ms(loopDelay.percentile(50))} / p99 ${ms(loopDelay.percentile(99))} / max ${ms(loopDelay.max)} ms\n`,
  );
  loopDelay.reset();
});
