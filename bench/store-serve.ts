/**
 * Serving cost of `getblock` on real blocks, large ones included, measured from outside.
 *
 *   npx tsx bench/store-serve.ts [--seconds=0.5] [--rounds=3] [--quick]      (about 90 s)
 *
 * 1. CPU time of verbosity 2 in this process (decode + txids + JSON) for the two large blocks
 *    and for a 2 MB block made of 106598's transactions (the 2 MB target on the most
 *    input-heavy shape), written into a reused reply slab (the uncached serving path) and into
 *    fresh memory.
 * 2. Over HTTP: zecrpc's server in child processes (bench/lib/zecrpc-server.ts; one per network
 *    and per cache setting: replies cached as served, or rebuilt from the store on every
 *    request; the store is in memory, bench/lib/served-blocks.ts, not LevelDB), a ceiling in
 *    another child (bench/lib/ceiling-server.ts) replaying zecrpc's exact reply bytes, and the
 *    load generator in processes of its own (bench/lib/load-generator.ts; two for replies of a
 *    megabyte or more, which one process reading them would be too slow to measure). The blocks (bench/lib/served-blocks.ts) and their sizes
 *    are printed first.
 *    - cold and warm: the first request for each block and verbosity on a fresh server (that
 *      reply not cached yet; the server's very first request also pays for JIT warm-up), then
 *      the median of the next requests, one at a time.
 *    - throughput and latency: getblock <hash> 0/1/2 at 1, 10 and 50 connections for the largest
 *      mainnet block, at 10 for the others; interleaved rounds (ceiling, cached, uncached, the
 *      order rotating), the ratio to the ceiling taken per round, median and min–max printed;
 *      each target's p50/p90/p99 over all its rounds' requests (at least 10,000 where a run of
 *      3 s allows), timed per request to the microsecond, with the count, and the server's CPU
 *      time per request.
 * Every line carries the load average: the machine is shared, so medians and spreads matter
 * more than absolute numbers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeBlock } from '../src/codec/block.js';
import { blockToJsonBytes } from '../src/render/block.js';
import { SLAB_BYTES } from '../src/rpc/workers/reply-slab.js';
import { startChildServer, startReplayCeiling, type ChildServer } from './lib/child-server.js';
import { describeCell, failuresIn, interleavedRounds } from './lib/interleaved.js';
import { fmt, load, median, numberFlag, QUICK } from './lib/measure.js';
import { captureReply, replyParts, type CapturedReply } from './lib/raw-http.js';
import {
  blockOf106598Shape,
  blockOf419201Payouts,
  renewAddressHashes,
  networkParams,
  SERVED_BLOCKS,
  servedBlockBytes,
  type ServedBlock,
  type ServedNetwork,
} from './lib/served-blocks.js';

const SECONDS = numberFlag('seconds', QUICK ? 0.15 : 0.5);
const ROUNDS = numberFlag('rounds', QUICK ? 1 : 3);
const CONNECTIONS = [1, 10, 50];
/** zcashd's default (16) sheds requests beyond it; 64 lets 50 connections queue as a deployment serving them would. */
const WORK_QUEUE = 64;
const WARM_REQUESTS = QUICK ? 2 : 5;
const MB = 1e6;

interface Prepared {
  block: ServedBlock;
  bytes: Uint8Array;
  hashHex: string;
  txs: number;
}

const prepared: Prepared[] = SERVED_BLOCKS.map((block) => {
  const bytes = servedBlockBytes(block);
  const d = decodeBlock(bytes);
  return { block, bytes, hashHex: d.hashHex, txs: d.transactions.length };
});

const requestBody = (p: Prepared, verbosity: number): string =>
  `{"jsonrpc":"1.0","id":1,"method":"getblock","params":["${p.hashHex}",${verbosity}]}`;

/**
 * CPU time of verbosity 2 in this process, rendered as a render thread renders an uncached
 * reply (into its reply slab, memory written before) and as a first, cached rendering does
 * (into fresh memory, whose page faults the kernel serves as the text is written). The baseline
 * is V8's own serializer writing the same reply from objects built beforehand
 * (`Buffer.from(JSON.stringify(…))`, no decoding at all): what a JavaScript renderer that already
 * had the answer as objects would pay. It is timed after the renderings, and its objects are then
 * dropped: kept alive beside them, that large object graph changed the renderings' garbage
 * collection and so their times.
 */
