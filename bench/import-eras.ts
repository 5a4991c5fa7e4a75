/**
 * The import projection: what a full mainnet import costs on this machine, from unit costs
 * measured on era-shaped chains and mainnet's composition per era.
 * Run: npx tsx bench/import-eras.ts [--blocks=250] [--rounds=3] [--quick] [--store-chain=DIR] [--address-index=0]
 *      npx tsx bench/import-eras.ts --reproject [--address-index=0]   (step 4 on the unit costs already in the
 *      result file: the default's, or with --address-index=0 import-projection-no-address-index.json)
 *
 * 1. Calibration chains (bench/lib/calibration-chains.ts): each leans on one unit (blocks, bytes,
 *    transactions, transparent inputs and outputs, Sapling spends, Sapling outputs, Orchard
 *    actions), and five rebuild the eras' real block shapes. Every header has mainnet's size, its
 *    solution a stand-in of 1,344 bytes (test-vectors/era-chain.ts, EraSolutions). Each is written
 *    as blk files and imported into a fresh store as `zecrpc import --blocks-dir
 *    --no-verify-equihash` runs (group commit, the blk importer), ROUNDS times in rotating order; the median per chain is
 *    kept, wall time, this process's CPU time (LevelDB's threads included) and its main thread's.
 *    1b. The store calibration chain (about 41,600 era-shaped blocks, the eras out of mainnet's order
 *    and repeated; --store-chain=DIR reuses one `bench/import-contiguous.ts generate-store DIR`
 *    built, else one kept under the system's temporary directory, built there the first time;
 *    --quick without the flag leaves it out), imported at the start of every round of the small
 *    chains and timed in windows of 1,000 blocks as its store grows to ≈ 1.4·10^7 keys; each
 *    window's median over those imports is kept.
 * 2. Unit costs and the store term (bench/lib/store-terms.ts): least squares over the chains and
 *    the store chain's windows (bench/lib/import-model.ts), every cost ≥ 0, with each sample's
 *    predicted/measured ratio.
 * 3. Equihash (200, 9) per real mainnet header: the chains' stand-in solutions are not checked, so
 *    it is measured apart and run, as `zecrpc import` runs it, on the second core.
 * 4. The projection: mainnet's composition per era (bench/lib/mainnet.ts) × the unit costs and
 *    the store term as the store fills era by era, plus what LevelDB's growth adds to its reads
 *    (bench/lib/leveldb-growth-model.ts, from bench/leveldb-growth.ts's measurement); with
 *    `cores` = 2 an era takes the longer of its connect time (one core) and its Equihash time
 *    (the other core). Beside it, the same from main-thread costs: what no second core can take
 *    over as the import is built (LevelDB's writes and compactions, the solution thread and the
 *    collector's helpers run beside the main thread), the floor of the wall time on any cores. Written to bench/results/import-projection.json, whose unit costs
 *    bench/import-contiguous.ts then uses to predict its long import before running it (a
 *    measured contiguous run already in the file is kept).
 */
// First: the bench runs with the import's Node options (relaunched with them otherwise).
import { appliedNodeOptions } from './lib/import-node-options.js';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeBlock } from '../src/codec/block.js';
import { verifyEquihash } from '../src/crypto/equihash.js';
import type { Composition } from '../test-vectors/era-chain.js';
import { readHexVector, realBlockFiles } from '../test/support/vectors.js';
import { calibrationChains } from './lib/calibration-chains.js';
import { STORE_CALIBRATION_SEGMENTS, STORE_CHAIN_TAG } from './lib/contiguous-plan.js';
import {
  benchChainGenerator,
  chainNetwork,
  WINDOW_BLOCKS,
  writeChainFile,
  writeEraChain,
  type ChainFileComposition,
} from './lib/era-chain-file.js';
import { ADDRESS_INDEX, importChainDir, projectionFile, TREE_THREAD, type EraImportRun } from './lib/era-import.js';
import { fitCosts, modelsStore, predictMicros, residuals, UNITS, type ImportSample, type UnitCosts } from './lib/import-model.js';
import { STORE_TERMS, storeAmounts, withStoreAmounts } from './lib/store-terms.js';
import {
  CALIBRATION_STORE_KEYS,
  emptyStore,
  growthMicros,
  readLevelDbGrowth,
  storeKeysAfter,
  storeKeyTotal,
  type StoreKeys,
} from './lib/leveldb-growth-model.js';
import { mainnetEras, MAINNET_TIP, ORCHARD_ACTIONS_TOTAL, SAPLING_OUTPUTS_TOTAL, ZEBRA_SIZE_ON_DISK } from './lib/mainnet.js';
import { cpuMicrosPerUnit, fmt, load, median, numberFlag, QUICK, stringFlag } from './lib/measure.js';
import { revision } from './lib/run-stamp.js';

