/**
 * Large replies: `decoderawtransaction` and `getrawtransaction <txid> 1` of real 44–98 kB
 * transactions (bench/lib/large-transactions.ts), cached and uncached, against a ceiling that
 * replays zecrpc's exact reply bytes, measured from outside.
 *
 *   npm run build:wasm && npm run build    # here and in the --base checkout: the servers run from dist/
 *   npx tsx bench/large-tx.ts [--seconds=0.5] [--rounds=5] [--warmup=5] [--clients=2] [--connections=8] [--quick]
 *                             [--base=<another checkout>] [--only=<text in a case's label>] [--profile=<dir>]
 *                             [--spaced=<seconds>] [--tsx] [--rpcthreads=<render threads>] [--uncached] [--spread] [--replicas] [--kernel-tier]
 *                             [--thread-floor[=<threads>,…]]
 *
 * zecrpc's servers run in child processes (bench/lib/zecrpc-server.ts with the Node options of
 * their revision's bin/zecrpc.js), from compiled JavaScript as `zecrpc serve` runs: each
 * checkout's sources from its own `dist/` (child-server.ts's 'dist' mode, which refuses a
 * `dist/` older than its sources). `--tsx` runs each checkout's own harness and sources under
 * tsx instead, whose esbuild gives every function created at run time a `__name` call that the
 * compiled server does not make. The ceiling and the floors run the same way. Each method with its
 * reply cache (cached: decoderawtransaction's result cache, getrawtransaction's per-tip cache)
 * and without it (uncached: every request decodes, hashes and renders). The ceiling
 * (bench/lib/ceiling-server.ts) is a plain node:net server writing each recorded reply as one
 * Buffer. The load comes from several client processes (bench/lib/client-pool.ts): a 400–600 kB
 * reply costs its reader about what it costs its writer.
 *
 * Cached: one request repeated. Uncached: requests cycled over distinct transactions on the
 * server without the cache, so that nothing a previous request left helps: for
 * decoderawtransaction, copies of the transaction that differ from each other where the reply
 * shows it (the first prevout, the first Orchard ciphertext, every output's address, each
 * evicting the previous copy's from its address-table slot); for getrawtransaction, the large
 * transactions of the same block. The ceiling replays the same requests' replies. Last,
 * `getblock <hash> 2` of testnet 141042 (1.93 MB, 20 Sprout JoinSplits: the vectors' largest
 * shielded block; none holds 2 MB of Sapling or Orchard), cached and with the cache off, and
 * the same for a 2 MB block of mainnet 653601's fully shielded transactions repeated
 * (bench/lib/served-blocks.ts' blockOfSaplingShape; this revision only, even with `--base`).
 *
 * Two floors replay the same bytes on the promised stack, with the Node options of this
 * checkout's launcher as zecrpc's servers: node:http (bench/lib/http-ceiling-server.ts) and a bare
 * Fastify route (bench/lib/fastify-ceiling-server.ts), each matching a request by its bytes. What
 * share of the ceiling they reach is the most any server on Fastify over node:http can reach for a
 * 90–200 kB request body or a 180–600 kB reply; zecrpc's share of the bare-Fastify floor is what
 * its own work leaves of that. For the transactions' uncached requests a third, the uncached
 * render floor (bench/lib/render-floor-server.ts), builds each reply doing only the work no
 * server without a reply cache can leave out (the parameter's hex decoded, its points checked and
 * its txid hashed, or the transaction read hashed to its txid and its hex encoded; the addresses'
 * texts computed; every reply byte written once): its share of the ceiling is the most an uncached
 * reply rendered on one event loop reaches on that stack under this load. A fourth runs the same
 * floor on as many processes as cores (node:cluster): the most a server spreading its requests
 * over the cores reaches. With `--thread-floor`, a fifth runs it with its per-request work on render
 * threads (the body and reply passed through shared memory, Atomics to hand over): the most a
 * server answering on one event loop and rendering on threads reaches.
 * With `--spread`, this revision's server runs that way too (each process with its own copy
 * of the store); with `--replicas`, as docs/scale-out.md deploys it over cores: as many replicas
 * as cores behind a real HAProxy with deploy/haproxy.cfg, its CPU a request the replicas' and
 * HAProxy's (bench/lib/haproxy-tier.ts); with `--kernel-tier`, the same replicas sharing one
 * address through deploy/nftables-replicas.nft, the kernel handing each connection to one of them
 * (bench/lib/kernel-tier.ts), no process in between.
 *
 * Interleaved rounds (the ceiling, the floors, then with `--base` the base revision's server,
 * then this one's), the order rotating from round to round (round r starts with target r); each
 * ratio is taken within its round, median and min–max printed. Beside each rate, the server's
 * CPU time per request over the same run (its process's user + system time,
 * bench/lib/process-cpu.ts): far less sensitive to the rest of the machine's load than
 * throughput, so the CPU ratio (ceiling ÷ zecrpc) is the steadier figure. Target: ≥ 60 % of
 * the ceiling.
 *
 * A second line per case gives, per target, the load clients' CPU a request over the same runs
 * and the share of the machine that was busy (/proc/stat), and for the uncached transaction
 * cases the most requests a second a server could answer under this load: the machine's cores
 * over the render floor's CPU a request plus the clients' (bench/lib/throughput-bound.ts), as a
 * share of the ceiling's rate. Each target's event-loop thread's CPU a request is printed too
 * (summed over its processes' for the floor on several; for the floor on threads, its render
 * threads' beside it), and from the render floor's the most a
 * server doing the floor's work on its one event loop could answer if nothing but that loop's
 * CPU held it back. The output opens with the run's start time, commit and arguments and closes
 * with its end time, so a log needs no other label.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeBlock } from '../src/codec/block.js';
import { toHex } from '../src/codec/hex.js';
import { decodeTransaction } from '../src/codec/tx/transaction.js';
import { txToJsonBytes } from '../src/render/tx.js';
import { startChildServer, startReplayCeiling, type ChildServer, type RecordedReply } from './lib/child-server.js';
import { ClientPool, type PooledRequest } from './lib/client-pool.js';
import { distinctCopies, largeTransactions, type LargeTx } from './lib/large-transactions.js';
import { describePercent, fmt, load, median, numberFlag, QUICK, spread } from './lib/measure.js';
import { busyShare, CORES, machineTicks, processCpuMicros, processesCpuMicros } from './lib/process-cpu.js';
import { boundRounds, describeBound, describeLoopBound, type BoundRound, type LoopBoundRound } from './lib/throughput-bound.js';
import { runStarted, utc } from './lib/run-stamp.js';
import { captureReply, replyParts, requestBytes } from './lib/raw-http.js';
import { blockOfSaplingShape, SAPLING_SHAPE_HEIGHT, SERVED_BLOCKS, servedBlockBytes } from './lib/served-blocks.js';
import { launcherNodeArgs } from './lib/launcher-args.js';
import { rotated } from './lib/interleaved.js';
import { startHaproxyTier, type HaproxyTier } from './lib/haproxy-tier.js';
import { findNft, shippedReplicaCount, startKernelTier, type KernelTier } from './lib/kernel-tier.js';
import { findHaproxy } from '../test/support/replica-tier.js';

const SECONDS = numberFlag('seconds', QUICK ? 0.2 : 0.5);
const ROUNDS = numberFlag('rounds', QUICK ? 1 : 5);
const CLIENTS = numberFlag('clients', 2);
const CONNECTIONS = numberFlag('connections', 8);
const COPIES = 16;
/**
 * Seconds of uncounted requests to each server before its rounds (`--warmup=`). A client of a
 * running node meets a settled process; after a shorter warm-up every target, the ceiling
 * included, still costs more CPU a request in the first rounds than in the later ones (a fresh
 * process's compilation, its heap and the allocator finding their sizes), which would be
 * measured as if it were the server's (bench/results/large-replies.md, round 10).
 */
