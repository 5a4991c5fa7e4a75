/**
 * The Fastify front end against a bare node:http ceiling and, with `--base`, against another
 * revision's server (the hand-written HTTP transport Fastify replaced): small replies
 * (`getblockcount`, a cached `getblock 1`, a 39 kB `decoderawtransaction` of an 18 kB
 * transaction) and a large one (cached `getblock 2` of a 2 MB block of mainnet 106598's shape,
 * bench/lib/served-blocks.ts's largeMainnetSide).
 *
 *   git -C /work/main worktree add /tmp/zecrpc-fe-base 153a30e && ln -s "$PWD/node_modules" /tmp/zecrpc-fe-base/ \
 *     && (cd /tmp/zecrpc-fe-base && npm run build:wasm && npm run build)
 *   npm run build
 *   npx tsx bench/front-end.ts [--base=/tmp/zecrpc-fe-base] [--seconds=1] [--rounds=5] [--small | --large] [--quick] [--tsx]
 *     [--cpu-requests=20000] [--large-cpu-requests=300] [--large-bytes=2000000] [--only=getblockcount] [--profile=DIR]
 *
 * Every server runs in a child process from compiled JavaScript (child-server.ts's 'dist' mode):
 * each checkout's sources from its own `dist/` (what `zecrpc serve` runs; `npm run build` in each
 * first), under this checkout's bench harness (bench/lib/zecrpc-server.ts) serving the mainnet
 * vector store, and the ceiling (bench/lib/http-ceiling-server.ts) is node:http answering each
 * request with zecrpc's reply body captured beforehand; the bare Fastify floor
 * (bench/lib/fastify-ceiling-server.ts) answers the same bytes from a Fastify route with nothing
 * else, so it shows what Fastify alone costs a request. `--tsx` runs each checkout's own
 * harness and sources under tsx instead (the large reply then needs no `--base`, or `--small`:
 * the base's own harness serves no 2 MB block). The base's replies must be byte-identical to
 * zecrpc's bodies.
 *
 * Interleaved rounds at 10 connections; each ratio is taken within a round, median and min–max
 * printed, with the load average (the machine is shared). Then each server's CPU time per
 * request (its process's user + system time around a fixed number of requests, interleaved the
 * same way), which depends far less on what else the machine runs than throughput does: small
 * replies first, then the large one. `--small` leaves out the large reply, `--large` the small ones,
 * `--only=TEXT` every case whose name does not contain TEXT. `--profile=DIR` runs every server
 * under `node --cpu-prof`, its profiles in DIR/<server> (read them with
 * bench/cpu-profile-summary.ts; one case per run keeps a profile about one reply).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeBlock } from '../src/codec/block.js';
import { toHex, toHexReversed } from '../src/codec/hex.js';
import { readHexVector } from '../test/support/vectors.js';
import { startChildServer, type ChildServer } from './lib/child-server.js';
import { timedRun } from './lib/autocannon.js';
import { describeCell, failuresIn, interleavedRounds, type Target } from './lib/interleaved.js';
import { load, median, numberFlag, QUICK, spread } from './lib/measure.js';
import { processCpuMicros } from './lib/process-cpu.js';
import { BENCH_HEADERS, captureReply, replyParts } from './lib/raw-http.js';
import { largeMainnetSide } from './lib/served-blocks.js';
import { launcherNodeArgs } from './lib/launcher-args.js';

const SECONDS = numberFlag('seconds', QUICK ? 0.2 : 1);
const ROUNDS = numberFlag('rounds', QUICK ? 1 : 5);
const CONNECTIONS = 10;
const BASE = process.argv.find((a) => a.startsWith('--base='))?.slice('--base='.length);
const SMALL_ONLY = process.argv.includes('--small');
const LARGE_ONLY = process.argv.includes('--large');
/** Requests per CPU measurement: about a second of a server's CPU on a small reply. */
const CPU_REQUESTS = numberFlag('cpu-requests', QUICK ? 2000 : 20000);
/** Requests per CPU measurement of the large reply: a few seconds of a server's CPU. */
const LARGE_CPU_REQUESTS = numberFlag('large-cpu-requests', QUICK ? 60 : 300);
const LARGE_BYTES = numberFlag('large-bytes', 2_000_000);
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const PROFILE_DIR = process.argv.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
const MODE = process.argv.includes('--tsx') ? 'tsx' : 'dist';
if (MODE === 'tsx' && BASE && !SMALL_ONLY)
  throw new Error('--tsx with --base needs --small: the base revision’s own harness serves no large block');