const BLOCKS = numberFlag('blocks', QUICK ? 30 : 250);
const ROUNDS = numberFlag('rounds', QUICK ? 1 : 3);
const RESULT = projectionFile(join(import.meta.dirname, 'results'));

const REPROJECT = process.argv.includes('--reproject');
/** This run's checkout, taken before the run (a commit during it does not change what ran). */
const COMMIT = revision(import.meta.dirname);
/**
 * Where the store calibration chain is (bench/import-contiguous.ts generate-store DIR builds one):
 * --store-chain=DIR, else a directory under the system's temporary one that outlives the run, so
 * the next full run reuses the chain rather than building its 1.7 GB again.
 */
const STORE_CHAIN_FLAG = stringFlag('store-chain');
const STORE_CHAIN = STORE_CHAIN_FLAG ?? join(tmpdir(), 'zecrpc-store-calibration-chain');

const root = mkdtempSync(join(tmpdir(), 'zecrpc-bench-eras-'));

/** What steps 1–3 give the projection: unit costs, Equihash's cost and the calibration rows. */
interface Measured {
  wallCosts: UnitCosts;
  cpuCosts: UnitCosts;
  mainCosts: UnitCosts;
  equihashUs: number;
  /** CPU µs the tree thread's start takes, once an import (median of the calibration imports), outside the unit costs. */
  treeThreadStartUs: number;
  loadAverage: string;
  calibration: unknown[];
  storeCalibration: unknown;
  /** The checkout whose imports gave the unit costs (an earlier run's with --reproject). */
  commit: string;
}