// Quick runs skip it: numberFlag takes only positive values, and quick runs check the bench, not figures.
const WARMUP = QUICK && !process.argv.some((a) => a.startsWith('--warmup=')) ? 0 : numberFlag('warmup', 5);
/** The Sapling-heavy block's size ceiling: a full block. */
const SAPLING_BLOCK_BYTES = 2_000_000;
const WORK_QUEUE = 64;
/** `--rpcthreads=<n>`: zecrpc's servers' render threads (their default otherwise: -rpcthreads' 4). */
const RPC_THREADS = process.argv.some((a) => a.startsWith('--rpcthreads=')) ? numberFlag('rpcthreads', 4) : null;
/** The servers' options beyond the compat profile. */
const SERVER_ARGS = [`-rpcworkqueue=${WORK_QUEUE}`, ...(RPC_THREADS === null ? [] : [`-rpcthreads=${RPC_THREADS}`])].join(' ');
const PROFILE_DIR = process.argv.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
/** `--base=<checkout>`: also that revision's servers (bench/lib/zecrpc-server.ts of its tree), measured in the same rounds. */
const BASE = process.argv.find((a) => a.startsWith('--base='))?.slice('--base='.length);
/**
 * `--spaced=<seconds>`: also send the getblock cases' uncached requests in SPACED_BURSTS bursts of
 * `--connections` requests, each server left idle that long before each of its bursts, as
 * clients asking for large blocks now and then do (a client following the tip asks for each new
 * block): the server CPU per request then includes whatever an idle spell costs the next request.
 */
const SPACED = process.argv.some((a) => a.startsWith('--spaced=')) ? numberFlag('spaced', 1) : 0;
const SPACED_BURSTS = 4;
/** `--only=<text>`: the cases whose label contains it. */
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const MODE = process.argv.includes('--tsx') ? 'tsx' : 'dist';
/** `--uncached`: only the cases' uncached requests. */
const UNCACHED_ONLY = process.argv.includes('--uncached');
/**
 * `--spread`: also this revision's server on as many processes as cores (zecrpc-server.ts'
 * PROCESSES, each with its own copy of the in-memory store): what zecrpc's code would reach
 * spread over the cores at no cost, which no thread pool of it can exceed. `zecrpc serve` has no
 * such mode (its LevelDB store opens in one process); this measures what one would be worth.
 */
const SPREAD = process.argv.includes('--spread');
const SPREAD_NAME = `zecrpc on ${CORES} processes`;
/**
 * `--thread-floor[=<n>,…]`: also the uncached render floor with its per-request work on n render
 * threads (FLOOR_THREADS; 1 when no count is given), its event loop matching and sending: what a
 * server answering on one event loop and rendering on threads, with the cheapest hand-off, reaches.
 */
