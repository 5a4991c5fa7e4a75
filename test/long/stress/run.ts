/**
 * Stress measurements for issue 12, against a server in a child process (server.ts).
 *
 *   npx tsx test/long/stress/run.ts            all short scenarios (about two minutes)
 *   npx tsx test/long/stress/run.ts long       the long run: 60 s, 500 connections, mixed methods
 *   npx tsx test/long/stress/run.ts storm      the long run with cheap probes and the memory after it
 *                                          (issue 41's criteria; figures in bench/results/storm.md)
 *   npx tsx test/long/stress/run.ts <name>…    chosen scenarios: batch, flood, p99, throughput, shutdown, verify
 *   DURATION=20 CONNECTIONS=200 …          shorten or shrink the long run
 *
 * Every answer is checked against values computed here from the block bytes (hash, size,
 * transaction count, hex), so "wrong answers" means answers that differ from the data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { decodeBlock } from '../../../src/codec/block.js';
import { storedBlockProblem } from '../../../src/store/verify.js';
import { AUTH } from '../../stress/fixtures.js';
import { mainnetGenesisRun } from '../../support/memory-store.js';
import { KeepAliveClient, type Reply } from './client.js';
import { BLOCKS, getblock2, getblockcount, large, largeInfo, load, pct, requestFor, sleep } from './load.js';

const MIB = 1024 * 1024;

interface Child {
  proc: ChildProcess;
  port: number;
  rss(): { rss: number; hwm: number };
  /** The server's event-loop delay since the previous call (or its start). */
  loopDelay(): Promise<string>;
  /** Where the server's memory is (server.ts' memory report, JSON). */
  memory(): Promise<MemoryReport>;
  stop(): Promise<number>;
}

/**
 * SERVER_ENV="NAME=value …": variables for the server process alone (glibc's MALLOC_ARENA_MAX,
 * say), so the load's processes run as they always do.
 */
function serverEnv(): Record<string, string> {
  const pairs = (process.env.SERVER_ENV ?? '').split(' ').filter((p) => p.includes('='));
  return Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
}

async function startServer(env: Record<string, string> = {}): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/long/stress/server.ts'], {
    env: { ...process.env, BLOCKS: String(BLOCKS), ...serverEnv(), ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  let onLoopDelay: ((line: string) => void) | null = null;
  let onMemory: ((line: string) => void) | null = null;
  const port = await new Promise<number>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
      const delay = /LOOPDELAY (.*)\n/.exec(out);
      if (delay) {
        out = out.slice(delay.index + delay[0].length);
        onLoopDelay?.(delay[1]!);
      }
      const memory = /MEMORY (.*)\n/.exec(out);
      if (memory) {
        out = out.slice(memory.index + memory[0].length);
        onMemory?.(memory[1]!);
      }
    });
    proc.once('exit', (c) => reject(new Error(`server exited with ${c}`)));
  });
  const kb = (field: string) =>
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))![1]) * 1024;
  return {
    proc,
    port,
    rss: () => ({ rss: kb('VmRSS'), hwm: kb('VmHWM') }),
    loopDelay: () =>
      new Promise<string>((resolve) => {
        onLoopDelay = resolve;
        proc.stdin!.write('loopdelay\n');
      }),
    memory: () =>
      new Promise<MemoryReport>((resolve) => {
        onMemory = (line) => resolve(JSON.parse(line) as MemoryReport);
        proc.stdin!.write('memory\n');
      }),
    stop: () =>
      new Promise<number>((resolve) => {
        const t0 = performance.now();
        proc.once('exit', () => resolve(performance.now() - t0));
        proc.kill('SIGTERM');
      }),
  };
}

const mb = (n: number) => `${(n / MIB).toFixed(0)} MB`;

interface MemoryReport {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  rssAnon: number;
  rssFile: number;
  rssShmem: number;
  threads: number;
  /** Resident MiB by kind of mapping. */
  mappings: Record<string, number>;
  server: Record<string, unknown>;
}

/** One line of a memory report: V8's figures, the kernel's, and the server's own. */
function memoryLine(m: MemoryReport): string {
  return (
    `rss ${mb(m.rss)} (anon ${mb(m.rssAnon)}, file ${mb(m.rssFile)}, shmem ${mb(m.rssShmem)}), heapUsed ${mb(m.heapUsed)}, heapTotal ${mb(m.heapTotal)}, ` +
    `external ${mb(m.external)}, arrayBuffers ${mb(m.arrayBuffers)}, ${m.threads} threads; resident MiB by mapping ${JSON.stringify(m.mappings)}; ` +
    `server ${JSON.stringify(m.server)}`
  );
}

