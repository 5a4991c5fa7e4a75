/**
 * The coins cache of `zecrpc import` (src/store/committed-coins.ts, `-dbcache`) off and on: the
 * same import, as `zecrpc import --blocks-dir` runs it (bench/lib/era-import.ts), with the bound
 * set to 0 and to its default, interleaved (off, on, off, on, …) so that the machine's drift
 * falls on both alike. Reports wall time, CPU (all threads and the main thread's) and who answered
 * the coin reads: the pending groups, the cache, LevelDB.
 *
 *   npx tsx bench/coins-cache.ts calibration [--blocks=250] [--rounds=2]
 *       the transparent-heavy calibration chains of bench/import-eras.ts, built here
 *   npx tsx bench/coins-cache.ts chain DIR --max-blocks=N [--rounds=1] [--first=on] [--only=on|off]
 *       the first N blocks of a chain bench/import-contiguous.ts generated
 *   npx tsx bench/coins-cache.ts aged [--age=1000] [--rounds=2]
 *       a chain built here whose inputs spend coins AGE blocks old (outside the pending groups'
 *       512 blocks, inside the cache's span): what the cache saves where it is asked
 *
 * The era chains spend the oldest unspent outputs first (test-vectors/era-chain.ts): the worst
 * case for a cache of recent coins. Results are appended to bench/results/coins-cache.json.
 */
// First: the bench runs with the import's Node options (relaunched with them otherwise).
import './lib/import-node-options.js';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_DBCACHE_MIB } from '../src/store/dbcache.js';
import type { EraChainGenerator } from '../test-vectors/era-chain.js';
import { calibrationChains } from './lib/calibration-chains.js';
import type { PlannedBlock } from '../test-vectors/era-shapes.js';
import { benchChainGenerator, chainNetwork, writeChainFile } from './lib/era-chain-file.js';
import { importChainDir, type EraImportRun } from './lib/era-import.js';
import { fmt, load, median, numberFlag, positional } from './lib/measure.js';

const RESULT = join(import.meta.dirname, 'results', 'coins-cache.json');
const CALIBRATION_LABELS = ['era sprout (real shapes)', 'inputs: 4 tx × 40 in, 1 out'];
const ON_BYTES = DEFAULT_DBCACHE_MIB * 1024 * 1024;

const [mode, chainArg] = positional();
const ROUNDS = numberFlag('rounds', mode === 'chain' ? 1 : 2);
/** --first=on: the first round imports with the cache first (a run of one round split over two invocations). */
const FIRST_ON = process.argv.includes('--first=on') ? 1 : 0;
/** --only=on|off: one side (a long import per invocation, interleaved by hand: off, on, on, off). */
const ONLY = process.argv.includes('--only=on') ? 'on' : process.argv.includes('--only=off') ? 'off' : null;
const root = mkdtempSync(join(tmpdir(), 'zecrpc-bench-coins-'));

/**
 * 101 coinbase blocks, a block splitting block 1's coinbase into `age` outputs, `age` blocks each
 * spending one of them into 300 outputs, then `age` blocks of one 300-input transaction: the
 * generator spends the oldest outputs first, so each of these inputs spends a coin created about
 * `age` blocks before.
 */
function* agedChain(generator: EraChainGenerator, age: number): Iterable<PlannedBlock> {
  for (let i = 0; i < 101; i++) yield { era: 'feeder', block: generator.next([]) };
  yield { era: 'feeder', block: generator.next([{ inputs: 1, outputs: age }]) };
  for (let i = 0; i < age; i++) yield { era: 'feeder', block: generator.next([{ inputs: 1, outputs: 300 }]) };
  for (let i = 0; i < age; i++) yield { era: 'feeder', block: generator.next([{ inputs: 300, outputs: 1 }]) };
}

/** The highest RSS sampled during a run (every 5 s, and at its end). */
const peakRss = (run: EraImportRun): number => Math.max(0, ...run.trace.map((t) => t.rssMiB));

interface Side {
  wall: number[];
  cpu: number[];
  main: number[];
  runs: EraImportRun[];
}