const THREAD_FLOORS = ((): number[] => {
  const flag = process.argv.find((a) => a === '--thread-floor' || a.startsWith('--thread-floor='));
  if (!flag) return [];
  const counts = flag === '--thread-floor' ? [1] : flag.slice('--thread-floor='.length).split(',').map(Number);
  if (!counts.every((n) => Number.isInteger(n) && n >= 1)) throw new Error(`${flag}: thread counts are whole numbers ≥ 1`);
  return counts;
})();
/**
 * `--replicas`: also, for the transaction cases' uncached requests, this revision's server as
 * docs/scale-out.md spreads reads over cores: as many replicas as cores (each the `zecrpc`
 * target's server in its own process, with its own copy of the same in-memory store) behind a
 * real HAProxy with deploy/haproxy.cfg (bench/lib/haproxy-tier.ts). Its CPU a request is the
 * replicas' and HAProxy's, HAProxy's part printed too: what an operator gets from several
 * zecrpc processes on this machine.
 */
const REPLICAS = process.argv.includes('--replicas');
const HAPROXY = REPLICAS ? findHaproxy() : null;
if (REPLICAS && HAPROXY === null)
  throw new Error(
    "--replicas runs a real HAProxy in front of the replicas, and no haproxy is installed (PATH, /usr/sbin, /usr/local/sbin, /sbin): install Debian's haproxy package, or leave out --replicas",
  );
const TIER = `zecrpc: ${CORES} replicas behind HAProxy`;
/**
 * `--kernel-tier`: also the same replicas sharing one address through the kernel instead:
 * deploy/nftables-replicas.nft, each connection handed by nftables' NAT to one replica in turn,
 * no process in between (bench/lib/kernel-tier.ts). Needs Debian's nftables package and
 * CAP_NET_ADMIN, and as many cores as the file has replicas.
 */
const KERNEL_TIER = process.argv.includes('--kernel-tier');
if (KERNEL_TIER && findNft() === null)
  throw new Error(
    "--kernel-tier loads deploy/nftables-replicas.nft, and no nft is installed (PATH, /usr/sbin, /sbin): install Debian's nftables package, or leave out --kernel-tier",
  );
if (KERNEL_TIER && shippedReplicaCount() !== CORES)
  throw new Error(
    `--kernel-tier: deploy/nftables-replicas.nft spreads over ${shippedReplicaCount()} replicas and this machine has ${CORES} cores`,
  );
const KERNEL = `zecrpc: ${CORES} replicas behind nftables`;

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** The replay floors on the promised stack: target name, label printed, script. */
const FLOORS = [
  { name: 'http-floor', label: 'node:http floor', script: 'bench/lib/http-ceiling-server.ts' },
  { name: 'fastify-floor', label: 'bare-Fastify floor', script: 'bench/lib/fastify-ceiling-server.ts' },
  // Run for the transaction cases' uncached requests only: what it does per request is theirs.
  { name: 'render-floor', label: 'uncached render floor', script: 'bench/lib/render-floor-server.ts', uncachedOnly: true },
  // The same on as many processes as cores: what a server spreading requests over the cores reaches.
  {
    name: 'render-floor-spread',
    label: `uncached render floor on ${CORES} processes`,
    script: 'bench/lib/render-floor-server.ts',
    uncachedOnly: true,
    env: { FLOOR_PROCESSES: String(CORES) },
  },
  ...THREAD_FLOORS.map((n) => ({
    name: `render-floor-threads-${n}`,
    label: `uncached render floor on ${n === 1 ? 'a thread' : `${n} threads`}`,
    script: 'bench/lib/render-floor-server.ts',
    uncachedOnly: true,
    env: { FLOOR_THREADS: String(n) },
  })),
] as const;

/** A server configuration, started for this revision and, with `--base`, for the base's. */
interface ServerSpec {
  name: string;
  env: Record<string, string>;
}

interface Case {
  label: string;
  /** The server answering the hot requests, and the one answering the cold ones. */
  hot: ServerSpec;
  cold: ServerSpec;
  hotBodies: string[];
  coldBodies: string[];
  /** What the first reply to each body must be (its body), when known beforehand. */
  expected: (body: string) => Buffer | null;
  /** What the case's block holds, printed with the sizes. */
  content?: string;
  /** Rendered on the servers' render threads: with `--spaced`, its uncached requests are also sent in spaced bursts. */
  renderThreads?: boolean;
  /** The base revision's servers cannot serve it (a block built by this revision's bench): no `--base` figures. */
  thisRevisionOnly?: boolean;
  /** Its uncached requests are also measured against the uncached render floor (render-floor-server.ts). */
  renderFloor?: boolean;
}

const rpc = (method: string, params: string): string => `{"jsonrpc":"1.0","id":1,"method":"${method}","params":[${params}]}`;

function decodeServer(t: LargeTx, cache: boolean): ServerSpec {
  return {
    name: `decoderaw-${t.network}-${t.compat ?? 'default'}-${cache ? 'cached' : 'uncached'}`,
    env: {
      SERVE: 'decoderaw',
      NETWORK: t.network,
      CACHE: cache ? '1' : '0',
      ARGS: [SERVER_ARGS, ...(t.compat ? [`-compat=${t.compat}`] : [])].join(' '),
    },
  };
}

function storeServer(t: LargeTx, cache: boolean): ServerSpec {
  return {
    name: `store-${t.network}-${cache ? 'cached' : 'uncached'}`,
    env: { SERVE: 'store', NETWORK: t.network, CACHE: cache ? '1' : '0', ARGS: SERVER_ARGS },
  };
}

