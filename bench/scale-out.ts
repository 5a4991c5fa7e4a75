/**
 * What a replica tier costs and gives on this machine (docs/scale-out.md's sizing).
 *
 *   npm run build && npx tsx bench/scale-out.ts [--seconds=5] [--blocks=20]      (about 2 minutes)
 *
 * Processes as test/scale-out/ runs them (bin/zecrpc.js, deploy/haproxy.cfg); each process's
 * CPU time and I/O are read from /proc/<pid>/stat and /proc/<pid>/io, so nothing here is
 * measured from inside the process measured.
 * 1. Following, catch-up: a replica started empty catches up with a primary holding real mainnet
 *    blocks 0..20 (Equihash (200,9) headers): CPU and bytes per block.
 * 2. Following, steady: a regtest primary follows a stand-in upstream that publishes one block
 *    every 500 ms; a replica follows it with -upstreampoll=0.1. Per block: the replica's CPU and
 *    I/O (and beside it what it spends polling when nothing changes, measured first), and its lag
 *    behind the primary (primary's and replica's tips sampled every 10 ms), idle and with the
 *    replica serving getblock to 8 concurrent clients.
 * 3. Throughput: autocannon against one replica directly and against HAProxy over two replicas,
 *    getblockcount and getblock <hash> 2; the CPU the serving processes spent per request.
 * Every section prints the load average: the machine is shared.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ChainStore } from '../src/store/index.js';
import { buildChain, type BuiltBlock } from '../test-vectors/regtest-builder.js';
import { regtestReorg, tempDir } from '../test/support/store.js';
import {
  findHaproxy,
  freePort,
  haproxyConfig,
  result,
  RPC_PASSWORD,
  RPC_USER,
  startHaproxy,
  startZecrpc,
  steadyLoad,
  stopZecrpc,
  until,
  zecrpcImport,
  type ZecrpcProcess,
} from '../test/support/replica-tier.js';
import { UpstreamServer } from '../test/support/upstream-server.js';
import { vectorPath } from '../test/support/vectors.js';
import { autocannon } from './lib/autocannon.js';
import { numberFlag } from './lib/measure.js';

const SECONDS = numberFlag('seconds', 5);
const BLOCKS = numberFlag('blocks', 20);
const CLOCK_TICKS = 100; // Linux's USER_HZ, what /proc/<pid>/stat counts in
const AUTH = 'Basic ' + Buffer.from(`${RPC_USER}:${RPC_PASSWORD}`).toString('base64');

interface Usage {
  cpuMs: number;
  /** Bytes the process asked to write (files and sockets) and bytes it made the disk write. */
  wchar: number;
  writeBytes: number;
  readBytes: number;
}

function usage(pid: number): Usage {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const io = Object.fromEntries(
    readFileSync(`/proc/${pid}/io`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(': ') as [string, string]),
  );
  return {
    cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS,
    wchar: Number(io.wchar),
    writeBytes: Number(io.write_bytes),
    readBytes: Number(io.read_bytes),
  };
}

const minus = (a: Usage, b: Usage): Usage => ({
  cpuMs: a.cpuMs - b.cpuMs,
  wchar: a.wchar - b.wchar,
  writeBytes: a.writeBytes - b.writeBytes,
  readBytes: a.readBytes - b.readBytes,
});
const load = () => `load ${loadavg()[0]!.toFixed(1)}`;
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const follow = (primary: ZecrpcProcess, poll = '0.1') => [
  `-upstream=http://127.0.0.1:${primary.port}/`,
  `-upstreamuser=${RPC_USER}`,
  `-upstreampassword=${RPC_PASSWORD}`,
  `-upstreampoll=${poll}`,
];
/** A data directory under `root` (zecrpc refuses a -datadir that does not exist). */
const dataDir = (root: string, name: string): string => {
  const path = join(root, name);
  mkdirSync(path, { recursive: true });
  return path;
};
const out: string[] = [];
const say = (line: string) => {
  out.push(line);
  console.log(line);
};