/** `connections` clients of getblock 2 in a child process of their own (load-child.ts), started once it is ready. */
async function loadInChild(port: number, connections: number, ms: number): Promise<{ ok: number; wrong: string[] }> {
  return (await startLoadChild<{ ok: number; wrong: string[] }>(port, connections, ms, false)).done;
}

/** Starts load-child.ts and resolves once its clients run; `done` gives its result. */
async function startLoadChild<T>(port: number, connections: number, ms: number, mixed: boolean): Promise<{ done: Promise<T> }> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/long/stress/load-child.ts', String(port), String(connections), String(ms), ...(mixed ? ['mixed'] : [])],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const t = setInterval(() => {
      if (out.includes('READY\n')) resolve();
      else if (proc.exitCode !== null) reject(new Error(`load child exited with ${proc.exitCode}`));
      else return;
      clearInterval(t);
    }, 10);
  });
  return { done: exited.then(() => JSON.parse(out.slice(out.indexOf('READY\n') + 6)) as T) };
}

/** Samples the child's RSS until stopped; returns the peak seen. */
function watchRss(child: Child): () => number {
  let peak = child.rss().rss;
  const t = setInterval(() => (peak = Math.max(peak, child.rss().rss)), 20);
  return () => {
    clearInterval(t);
    return Math.max(peak, child.rss().rss);
  };
}

async function oneShot(port: number, body: string): Promise<Reply> {
  const c = new KeepAliveClient(port);
  try {
    return await c.request(body);
  } finally {
    c.close();
  }
}