function largeTxCases(txs: readonly LargeTx[]): Case[] {
  const cases: Case[] = [];
  for (const t of txs) {
    const decodeBody = (bytes: Uint8Array) => rpc('decoderawtransaction', `"${toHex(bytes)}"`);
    const copies = distinctCopies(t, COPIES);
    const expectedByBody = new Map<string, Uint8Array>([
      [decodeBody(t.tx.bytes), t.tx.bytes],
      ...copies.map((c) => [decodeBody(c), c] as const),
    ]);
    cases.push({
      label: `decoderawtransaction ${t.name}`,
      hot: decodeServer(t, true),
      cold: decodeServer(t, false),
      hotBodies: [decodeBody(t.tx.bytes)],
      coldBodies: copies.map(decodeBody),
      renderFloor: true,
      expected: (body) => {
        const json = txToJsonBytes(decodeTransaction(expectedByBody.get(body)!, t.acceptance), t.params);
        return Buffer.concat([Buffer.from('{"result":'), json, Buffer.from(',"error":null,"id":1}\n')]);
      },
    });
  }
  // getrawtransaction over the stores bench/lib/served-blocks.ts builds, which hold these two blocks.
  for (const t of txs.filter((x) => x.name === 'test-141042#1' || x.name === 'main-106598#40')) {
    const body = (txid: string) => rpc('getrawtransaction', `"${txid}",1,"${t.block.hashHex}"`);
    const cold = t.block.transactions.filter((x) => x.size > 30_000);
    cases.push({
      label: `getrawtransaction 1 ${t.name}`,
      hot: storeServer(t, true),
      cold: storeServer(t, false),
      hotBodies: [body(t.tx.txidHex)],
      // The block's large transactions, on the server that keeps no reply.
      coldBodies: cold.map((x) => body(x.txidHex)),
      renderFloor: true,
      expected: () => null,
    });
  }
  // getblock 2 of the largest shielded block the vectors hold (testnet 141042: 1.93 MB, 20 Sprout
  // JoinSplits); uncached is the server without the reply cache, rendering every request.
  const big = SERVED_BLOCKS.find((b) => b.name === 'test-141042')!;
  const bigHash = decodeBlock(servedBlockBytes(big)).hashHex;
  const bigServed = txs.find((t) => t.name === 'test-141042#1')!;
  const getblock = rpc('getblock', `"${bigHash}",2`);
  cases.push({
    label: `getblock 2 ${big.name}`,
    hot: storeServer(bigServed, true),
    cold: storeServer(bigServed, false),
    hotBodies: [getblock],
    coldBodies: [getblock],
    expected: () => null,
    renderThreads: true,
  });
  // The same for a 2 MB block of Sapling spends and outputs (served-blocks.ts' blockOfSaplingShape).
  const saplingBlock = decodeBlock(blockOfSaplingShape(SAPLING_BLOCK_BYTES));
  let spends = 0;
  let outputs = 0;
  for (const tx of saplingBlock.transactions) {
    spends += tx.data.sapling?.spends.length ?? 0;
    outputs += tx.data.sapling?.outputs.length ?? 0;
  }
  const saplingServer = (cache: boolean): ServerSpec => ({
    name: `store-mainnet-sapling-${cache ? 'cached' : 'uncached'}`,
    env: {
      SERVE: 'store',
      NETWORK: 'mainnet',
      CACHE: cache ? '1' : '0',
      ARGS: SERVER_ARGS,
      SAPLING_BLOCK: String(SAPLING_BLOCK_BYTES),
    },
  });
  const saplingBody = rpc('getblock', `"${saplingBlock.hashHex}",2`);
  cases.push({
    label: `getblock 2 sapling-${SAPLING_SHAPE_HEIGHT}-shape`,
    hot: saplingServer(true),
    cold: saplingServer(false),
    hotBodies: [saplingBody],
    coldBodies: [saplingBody],
    expected: () => null,
    content:
      `${fmt(saplingBlock.size)} bytes, ${fmt(saplingBlock.transactions.length)} txs, ` +
      `${fmt(spends)} Sapling spends, ${fmt(outputs)} Sapling outputs`,
    thisRevisionOnly: true,
    renderThreads: true,
  });
  return ONLY ? cases.filter((c) => c.label.includes(ONLY)) : cases;
}