function verbosity2CpuTime(p: Prepared, beforeEachRun?: () => void): void {
  const ctx = { height: p.block.height, confirmations: 1, chainWork: 1n, previousBlockHash: null, nextBlockHash: null };
  const slab = Buffer.allocUnsafe(SLAB_BYTES);
  const runs = { slab: { total: [] as number[], json: [] as number[] }, fresh: { total: [] as number[], json: [] as number[] } };
  const rounds = QUICK ? 3 : 12;
  let size = 0;
  for (let i = 0; i < rounds; i++) {
    for (const into of ['slab', 'fresh'] as const) {
      beforeEachRun?.();
      const t0 = performance.now();
      const block = decodeBlock(p.bytes);
      for (const tx of block.transactions) void tx.txid;
      const t1 = performance.now();
      size = blockToJsonBytes(block, 2, ctx, networkParams(p.block.network), into === 'slab' ? slab : undefined).length;
      const t2 = performance.now();
      runs[into].total.push(t2 - t0);
      runs[into].json.push(t2 - t1);
    }
  }
  const stringified = stringifyTimes(p, ctx, rounds);
  const ms = (xs: number[]) => median(xs).toFixed(1);
  // A reply larger than a slab moves on to fresh memory as it is written (and a render thread
  // transfers it instead of lending a slab).
  const slabNote = size > SLAB_BYTES ? `, outgrowing its ${SLAB_BYTES >> 20} MiB into fresh memory` : '';
  console.log(
    `in-process getblock verbosity 2, ${p.block.name} (${fmt(p.bytes.length)} bytes → ${fmt(size)} bytes of JSON): decode+txids+JSON median ` +
      `${ms(runs.slab.total)} ms into a reply slab (JSON alone ${ms(runs.slab.json)} ms${slabNote}), ${ms(runs.fresh.total)} ms into fresh memory ` +
      `(JSON alone ${ms(runs.fresh.json)} ms); Buffer.from(JSON.stringify(…)) of the same reply prebuilt as objects ` +
      `${ms(stringified.ms)} ms (${fmt(stringified.bytes)} bytes); target ≤ 8 ms for 2 MB | ${load()}`,
  );
}

/** `Buffer.from(JSON.stringify(…))` of `p`'s verbosity 2 reply, parsed into objects first: ms per run. */
function stringifyTimes(p: Prepared, ctx: Parameters<typeof blockToJsonBytes>[2], rounds: number): { ms: number[]; bytes: number } {
  const prebuilt: unknown = JSON.parse(blockToJsonBytes(decodeBlock(p.bytes), 2, ctx, networkParams(p.block.network)).toString('utf8'));
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    bytes = Buffer.from(JSON.stringify(prebuilt)).length;
    ms.push(performance.now() - t);
  }
  return { ms, bytes };
}

/** The reply's first bytes must be a result for this block: a wrong answer is not a measurement. */
function checkReply(p: Prepared, verbosity: number, r: CapturedReply): void {
  const body = replyParts(r).body.toString('latin1', 0, 200);
  const start =
    verbosity === 0 ? `{"result":"${Buffer.from(p.bytes.subarray(0, 40)).toString('hex')}` : `{"result":{"hash":"${p.hashHex}",`;
  if (r.status !== 200 || !body.startsWith(start))
    throw new Error(`getblock ${p.block.name} ${verbosity}: unexpected reply ${body.slice(0, 120)}`);
}

/** First request, then WARM_REQUESTS more, one at a time; returns the first reply and the timings. */
async function coldWarm(port: number, body: string): Promise<{ first: CapturedReply; warmMs: number }> {
  const first = await captureReply(port, body);
  const warm: number[] = [];
  for (let i = 0; i < WARM_REQUESTS; i++) warm.push((await captureReply(port, body)).ms);
  return { first, warmMs: median(warm) };
}

