/**
 * A post-hoc prediction of the contiguous import already recorded (bench/results/import-projection.json's
 * `contiguous`), with the LevelDB write-growth term taken from bench/leveldb-growth-mix.ts (the
 * import's key mix, measured outside that run) instead of bench/leveldb-growth.ts (uniformly random
 * keys). Nothing is fitted on the contiguous run: its recorded prediction keeps every other term,
 * the write term is recomputed window by window with the model's own functions
 * (bench/lib/leveldb-growth-model.ts) at the other slope, and the result is set beside what was
 * measured. It is not a check: the run was seen before this term was measured.
 *
 *   npx tsx bench/growth-mix-posthoc.ts CHAIN_DIR [--mix=leveldb-growth-mix.json]
 *
 * CHAIN_DIR: the contiguous chain's directory, whose composition.json holds its windows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Composition } from '../test-vectors/era-chain.js';
import { growthMicros, readLevelDbGrowth, storeKeysAfter, type LevelDbGrowth, type StoreKeys } from './lib/leveldb-growth-model.js';

const [chainDir] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (!chainDir) {
  console.error('usage: growth-mix-posthoc.ts CHAIN_DIR [--mix=leveldb-growth-mix.json]');
  process.exit(2);
}
const results = join(import.meta.dirname, 'results');
const mixFile = process.argv.find((a) => a.startsWith('--mix='))?.slice(6) ?? 'leveldb-growth-mix.json';
const uniform = readLevelDbGrowth(results);
if (!uniform) throw new Error('no bench/results/leveldb-growth.json');
const mix = JSON.parse(readFileSync(join(results, mixFile), 'utf8')) as {
  per_tenfold_growth: Record<'batch_cpu_us_per_row' | 'store_cpu_us_per_row', { per_decade: number }>;
};
const { windows } = JSON.parse(readFileSync(join(chainDir, 'composition.json'), 'utf8')) as { windows: Composition[] };
const run = (JSON.parse(readFileSync(join(results, 'import-projection.json'), 'utf8')) as { contiguous: Contiguous }).contiguous;
interface Contiguous {
  blocks: number;
  cpu_seconds: number;
  predicted_cpu_seconds: number;
  predicted_leveldb_growth_seconds: { cpu: number };
  window_cpu_seconds: number[];
  window_predicted_cpu_seconds: number[];
}
if (windows.reduce((s, w) => s + w.blocks, 0) !== run.blocks) throw new Error(`${chainDir} is not the chain the recorded run imported`);

/** The model's growth with only the write slope kept: the write term alone, window by window. */
function writeTerm(writeSlope: number): number[] {
  const g: LevelDbGrowth = {
    ...uniform!,
    per_tenfold_growth: {
      write_cpu_us_per_row: { per_decade: writeSlope },
      write_wall_us_per_row: { per_decade: 0 },
      present_read_us: { per_decade: 0 },
      absent_read_us: { per_decade: 0 },
    },
  };
  let keys: StoreKeys = { coins: 0, other: 0 };
  return windows.map((w) => {
    const us = growthMicros(g, w, keys, 'cpu', 0);
    keys = storeKeysAfter(keys, w);
    return us / 1e6;
  });
}

const sum = (a: readonly number[]): number => a.reduce((s, x) => s + x, 0);
const recorded = writeTerm(uniform.per_tenfold_growth.write_cpu_us_per_row.per_decade);
const missing = run.cpu_seconds - run.predicted_cpu_seconds;
console.log(
  `recorded: predicted ${run.predicted_cpu_seconds.toFixed(0)} s CPU (growth ${run.predicted_leveldb_growth_seconds.cpu.toFixed(1)} s, ` +
    `of it writes ${sum(recorded).toFixed(1)} s at ${uniform.per_tenfold_growth.write_cpu_us_per_row.per_decade.toFixed(3)} µs a row a decade), ` +
    `measured ${run.cpu_seconds.toFixed(0)} s: ${missing.toFixed(0)} s not predicted`,
);
const eras = [
  { name: 'windows 0–11', from: 0, to: 12 },
  { name: 'windows 12–48', from: 12, to: 49 },
  { name: 'windows 49–99', from: 49, to: run.window_cpu_seconds.length },
];
const ratios = (predicted: readonly number[]): string =>
  eras
    .map((e) => {
      const r = run.window_cpu_seconds.slice(e.from, e.to).map((m, i) => m / predicted[e.from + i]!);
      return `${e.name} ${Math.min(...r).toFixed(2)}–${Math.max(...r).toFixed(2)}×`;
    })
    .join(', ');
console.log(`  as recorded, measured ÷ predicted by window: ${ratios(run.window_predicted_cpu_seconds)}`);
for (const [label, slope] of [
  ['mix, CPU inside db.batch (the uniform bench accounting)', mix.per_tenfold_growth.batch_cpu_us_per_row.per_decade],
  ['mix, CPU less generation (compaction between batches too)', mix.per_tenfold_growth.store_cpu_us_per_row.per_decade],
] as const) {
  const term = writeTerm(slope);
  const added = sum(term) - sum(recorded);
  const predicted = run.predicted_cpu_seconds + added;
  // the import's windows: the window term's difference added to each recorded window prediction
  const perWindow = run.window_predicted_cpu_seconds.map((p, i) => p + (term[i] ?? 0) - (recorded[i] ?? 0));
  console.log(
    `post-hoc, ${label}: ${slope.toFixed(3)} µs a row a decade, write term ${sum(term).toFixed(1)} s (${added >= 0 ? '+' : ''}${added.toFixed(1)} s): ` +
      `predicted ${predicted.toFixed(0)} s CPU, measured ÷ predicted ${(run.cpu_seconds / predicted).toFixed(2)}, ` +
      `${((100 * added) / missing).toFixed(0)} % of the ${missing.toFixed(0)} s explained`,
  );
  console.log(`  measured ÷ predicted by window: ${ratios(perWindow)}`);
}
