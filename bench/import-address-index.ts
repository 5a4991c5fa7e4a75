/**
 * What `-addressindex=0` saves an import: one era-shaped chain imported as `zecrpc import
 * --blocks-dir` runs (bench/lib/era-import.ts), into a fresh store with the address index (the
 * default) and into one without, in interleaved rounds (with the index first in even rounds,
 * without it first in odd ones, so whatever one import leaves behind — dirty pages, a
 * collector's debt — weighs on both alike). Per import: wall, CPU (all threads, LevelDB's
 * included) and the main thread's CPU, peak RSS, the store's size on disk and its keys per
 * prefix; per round, without ÷ with for each. Writes bench/results/address-index-import.json.
 *
 *   npx tsx bench/import-contiguous.ts generate DIR      (the 100,526-block contiguous chain)
 *   npx tsx bench/import-address-index.ts DIR [--rounds=2] [--max-blocks=N]
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERA_REGTEST } from '../test-vectors/era-chain.js';
import { diskBytes, importChainDir } from './lib/era-import.js';
import { fmt, load, median, numberFlag, positional } from './lib/measure.js';
import { revision } from './lib/run-stamp.js';
import { countKeys, type StoreKeyCount } from './lib/store-keys.js';

const [chainDir] = positional();
if (!chainDir) {
  console.error('usage: import-address-index.ts DIR [--rounds=2] [--max-blocks=N]   (DIR from `import-contiguous.ts generate DIR`)');
  process.exit(2);
}
const ROUNDS = numberFlag('rounds', 2);
const MAX_BLOCKS = process.argv.some((a) => a.startsWith('--max-blocks=')) ? numberFlag('max-blocks', 1) : undefined;
const RESULT = join(import.meta.dirname, 'results', 'address-index-import.json');
/** The checkout measured, taken before the run. */
const COMMIT = revision(import.meta.dirname);

interface Import {
  address_index: boolean;
  round: number;
  started_at: string;
  load_before: string;
  blocks: number;
  bytes: number;
  wall_seconds: number;
  cpu_seconds: number;
  main_thread_cpu_seconds: number;
  peak_rss_mib: number;
  store_bytes: number;
  /** The LevelDB part of store_bytes (the rest is the block files, alike with and without the index). */
  index_bytes: number;
  keys: StoreKeyCount;
}

/**
 * The store being written, removed if the run is interrupted (each is gigabytes). A wrapper that
 * kills the process before its handler runs (npx on Ctrl-C) leaves it behind: the next run removes
 * the stores of runs no longer alive, named by their process id.
 */
let current: string | null = null;
const STORE_PREFIX = 'zecrpc-addrindex-';
for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(STORE_PREFIX))) {
  const pid = Number(name.slice(STORE_PREFIX.length).split('-')[0]);
  if (Number.isInteger(pid) && pid > 0 && !processAlive(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (current) rmSync(current, { recursive: true, force: true });
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
  });
}

async function importOnce(addressIndex: boolean, round: number): Promise<Import> {
  const root = mkdtempSync(join(tmpdir(), `${STORE_PREFIX}${process.pid}-`));
  current = root;
  try {
    const started_at = new Date().toISOString();
    const load_before = load();
    const run = await importChainDir(chainDir!, root, ERA_REGTEST, {
      addressIndex,
      traceEverySeconds: 10,
      ...(MAX_BLOCKS === undefined ? {} : { maxBlocks: MAX_BLOCKS }),
    });
    const result: Import = {
      address_index: addressIndex,
      round,
      started_at,
      load_before,
      blocks: run.blocks,
      bytes: run.bytes,
      wall_seconds: run.wallMicros / 1e6,
      cpu_seconds: run.cpuMicros / 1e6,
      main_thread_cpu_seconds: run.mainThreadCpuMicros / 1e6,
      peak_rss_mib: Math.round(Math.max(...run.trace.map((t) => t.rssMiB))),
      store_bytes: diskBytes(root),
      index_bytes: diskBytes(join(root, 'zecrpc', 'index')),
      keys: await countKeys(join(root, 'zecrpc', 'index')),
    };
    console.log(
      `round ${round} ${addressIndex ? 'with   ' : 'without'} the address index: ${fmt(result.blocks)} blocks, ${result.wall_seconds.toFixed(1)} s wall, ` +
        `${result.cpu_seconds.toFixed(1)} s CPU (${result.main_thread_cpu_seconds.toFixed(1)} s main thread), ${fmt(result.keys.count)} keys, ` +
        `${(result.store_bytes / 2 ** 30).toFixed(2)} GiB, peak RSS ${result.peak_rss_mib} MiB (${load_before} before, ${load()} after)`,
    );
    return result;
  } finally {
    rmSync(root, { recursive: true, force: true });
    current = null;
  }
}

const imports: Import[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const addressIndex of round % 2 === 0 ? [true, false] : [false, true]) imports.push(await importOnce(addressIndex, round));
}
const of = (addressIndex: boolean, round: number) => imports.find((i) => i.address_index === addressIndex && i.round === round)!;
const measures = ['wall_seconds', 'cpu_seconds', 'main_thread_cpu_seconds', 'store_bytes', 'index_bytes', 'peak_rss_mib'] as const;
const ratios = Object.fromEntries(
  measures.map((m) => {
    const perRound = Array.from({ length: ROUNDS }, (_, r) => of(false, r)[m] / of(true, r)[m]);
    return [m, { median: median(perRound), per_round: perRound.map((x) => Number(x.toFixed(3))) }];
  }),
);
// The same chain leaves the same keys every round: a difference means an import went wrong.
for (const addressIndex of [true, false]) {
  const counts = new Set(imports.filter((i) => i.address_index === addressIndex).map((i) => i.keys.count));
  if (counts.size !== 1)
    throw new Error(`the imports ${addressIndex ? 'with' : 'without'} the index left different key counts: ${[...counts].join(', ')}`);
}
const keysRatio = of(false, 0).keys.count / of(true, 0).keys.count;
for (const m of measures) {
  const r = ratios[m]!;
  console.log(`without ÷ with, ${m.replaceAll('_', ' ')}: median ${r.median.toFixed(3)} (rounds ${r.per_round.join(', ')})`);
}
console.log(
  `without ÷ with, LevelDB keys: ${keysRatio.toFixed(3)} (${fmt(of(false, 0).keys.count)} against ${fmt(of(true, 0).keys.count)})`,
);
writeFileSync(
  RESULT,
  JSON.stringify(
    {
      generated_at: new Date().toISOString(),
      commit: COMMIT,
      chain: chainDir,
      rounds: ROUNDS,
      without_over_with: { ...ratios, keys: keysRatio },
      imports,
    },
    null,
    2,
  ) + '\n',
);
