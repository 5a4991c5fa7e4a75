/**
 * How many of an import's coin reads reach LevelDB, simulated before it runs
 * (bench/lib/coin-read-sim.ts) and checked against the counters of real imports.
 *
 *   npx tsx bench/coin-reads.ts fit [--blocks=250]
 *       imports each calibration chain of bench/import-eras.ts once (as `zecrpc import` runs it,
 *       default -dbcache), fits the per-unit group sizes on the groups it wrote, then simulates
 *       every chain and compares who answered its coin reads with the import's counters
 *   npx tsx bench/coin-reads.ts check DIR --max-blocks=N [--cache-mib=450]
 *       the same comparison on the first N blocks of a chain bench/import-contiguous.ts generated,
 *       at the fitted sizes (a chain the fit never saw), groups included
 *
 * Results go to bench/results/coin-reads.json (`group_sizes`, read by bench/import-contiguous.ts;
 * `fit` and `checks`).
 */
// First: the bench runs with the import's Node options (relaunched with them otherwise).
import './lib/import-node-options.js';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_DBCACHE_MIB } from '../src/store/dbcache.js';
import { calibrationChains } from './lib/calibration-chains.js';
import {
  blkBlocks,
  CoinReadSimulation,
  fitGroupSizes,
  measuredGroups,
  type GroupSizes,
  type MeasuredGroup,
  type SimulatedReads,
} from './lib/coin-read-sim.js';
import { benchChainGenerator, chainNetwork, writeChainFile } from './lib/era-chain-file.js';
import { importChainDir, type EraImportRun } from './lib/era-import.js';
import { fmt, load, numberFlag, positional } from './lib/measure.js';

const RESULT = join(import.meta.dirname, 'results', 'coin-reads.json');
const [mode, chainArg] = positional();

interface CoinReadsFile {
  group_sizes?: GroupSizes & { fitted_at: string; fitted_on: string };
  fit?: unknown;
  checks?: unknown[];
}

const readResult = (): CoinReadsFile => (existsSync(RESULT) ? (JSON.parse(readFileSync(RESULT, 'utf8')) as CoinReadsFile) : {});

/** Simulates the first `maxBlocks` blocks (all when null) of the chain in `dir`. */
function simulate(dir: string, sizes: GroupSizes, cacheBytes: number, maxBlocks: number | null): CoinReadSimulation {
  const sim = new CoinReadSimulation(sizes, cacheBytes, 1000);
  let n = 0;
  for (const { block } of blkBlocks(dir)) {
    if (maxBlocks !== null && n++ >= maxBlocks) break;
    sim.add(block);
  }
  return sim;
}

/** Simulated against measured: every count and how far apart (of all reads). */
function compare(simulated: SimulatedReads, measured: SimulatedReads) {
  const total = measured.pending + measured.cached + measured.leveldb;
  const simTotal = simulated.pending + simulated.cached + simulated.leveldb;
  return {
    measured,
    simulated,
    reads_measured: total,
    reads_simulated: simTotal,
    // what the model uses: reads reaching LevelDB, and reads not answered by the pending groups
    leveldb_share: { measured: measured.leveldb / Math.max(1, total), simulated: simulated.leveldb / Math.max(1, simTotal) },
    beyond_pending_share: {
      measured: (measured.cached + measured.leveldb) / Math.max(1, total),
      simulated: (simulated.cached + simulated.leveldb) / Math.max(1, simTotal),
    },
  };
}

const describe = (c: ReturnType<typeof compare>): string =>
  `reads pending/cache/LevelDB measured ${fmt(c.measured.pending)} / ${fmt(c.measured.cached)} / ${fmt(c.measured.leveldb)}, ` +
  `simulated ${fmt(c.simulated.pending)} / ${fmt(c.simulated.cached)} / ${fmt(c.simulated.leveldb)}`;

const groupSummary = (groups: readonly { blocks: number; bytes: number; memoryBytes: number }[]) => ({
  count: groups.length,
  blocks: groups.map((g) => g.blocks),
  mib: groups.map((g) => Number((g.bytes / 2 ** 20).toFixed(1))),
  memory_mib: groups.map((g) => Number((g.memoryBytes / 2 ** 20).toFixed(1))),
});