const v5 = decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex')).transactions.find((t) => t.data.orchard)!;
const largeSide = largeMainnetSide(LARGE_BYTES);
const large = decodeBlock(largeSide.bytes);
const LARGE_NAME = `getblock 2 (${large.size.toLocaleString('en')} B block, cached)`;
const block1 = toHexReversed(decodeBlock(readHexVector('blocks', 'mainnet', '1.hex')).hash);
const CASES: { name: string; body: string }[] = [
  { name: 'getblockcount', body: '{"id":1,"method":"getblockcount"}' },
  { name: 'getblock 1 (block 1, cached)', body: `{"id":1,"method":"getblock","params":["${block1}",1]}` },
  { name: 'decoderawtransaction (v5)', body: `{"id":1,"method":"decoderawtransaction","params":["${toHex(v5.bytes)}"]}` },
  { name: LARGE_NAME, body: `{"id":1,"method":"getblock","params":["${toHexReversed(large.hash)}",2]}` },
]
  .filter((c) => (LARGE_ONLY ? c.name === LARGE_NAME : !SMALL_ONLY || c.name !== LARGE_NAME))
  .filter((c) => ONLY === undefined || c.name.includes(ONLY));
/**
 * Node's options as `zecrpc serve` runs (bin/zecrpc.js's): this checkout's for its own server and
 * the replay servers, the base's own for the base's server.
 */
const NODE_ARGS = launcherNodeArgs(fileURLToPath(new URL('..', import.meta.url)));
const BASE_NODE_ARGS = BASE ? launcherNodeArgs(BASE) : NODE_ARGS;
/** The options of server `name`, and a profile into DIR/`name` with `--profile=DIR`. */
const nodeArgsFor = (name: string): string[] => {
  const args = name === 'base' ? BASE_NODE_ARGS : NODE_ARGS;
  return PROFILE_DIR ? [...args, '--cpu-prof', '--cpu-prof-interval=250', `--cpu-prof-dir=${join(PROFILE_DIR, name)}`] : args;
};
const SERVER_ENV = { SERVE: 'store', NETWORK: 'mainnet', ARGS: '-rpcworkqueue=64', LARGE_BLOCK: String(LARGE_BYTES) };