try {
  // --reproject: the unit costs of the last run, projected again (after a change to the model or
  // to mainnet's composition, not to the import).
  const measured = REPROJECT ? lastMeasured() : await measure();
  const { wallCosts, cpuCosts, mainCosts, equihashUs } = measured;

  // ---- 4. The projection.
  const cores = Math.min(2, cpus().length);
  // Two projections: from CPU costs (what the import asks of a core: this machine's time when no
  // one else uses it) and from wall costs (this machine as loaded while the chains were imported).
  // LevelDB's growth past the calibration stores' size (bench/leveldb-growth.ts), era by era as the
  // store fills: absent that measurement, none is added and the output says so.
  const growth = readLevelDbGrowth(join(import.meta.dirname, 'results'));
  // Every input spends an earlier output, so an era cannot spend more coins than the outputs made
  // so far left unspent: where the sampled means say more (the sprout era's 191 M inputs against
  // 89 M outputs: its samples lean on input-heavy blocks), the inputs charged are capped there,
  // rows, keys and reads with them. `capInputs` false keeps the sampled counts (an upper bound).
  const project = (costs: UnitCosts, basis: 'cpu' | 'wall' | 'main', capInputs = true) => {
    let keys: StoreKeys = emptyStore(ADDRESS_INDEX);
    return mainnetEras().map(({ era, composition: sampled, sampleBlocks }) => {
      const composition = capInputs ? { ...sampled, inputs: Math.min(sampled.inputs, keys.coins + sampled.outputs) } : sampled;
      // With the store term fitted, growth adds only its reads (the term holds the written rows').
      const growthSeconds = growth ? growthMicros(growth, composition, keys, basis, composition.inputs, !modelsStore(costs)) / 1e6 : 0;
      const amounts = { ...composition, ...storeAmounts(composition, keys) };
      keys = storeKeysAfter(keys, composition);
      const connectSeconds = predictMicros(costs, amounts) / 1e6 + growthSeconds;
      const equihashSeconds = (composition.blocks * equihashUs) / 1e6;
      const seconds = cores >= 2 ? Math.max(connectSeconds, equihashSeconds) : connectSeconds + equihashSeconds;
      return {
        era,
        sample_blocks: sampleBlocks,
        mainnet: roundComposition(sampled),
        inputs_charged: Math.round(composition.inputs),
        connect_seconds: connectSeconds,
        // what the store term charges (a share of connect_seconds): the rows a growing store compacts
        store_term_seconds: ((costs.storeKeyDecades ?? 0) * (amounts.storeKeyDecades ?? 0)) / 1e6,
        leveldb_growth_seconds: growthSeconds,
        store_keys_after: Math.round(storeKeyTotal(keys)),
        equihash_seconds: equihashSeconds,
        seconds,
        ...(basis === 'cpu' ? { real_shape_chain: realShapeCheck(measured.calibration, era) } : {}),
      };
    });
  };
  const eras = project(cpuCosts, 'cpu');
  // The tree thread's start, once an import (timed apart from the chains: bench/lib/era-import.ts).
  const treeThreadStartSeconds = measured.treeThreadStartUs / 1e6;
  const uncappedSeconds = project(cpuCosts, 'cpu', false).reduce((s, e) => s + e.seconds, 0) + treeThreadStartSeconds;
  for (const e of eras)
    if (e.inputs_charged < e.mainnet.inputs)
      console.log(
        `the ${e.era} era's sampled means hold ${fmt(e.mainnet.inputs / 1e6, 1)} M transparent inputs, more than the ${fmt(e.inputs_charged / 1e6, 1)} M coins ` +
          `there were to spend: ${fmt(e.inputs_charged / 1e6, 1)} M charged (every sampled input charged: ${(uncappedSeconds / 3600).toFixed(2)} h in all)`,
      );
  const loadedEras = project(wallCosts, 'wall');
  const mainThreadEras = project(mainCosts, 'main');
  const mainThreadSeconds = mainThreadEras.reduce((s, e) => s + e.seconds, 0);
  const totalSeconds = eras.reduce((s, e) => s + e.seconds, 0) + treeThreadStartSeconds;
  const loadedSeconds = loadedEras.reduce((s, e) => s + e.seconds, 0) + treeThreadStartSeconds;
  const mainnetBytes = eras.reduce((s, e) => s + e.mainnet.bytes, 0);
  for (const [i, e] of eras.entries()) {
    console.log(
      `projection ${e.era.padEnd(8)} ${fmt(e.mainnet.blocks).padStart(9)} blocks ${(e.mainnet.bytes / 1e9).toFixed(1).padStart(6)} GB ` +
        `${fmt(e.mainnet.inputs / 1e6, 1)} M in, ${fmt(e.mainnet.outputs / 1e6, 1)} M out, ${fmt(e.mainnet.saplingSpends / 1e6, 1)} M nullifiers (Sapling, Sprout), ` +
        `${fmt(e.mainnet.saplingOutputs / 1e6, 1)} M Sapling out, ${fmt(e.mainnet.orchardActions / 1e6, 1)} M Orchard actions: ` +
        `connect ${(e.connect_seconds / 3600).toFixed(2)} h CPU (${(loadedEras[i]!.connect_seconds / 3600).toFixed(2)} h wall as loaded; store to ${fmt(e.store_keys_after / 1e6, 1)} M keys: ` +
        (modelsStore(cpuCosts)
          ? `store term ${(e.store_term_seconds / 3600).toFixed(2)} h, reads' growth ${(e.leveldb_growth_seconds / 3600).toFixed(2)} h`
          : `LevelDB growth ${(e.leveldb_growth_seconds / 3600).toFixed(2)} h, rows and reads`) +
        `), Equihash ${(e.equihash_seconds / 3600).toFixed(2)} h`,
    );
  }
  console.log(
    `projection, full mainnet (${fmt(MAINNET_TIP + 1)} blocks, ${(mainnetBytes / 1e9).toFixed(0)} GB; Zebra's whole state ${(ZEBRA_SIZE_ON_DISK / 1e9).toFixed(0)} GB) on ${cores} cores: ` +
      `${(totalSeconds / 3600).toFixed(2)} h from CPU costs, ${(loadedSeconds / 3600).toFixed(2)} h at the load measured (${measured.loadAverage}); ` +
      `main thread alone ${(mainThreadSeconds / 3600).toFixed(2)} h` +
      (treeThreadStartSeconds > 0 ? ` (the tree thread's start, ${treeThreadStartSeconds.toFixed(2)} s of CPU, included once)` : ''),
  );

  const previous = existsSync(RESULT)
    ? (JSON.parse(readFileSync(RESULT, 'utf8')) as {
        contiguous?: { seconds?: number | null; predicted_at?: string; predicted_from_costs_of?: { commit?: string } };
        contiguous_predicted_from?: string;
        other_checks?: unknown;
      })
    : null;
  // A contiguous run already measured keeps its prediction (made before it ran, with the costs of
  // that time); bench/import-contiguous.ts makes the next one from the costs written here. The
  // file then pairs these costs with a check of others, and says so.
  const contiguous = previous?.contiguous?.seconds ? previous.contiguous : null;
  // Measured costs are new ones; --reproject keeps the last run's, whose commit the check names
  // (or, a check from before it named one, whose flag the file kept).
  const checkCommit = contiguous?.predicted_from_costs_of?.commit;
  const checkOfOtherCosts =
    contiguous !== null &&
    (!REPROJECT || (checkCommit !== undefined ? checkCommit !== measured.commit : previous?.contiguous_predicted_from !== undefined));
  if (checkOfOtherCosts)
    console.log(
      `the contiguous check kept in ${RESULT} was predicted (${contiguous.predicted_at ?? 'at a time not recorded'}) from earlier unit costs, ` +
        'not from these: `npx tsx bench/import-contiguous.ts run DIR` checks these',
    );
  const out = {
    generated_at: new Date().toISOString(),
    commit: measured.commit,
    ...(REPROJECT ? { reprojected_at: COMMIT } : {}),
    quick: QUICK,
    address_index: ADDRESS_INDEX,
    mainnet_hours: totalSeconds / 3600,
    ...(checkOfOtherCosts
      ? { contiguous_predicted_from: 'earlier unit costs than these (contiguous.predicted_from_costs_of, or its predicted_at)' }
      : {}),
    mainnet_hours_basis: 'CPU time per unit (this machine with its cores to itself); Equihash (200,9) on the second core',
    mainnet_inputs_basis: "each era's sampled mean inputs, capped at the coins there were to spend (inputs_charged per era)",
    mainnet_hours_every_sampled_input: uncappedSeconds / 3600,
    mainnet_hours_at_measured_load: loadedSeconds / 3600,
    mainnet_hours_main_thread: mainThreadSeconds / 3600,
    mainnet_hours_main_thread_basis: 'main-thread CPU time per unit: the part no other core takes over; Equihash (200,9) on another core',
    cores,
    // what the imports ran with: bin/zecrpc.js's and the import's own (bench/lib/import-node-options.ts)
    node_options: appliedNodeOptions(),
    load_average: measured.loadAverage,
    equihash_200_9_us: equihashUs,
    // in mainnet_hours once; in no unit cost
    tree_thread_start_us: measured.treeThreadStartUs,
    leveldb_growth: growth
      ? {
          source: `bench/results/leveldb-growth.json (${growth.generated_at}, ${growth.keys} keys)`,
          per_tenfold_growth: growth.per_tenfold_growth,
          calibration_store_keys: CALIBRATION_STORE_KEYS,
          mainnet_store_keys: eras[eras.length - 1]!.store_keys_after,
          mainnet_hours_added: eras.reduce((s, e) => s + e.leveldb_growth_seconds, 0) / 3600,
          // With the store term fitted, the growth above is reads only; the written rows' is here.
          mainnet_hours_store_term: eras.reduce((s, e) => s + e.store_term_seconds, 0) / 3600,
          writes_charged_by: modelsStore(cpuCosts)
            ? 'the fitted store term (bench/lib/store-terms.ts): per_tenfold_growth write slopes unused'
            : 'per_tenfold_growth write slopes',
          // The contiguous chain's prediction charges only the reads its simulation sends to
          // LevelDB (bench/lib/coin-read-sim.ts); mainnet's blocks are not at hand to simulate.
          mainnet_coin_reads_basis:
            'every mainnet transparent input is charged a LevelDB point read at the store size (an upper bound): how many are answered ' +
            'from memory (pending groups, coins cache) depends on how old the coins they spend are, which no vector holds',
        }
      : 'not measured: run bench/leveldb-growth.ts first (no growth cost is included)',
    unit_costs_us: { wall: wallCosts, cpu: cpuCosts, main_thread: mainCosts },
    sources: {
      blocks: `activation heights (zcashd chainparams.cpp, nu6.3/README.md) and tip ${MAINNET_TIP} (nu6.3/zebra-rpc/mainnet-getblockchaininfo-end.json)`,
      per_block_counts: 'mean of each era’s real blocks in ../shared/test-vectors (test-vectors/era-shapes.ts)',
      sapling_outputs: `${SAPLING_OUTPUTS_TOTAL / 1e6} M in all (issue 11 estimate); outside the spam, the real blocks' mean`,
      orchard_actions: `${ORCHARD_ACTIONS_TOTAL / 1e6} M in all (issue 11 estimate), spread by the samples' actions`,
    },
    calibration: measured.calibration,
    store_calibration: measured.storeCalibration,
    eras,
    eras_at_measured_load: loadedEras,
    eras_main_thread: mainThreadEras,
    contiguous,
    // other chains predicted and imported as the contiguous one (bench/import-contiguous.ts --record)
    ...(previous?.other_checks ? { other_checks: previous.other_checks } : {}),
  };
  if (!QUICK || REPROJECT) writeFileSync(RESULT, JSON.stringify(out, null, 2) + '\n');
} finally {
  rmSync(root, { recursive: true, force: true });
}