const root = mkdtempSync(join(tmpdir(), 'zecrpc-bench-coin-reads-'));
try {
  if (mode === 'fit') {
    const blocks = numberFlag('blocks', 250);
    const runs: { label: string; dir: string; run: EraImportRun }[] = [];
    const measured: MeasuredGroup[] = [];
    for (const [i, spec] of calibrationChains(blocks).entries()) {
      const dir = join(root, `chain${i}`);
      const generator = benchChainGenerator(`cal${i}`, spec.scriptSigBytes);
      writeChainFile(dir, generator, spec.blocks(generator));
      const datadir = mkdtempSync(join(root, 'store-'));
      try {
        const run = await importChainDir(dir, datadir, chainNetwork(dir));
        runs.push({ label: spec.label, dir, run });
        measured.push(...measuredGroups(blkBlocks(dir), run.groups));
        console.log(`${spec.label}: ${fmt(run.blocks)} blocks, ${run.groups.length} groups (${load()})`);
      } finally {
        rmSync(datadir, { recursive: true, force: true });
      }
    }
    const sizes = fitGroupSizes(measured);
    console.log(`group sizes: ${JSON.stringify(sizes)}`);
    const chains = runs.map(({ label, dir, run }) => {
      const sim = simulate(dir, sizes, DEFAULT_DBCACHE_MIB * 2 ** 20, null);
      const c = compare(sim.total, run.coinReads);
      console.log(
        `${label}: ${describe(c)}; groups measured ${run.groups.map((g) => g.blocks).join(',')}, simulated ${sim.groups.map((g) => g.blocks).join(',')}`,
      );
      return { label, ...c, groups_measured: groupSummary(run.groups), groups_simulated: groupSummary(sim.groups) };
    });
    const out = readResult();
    out.group_sizes = {
      ...sizes,
      fitted_at: new Date().toISOString(),
      fitted_on: `the ${runs.length} calibration chains of bench/import-eras.ts, ${blocks} measured blocks each`,
    };
    out.fit = { measured_at: new Date().toISOString(), load_after: loadavg()[0], groups: measured.length, chains };
    writeFileSync(RESULT, JSON.stringify(out, null, 2) + '\n');
  } else if (mode === 'check' && chainArg) {
    const maxBlocks = numberFlag('max-blocks', 20_000);
    const cacheBytes = numberFlag('cache-mib', DEFAULT_DBCACHE_MIB) * 2 ** 20;
    const out = readResult();
    if (!out.group_sizes) throw new Error('no group sizes in bench/results/coin-reads.json: run `coin-reads.ts fit` first');
    const t0 = performance.now();
    const sim = simulate(chainArg, out.group_sizes, cacheBytes, maxBlocks);
    const simSeconds = (performance.now() - t0) / 1000;
    const datadir = mkdtempSync(join(root, 'store-'));
    let run: EraImportRun;
    try {
      run = await importChainDir(chainArg, datadir, chainNetwork(chainArg), { coinCacheBytes: cacheBytes, maxBlocks });
    } finally {
      rmSync(datadir, { recursive: true, force: true });
    }
    const c = compare(sim.total, run.coinReads);
    const simulatedGroups = sim.groups;
    console.log(
      `${chainArg}, first ${fmt(maxBlocks)} blocks, cache ${cacheBytes / 2 ** 20} MiB: ${describe(c)} (simulated in ${simSeconds.toFixed(0)} s); ` +
        `groups measured ${run.groups.length}, simulated ${simulatedGroups.length} (${load()})`,
    );
    out.checks = [
      ...(out.checks ?? []),
      {
        measured_at: new Date().toISOString(),
        chain: `${chainArg}, first ${maxBlocks} blocks`,
        cache_mib: cacheBytes / 2 ** 20,
        load_after: loadavg()[0],
        ...c,
        groups_measured: groupSummary(run.groups),
        groups_simulated: groupSummary(simulatedGroups),
      },
    ];
    writeFileSync(RESULT, JSON.stringify(out, null, 2) + '\n');
  } else {
    console.error('usage: coin-reads.ts fit [--blocks=N] | check DIR --max-blocks=N [--cache-mib=N]');
    process.exit(2);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