async function catchUpCost(root: string): Promise<void> {
  const primaryDir = dataDir(root, 'm-primary');
  zecrpcImport([`-datadir=${primaryDir}`, '--hex', vectorPath('lightwalletd', 'mainnet_genesis')]);
  const primary = await startZecrpc('primary', [`-datadir=${primaryDir}`]);
  const replica = await startZecrpc('replica', [`-datadir=${dataDir(root, 'm-replica')}`, ...follow(primary)]);
  try {
    const before = usage(replica.pid);
    await until(async () => (await result<number>(replica.port, 'getblockcount')) === 20, 'catch-up');
    const d = minus(usage(replica.pid), before);
    say(
      `catch-up, mainnet 1..20 (${load()}): ${(d.cpuMs / 20).toFixed(1)} ms CPU, ${kib(d.wchar / 20)} written (syscalls), ` +
        `${kib(d.writeBytes / 20)} to disk a block`,
    );
  } finally {
    await stopZecrpc(replica);
    await stopZecrpc(primary);
  }
}

/** Steady following: per-block cost and lag behind the primary, idle and under load. */
async function steadyFollowing(root: string): Promise<{ primary: ZecrpcProcess; replicas: ZecrpcProcess[]; zebra: UpstreamServer }> {
  const v = regtestReorg();
  const tipBytes = v.base.at(-1)!;
  const tip: BuiltBlock = { height: 30, hash: ChainStore.hashOf(tipBytes), hashHex: v.manifest.base.at(-1)!.hash, bytes: tipBytes };
  const more = buildChain(tip, 2 * BLOCKS, 'bench');
  const zebra = new UpstreamServer(null);
  zebra.setChain(v.base);
  const url = await zebra.start();
  const primaryDir = dataDir(root, 'r-primary');
  zecrpcImport(['-regtest', `-datadir=${primaryDir}`, '--hex', join(root, '..', 'base.hex')]);
  const primary = await startZecrpc('primary', ['-regtest', `-datadir=${primaryDir}`, `-upstream=${url}`, '-upstreampoll=0.1']);
  const replicas: ZecrpcProcess[] = [];
  for (const name of ['replica1', 'replica2']) {
    replicas.push(await startZecrpc(name, ['-regtest', `-datadir=${dataDir(root, `r-${name}`)}`, ...follow(primary)]));
  }
  for (const r of replicas) await until(async () => (await result<number>(r.port, 'getblockcount')) === 30, 'replicas at 30');
  const [replica] = replicas as [ZecrpcProcess];

  // Polling with nothing new: the baseline a followed block's cost is measured above.
  const idle0 = usage(replica.pid);
  const t0 = performance.now();
  await sleep(SECONDS * 1000);
  const idle = minus(usage(replica.pid), idle0);
  const idleSeconds = (performance.now() - t0) / 1000;
  say(`polling an unchanged primary every 0.1 s (${load()}): ${(idle.cpuMs / idleSeconds).toFixed(1)} ms CPU a second`);

  let published = 30;
  const publishRun = async (label: string, blocks: BuiltBlock[], withCost: boolean): Promise<void> => {
    const lags: number[] = [];
    const start = usage(replica.pid);
    const t = performance.now();
    for (const b of blocks) {
      published++;
      zebra.setChain([...v.base, ...more.slice(0, published - 30).map((x) => x.bytes)]);
      let primaryAt = 0;
      let replicaAt = 0;
      while (!replicaAt) {
        const now = performance.now();
        if (!primaryAt && (await result<string>(primary.port, 'getbestblockhash')) === b.hashHex) primaryAt = now;
        if (primaryAt && (await result<string>(replica.port, 'getbestblockhash')) === b.hashHex) replicaAt = performance.now();
        await sleep(10);
      }
      lags.push(replicaAt - primaryAt);
      await sleep(Math.max(0, 500 - (performance.now() - primaryAt)));
    }
    const d = minus(usage(replica.pid), start);
    const seconds = (performance.now() - t) / 1000;
    const polling = (idle.cpuMs / idleSeconds) * seconds;
    // Under load the process's CPU is mostly serving: only the idle run's is the following's.
    const cost = withCost
      ? `; replica CPU ${(d.cpuMs / blocks.length).toFixed(1)} ms a block (polling alone: ${(polling / blocks.length).toFixed(1)} ms ` +
        `over the same time), ${kib(d.wchar / blocks.length)} written, ${kib(d.writeBytes / blocks.length)} to disk`
      : '';
    say(
      `following ${blocks.length} blocks, ${label} (${load()}): lag behind the primary median ${median(lags).toFixed(0)} ms, ` +
        `max ${Math.max(...lags).toFixed(0)} ms${cost}`,
    );
  };
  await publishRun('replica idle', more.slice(0, BLOCKS), true);
  const hash25 = await result<string>(replica.port, 'getblockhash', [25]);
  const busy = steadyLoad(replica.port, [{ method: 'getblock', params: [hash25, 2] }], 8);
  await publishRun('replica serving getblock to 8 clients', more.slice(BLOCKS), false);
  const served = await busy.stop();
  say(`  (the load: ${served.ok} getblock replies, ${served.failures.length} failed)`);
  return { primary, replicas, zebra };
}