async function main(): Promise<void> {
  for (const p of prepared.filter((x) => x.bytes.length > MB)) verbosity2CpuTime(p);
  const shaped = blockOf106598Shape(2 * MB);
  verbosity2CpuTime({
    block: { ...SERVED_BLOCKS[0]!, name: '106598-txs-2MB', content: "106598's transactions repeated to 2 MB" },
    bytes: shaped,
    hashHex: decodeBlock(shaped).hashHex,
    txs: decodeBlock(shaped).transactions.length,
  });
  // Output-heavy: every output prints an address. First with every address new in each run
  // (an explorer reads each block once; pseudo-random hashes), then the block as built, whose few
  // hundred distinct addresses (419201's payees, repeated) the address table holds after one run,
  // but for the dozen that share a slot with another and are encoded again each time.
  const payouts = blockOf419201Payouts(2 * MB);
  const renewed = payouts.slice();
  const payoutBlock = { ...SERVED_BLOCKS[0]!, height: 419201, content: "419201's payout transactions repeated to 2 MB" };
  const payoutPrepared = (bytes: Uint8Array, name: string): Prepared => ({
    block: { ...payoutBlock, name },
    bytes,
    hashHex: decodeBlock(bytes).hashHex,
    txs: decodeBlock(bytes).transactions.length,
  });
  verbosity2CpuTime(payoutPrepared(renewed, '419201-payouts-2MB-fresh-addresses'), () => {
    if (renewAddressHashes(renewed) < 50_000) throw new Error('payout block: fewer P2PKH/P2SH outputs than expected');
  });
  verbosity2CpuTime(payoutPrepared(payouts, '419201-payouts-2MB-known-addresses'));

  const env = (network: ServedNetwork, cache: boolean): Record<string, string> => ({
    SERVE: 'store',
    NETWORK: network,
    CACHE: cache ? '1' : '0',
    ARGS: `-rpcworkqueue=${WORK_QUEUE}`,
  });
  const children: ChildServer[] = [];
  const servers = new Map<ServedNetwork, { cached: ChildServer; uncached: ChildServer }>();
  const dir = mkdtempSync(join(tmpdir(), 'zecrpc-bench-serve-'));
  try {
    for (const n of ['mainnet', 'testnet'] as const) {
      const [cached, uncached] = await Promise.all([
        startChildServer('bench/lib/zecrpc-server.ts', env(n, true)),
        startChildServer('bench/lib/zecrpc-server.ts', env(n, false)),
      ]);
      children.push(cached, uncached);
      servers.set(n, { cached, uncached });
    }

    console.log(
      `getblock over HTTP: zecrpc in child processes (-rpcworkqueue=${WORK_QUEUE}, default -rpcthreads) against a Buffer-bodied node:net ceiling ` +
        `in another child replaying zecrpc's exact reply bytes; served from an in-memory store (bench/lib/served-blocks.ts); ` +
        `load generator in processes of its own (two for replies of 1 MB or more), latency timed per request to the microsecond; ` +
        `${ROUNDS} interleaved rounds (order rotating) of ≈ ${SECONDS} s per target, more to reach 10,000 requests per target where a run of 3 s allows`,
    );
    const recorded: { body: string; reply: string }[] = [];
    const replyBytes = new Map<string, number>();
    for (const p of prepared) {
      const s = servers.get(p.block.network)!;
      const sizes: string[] = [];
      const lines: string[] = [];
      for (const v of [0, 1, 2]) {
        const body = requestBody(p, v);
        const cached = await coldWarm(s.cached.port, body);
        const uncached = await coldWarm(s.uncached.port, body);
        checkReply(p, v, cached.first);
        const a = replyParts(cached.first);
        const b = replyParts(uncached.first);
        if (a.head !== b.head || !a.body.equals(b.body))
          throw new Error(`getblock ${p.block.name} ${v}: cached and uncached replies differ`);
        recorded.push({ body, reply: cached.first.bytes.toString('base64') });
        replyBytes.set(body, cached.first.bytes.length);
        sizes.push(`v${v} ${fmt(a.body.length)}`);
        lines.push(
          `cold/warm ${p.block.name} v${v}: cache on first ${cached.first.ms.toFixed(2)} ms, warm ${cached.warmMs.toFixed(2)} ms | ` +
            `cache off first ${uncached.first.ms.toFixed(2)} ms, warm ${uncached.warmMs.toFixed(2)} ms | ${load()}`,
        );
      }
      console.log(
        `block ${p.block.name}: ${p.block.network} ${p.block.height}, ${fmt(p.bytes.length)} bytes, ${p.txs} txs (${p.block.content}); ` +
          `reply bodies ${sizes.join(', ')} bytes`,
      );
      for (const l of lines) console.log(`  ${l}`);
    }

    const ceiling = await startReplayCeiling(dir, recorded);
    children.push(ceiling);

    let failures = 0;
    for (const p of prepared) {
      const s = servers.get(p.block.network)!;
      const targets = [
        { name: 'ceiling', port: ceiling.port, pid: ceiling.pid },
        { name: 'cached', port: s.cached.port, pid: s.cached.pid },
        { name: 'uncached', port: s.uncached.port, pid: s.uncached.pid },
      ];
      for (const v of [0, 1, 2]) {
        for (const c of p.block.full ? CONNECTIONS : [10]) {
          const body = requestBody(p, v);
          const r = await interleavedRounds(targets, body, replyBytes.get(body)!, c, ROUNDS, SECONDS);
          const bad = targets.reduce((a, t) => a + failuresIn(r.runs.get(t.name)!), 0);
          failures += bad;
          console.log(
            `${p.block.name} v${v} ${String(c).padStart(2)} conn: ${describeCell(r, { cached: 'cached', uncached: 'uncached' })} | ${load()}` +
              (bad ? ` | ${bad} FAILED requests` : ''),
          );
        }
      }
    }
    if (failures) {
      console.log(`${failures} requests failed or answered something other than the recorded reply`);
      process.exitCode = 1;
    }
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