/** µs of `pid`'s CPU per request over `amount` requests of `body` at CONNECTIONS connections. */
async function cpuPerRequest(target: Target & { pid: number }, body: string, amount: number): Promise<number> {
  const before = processCpuMicros(target.pid);
  const { result } = await timedRun({
    url: `http://127.0.0.1:${target.port}/`,
    connections: CONNECTIONS,
    amount,
    method: 'POST',
    headers: { ...BENCH_HEADERS },
    body,
    // A 12 MB reply to each of 10 connections can take longer than autocannon's 10 s on a loaded machine.
    timeout: 120,
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) {
    throw new Error(
      `${target.name}: ${failed} failed requests while measuring CPU ` +
        `(${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts)`,
    );
  }
  return (processCpuMicros(target.pid) - before) / result.requests.total;
}

const ratioOf = (per: Map<string, number[]>, num: string, den: string) => spread(per.get(num)!.map((v, i) => v / per.get(den)![i]!));
const describeRatio = (s: ReturnType<typeof spread>) => `${s.median.toFixed(3)} (${s.min.toFixed(3)}–${s.max.toFixed(3)})`;

async function main(): Promise<void> {
  const children: ChildServer[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'zecrpc-bench-front-end-'));
  try {
    const zecrpc = await startChildServer('bench/lib/zecrpc-server.ts', SERVER_ENV, { mode: MODE, nodeArgs: nodeArgsFor('zecrpc') });
    children.push(zecrpc);
    const recorded: { body: string; reply: string; bytes: number; replyBody: Buffer }[] = [];
    for (const c of CASES) {
      const reply = await captureReply(zecrpc.port, c.body);
      if (reply.status !== 200) throw new Error(`${c.name}: zecrpc answered ${reply.status}`);
      const replyBody = replyParts(reply).body;
      recorded.push({ body: c.body, reply: reply.bytes.toString('base64'), bytes: replyBody.length, replyBody });
    }
    const file = join(dir, 'replies.json');
    writeFileSync(file, JSON.stringify(recorded.map(({ body, reply }) => ({ body, reply }))));
    const ceiling = await startChildServer(
      'bench/lib/http-ceiling-server.ts',
      { REPLIES: file },
      { mode: MODE, nodeArgs: nodeArgsFor('ceiling') },
    );
    children.push(ceiling);
    const fastifyFloor = await startChildServer(
      'bench/lib/fastify-ceiling-server.ts',
      { REPLIES: file },
      { mode: MODE, nodeArgs: nodeArgsFor('fastify-floor') },
    );
    children.push(fastifyFloor);
    const targets: (Target & { pid: number })[] = [
      { name: 'ceiling', port: ceiling.port, pid: ceiling.pid },
      { name: 'fastify-floor', port: fastifyFloor.port, pid: fastifyFloor.pid },
    ];
    // The base's head differs (HTTP/1.0-era headers): its whole reply's size is its own.
    const baseReplyBytes: number[] = [];
    if (BASE) {
      const base = await startChildServer('bench/lib/zecrpc-server.ts', SERVER_ENV, {
        root: BASE,
        mode: MODE,
        nodeArgs: nodeArgsFor('base'),
      });
      children.push(base);
      for (const [i, c] of CASES.entries()) {
        const theirs = await captureReply(base.port, c.body);
        if (!replyParts(theirs).body.equals(recorded[i]!.replyBody)) {
          throw new Error(`${c.name}: the base revision's reply differs from zecrpc's`);
        }
        baseReplyBytes.push(theirs.bytes.length);
      }
      targets.push({ name: 'base', port: base.port, pid: base.pid });
    }
    targets.push({ name: 'zecrpc', port: zecrpc.port, pid: zecrpc.pid });
    console.log(
      `zecrpc on Fastify ${(await import('fastify/package.json', { with: { type: 'json' } })).default.version} vs node:http ${process.version}` +
        `${BASE ? ` and the base revision at ${BASE}` : ''}, all in child processes ` +
        `(${MODE === 'dist' ? 'compiled: dist/' : 'under tsx'}, ${NODE_ARGS.join(' ')}${BASE ? `; the base ${BASE_NODE_ARGS.join(' ')}` : ''}); ` +
        `rounds driven by the load generator's processes (bench/lib/load-generator.ts), CPU measured under autocannon here; ` +
        `${ROUNDS} interleaved rounds of ≈ ${SECONDS} s at ${CONNECTIONS} connections`,
    );
    const labels: Record<string, string> = {
      'fastify-floor': 'bare Fastify',
      zecrpc: 'Fastify',
      ...(BASE ? { base: 'hand-written' } : {}),
    };
    let failures = 0;
    for (const [i, c] of CASES.entries()) {
      const bytes = recorded[i]!.bytes;
      // The load generator counts the whole reply; the head is within the 0.5 % it allows.
      const capture = Buffer.from(recorded[i]!.reply, 'base64').length;
      const r = await interleavedRounds(
        targets,
        c.body,
        (t) => (t === 'base' ? baseReplyBytes[i]! : capture),
        CONNECTIONS,
        ROUNDS,
        SECONDS,
      );
      const bad = targets.reduce((a, t) => a + failuresIn(r.runs.get(t.name)!), 0);
      failures += bad;
      const rates = new Map([...r.runs].map(([name, runs]) => [name, runs.map((x) => x.rate)]));
      const vsBase = BASE ? ` | Fastify ÷ hand-written rate ${describeRatio(ratioOf(rates, 'zecrpc', 'base'))}` : '';
      console.log(`${c.name} (${bytes} B): ${describeCell(r, labels)}${vsBase} | ${load()}${bad ? ` | ${bad} FAILED` : ''}`);
    }
    // CPU per request: the small replies, then the large one with fewer requests.
    for (const c of CASES) {
      const amount = c.name === LARGE_NAME ? LARGE_CPU_REQUESTS : CPU_REQUESTS;
      const cpu = new Map<string, number[]>(targets.map((t) => [t.name, []]));
      const warmUp = c.name === LARGE_NAME ? Math.max(CONNECTIONS, Math.round(amount / 10)) : Math.min(amount, 2000);
      for (const t of targets) await cpuPerRequest(t, c.body, warmUp);
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 ? [...targets].reverse() : targets;
        for (const t of order) cpu.get(t.name)!.push(await cpuPerRequest(t, c.body, amount));
      }
      const perTarget = targets.map((t) => `${labels[t.name] ?? t.name} ${median(cpu.get(t.name)!).toFixed(1)} µs`).join(' | ');
      const vsBase = BASE
        ? ` | Fastify ÷ hand-written CPU ${describeRatio(ratioOf(cpu, 'zecrpc', 'base'))}` +
          ` | bare Fastify ÷ hand-written CPU ${describeRatio(ratioOf(cpu, 'fastify-floor', 'base'))}`
        : '';
      console.log(
        `${c.name}: server CPU per request (median of ${ROUNDS} × ${amount} requests) ${perTarget}` +
          ` | Fastify ÷ ceiling CPU ${describeRatio(ratioOf(cpu, 'zecrpc', 'ceiling'))}` +
          ` | bare Fastify ÷ ceiling CPU ${describeRatio(ratioOf(cpu, 'fastify-floor', 'ceiling'))}${vsBase} | ${load()}`,
      );
    }
    if (failures) process.exitCode = 1;
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