async function measure(): Promise<Measured> {
  // ---- 1. Build and import the calibration chains.
  // The store calibration chain is found (or built) first, so a wrong one stops the run at once.
  const storeChain = QUICK && !STORE_CHAIN_FLAG ? null : loadStoreChain();
  const chains = calibrationChains(BLOCKS).map((spec, i) => {
    const dir = join(root, `chain${i}`);
    const t0 = performance.now();
    const generator = benchChainGenerator(`cal${i}`, spec.scriptSigBytes);
    const written = writeChainFile(dir, generator, spec.blocks(generator));
    console.log(
      `built ${spec.label.padEnd(46)} ${fmt(written.total.blocks).padStart(6)} blocks ${(written.total.bytes / 1e6).toFixed(1).padStart(6)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    return { spec, dir, composition: written.total, wall: [] as number[], cpu: [] as number[], main: [] as number[], tree: [] as number[] };
  });
  // Warm-up: JIT and the hashers' lazily built tables, paid once, not by the first chain measured.
  await importOnce(chains[chains.length - 1]!.dir);
  const treeThreadStarts: number[] = [];
  // The store chain is imported once a round, before the round's small chains: its windows carry
  // the store term, fitted against the small chains, so both are measured under the same
  // conditions, and each window's median over the rounds is kept.
  const storeRuns: EraImportRun[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (storeChain) storeRuns.push(await importStoreChain(storeChain));
    for (let k = 0; k < chains.length; k++) {
      const chain = chains[(k + round) % chains.length]!;
      const run = await importOnce(chain.dir);
      chain.wall.push(run.wallMicros);
      chain.cpu.push(run.cpuMicros);
      chain.main.push(run.mainThreadCpuMicros);
      chain.tree.push(run.treeThreadCpuMicros);
      treeThreadStarts.push(run.treeThreadStartCpuMicros);
    }
  }
  const empty = emptyStore(ADDRESS_INDEX);
  const samples = (which: 'wall' | 'cpu' | 'main'): ImportSample[] =>
    chains.map((c) => ({
      label: c.spec.label,
      composition: { ...c.composition, ...storeAmounts(c.composition, empty) },
      micros: median(c[which]),
    }));
  const store = storeChain ? storeChainSamples(storeChain, storeRuns) : null;
  const wall = [...samples('wall'), ...(store?.samples.wall ?? [])];
  const cpu = [...samples('cpu'), ...(store?.samples.cpu ?? [])];
  const main = [...samples('main'), ...(store?.samples.main ?? [])];
  for (const c of chains) {
    const w = median(c.wall) / 1e6;
    console.log(
      `import ${c.spec.label.padEnd(46)} ${(c.composition.blocks / w).toFixed(0).padStart(6)} blocks/s ${(c.composition.bytes / 1e6 / w).toFixed(2).padStart(6)} MB/s  (median of ${ROUNDS}: ${w.toFixed(2)} s wall, ${(median(c.cpu) / 1e6).toFixed(2)} s CPU, ${(median(c.main) / 1e6).toFixed(2)} s on the main thread, ${(median(c.tree) / 1e6).toFixed(2)} s on the tree thread; ${load()})`,
    );
  }

  // ---- 2. Unit costs.
  const wallCosts = fitCosts(wall);
  const cpuCosts = fitCosts(cpu);
  const mainCosts = fitCosts(main);
  console.log(
    `unit costs (least squares over ${chains.length} chains${store ? ` and ${store.samples.cpu.length} windows of the store calibration chain` : ''}, µs): ` +
      `${describeCosts(wallCosts)} (wall); ${describeCosts(cpuCosts)} (CPU); ${describeCosts(mainCosts)} (main thread)`,
  );
  for (const r of residuals(cpuCosts, cpu)) console.log(`  fit check ${r.label.padEnd(46)} CPU predicted/measured ${r.ratio.toFixed(2)}`);

  // ---- 3. Equihash (200, 9) on real mainnet headers.
  const headers = realBlockFiles()
    .filter((f) => f.network === 'mainnet')
    .map((f) => decodeBlock(readHexVector(f.file)).header);
  const equihashUs = cpuMicrosPerUnit(
    () => {
      for (const h of headers) if (!verifyEquihash(200, 9, h.bytes.subarray(0, 140), h.solution).ok) throw new Error('real header refused');
    },
    headers.length,
    3,
    QUICK ? 0.1 : 0.5,
  );
  console.log(
    `Equihash (200,9): ${equihashUs.toFixed(0)} µs a header (CPU, ${headers.length} real mainnet headers, median of 3; ${load()})`,
  );

  return {
    wallCosts,
    cpuCosts,
    mainCosts,
    equihashUs,
    treeThreadStartUs: TREE_THREAD ? median(treeThreadStarts) : 0,
    loadAverage: load(),
    commit: COMMIT,
    calibration: chains.map((c) => ({
      label: c.spec.label,
      composition: c.composition,
      wall_seconds: median(c.wall) / 1e6,
      cpu_seconds: median(c.cpu) / 1e6,
      main_thread_cpu_seconds: median(c.main) / 1e6,
      tree_thread_cpu_seconds: median(c.tree) / 1e6,
      predicted_seconds: predictMicros(wallCosts, { ...c.composition, ...storeAmounts(c.composition, empty) }) / 1e6,
      predicted_cpu_seconds: predictMicros(cpuCosts, { ...c.composition, ...storeAmounts(c.composition, empty) }) / 1e6,
    })),
    storeCalibration: store
      ? {
          ...store.summary,
          windows: store.samples.cpu.map((w, i) => ({
            window: store.windowIndex[i],
            store_keys_before: store.keysBefore[i],
            // what the fit was given: each measured time less its LevelDB reads' growth
            cpu_seconds_less_read_growth: Number((w.micros / 1e6).toFixed(3)),
            predicted_cpu_seconds: Number((predictMicros(cpuCosts, w.composition) / 1e6).toFixed(3)),
            main_thread_cpu_seconds_less_read_growth: Number((store.samples.main[i]!.micros / 1e6).toFixed(3)),
            wall_seconds_less_read_growth: Number((store.samples.wall[i]!.micros / 1e6).toFixed(3)),
          })),
        }
      : 'not measured (--quick without --store-chain)',
  };
}

/** The store calibration chain: --store-chain=DIR if given and holding the plan, else built now (minutes). */
function loadStoreChain(): { dir: string; chain: ChainFileComposition } {
  const dir = STORE_CHAIN;
  const file = join(dir, 'composition.json');
  if (!existsSync(file)) {
    console.log(`building the store calibration chain in ${dir} (minutes)`);
    return { dir, chain: writeEraChain(dir, STORE_CALIBRATION_SEGMENTS, STORE_CHAIN_TAG) };
  }
  const chain = JSON.parse(readFileSync(file, 'utf8')) as ChainFileComposition;
  if (JSON.stringify(chain.segments) !== JSON.stringify(STORE_CALIBRATION_SEGMENTS) || chain.tag !== STORE_CHAIN_TAG)
    throw new Error(`${dir} holds another chain than STORE_CALIBRATION_SEGMENTS with tag ${STORE_CHAIN_TAG}: generate it again`);
  chainNetwork(dir); // refuses a chain built by an older generator
  return { dir, chain };
}

/**
 * Step 1b: the store calibration chain (bench/lib/contiguous-plan.ts STORE_CALIBRATION_SEGMENTS),
 * from --store-chain=DIR when it was generated there before (`bench/import-contiguous.ts
 * generate-store DIR`), else built now (minutes), imported into a fresh store once a round of
 * the small chains (`importStoreChain`) and timed in windows of WINDOW_BLOCKS blocks. Each window
 * is a sample for the fit (`storeChainSamples`): the median over the imports of what it cost,
 * each less what LevelDB's growth adds to the coin reads it made that reached LevelDB (counted by
 * the importer) and its nullifier checks: the fit's store term is left to carry the written rows.
 * The first window (JIT, the store opening) is left out; the final write comes after the last
 * window.
 */
async function importStoreChain({ dir }: { dir: string }): Promise<EraImportRun> {
  const datadir = mkdtempSync(join(root, 'store-'));
  try {
    const run = await importChainDir(dir, datadir, chainNetwork(dir), { windowBlocks: WINDOW_BLOCKS, addressIndex: ADDRESS_INDEX });
    console.log(
      `store calibration chain: ${fmt(run.blocks)} blocks, ${(run.bytes / 1e9).toFixed(2)} GB in ${(run.wallMicros / 1e6).toFixed(0)} s wall, ` +
        `${(run.cpuMicros / 1e6).toFixed(0)} s CPU (${load()})`,
    );
    return run;
  } finally {
    rmSync(datadir, { recursive: true, force: true });
  }
}

function storeChainSamples(
  { dir, chain }: { dir: string; chain: ChainFileComposition },
  runs: readonly EraImportRun[],
): {
  samples: Record<'wall' | 'cpu' | 'main', ImportSample[]>;
  windowIndex: number[];
  keysBefore: number[];
  summary: Record<string, unknown>;
} {
  const growth = readLevelDbGrowth(join(import.meta.dirname, 'results'));
  // A window pays no import's opening or closing (`runs` 0).
  const windows = withStoreAmounts(chain.windows, emptyStore(ADDRESS_INDEX)).map((w) => ({ ...w, runs: 0 }));
  const samples = { wall: [] as ImportSample[], cpu: [] as ImportSample[], main: [] as ImportSample[] };
  const windowIndex: number[] = [];
  const keysBefore: number[] = [];
  let keys: StoreKeys = emptyStore(ADDRESS_INDEX);
  const delta = (ends: number[], i: number) => ends[i]! - (i === 0 ? 0 : ends[i - 1]!);
  const windowCount = Math.min(...runs.map((r) => r.windowEnds.length));
  for (let i = 0; i < windowCount; i++) {
    const w = windows[i]!;
    const before = keys;
    keys = storeKeysAfter(keys, w);
    // Complete windows only (the importer times no other), the first left out.
    if (i === 0 || w.blocks !== WINDOW_BLOCKS) continue;
    const less = (run: EraImportRun, ends: number[], basis: 'cpu' | 'wall' | 'main'): number => {
      const reads = run.windowCoinReadEnds[i]!.leveldb - run.windowCoinReadEnds[i - 1]!.leveldb;
      return delta(ends, i) * 1e6 - (growth ? growthMicros(growth, w, before, basis, reads, false) : 0);
    };
    const label = `store chain window ${i}`;
    samples.wall.push({ label, composition: w, micros: median(runs.map((r) => less(r, r.windowEnds, 'wall'))) });
    samples.cpu.push({ label, composition: w, micros: median(runs.map((r) => less(r, r.windowCpuEnds, 'cpu'))) });
    samples.main.push({ label, composition: w, micros: median(runs.map((r) => less(r, r.windowMainThreadCpuEnds, 'main'))) });
    windowIndex.push(i);
    keysBefore.push(Math.round(storeKeyTotal(before)));
  }
  const seconds = (pick: (r: EraImportRun) => number) => runs.map((r) => Number((pick(r) / 1e6).toFixed(3)));
  console.log(
    `store calibration chain: ${runs.length} imports, ${samples.cpu.length} windows to ${fmt(storeKeyTotal(keys) / 1e6, 1)} M keys, ` +
      `each window the median of its imports (${load()})`,
  );
  return {
    samples,
    windowIndex,
    keysBefore,
    summary: {
      chain: dir,
      tag: STORE_CHAIN_TAG,
      segments: STORE_CALIBRATION_SEGMENTS,
      blocks: runs[0]!.blocks,
      bytes: runs[0]!.bytes,
      imports: runs.length,
      // One figure an import, in the order imported (the windows above are medians over them).
      wall_seconds: seconds((r) => r.wallMicros),
      cpu_seconds: seconds((r) => r.cpuMicros),
      main_thread_cpu_seconds: seconds((r) => r.mainThreadCpuMicros),
      tree_thread_cpu_seconds: seconds((r) => r.treeThreadCpuMicros),
      store_keys_after: Math.round(storeKeyTotal(keys)),
      load_average: load(),
    },
  };
}

/**
 * An era's own chain of real block shapes (one of the calibration chains), as measured and as the
 * fitted costs predict it: how far the costs, fitted over every chain, miss this era's mix.
 */
function realShapeCheck(
  calibration: unknown[],
  era: string,
): { label: string; cpu_seconds: number; predicted_cpu_seconds: number; ratio: number } | null {
  const chain = (calibration as { label: string; cpu_seconds: number; predicted_cpu_seconds: number }[]).find((c) =>
    c.label.startsWith(`era ${era} (`),
  );
  if (!chain) return null;
  const { label, cpu_seconds, predicted_cpu_seconds } = chain;
  return { label, cpu_seconds, predicted_cpu_seconds, ratio: cpu_seconds / predicted_cpu_seconds };
}

function lastMeasured(): Measured {
  const last = JSON.parse(readFileSync(RESULT, 'utf8')) as {
    unit_costs_us: { wall: UnitCosts; cpu: UnitCosts; main_thread: UnitCosts };
    equihash_200_9_us: number;
    tree_thread_start_us?: number;
    load_average: string;
    calibration: unknown[];
    store_calibration?: unknown;
    commit?: string;
  };
  console.log(`unit costs of the run in ${RESULT} (measured at ${last.load_average}), projected again`);
  return {
    wallCosts: last.unit_costs_us.wall,
    cpuCosts: last.unit_costs_us.cpu,
    mainCosts: last.unit_costs_us.main_thread,
    equihashUs: last.equihash_200_9_us,
    treeThreadStartUs: last.tree_thread_start_us ?? 0,
    loadAverage: last.load_average,
    calibration: last.calibration,
    storeCalibration: last.store_calibration ?? 'not measured',
    commit: last.commit ?? 'not recorded',
  };
}

async function importOnce(dir: string): Promise<EraImportRun> {
  const datadir = mkdtempSync(join(root, 'store-'));
  try {
    return await importChainDir(dir, datadir, chainNetwork(dir), { addressIndex: ADDRESS_INDEX });
  } finally {
    rmSync(datadir, { recursive: true, force: true });
  }
}

function describeCosts(c: UnitCosts): string {
  const terms = [...UNITS, 'run' as const, ...STORE_TERMS].filter((u) => c[u] !== undefined);
  return terms.map((u) => `${u} ${c[u]! < 1 ? c[u]!.toFixed(4) : c[u]!.toFixed(1)}`).join(', ');
}

function roundComposition(c: Composition): Composition {
  return Object.fromEntries(Object.entries(c).map(([k, v]) => [k, Math.round(v)])) as unknown as Composition;
}
