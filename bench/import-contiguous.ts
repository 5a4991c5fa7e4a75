/**
 * The long contiguous import that checks the projection: an era-shaped chain of ≥ 100,000 blocks
 * (bench/lib/contiguous-plan.ts) imported as `zecrpc import --blocks-dir` runs, predicted by the
 * import model before it runs.
 *
 *   npx tsx bench/import-contiguous.ts generate DIR      builds the chain into DIR (blk files)
 *   npx tsx bench/import-contiguous.ts generate-store DIR  builds the store calibration chain
 *                                                        (bench/import-eras.ts --store-chain=DIR)
 *   npx tsx bench/import-contiguous.ts run DIR [--max-seconds=N] [--address-index=0]
 *
 * With --address-index=0 the import runs as `zecrpc import -addressindex=0` does, predicted from
 * and recorded in bench/results/import-projection-no-address-index.json (`import-eras.ts
 * --address-index=0` writes its unit costs).
 * `run` reads what the chain holds from its blk files (every block decoded and counted, in
 * windows of 1,000 blocks), predicts the import from bench/results/import-projection.json's unit
 * costs (bench/import-eras.ts) — LevelDB's read growth charged only to the coin reads that reach
 * LevelDB, which bench/lib/coin-read-sim.ts counts over the same blocks at the group sizes of
 * bench/results/coin-reads.json (bench/coin-reads.ts fit) —, writes that prediction into the same file, then imports into a
 * fresh store, sampling RSS, the store's size on disk and the load average every 10 s. With
 * --max-seconds the import stops between blocks at that time, and what was imported is compared
 * with the prediction for exactly those blocks. Per window, measured time ÷ predicted shows
 * whether throughput falls as LevelDB grows, and each window's CPU (all threads and the main
 * thread's) and LevelDB coin reads, measured beside the simulated, say where the model errs; the
 * keys in the store are counted at the end.
 */
// First: the bench runs with the import's Node options (relaunched with them otherwise).
import { appliedNodeOptions } from './lib/import-node-options.js';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_DBCACHE_MIB } from '../src/store/dbcache.js';
import { addComposition, compositionOf, emptyComposition, type Composition } from '../test-vectors/era-chain.js';
import {
  CONTIGUOUS_SEGMENTS,
  SECOND_CHECK_SEGMENTS,
  SECOND_CHECK_TAG,
  STORE_CALIBRATION_SEGMENTS,
  STORE_CHAIN_TAG,
} from './lib/contiguous-plan.js';
import { chainNetwork, WINDOW_BLOCKS, writeEraChain } from './lib/era-chain-file.js';
import { blkBlocks, CoinReadSimulation, type GroupSizes, type SimulatedReads } from './lib/coin-read-sim.js';
import { ADDRESS_INDEX, diskBytes, importChainDir, projectionFile } from './lib/era-import.js';
import { countKeys } from './lib/store-keys.js';
import { sameRunsBefore } from './lib/check-runs.js';
import { modelsStore, predictMicros, type ModelAmounts, type UnitCosts } from './lib/import-model.js';
import { storeAmounts } from './lib/store-terms.js';
import { emptyStore, growthMicros, readLevelDbGrowth, storeKeysAfter, storeKeyTotal, type StoreKeys } from './lib/leveldb-growth-model.js';
import { fmt, load, numberFlag, stringFlag } from './lib/measure.js';

const RESULT = projectionFile(join(import.meta.dirname, 'results'));
/**
 * Where the run is kept in the result file: `contiguous` (the check the issue names), or with
 * --record=NAME under `other_checks.NAME` (another chain predicted the same way).
 */