const scenarios: Record<string, () => Promise<void>> = {
  async batch() {
    const child = await startServer({ CACHE: '1' });
    await sleep(500);
    const base = child.rss().rss;
    const attack = JSON.stringify(
      Array.from({ length: 400 }, (_, i) => ({ id: i, method: 'getblock', params: [largeInfo[i % BLOCKS]!.hash, 2] })),
    );
    let stop = watchRss(child);
    let t0 = performance.now();
    const r = await oneShot(child.port, attack);
    console.log(
      `batch: 400 x getblock 2 (${(attack.length / 1024).toFixed(0)} KB body): HTTP ${r.status}, ${r.body.toString().slice(0, 150)} in ${(performance.now() - t0).toFixed(0)} ms`,
    );
    console.log(`  RSS baseline ${mb(base)}, peak ${mb(stop())}, after ${mb(child.rss().rss)}`);
    const big = JSON.stringify(
      Array.from({ length: 1200 }, (_, i) => ({ id: i, method: 'getblock', params: [largeInfo[i % BLOCKS]!.hash, 2] })),
    );
    stop = watchRss(child);
    t0 = performance.now();
    const three = await Promise.all([0, 1, 2].map(() => oneShot(child.port, big)));
    console.log(
      `batch: 3 parallel ${(big.length / 1024).toFixed(0)} KB batches: ${three.map((x) => `HTTP ${x.status} code ${JSON.parse(x.body.toString()).error?.code}`).join(', ')} in ${(performance.now() - t0).toFixed(0)} ms`,
    );
    console.log(`  RSS peak ${mb(stop())}, after ${mb(child.rss().rss)} (3 s later: ${(await sleep(3000), mb(child.rss().rss))})`);
    child.proc.kill('SIGUSR2');
    await sleep(7000);
    console.log(`  10 s later: ${mb(child.rss().rss)}`);
    child.proc.kill('SIGUSR2');
    await sleep(200);
    await child.stop();
  },

  async flood() {
    for (const args of ['', '-rpcworkqueue=256']) {
      const child = await startServer({ ARGS: args });
      await sleep(500);
      const base = child.rss().rss;
      const stop = watchRss(child);
      const r = await load(child.port, 500, 15_000, getblock2);
      console.log(
        `flood ${args || '(defaults: -rpcthreads=4 -rpcworkqueue=16)'}: 500 connections, uncached getblock 2, 15 s: ${(r.ok / 15).toFixed(1)} answers/s, ` +
          `${r.shed} "Work queue depth exceeded", ${r.budget} -7 (reply budget in use), ${r.wrong.length} wrong, ${r.failures} failed; latency p50 ${pct(r.latencies, 50).toFixed(0)} ms, ` +
          `p99 ${pct(r.latencies, 99).toFixed(0)} ms; RSS ${mb(base)} → peak ${mb(stop())}`,
      );
      await child.stop();
    }
  },

  async p99() {
    for (const [label, env] of [
      ['render threads (-rpcthreads=4)', {}],
      ['no render threads (in-run baseline)', { RENDER_THREADS: '0' }],
    ] as const) {
      // The probe runs in this process; the eight heavy clients either in a child process of
      // their own (as on a real server, whose clients are not one program) or here, sharing the
      // probe's event loop with 440 MB/s of replies to read (how it was measured first).
      for (const where of ['own process', 'probe process'] as const) {
        const child = await startServer(env);
        await sleep(500);
        const idle = await load(child.port, 1, 3000, getblockcount);
        const heavy = where === 'own process' ? loadInChild(child.port, 8, 10_000) : load(child.port, 8, 10_000, getblock2);
        await sleep(500);
        await child.loopDelay();
        const cheap = await load(child.port, 1, 8000, getblockcount);
        const delay = await child.loopDelay();
        const h = await heavy;
        console.log(
          `p99 ${label}, heavy clients in the ${where}: getblockcount alone p50 ${pct(idle.latencies, 50).toFixed(2)} / p99 ${pct(idle.latencies, 99).toFixed(2)} ms; ` +
            `under 8 clients of uncached getblock 2: p50 ${pct(cheap.latencies, 50).toFixed(2)} / p99 ${pct(cheap.latencies, 99).toFixed(2)} / max ${Math.max(...cheap.latencies).toFixed(1)} ms ` +
            `(${cheap.latencies.length} answers); server event-loop delay ${delay}; getblock 2 ${(h.ok / 10).toFixed(1)}/s, ${h.wrong.length + cheap.wrong.length} wrong`,
        );
        await child.stop();
      }
    }
  },

  async throughput() {
    for (const [label, env] of [
      ['inline (in-run baseline)', { RENDER_THREADS: '0' }],
      ['1 render thread', { RENDER_THREADS: '1' }],
      ['2 render threads', { RENDER_THREADS: '2' }],
      ['4 render threads', { RENDER_THREADS: '4' }],
    ] as const) {
      const child = await startServer(env);
      await sleep(500);
      await load(child.port, 4, 2000, (i) => requestFor(4 + 5 * i)); // warm the threads
      const r = await load(child.port, 8, 10_000, getblock2);
      console.log(
        `throughput ${label}: uncached getblock 2 of 1.4 MB blocks, 8 clients: ${(r.ok / 10).toFixed(1)}/s, p50 ${pct(r.latencies, 50).toFixed(0)} ms, ${r.wrong.length} wrong`,
      );
      await child.stop();
    }
  },

  async shutdown() {
    const child = await startServer({ ARGS: '-rpcservertimeout=600' });
    const socks = [0, 1, 2].map(() => connect(child.port, '127.0.0.1'));
    socks[0]!.write('POST / HTTP/1.1\r\nHost: x\r\n');
    socks[1]!.write(`POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: 1000\r\n\r\n{"id":`);
    const heavy = load(child.port, 4, 3000, (i) => requestFor(4 + 5 * i));
    await sleep(1000);
    const ms = await child.stop();
    await heavy;
    console.log(
      `shutdown: SIGTERM with a half-sent head, a half-sent body, an idle connection and 4 busy clients: exited in ${ms.toFixed(0)} ms`,
    );
    for (const s of socks) s.destroy();
  },

  async verify() {
    // Read-path cost of verification: header hash (every read) and merkle root (every decode).
    const big = large[0]!;
    const bigHash = decodeBlock(big).hash;
    const smallBytes = mainnetGenesisRun()[5]!;
    const smallHash = decodeBlock(smallBytes).hash;
    const time = (n: number, f: () => void) => {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) f();
      return ((performance.now() - t0) / n) * 1000;
    };
    for (let i = 0; i < 3; i++) time(200, () => storedBlockProblem(smallHash, smallBytes, smallBytes.length));
    const hSmall = time(20000, () => storedBlockProblem(smallHash, smallBytes, smallBytes.length));
    const hBig = time(2000, () => storedBlockProblem(bigHash, big, big.length));
    const block = decodeBlock(big);
    const merkle = time(50, () => block.computeMerkleRoot());
    const decode = time(20, () => decodeBlock(big));
    console.log(
      `verify: header check ${hSmall.toFixed(1)} µs (small block) / ${hBig.toFixed(1)} µs (1.4 MB block); merkle root of the 1.4 MB block ${merkle.toFixed(0)} µs ` +
        `against ${decode.toFixed(0)} µs to decode it (${((merkle / decode) * 100).toFixed(1)}%)`,
    );
  },

  async long() {
    const seconds = Number(process.env.DURATION ?? 60);
    const connections = Number(process.env.CONNECTIONS ?? 500);
    const child = await startServer({ CACHE: '1', ARGS: process.env.LONG_ARGS ?? '' });
    await sleep(500);
    const base = child.rss().rss;
    const stop = watchRss(child);
    const samples: number[] = [];
    const t = setInterval(() => samples.push(child.rss().rss), 1000);
    const r = await load(child.port, connections, seconds * 1000, requestFor, true);
    clearInterval(t);
    const peak = stop();
    await sleep(3000);
    console.log(
      `long: ${seconds} s, ${connections} connections, mixed getblockcount/getblockhash/getblock 0/1/2 on 1.4 MB blocks: ` +
        `${r.ok} answers (${(r.ok / seconds).toFixed(0)}/s), ${r.shed} shed ("Work queue depth exceeded"), ${r.budget} -7 (reply budget in use), ${r.wrong.length} wrong, ${r.failures} connection failures; ` +
        `latency p50 ${pct(r.latencies, 50).toFixed(0)} ms, p99 ${pct(r.latencies, 99).toFixed(0)} ms; RSS ${mb(base)} → peak ${mb(peak)}, 3 s after ${mb(child.rss().rss)}`,
    );
    if (r.wrong.length) console.log('  first wrong answers:', r.wrong.slice(0, 5));
    if (r.failures) console.log('  connection failures:', Object.fromEntries(r.failureReasons));
    const closeMs = await child.stop();
    console.log(`  SIGTERM → exit in ${closeMs.toFixed(0)} ms`);
  },
};