try {
  const chains: { label: string; dir: string; maxBlocks?: number }[] = [];
  if (mode === 'calibration') {
    const blocks = numberFlag('blocks', 250);
    for (const [i, spec] of calibrationChains(blocks).entries()) {
      if (!CALIBRATION_LABELS.includes(spec.label)) continue;
      const dir = join(root, `chain${i}`);
      const generator = benchChainGenerator(`cal${i}`, spec.scriptSigBytes);
      const written = writeChainFile(dir, generator, spec.blocks(generator));
      console.log(`built ${spec.label}: ${fmt(written.total.blocks)} blocks, ${fmt(written.total.inputs)} inputs (${load()})`);
      chains.push({ label: `${spec.label}, ${blocks} measured blocks`, dir });
    }
  } else if (mode === 'aged') {
    const age = numberFlag('age', 1000);
    const dir = join(root, 'aged');
    const generator = benchChainGenerator('aged');
    const written = writeChainFile(dir, generator, agedChain(generator, age));
    console.log(`built an aged chain: ${fmt(written.total.blocks)} blocks, ${fmt(written.total.inputs)} inputs (${load()})`);
    chains.push({ label: `inputs spending coins ${age} blocks old`, dir });
  } else if (mode === 'chain' && chainArg) {
    const maxBlocks = numberFlag('max-blocks', 20_000);
    chains.push({ label: `${chainArg}, first ${fmt(maxBlocks)} blocks`, dir: chainArg, maxBlocks });
  } else {
    console.error('usage: coins-cache.ts calibration [--blocks=N] [--rounds=N] | chain DIR --max-blocks=N [--rounds=N] | aged [--age=N]');
    process.exit(2);
  }

  const results = [];
  for (const chain of chains) {
    const sides: Record<'off' | 'on', Side> = {
      off: { wall: [], cpu: [], main: [], runs: [] },
      on: { wall: [], cpu: [], main: [], runs: [] },
    };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first, so neither always runs on the warmer machine.
      const order: ('off' | 'on')[] = (round + FIRST_ON) % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
      for (const side of order.filter((s) => ONLY === null || s === ONLY)) {
        const datadir = mkdtempSync(join(root, 'store-'));
        try {
          const run = await importChainDir(chain.dir, datadir, chainNetwork(chain.dir), {
            coinCacheBytes: side === 'on' ? ON_BYTES : 0,
            traceEverySeconds: 5,
            ...(chain.maxBlocks ? { maxBlocks: chain.maxBlocks } : {}),
          });
          const s = sides[side];
          s.wall.push(run.wallMicros / 1e6);
          s.cpu.push(run.cpuMicros / 1e6);
          s.main.push(run.mainThreadCpuMicros / 1e6);
          s.runs.push(run);
          const r = run.coinReads;
          console.log(
            `${chain.label} cache ${side.padEnd(3)}: ${fmt(run.blocks)} blocks, ${(run.wallMicros / 1e6).toFixed(2)} s wall, ` +
              `${(run.cpuMicros / 1e6).toFixed(2)} s CPU, ${(run.mainThreadCpuMicros / 1e6).toFixed(2)} s main thread; coin reads ` +
              `${fmt(r.pending)} pending, ${fmt(r.cached)} cache, ${fmt(r.leveldb)} LevelDB; cache peak ` +
              `${(run.coinCachePeakBytes / 2 ** 20).toFixed(1)} MiB, ${run.coinCachePeakGroups} groups; peak RSS ${peakRss(run).toFixed(0)} MiB (${load()})`,
          );
        } finally {
          rmSync(datadir, { recursive: true, force: true });
        }
      }
    }
    const summary = (s: Side) => {
      if (s.runs.length === 0) return null;
      const reads = s.runs[0]!.coinReads;
      const total = reads.pending + reads.cached + reads.leveldb;
      return {
        wall_s: s.wall,
        cpu_s: s.cpu,
        main_thread_s: s.main,
        median_wall_s: median(s.wall),
        median_cpu_s: median(s.cpu),
        median_main_thread_s: median(s.main),
        blocks: s.runs[0]!.blocks,
        coin_reads: reads,
        share_cached: total ? reads.cached / total : 0,
        share_leveldb: total ? reads.leveldb / total : 0,
        cache_peak_mib: Math.max(...s.runs.map((r) => r.coinCachePeakBytes)) / 2 ** 20,
        cache_peak_groups: Math.max(...s.runs.map((r) => r.coinCachePeakGroups)),
        peak_rss_mib: s.runs.map(peakRss),
      };
    };
    const off = summary(sides.off);
    const on = summary(sides.on);
    results.push({ chain: chain.label, rounds: ROUNDS, off, on, load_after: loadavg()[0] });
    if (!off || !on) continue;
    console.log(
      `${chain.label}: cache on/off ${(on.median_wall_s / off.median_wall_s).toFixed(3)}× wall, ${(on.median_cpu_s / off.median_cpu_s).toFixed(3)}× CPU, ` +
        `${(on.median_main_thread_s / off.median_main_thread_s).toFixed(3)}× main thread (medians of ${ROUNDS}); ` +
        `the cache answered ${(on.share_cached * 100).toFixed(1)} % of coin reads, LevelDB ${(on.share_leveldb * 100).toFixed(1)} % ` +
        `(off: ${(off.share_leveldb * 100).toFixed(1)} %) (${load()})`,
    );
  }
  const previous = existsSync(RESULT) ? (JSON.parse(readFileSync(RESULT, 'utf8')) as unknown[]) : [];
  const revision = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  previous.push({ measured_at: new Date().toISOString(), revision, mode, on_bytes: ON_BYTES, results });
  writeFileSync(RESULT, JSON.stringify(previous, null, 2) + '\n');
} finally {
  rmSync(root, { recursive: true, force: true });
}