const RECORD = stringFlag('record') ?? 'contiguous';
type ProjectionFile = { contiguous?: unknown; contiguous_predicted_from?: string; other_checks?: Record<string, unknown> };
const recorded = (p: ProjectionFile): unknown => (RECORD === 'contiguous' ? p.contiguous : p.other_checks?.[RECORD]);
function record(p: ProjectionFile, run: unknown): void {
  if (RECORD === 'contiguous') {
    p.contiguous = run;
    // Predicted from the costs in the file: no longer a check of other costs (bench/import-eras.ts).
    delete p.contiguous_predicted_from;
  } else p.other_checks = { ...p.other_checks, [RECORD]: run };
}
const [command, dir] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const PLANS = {
  generate: [CONTIGUOUS_SEGMENTS, 'contiguous'],
  'generate-store': [STORE_CALIBRATION_SEGMENTS, STORE_CHAIN_TAG],
  'generate-check': [SECOND_CHECK_SEGMENTS, SECOND_CHECK_TAG],
} as const;
const planned = command !== undefined && Object.hasOwn(PLANS, command);
if (!dir || (!planned && command !== 'run')) {
  console.error('usage: import-contiguous.ts generate|generate-store|generate-check|run DIR [--max-seconds=N] [--record=NAME]');
  process.exit(2);
}

if (planned) {
  const t0 = performance.now();
  const [segments, tag] = PLANS[command as keyof typeof PLANS];
  const c = writeEraChain(dir, segments, tag, (h) => {
    if ((h + 1) % 10_000 === 0)
      console.log(`generated ${fmt(h + 1)} blocks in ${((performance.now() - t0) / 1000).toFixed(0)} s (${load()})`);
  });
  console.log(`generated ${fmt(c.total.blocks)} blocks, ${(c.total.bytes / 1e9).toFixed(2)} GB in ${c.generatorSeconds.toFixed(0)} s`);
} else {
  await run(dir);
}

/**
 * What each window of WINDOW_BLOCKS blocks in DIR's blk files holds, read from the files, and how
 * many of its coin reads reach LevelDB: the importer's grouping and coins cache replayed over the
 * same blocks (bench/lib/coin-read-sim.ts) at the group sizes bench/coin-reads.ts fitted on the
 * calibration chains.
 */
function windowsOf(chainDir: string, sizes: GroupSizes): { windows: Composition[]; reads: SimulatedReads[]; total: SimulatedReads } {
  const windows: Composition[] = [];
  const sim = new CoinReadSimulation(sizes, DEFAULT_DBCACHE_MIB * 2 ** 20, WINDOW_BLOCKS);
  let n = 0;
  for (const { block, size } of blkBlocks(chainDir)) {
    addComposition((windows[Math.floor(n++ / WINDOW_BLOCKS)] ??= emptyComposition()), compositionOf(block, size));
    sim.add(block);
  }
  return { windows, reads: sim.windows, total: sim.total };
}