/**
 * Issue 41's storm: the long run's load, plus PROBES clients looping getblockcount on
 * connections of their own (the cheap calls an operator's monitoring sends), then the server
 * left idle for 60 s while its RSS is sampled every second. Prints the criteria's figures:
 * wrong answers, the share of probes answered (correctly) within 1 s, peak RSS, and when RSS
 * fell under 600 MB; and the load average before and after.
 */
async function storm(): Promise<void> {
  const seconds = Number(process.env.DURATION ?? 60);
  const connections = Number(process.env.CONNECTIONS ?? 500);
  const probes = Number(process.env.PROBES ?? 10);
  const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const before = loadavg();
  const logDir = mkdtempSync(join(tmpdir(), 'zecrpc-storm-log-'));
  const logFile = join(logDir, 'server.log');
  const child = await startServer({ CACHE: '1', ARGS: process.env.LONG_ARGS ?? '', LOG_FILE: logFile });
  await sleep(500);
  const base = child.rss().rss;
  const stop = watchRss(child);
  const probe = { sent: 0, withinSecond: 0, latencies: [] as number[], other: new Map<string, number>() };
  // The load runs in a process of its own (parsing its replies would delay the probes' own
  // event loop); the probes start once it is ready.
  const { done: loadDone } = await startLoadChild<StormLoad>(child.port, connections, seconds * 1000, true);
  const end = performance.now() + seconds * 1000;
  const probeLoops = Array.from({ length: probes }, async () => {
    let c = new KeepAliveClient(child.port);
    while (performance.now() < end) {
      const t0 = performance.now();
      probe.sent++;
      try {
        const r = await c.request('{"id":1,"method":"getblockcount"}');
        const ms = performance.now() - t0;
        probe.latencies.push(ms);
        const text = r.body.toString('utf8');
        if (text === '{"result":20,"error":null,"id":1}\n' && ms <= 1000) probe.withinSecond++;
        else if (text !== '{"result":20,"error":null,"id":1}\n')
          probe.other.set(text.slice(0, 60), (probe.other.get(text.slice(0, 60)) ?? 0) + 1);
      } catch (e) {
        probe.other.set((e as Error).message, (probe.other.get((e as Error).message) ?? 0) + 1);
        c = new KeepAliveClient(child.port);
      }
      await sleep(100);
    }
    c.close();
  });
  const [r] = await Promise.all([loadDone, ...probeLoops]);
  const stormEnded = Date.now();
  const peak = stop();
  const memoryAtEnd = await child.memory();
  const after: number[] = [];
  let under: number | null = null;
  // All 60 s are sampled, so a fall that does not last shows.
  for (let s = 1; s <= 60; s++) {
    await sleep(1000);
    const rss = child.rss().rss;
    after.push(rss);
    if (rss < 600 * MIB) under ??= s;
  }
  const memoryAfter = await child.memory();
  console.log(
    `storm: ${seconds} s, ${connections} connections (mixed getblockcount/getblockhash/getblock 0/1/2 on 1.4 MB blocks) + ${probes} getblockcount probes every 100 ms\n` +
      `  load: ${r.ok} answers (${(r.ok / seconds).toFixed(0)}/s), ${r.shed} shed, ${r.budget} -7, ${r.wrong.length} wrong, ${r.failures} connection failures; p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms\n` +
      `  probes: ${probe.withinSecond}/${probe.sent} answered correctly within 1 s (${((100 * probe.withinSecond) / probe.sent).toFixed(1)} %), p50 ${pct(probe.latencies, 50).toFixed(0)} ms, p99 ${pct(probe.latencies, 99).toFixed(0)} ms, max ${Math.max(...probe.latencies).toFixed(0)} ms\n` +
      `  RSS: ${mb(base)} before, peak ${mb(peak)}; after the storm ${after.map((x) => (x / MIB).toFixed(0)).join(' ')} MB (1 s apart): ` +
      (under === null
        ? 'not under 600 MB within 60 s'
        : `under 600 MB after ${under} s, at most ${mb(Math.max(...after.slice(under - 1)))} from then on`) +
      `\n  load average ${before} before, ${loadavg()} after` +
      `\n  memory as the storm ended: ${memoryLine(memoryAtEnd)}` +
      `\n  memory ${after.length} s later: ${memoryLine(memoryAfter)}`,
  );
  if (probe.other.size) console.log('  probes not answered 20:', Object.fromEntries(probe.other));
  if (r.wrong.length) console.log('  first wrong answers:', r.wrong.slice(0, 5));
  if (r.failures) console.log('  connection failures:', r.failureReasons);
  const closeMs = await child.stop();
  console.log(`  SIGTERM → exit in ${closeMs.toFixed(0)} ms`);
  console.log(serverLogSummary(existsSync(logFile) ? readFileSync(logFile, 'utf8') : '', stormEnded, r.failed));
  rmSync(logDir, { recursive: true, force: true });
}