async function main(): Promise<void> {
  console.log(runStarted(REPO));
  const txs = largeTransactions();
  const cases = largeTxCases(txs);
  const children: ChildServer[] = [];
  /** The replica tiers (`--replicas`), by the name of the server spec their replicas run. */
  const tiers = new Map<string, HaproxyTier>();
  /** The kernel tiers (`--kernel-tier`), keyed as `tiers`, over the same replicas. */
  const kernelTiers = new Map<string, KernelTier>();
  /** The replicas of both tiers, keyed as `tiers`. */
  const replicaSets = new Map<string, ChildServer[]>();
  const dir = mkdtempSync(join(tmpdir(), 'zecrpc-bench-large-tx-'));
  let pool: ClientPool | null = null;
  try {
    const started = new Map<string, ChildServer>();
    const start = async (spec: ServerSpec, root?: string): Promise<ChildServer> => {
      const name = `${root ? 'base-' : ''}${spec.name}`;
      let child = started.get(name);
      if (!child) {
        // One folder per server: every thread of it (main, tsx's loader, render threads) writes its own profile.
        const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${join(PROFILE_DIR, name)}`] : [];
        const nodeArgs = [...launcherNodeArgs(root ?? REPO), ...profile];
        child = await startChildServer('bench/lib/zecrpc-server.ts', spec.env, { nodeArgs, mode: MODE, ...(root ? { root } : {}) });
        children.push(child);
        started.set(name, child);
      }
      return child;
    };

    // Record every reply; the ceiling replays them, and the base must give the same.
    const recorded: RecordedReply[] = [];
    const replySize = new Map<string, number>();
    /** zecrpc's reply body to each request body, which every other server must give. */
    const replyBody = new Map<string, Buffer>();
    const sizes: string[] = [];
    for (const c of cases) {
      for (const [spec, bodies] of [
        [c.hot, c.hotBodies],
        [c.cold, c.coldBodies],
      ] as const) {
        const ours = await start(spec);
        const base = BASE && !c.thisRevisionOnly ? await start(spec, BASE) : null;
        for (const body of bodies) {
          if (replySize.has(body)) continue;
          const r = await captureReply(ours.port, body);
          const got = replyParts(r).body;
          const want = c.expected(body);
          if (r.status !== 200 || (want && !got.equals(want)) || !got.toString('latin1', 0, 12).startsWith('{"result":{'))
            throw new Error(`${c.label}: unexpected reply ${got.toString('latin1', 0, 120)}`);
          if (base && !replyParts(await captureReply(base.port, body)).body.equals(got))
            throw new Error(`${c.label}: the base revision's reply differs from this revision's`);
          recorded.push({ body, reply: r.bytes.toString('base64') });
          replyBody.set(body, got);
          replySize.set(body, r.bytes.length);
        }
      }
      const hot = c.hotBodies[0]!;
      sizes.push(
        `${c.label}: ${c.content ? `${c.content}; ` : ''}request ${fmt(Buffer.byteLength(hot))} B, reply ${fmt(replySize.get(hot)!)} B`,
      );
    }
    const ceiling = await startReplayCeiling(dir, recorded, { mode: MODE });
    children.push(ceiling);
    // The floors replay the ceiling's file, with the Node options zecrpc's launcher gives it; each
    // must answer every body with zecrpc's body bytes, its whole reply's size its own (its head).
    const floors: { name: string; label: string; child: ChildServer; uncachedOnly: boolean }[] = [];
    const floorFile = join(dir, 'floor-replies.json');
    writeFileSync(floorFile, JSON.stringify(recorded));
    const floorReplySize = new Map<string, Map<string, number>>();
    for (const f of FLOORS) {
      const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${join(PROFILE_DIR, f.name)}`] : [];
      const nodeArgs = [...launcherNodeArgs(REPO), ...profile];
      const env: Record<string, string> = 'env' in f ? f.env : {};
      const child = await startChildServer(f.script, { REPLIES: floorFile, ...env }, { nodeArgs, mode: MODE });
      children.push(child);
      if (child.workers.length !== Number(env.FLOOR_PROCESSES ?? 0))
        throw new Error(`${f.label}: it answers from ${child.workers.length} workers`);
      floors.push({ name: f.name, label: f.label, child, uncachedOnly: 'uncachedOnly' in f });
      const sizes = new Map<string, number>();
      for (const [body, want] of replyBody) {
        const theirs = await captureReply(child.port, body);
        if (theirs.status !== 200 || !replyParts(theirs).body.equals(want))
          throw new Error(`${f.label}: its reply differs from zecrpc's to ${body.slice(0, 80)}…`);
        sizes.set(body, theirs.bytes.length);
      }
      floorReplySize.set(f.name, sizes);
    }
    // The replica tiers: their replicas are the `zecrpc` target's servers, more copies of them;
    // each must give zecrpc's body directly and through HAProxy, whose head is its own.
    const tierSizes = new Map<string, number>();
    floorReplySize.set(TIER, tierSizes);
    const kernelSizes = new Map<string, number>();
    floorReplySize.set(KERNEL, kernelSizes);
    for (const c of REPLICAS || KERNEL_TIER ? cases.filter((x) => x.renderFloor) : []) {
      // Cases sharing a server spec share its tiers; each case's requests are checked through them.
      if (!replicaSets.has(c.cold.name)) {
        const set: ChildServer[] = [];
        for (let i = 1; i <= CORES; i++) set.push(await start({ name: `${c.cold.name}-replica${i}`, env: c.cold.env }));
        replicaSets.set(c.cold.name, set);
        // A decoderawtransaction server holds no chain: no getblockcount for the health check.
        if (REPLICAS)
          tiers.set(c.cold.name, await startHaproxyTier(set, c.cold.env.SERVE === 'decoderaw' ? 'help' : undefined, { mode: MODE }));
        if (KERNEL_TIER) kernelTiers.set(c.cold.name, await startKernelTier(set, { mode: MODE }));
      }
      const replicas = replicaSets.get(c.cold.name)!;
      const haproxyTier = tiers.get(c.cold.name);
      const kernelTier = kernelTiers.get(c.cold.name);
      // Each replica directly, then each tier (whose head is its own: its reply sizes are recorded).
      const entries: { port: number; name: string; sizes?: Map<string, number> }[] = [
        ...replicas.map((r) => ({ port: r.port, name: 'a replica' })),
        ...(haproxyTier ? [{ port: haproxyTier.port, name: TIER, sizes: tierSizes }] : []),
        ...(kernelTier ? [{ port: kernelTier.port, name: KERNEL, sizes: kernelSizes }] : []),
      ];
      for (const body of c.coldBodies) {
        for (const e of entries) {
          const theirs = await captureReply(e.port, body);
          if (theirs.status !== 200 || !replyParts(theirs).body.equals(replyBody.get(body)!))
            throw new Error(`${e.name}: the reply on port ${e.port} differs from zecrpc's to ${body.slice(0, 80)}…`);
          e.sizes?.set(body, theirs.bytes.length);
        }
      }
    }
    const replyBytesOf = (target: string, body: string): number => floorReplySize.get(target)?.get(body) ?? replySize.get(body)!;
    pool = await ClientPool.start(CLIENTS);

    console.log(
      `large replies: zecrpc in child processes (${MODE === 'dist' ? 'compiled: dist/' : 'under tsx'}, ${SERVER_ARGS}) against a Buffer-bodied node:net ceiling replaying its exact replies` +
        `, floors on node:http and bare Fastify replaying them (${launcherNodeArgs(REPO).join(' ')})` +
        `${BASE ? ` and the base revision at ${BASE}` : ''}; ${CLIENTS} client processes, ${CONNECTIONS} connections; ` +
        `${ROUNDS} interleaved rounds of ≈ ${SECONDS} s per target; node ${process.version} | ${load()}`,
    );
    if (REPLICAS)
      console.log(
        `${TIER}: ${CORES} servers as the zecrpc target's (bench/lib/zecrpc-server.ts), each its own process with its own copy of ` +
          `the same in-memory store (served-blocks.ts' blocks for getrawtransaction; decoderawtransaction reads none), behind ${haproxyVersion()} ` +
          `with deploy/haproxy.cfg (its threads as configured there; health check getblockcount, help on the decoderawtransaction ` +
          `servers, which hold no chain); the clients send to HAProxy's port; CPU a request: the replicas' and HAProxy's`,
      );
    for (const t of txs) console.log(`${t.name}: ${fmt(t.tx.size)} bytes, ${t.content}, txid ${t.tx.txidHex}`);
    for (const line of sizes) console.log(line);

    let failures = 0;
    for (const c of cases) {
      for (const kind of UNCACHED_ONLY ? (['cold'] as const) : (['hot', 'cold'] as const)) {
        const bodies = kind === 'hot' ? c.hotBodies : c.coldBodies;
        if (bodies.length === 0) continue;
        const spec = kind === 'hot' ? c.hot : c.cold;
        const withBase = BASE && !c.thisRevisionOnly;
        const spreadSpec = { name: `${spec.name}-spread`, env: { ...spec.env, PROCESSES: String(CORES) } };
        const tier = kind === 'cold' ? tiers.get(spec.name) : undefined;
        const kernelTier = kind === 'cold' ? kernelTiers.get(spec.name) : undefined;
        const handedBefore = kernelTier?.connections();
        const targets: Target[] = [
          ...(withBase ? [{ name: 'base', child: await start(spec, BASE) }] : []),
          { name: 'zecrpc', child: await start(spec) },
          ...(SPREAD ? [{ name: SPREAD_NAME, child: await start(spreadSpec) }] : []),
          ...(tier ? [replicaTarget(TIER, tier)] : []),
          ...(kernelTier ? [replicaTarget(KERNEL, kernelTier)] : []),
        ];
        const spread = targets.find((t) => t.name === SPREAD_NAME);
        if (spread && spread.child.workers.length !== CORES)
          throw new Error(`${spread.name}: it answers from ${spread.child.workers.length} workers`);
        const caseFloors = floors.filter((f) => !f.uncachedOnly || (kind === 'cold' && c.renderFloor));
        const r = await compare(pool, ceiling, caseFloors, targets, `${c.label} ${kind}`, bodies, replyBytesOf);
        failures += r.failures;
        const what = kind === 'hot' ? 'cached' : `uncached (${bodies.length > 1 ? `${bodies.length} distinct txs, ` : ''}reply cache off)`;
        console.log(`${c.label} ${what}: ${r.line} | ${load()}${r.failures ? ` | ${r.failures} FAILED` : ''}`);
        const bound = r.bound.length ? ` | ${describeBound(r.bound, CORES)} | ${describeLoopBound(r.loopBound)}` : '';
        console.log(`${c.label} ${kind === 'hot' ? 'cached' : 'uncached'}, the machine's CPU: ${r.machine}${bound}`);
        if (kernelTier && handedBefore) {
          const handed = kernelTier.connections().map((n, i) => n - handedBefore[i]!);
          console.log(`${c.label} uncached, ${KERNEL}: connections handed to each replica over the rounds ${handed.join(', ')}`);
        }
        if (kind === 'cold' && SPACED > 0 && c.renderThreads) {
          const spaced = await spacedBursts(pool, targets, `${c.label} ${kind}`);
          failures += spaced.failures;
          console.log(`${c.label} uncached, ${spaced.line} | ${load()}${spaced.failures ? ` | ${spaced.failures} FAILED` : ''}`);
        }
      }
    }
    console.log(`run ended ${utc()} | ${load()}`);
    if (failures) process.exitCode = 1;
  } finally {
    pool?.stop();
    await Promise.all([...tiers.values(), ...kernelTiers.values()].map((t) => t.stop()));
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A server measured: where the clients send (`child.port`) and the processes whose CPU is its. */
interface Target {
  name: string;
  label?: string;
  /** Its server processes: `pid` and the `workers` it answers from. */
  child: ChildServer;
  /** A balancer in front of them (HAProxy): its CPU counts as the target's and is printed apart too. */
  proxyPids?: readonly number[];
}

/**
 * A replica tier as a target: its replicas answer, the clients send to the tier's port; HAProxy's
 * process counts as the tier's (none stands between client and replica in the kernel tier).
 */
function replicaTarget(name: string, tier: HaproxyTier | KernelTier): Target {
  const [first, ...others] = tier.replicas;
  const child: ChildServer = { port: tier.port, pid: first!.pid, workers: others.map((r) => r.pid), threads: [], stop: () => tier.stop() };
  return { name, child, ...('haproxyPid' in tier ? { proxyPids: [tier.haproxyPid] } : {}) };
}

/** `haproxy -v`'s first words (HAProxy version 2.6.12-1+deb12u3). */
function haproxyVersion(): string {
  const out = execFileSync(HAPROXY!, ['-v'], { encoding: 'utf8' });
  return /HAProxy version \S+/.exec(out)?.[0] ?? 'HAProxy';
}

/**
 * A target's CPU µs so far: all its processes' (the balancer's included) or, with `eventLoops`,
 * its server processes' main threads, summed.
 */
function targetCpuMicros(t: Target, eventLoops = false): number {
  const servers = processesCpuMicros([t.child.pid, ...t.child.workers], eventLoops);
  return eventLoops || !t.proxyPids ? servers : servers + processesCpuMicros(t.proxyPids);
}

/** The CPU µs so far of a target's render threads (the thread floor's), 0 for one without. */
function renderThreadsCpuMicros(t: { child: ChildServer }): number {
  return t.child.threads.reduce((sum, tid) => sum + processCpuMicros(t.child.pid, tid), 0);
}

/**
 * SPACED_BURSTS bursts of `--connections` requests of `set` (defined by compare()) to each of
 * `servers`, one server after the other so that each is idle exactly SPACED seconds before each
 * of its bursts (interleaved, a slow server's bursts would lengthen the other's idle spells): the
 * server CPU per request over the bursts after an uncounted first one.
 */
async function spacedBursts(
  pool: ClientPool,
  servers: readonly { name: string; child: ChildServer }[],
  set: string,
): Promise<{ line: string; failures: number }> {
  const cpu = new Map(servers.map((s) => [s.name, 0]));
  const completed = new Map(servers.map((s) => [s.name, 0]));
  let failures = 0;
  for (const s of servers) {
    // Not counted: it finds the server after the other's bursts, idle for longer than SPACED.
    failures += (await pool.run(s.child.port, `${set} ${s.name}`, CONNECTIONS, CONNECTIONS)).failures;
    for (let burst = 0; burst < SPACED_BURSTS; burst++) {
      await new Promise((r) => setTimeout(r, SPACED * 1000));
      const before = targetCpuMicros(s);
      const r = await pool.run(s.child.port, `${set} ${s.name}`, CONNECTIONS, CONNECTIONS);
      cpu.set(s.name, cpu.get(s.name)! + targetCpuMicros(s) - before);
      completed.set(s.name, completed.get(s.name)! + r.completed);
      failures += r.failures;
    }
  }
  const parts = servers.map((s) => `${s.name} ${fmt(cpu.get(s.name)! / Math.max(1, completed.get(s.name)!))} µs CPU/request`);
  return { line: `${SPACED_BURSTS} bursts of ${CONNECTIONS} requests, ${SPACED} s idle before each: ${parts.join(', ')}`, failures };
}

/**
 * Interleaved rounds of `bodies` against the ceiling, the `floors` and each of `servers` (the base
 * revision, then this one), the order rotating each round: rate and CPU per request, ratios to the
 * ceiling within each round, and each server's to the bare-Fastify floor.
 */
async function compare(
  pool: ClientPool,
  ceiling: ChildServer,
  floors: readonly (Target & { label: string })[],
  servers: readonly Target[],
  set: string,
  bodies: readonly string[],
  replyBytesOf: (target: string, body: string) => number,
): Promise<{ line: string; machine: string; bound: BoundRound[]; loopBound: LoopBoundRound[]; failures: number }> {
  const targets: Target[] = [{ name: 'ceiling', child: ceiling }, ...floors, ...servers];
  for (const t of targets) {
    const requests: PooledRequest[] = bodies.map((b) => ({ bytes: requestBytes(t.child.port, b), replyBytes: replyBytesOf(t.name, b) }));
    await pool.define(`${set} ${t.name}`, requests);
  }
  const lastRate = new Map<string, number>();
  let failures = 0;
  // Warm-up, not counted; it also sizes the runs. A fresh server compiles its hot code in
  // background threads for seconds after its first requests: WARMUP seconds of requests more
  // keep that out of the rounds, which measure a server that has been running.
  for (const t of targets) {
    const w = await pool.run(t.child.port, `${set} ${t.name}`, CONNECTIONS, Math.max(CONNECTIONS, bodies.length) * 2);
    lastRate.set(t.name, w.completed / w.seconds);
    failures += w.failures;
    // Runs of about a second each until WARMUP seconds have passed: a count sized once from the
    // first requests' rate, that of a server not yet warm, would end long before.
    for (let warmed = 0; warmed < WARMUP;) {
      const more = await pool.run(t.child.port, `${set} ${t.name}`, CONNECTIONS, Math.max(CONNECTIONS, Math.round(lastRate.get(t.name)!)));
      lastRate.set(t.name, more.completed / more.seconds);
      warmed += more.seconds;
      failures += more.failures;
    }
  }
  const rate = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  const cpu = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  /** Each target's event-loop thread alone (its main thread's task), a request. */
  const loopCpu = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  /** The render threads' CPU a request, for a target that has them. */
  const threadCpu = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  /** The load clients' CPU a request, and the share of the machine busy, over each run. */
  const clientCpu = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  const busy = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  /** A balancer's CPU a request, where the target has one. */
  const proxyCpu = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  const proxyMicros = (t: Target): number => (t.proxyPids ? processesCpuMicros(t.proxyPids) : 0);
  const clientsCpu = (): number => processesCpuMicros(pool.pids);
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of rotated(targets, round)) {
      const amount = Math.max(CONNECTIONS, Math.round(lastRate.get(t.name)! * SECONDS));
      const machineBefore = machineTicks();
      const clientsBefore = clientsCpu();
      const before = targetCpuMicros(t);
      const loopBefore = targetCpuMicros(t, true);
      const threadsBefore = renderThreadsCpuMicros(t);
      const proxyBefore = proxyMicros(t);
      const r = await pool.run(t.child.port, `${set} ${t.name}`, CONNECTIONS, amount);
      const used = targetCpuMicros(t) - before;
      const loopUsed = targetCpuMicros(t, true) - loopBefore;
      const threadsUsed = renderThreadsCpuMicros(t) - threadsBefore;
      const proxyUsed = proxyMicros(t) - proxyBefore;
      const clientsUsed = clientsCpu() - clientsBefore;
      busy.get(t.name)!.push(busyShare(machineBefore, machineTicks()));
      failures += r.failures;
      lastRate.set(t.name, r.completed / r.seconds);
      rate.get(t.name)!.push(r.completed / r.seconds);
      cpu.get(t.name)!.push(used / Math.max(1, r.completed));
      loopCpu.get(t.name)!.push(loopUsed / Math.max(1, r.completed));
      threadCpu.get(t.name)!.push(threadsUsed / Math.max(1, r.completed));
      proxyCpu.get(t.name)!.push(proxyUsed / Math.max(1, r.completed));
      clientCpu.get(t.name)!.push(clientsUsed / Math.max(1, r.completed));
    }
  }
  const ceilingRate = rate.get('ceiling')!;
  const ceilingCpu = cpu.get('ceiling')!;
  /** `of`'s rate and CPU per request as shares of `to`'s, round by round. */
  const shares = (of: string, to: string) => ({
    rate: describePercent(spread(rate.get(of)!.map((v, i) => (100 * v) / rate.get(to)![i]!))),
    cpu: describePercent(spread(cpu.get(of)!.map((v, i) => (100 * cpu.get(to)![i]!) / v))),
  });
  const parts = [`ceiling ${fmt(median(ceilingRate))} req/s ${fmt(median(ceilingCpu))} µs CPU`];
  for (const s of [...floors, ...servers]) {
    const label = s.label ?? s.name;
    const share = shares(s.name, 'ceiling');
    const proxy = s.proxyPids ? ` (HAProxy's ${fmt(median(proxyCpu.get(s.name)!))} µs of it)` : '';
    parts.push(
      `${label} ${fmt(median(rate.get(s.name)!))} req/s = ${share.rate} of the ceiling, ` +
        `${fmt(median(cpu.get(s.name)!))} µs CPU${proxy}, ceiling CPU ÷ ${label} CPU ${share.cpu}`,
    );
  }
  for (const s of servers) {
    for (const f of floors.filter((x) => x.name !== 'http-floor')) {
      const share = shares(s.name, f.name);
      parts.push(`${s.name} of the ${f.label}: throughput ${share.rate}, CPU (floor ÷ ${s.name}) ${share.cpu}`);
    }
  }
  // The replica tiers against the same code spread at no cost: what their balancer and separate stores cost.
  const cluster = servers.find((s) => s.name === SPREAD_NAME);
  for (const s of cluster ? servers.filter((x) => x.name === TIER || x.name === KERNEL) : []) {
    const share = shares(s.name, cluster!.name);
    parts.push(`${s.name} of ${cluster!.name}: throughput ${share.rate}, CPU (${cluster!.name} ÷ ${s.name}) ${share.cpu}`);
  }
  const machine = targets
    .map((t) => {
      const label = t.label ?? t.name;
      const threads = t.child.threads.length;
      const onThreads = threads > 0 ? `, render thread${threads > 1 ? 's' : ''} ${fmt(median(threadCpu.get(t.name)!))} µs` : '';
      return (
        `${label}: event loop${t.child.workers.length > 0 ? 's' : ''} ${fmt(median(loopCpu.get(t.name)!))} µs CPU a request${onThreads}, clients ${fmt(median(clientCpu.get(t.name)!))} µs, ` +
        `machine ${describePercent(spread(busy.get(t.name)!.map((b) => 100 * b)))} busy`
      );
    })
    .join(' | ');
  const floorCpu = cpu.get('render-floor');
  const bound: BoundRound[] = floorCpu
    ? boundRounds(
        ceilingRate,
        floorCpu,
        targets.map((t) => clientCpu.get(t.name)!),
      )
    : [];
  const floorLoop = loopCpu.get('render-floor');
  const loopBound: LoopBoundRound[] = floorLoop ? floorLoop.map((f, i) => ({ ceilingRate: ceilingRate[i]!, floorLoopCpu: f })) : [];
  return { line: parts.join(' | '), machine, bound, loopBound, failures };
}

await main();