async function run(chainDir: string): Promise<void> {
  const maxSeconds = process.argv.some((a) => a.startsWith('--max-seconds=')) ? numberFlag('max-seconds', 1) : null;
  const projection = JSON.parse(readFileSync(RESULT, 'utf8')) as {
    unit_costs_us: { wall: UnitCosts; cpu: UnitCosts };
    contiguous?: unknown;
    [k: string]: unknown;
  };
  const coinReadsFile = join(import.meta.dirname, 'results', 'coin-reads.json');
  const sizes = existsSync(coinReadsFile)
    ? (JSON.parse(readFileSync(coinReadsFile, 'utf8')) as { group_sizes?: GroupSizes }).group_sizes
    : undefined;
  if (!sizes) throw new Error('no group sizes in bench/results/coin-reads.json: run `bench/coin-reads.ts fit` first');
  const { windows, reads, total: simulatedReads } = windowsOf(chainDir, sizes);
  const total = windows.reduce((a, w) => addComposition(a, { ...w }), emptyComposition());
  // What LevelDB's growth adds, window by window as the store fills (bench/lib/leveldb-growth-model.ts).
  const growth = readLevelDbGrowth(join(import.meta.dirname, 'results'));
  const growthSeconds = { cpu: [] as number[], wall: [] as number[] };
  let keysSoFar: StoreKeys = emptyStore(ADDRESS_INDEX);
  const amounts: ModelAmounts[] = [];
  const { wall: wallCosts, cpu: cpuCosts } = projection.unit_costs_us;
  for (const [i, w] of windows.entries()) {
    // Only the coin reads that reach LevelDB pay its growth; with the store term fitted, the
    // written rows' growth is in the unit costs.
    const levelDbReads = reads[i]?.leveldb ?? 0;
    growthSeconds.cpu.push(growth ? growthMicros(growth, w, keysSoFar, 'cpu', levelDbReads, !modelsStore(cpuCosts)) / 1e6 : 0);
    growthSeconds.wall.push(growth ? growthMicros(growth, w, keysSoFar, 'wall', levelDbReads, !modelsStore(wallCosts)) / 1e6 : 0);
    amounts.push({ ...w, ...storeAmounts(w, keysSoFar) });
    keysSoFar = storeKeysAfter(keysSoFar, w);
  }
  const predictedWall = amounts.map((w, i) => predictMicros({ ...wallCosts, run: 0 }, w) / 1e6 + growthSeconds.wall[i]!);
  const predictedCpu = amounts.map((w, i) => predictMicros({ ...cpuCosts, run: 0 }, w) / 1e6 + growthSeconds.cpu[i]!);
  const sum = (a: number[]) => a.reduce((s, x) => s + x, 0);
  const prediction = {
    blocks: total.blocks,
    bytes: total.bytes,
    composition: total,
    predicted_seconds: sum(predictedWall) + projection.unit_costs_us.wall.run / 1e6,
    predicted_cpu_seconds: sum(predictedCpu) + projection.unit_costs_us.cpu.run / 1e6,
    predicted_leveldb_growth_seconds: { cpu: sum(growthSeconds.cpu), wall: sum(growthSeconds.wall) },
    // Who answers the coin reads, simulated before the run; only LevelDB's are charged its growth.
    predicted_coin_reads: {
      ...simulatedReads,
      basis: 'bench/lib/coin-read-sim.ts at bench/results/coin-reads.json group_sizes, default -dbcache',
    },
    predicted_store_keys: Math.round(storeKeyTotal(keysSoFar)),
    predicted_at: new Date().toISOString(),
    // The unit costs the prediction used: bench/import-eras.ts, re-run, keeps this check beside
    // costs of its own, and says so when they are not these.
    predicted_from_costs_of: { generated_at: projection.generated_at, commit: projection.commit },
    load_at_prediction: loadavg()[0],
    seconds: null as number | null,
  };
  // Earlier runs of the same chain under the same prediction are kept beside the newest: one run's
  // ratio says little about how much the import moves from run to run.
  const earlierRuns = sameRunsBefore(recorded(projection), prediction.predicted_cpu_seconds, total.blocks);
  record(projection, { ...prediction, earlier_runs_with_this_prediction: earlierRuns });
  writeFileSync(RESULT, JSON.stringify(projection, null, 2) + '\n');
  console.log(
    `${RECORD === 'contiguous' ? 'contiguous chain' : RECORD}: ${fmt(total.blocks)} blocks, ${(total.bytes / 1e9).toFixed(2)} GB, ${fmt(total.inputs)} inputs, ${fmt(total.outputs)} outputs, ` +
      `${fmt(total.saplingOutputs)} Sapling outputs, ${fmt(total.orchardActions)} Orchard actions; predicted before the run: ` +
      `${prediction.predicted_seconds.toFixed(0)} s wall, ${prediction.predicted_cpu_seconds.toFixed(0)} s CPU (${load()})`,
  );

  const datadir = mkdtempSync(join(tmpdir(), 'zecrpc-contiguous-'));
  const stop = new AbortController();
  const timer = maxSeconds ? setTimeout(() => stop.abort(), maxSeconds * 1000) : null;
  try {
    const r = await importChainDir(chainDir, datadir, chainNetwork(chainDir), {
      traceEverySeconds: 10,
      windowBlocks: WINDOW_BLOCKS,
      signal: stop.signal,
      addressIndex: ADDRESS_INDEX,
    });
    if (timer) clearTimeout(timer);
    const seconds = r.wallMicros / 1e6;
    // `added` counts every block the files held, genesis included.
    const imported = r.blocks;
    // The prediction for exactly the blocks imported: whole windows, and the share of the last.
    const full = Math.floor(imported / WINDOW_BLOCKS);
    const part = (imported % WINDOW_BLOCKS) / Math.max(1, windows[full]?.blocks ?? 1);
    const forImported = (p: number[]) => sum(p.slice(0, full)) + (p[full] ?? 0) * part;
    const predictedSeconds = forImported(predictedWall) + projection.unit_costs_us.wall.run / 1e6;
    const predictedCpuSeconds = forImported(predictedCpu) + projection.unit_costs_us.cpu.run / 1e6;
    const perWindow = (ends: number[]) => ends.map((end, i) => end - (i === 0 ? 0 : ends[i - 1]!));
    const windowRatios = perWindow(r.windowEnds).map((x, i) => x / predictedWall[i]!);
    const windowCpu = perWindow(r.windowCpuEnds);
    const windowMain = perWindow(r.windowMainThreadCpuEnds);
    const windowLevelDbReads = r.windowCoinReadEnds.map((c, i) => c.leveldb - (i === 0 ? 0 : r.windowCoinReadEnds[i - 1]!.leveldb));
    const keys = await countKeys(join(datadir, 'zecrpc', 'index'));
    const result = {
      ...prediction,
      blocks_imported: imported,
      stopped_early: imported < total.blocks,
      seconds,
      cpu_seconds: r.cpuMicros / 1e6,
      node_options: appliedNodeOptions(),
      // shares of cpu_seconds; the tree thread's start is timed apart, outside it (bench/lib/era-import.ts)
      main_thread_cpu_seconds: r.mainThreadCpuMicros / 1e6,
      tree_thread_cpu_seconds: r.treeThreadCpuMicros / 1e6,
      tree_thread_start_cpu_seconds: r.treeThreadStartCpuMicros / 1e6,
      predicted_seconds_for_imported: predictedSeconds,
      predicted_cpu_seconds_for_imported: predictedCpuSeconds,
      wall_ratio: seconds / predictedSeconds,
      cpu_ratio: r.cpuMicros / 1e6 / predictedCpuSeconds,
      mb_per_second: r.bytes / 1e6 / seconds,
      leveldb_keys: keys,
      store_bytes: diskBytes(datadir),
      window_seconds_over_predicted: windowRatios.map((x) => Number(x.toFixed(3))),
      window_cpu_seconds: windowCpu.map((x) => Number(x.toFixed(2))),
      window_predicted_cpu_seconds: predictedCpu.slice(0, windowCpu.length).map((x) => Number(x.toFixed(2))),
      window_main_thread_cpu_seconds: windowMain.map((x) => Number(x.toFixed(2))),
      coin_reads: r.coinReads,
      window_leveldb_coin_reads: {
        measured: windowLevelDbReads,
        simulated: reads.slice(0, windowLevelDbReads.length).map((w) => w.leveldb),
      },
      trace: r.trace.map((t) => ({ ...t, t: Number(t.t.toFixed(1)), rssMiB: Math.round(t.rssMiB), diskMiB: Math.round(t.diskMiB) })),
    };
    record(projection, { ...result, earlier_runs_with_this_prediction: earlierRuns });
    writeFileSync(RESULT, JSON.stringify(projection, null, 2) + '\n');
    console.log(
      `contiguous import: ${fmt(imported)} of ${fmt(total.blocks)} blocks in ${seconds.toFixed(0)} s wall (${(r.cpuMicros / 1e6).toFixed(0)} s CPU), ` +
        `${result.mb_per_second.toFixed(2)} MB/s; predicted ${predictedSeconds.toFixed(0)} s wall (${(result.wall_ratio * 100).toFixed(0)} %), ` +
        `${predictedCpuSeconds.toFixed(0)} s CPU (${(result.cpu_ratio * 100).toFixed(0)} %); ${fmt(keys.count)}${keys.complete ? '' : '+'} LevelDB keys, ` +
        `store ${(result.store_bytes / 2 ** 30).toFixed(2)} GiB, peak RSS ${Math.max(...r.trace.map((t) => t.rssMiB)).toFixed(0)} MiB (${load()})`,
    );
  } finally {
    rmSync(datadir, { recursive: true, force: true });
  }
}