/**
 * What the server logged (LOG_FILE): its idle trims, timed from the storm's end, and the
 * connections its -rpcservertimeout closed, by reason; each connection the load saw closed is
 * matched to the server's line by its port.
 */
function serverLogSummary(text: string, stormEnded: number, failed: { port: number; why: string }[]): string {
  const lines = text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { time: number; msg: string; reason?: string; remotePort?: number });
  const trims = lines.filter((l) => l.msg.startsWith('idle for'));
  const closes = lines.filter((l) => l.reason !== undefined);
  const byReason = new Map<string, number>();
  for (const c of closes) byReason.set(c.reason!, (byReason.get(c.reason!) ?? 0) + 1);
  const reasonOf = new Map(closes.map((c) => [c.remotePort, c.reason]));
  const matched = new Map<string, number>();
  for (const f of failed) {
    const key = `${f.why} ← server: ${reasonOf.get(f.port) ?? 'no timeout close logged'}`;
    matched.set(key, (matched.get(key) ?? 0) + 1);
  }
  const at = (t: number) => `${((t - stormEnded) / 1000).toFixed(1)} s`;
  return (
    `  server log: ${trims.length} idle trim(s) ${trims.map((t) => `at ${at(t.time)} (${t.msg})`).join('; ')}\n` +
    `  connections closed by -rpcservertimeout: ${JSON.stringify(Object.fromEntries(byReason))}` +
    (matched.size ? `\n  the load's failures, matched by port: ${JSON.stringify(Object.fromEntries(matched), null, 1)}` : '')
  );
}
scenarios.storm = storm;

interface StormLoad {
  ok: number;
  wrong: string[];
  shed: number;
  budget: number;
  failures: number;
  failureReasons: Record<string, number>;
  failed: { port: number; why: string }[];
  p50: number;
  p99: number;
}

const chosen = process.argv.slice(2);
const names = chosen.length ? chosen : ['verify', 'batch', 'p99', 'throughput', 'flood', 'shutdown'];
for (const n of names) {
  const s = scenarios[n];
  if (!s) throw new Error(`unknown scenario ${n}; known: ${Object.keys(scenarios).join(', ')}`);
  await s();
}