async function throughput(root: string, replicas: ZecrpcProcess[]): Promise<void> {
  const haproxy = findHaproxy();
  if (!haproxy) {
    say('throughput: haproxy is not installed, skipped');
    return;
  }
  const port = await freePort();
  const balancer = await startHaproxy(haproxy, root, haproxyConfig(port, replicas), port);
  try {
    await until(async () => (await result<number>(port, 'getblockcount')) > 0, 'HAProxy');
    const hash = await result<string>(port, 'getblockhash', [25]);
    for (const [label, method, params] of [
      ['getblockcount', 'getblockcount', []],
      ['getblock <hash> 2', 'getblock', [hash, 2]],
    ] as const) {
      for (const [target, targetPort, pids] of [
        ['one replica', replicas[0]!.port, [replicas[0]!.pid]],
        ['HAProxy + 2 replicas', port, [balancer.pid, ...replicas.map((r) => r.pid)]],
      ] as const) {
        const before = pids.map(usage);
        const r = (await autocannon({
          url: `http://127.0.0.1:${targetPort}/`,
          connections: 16,
          duration: SECONDS,
          method: 'POST',
          headers: { authorization: AUTH, 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params }),
        })) as { requests: { total: number }; non2xx: number; errors: number; duration: number };
        const cpu = pids.map((p, i) => minus(usage(p), before[i]!).cpuMs);
        const total = cpu.reduce((a, b) => a + b, 0);
        const perRequestUs = (total * 1000) / r.requests.total;
        const proxyUs = pids.length > 1 ? ` (HAProxy ${((cpu[0]! * 1000) / r.requests.total).toFixed(0)} µs)` : '';
        say(
          `${label}, ${target}, 16 connections (${load()}): ${(r.requests.total / r.duration).toFixed(0)} req/s, ` +
            `${r.non2xx + r.errors} failed; CPU ${perRequestUs.toFixed(0)} µs a request${proxyUs}`,
        );
      }
    }
  } finally {
    await balancer.stop();
  }
}

const dir = tempDir('bench-scale-out');
const root = join(dir.path, 'run');
try {
  mkdirSync(root);
  writeFileSync(
    join(dir.path, 'base.hex'),
    regtestReorg()
      .base.map((b) => Buffer.from(b).toString('hex'))
      .join('\n') + '\n',
  );
  await catchUpCost(root);
  const tier = await steadyFollowing(root);
  try {
    await throughput(root, tier.replicas);
  } finally {
    for (const r of tier.replicas) await stopZecrpc(r);
    await stopZecrpc(tier.primary);
    await tier.zebra.stop();
  }
  console.log('\n' + out.join('\n'));
} finally {
  dir.remove();
}
