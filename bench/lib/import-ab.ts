/**
 * One era-shaped chain imported as `zecrpc import --blocks-dir` runs (era-import.ts) in two
 * configurations, A and B, in interleaved rounds (A first in even rounds, B first in
 * odd ones, so whatever one import leaves behind — dirty pages, a collector's debt — weighs on both
 * alike). Per import: wall, CPU (all threads, LevelDB's included) and the main thread's CPU, peak
 * RSS, the store's size on disk and its keys per prefix; per round, B ÷ A for each.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chainNetwork } from './era-chain-file.js';
import { diskBytes, importChainDir } from './era-import.js';
import { fmt, load, median, numberFlag, positional } from './measure.js';
import { revision } from './run-stamp.js';
import { countKeys, type StoreKeyCount } from './store-keys.js';

type ImportSettings = NonNullable<Parameters<typeof importChainDir>[3]>;

export interface ImportAb {
  /** The script, for its usage line. */
  script: string;
  /** Names the two configurations in the output ("with the address index"). */
  a: { label: string; settings: ImportSettings };
  b: { label: string; settings: ImportSettings };
  /** The JSON member the imports' configuration is recorded under, and its value for A and B. */
  recordAs: string;
  values: [unknown, unknown];
  /** The ratio's name in the results ("without_over_with"). */
  ratioName: string;
  /** bench/results/ file. */
  resultFile: string;
  /** Temp folder prefix of the stores. */
  storePrefix: string;
  /** Whether A and B must leave the same LevelDB keys (a configuration that changes no row). */
  sameKeys: boolean;
}

interface Import {
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
  /** The LevelDB part of store_bytes (the rest is the block files). */
  index_bytes: number;
  keys: StoreKeyCount;
  [configuration: string]: unknown;
}

export async function runImportAb(ab: ImportAb): Promise<void> {
  const [chainDir] = positional();
  if (!chainDir) {
    console.error(`usage: ${ab.script} DIR [--rounds=2] [--max-blocks=N]   (DIR from \`import-contiguous.ts generate DIR\`)`);
    process.exit(2);
  }
  const rounds = numberFlag('rounds', 2);
  const maxBlocks = process.argv.some((a) => a.startsWith('--max-blocks=')) ? numberFlag('max-blocks', 1) : undefined;
  const resultPath = join(import.meta.dirname, '..', 'results', ab.resultFile);
  /** The checkout measured, taken before the run. */
  const commit = revision(join(import.meta.dirname, '..'));

  /**
   * The store being written, removed if the run is interrupted (each is gigabytes). A wrapper
   * that kills the process before its handler runs (npx on Ctrl-C) leaves it behind: the next run
   * removes the stores of runs no longer alive, named by their process id.
   */
  let current: string | null = null;
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(ab.storePrefix))) {
    const pid = Number(name.slice(ab.storePrefix.length).split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && !processAlive(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (current) rmSync(current, { recursive: true, force: true });
      process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
    });
  }

  const importOnce = async (which: 0 | 1, round: number): Promise<Import> => {
    const config = which === 0 ? ab.a : ab.b;
    const root = mkdtempSync(join(tmpdir(), `${ab.storePrefix}${process.pid}-`));
    current = root;
    try {
      const started_at = new Date().toISOString();
      const load_before = load();
      const run = await importChainDir(chainDir, root, chainNetwork(chainDir), {
        ...config.settings,
        traceEverySeconds: 10,
        ...(maxBlocks === undefined ? {} : { maxBlocks }),
      });
      const result: Import = {
        [ab.recordAs]: ab.values[which],
        round,
        started_at,
        load_before,
        blocks: run.blocks,
        bytes: run.bytes,
        // the whole import, the tree thread's start (timed apart by importChainDir, and warm: every
        // pool's table built, which an import builds only for the pools its blocks reach) included
        wall_seconds: (run.wallMicros + run.treeThreadStartWallMicros) / 1e6,
        cpu_seconds: (run.cpuMicros + run.treeThreadStartCpuMicros) / 1e6,
        main_thread_cpu_seconds: run.mainThreadCpuMicros / 1e6,
        peak_rss_mib: Math.round(Math.max(...run.trace.map((t) => t.rssMiB))),
        store_bytes: diskBytes(root),
        index_bytes: diskBytes(join(root, 'zecrpc', 'index')),
        keys: await countKeys(join(root, 'zecrpc', 'index')),
      };
      console.log(
        `round ${round} ${config.label}: ${fmt(result.blocks)} blocks, ${result.wall_seconds.toFixed(1)} s wall, ` +
          `${result.cpu_seconds.toFixed(1)} s CPU (${result.main_thread_cpu_seconds.toFixed(1)} s main thread), ${fmt(result.keys.count)} keys, ` +
          `${(result.store_bytes / 2 ** 30).toFixed(2)} GiB, peak RSS ${result.peak_rss_mib} MiB (${load_before} before, ${load()} after)`,
      );
      return result;
    } finally {
      rmSync(root, { recursive: true, force: true });
      current = null;
    }
  };

  const imports: { which: 0 | 1; result: Import }[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const which of round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const))
      imports.push({ which, result: await importOnce(which, round) });
  }
  const of = (which: 0 | 1, round: number) => imports.find((i) => i.which === which && i.result.round === round)!.result;
  const measures = ['wall_seconds', 'cpu_seconds', 'main_thread_cpu_seconds', 'store_bytes', 'index_bytes', 'peak_rss_mib'] as const;
  const ratios = Object.fromEntries(
    measures.map((m) => {
      const perRound = Array.from({ length: rounds }, (_, r) => of(1, r)[m] / of(0, r)[m]);
      return [m, { median: median(perRound), per_round: perRound.map((x) => Number(x.toFixed(3))) }];
    }),
  );
  // The same chain leaves the same keys every round: a difference means an import went wrong.
  const keyCounts = (which: 0 | 1) => new Set(imports.filter((i) => i.which === which).map((i) => i.result.keys.count));
  for (const which of [0, 1] as const) {
    if (keyCounts(which).size !== 1)
      throw new Error(`the imports ${(which === 0 ? ab.a : ab.b).label} left different key counts: ${[...keyCounts(which)].join(', ')}`);
  }
  if (ab.sameKeys && of(0, 0).keys.count !== of(1, 0).keys.count)
    throw new Error(
      `the imports ${ab.a.label} and ${ab.b.label} left different key counts: ${of(0, 0).keys.count}, ${of(1, 0).keys.count}`,
    );
  const keysRatio = of(1, 0).keys.count / of(0, 0).keys.count;
  const name = ab.ratioName.replaceAll('_', ' ');
  for (const m of measures) {
    const r = ratios[m]!;
    console.log(`${name}, ${m.replaceAll('_', ' ')}: median ${r.median.toFixed(3)} (rounds ${r.per_round.join(', ')})`);
  }
  console.log(`${name}, LevelDB keys: ${keysRatio.toFixed(3)} (${fmt(of(1, 0).keys.count)} against ${fmt(of(0, 0).keys.count)})`);
  writeFileSync(
    resultPath,
    JSON.stringify(
      {
        generated_at: new Date().toISOString(),
        commit,
        chain: chainDir,
        rounds,
        [ab.ratioName]: { ...ratios, keys: keysRatio },
        imports: imports.map((i) => i.result),
      },
      null,
      2,
    ) + '\n',
  );
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
