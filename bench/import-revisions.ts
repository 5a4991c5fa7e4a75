/**
 * This checkout's import against another checkout's, on one era-shaped chain: each import is
 * `zecrpc import --blocks-dir` as bench/lib/era-import.ts runs it, in a process of its own that
 * loads only its side's sources (bench/lib/import-revision-child.ts) and runs with its side's
 * Node options (its launcher's and its import's), in interleaved rounds (the base first in even
 * rounds, this checkout first in odd ones). Per import: wall, CPU (all threads) and the main
 * thread's CPU; per round, head ÷ base for each. Both sides must leave the same number of store
 * keys. Writes bench/results/import-revisions.json, after every import.
 *
 *   git worktree add /tmp/zecrpc-base <rev> && ln -s "$PWD/node_modules" /tmp/zecrpc-base/ \
 *     && (cd /tmp/zecrpc-base && npm run build:wasm)
 *   npx tsx bench/import-revisions.ts generate DIR --blocks=20000 ["coinbase only"]   (a calibration chain)
 *   npx tsx bench/import-revisions.ts DIR --base=/tmp/zecrpc-base [--rounds=3] [--max-blocks=N]
 *
 * The base checkout must have bench/lib/era-import.ts's importChainDir, era-chain-file.ts's
 * chainNetwork, store-keys.ts's countKeys and bin/relaunch.js's IMPORT_NODE_OPTIONS (any revision
 * from 1 Dec 2026 on).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EraChainGenerator } from '../test-vectors/era-chain.js';
import { calibrationChains } from './lib/calibration-chains.js';
import { writeChainFile } from './lib/era-chain-file.js';
import { launcherNodeArgs } from './lib/launcher-args.js';
import { fmt, load, median, numberFlag, positional } from './lib/measure.js';
import { revision } from './lib/run-stamp.js';

const here = resolve(import.meta.dirname, '..');
const flag = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
/** An import that has not ended in this long is stuck, not slow (the 100,000-block chain takes minutes). */
const IMPORT_TIMEOUT_MS = 2 * 60 * 60 * 1000;

interface OneImport {
  wall_seconds: number;
  cpu_seconds: number;
  main_thread_cpu_seconds: number;
  blocks: number;
  keys: number;
}

/** The Node options `zecrpc import` runs with in the checkout at `root`: its launcher's, then its relaunch's. */
async function importNodeArgs(root: string): Promise<string[]> {
  const relaunch = (await import(pathToFileURL(join(root, 'bin', 'relaunch.js')).href)) as { IMPORT_NODE_OPTIONS: string[] };
  return [...launcherNodeArgs(root), ...relaunch.IMPORT_NODE_OPTIONS];
}

const [first, second] = positional();
if (first === 'generate') {
  if (!second) throw new Error('usage: import-revisions.ts generate DIR --blocks=N [label]');
  const wanted = positional().slice(2);
  const spec = calibrationChains(numberFlag('blocks', 20000)).find((c) => wanted.length === 0 || c.label === wanted.join(' '));
  if (!spec) throw new Error(`no calibration chain labelled ${wanted.join(' ')}`);
  // Regtest's own solutions: a base revision from before mainnet-size headers imports this chain too.
  const generator = new EraChainGenerator({ tag: 'revisions', ...(spec.scriptSigBytes ? { scriptSigBytes: spec.scriptSigBytes } : {}) });
  const written = writeChainFile(second, generator, spec.blocks(generator));
  console.log(`${spec.label}: ${written.total.blocks} blocks written to ${second}`);
} else {
  const base = flag('base');
  if (!first || !base) throw new Error('usage: import-revisions.ts DIR --base=CHECKOUT [--rounds=3] [--max-blocks=N]');
  const sides = { base: resolve(base), head: here } as const;
  const rounds = numberFlag('rounds', 3);
  const maxBlocks = flag('max-blocks');
  const imports: (OneImport & { side: string; round: number; load_before: string })[] = [];
  const nodeArgs = { base: await importNodeArgs(sides.base), head: await importNodeArgs(sides.head) };
  const child = join(here, 'bench', 'lib', 'import-revision-child.ts');
  const file = join(here, 'bench', 'results', 'import-revisions.json');
  const record = (ratios: unknown[]): void =>
    writeFileSync(
      file,
      JSON.stringify(
        {
          generated_at: new Date().toISOString(),
          chain: resolve(first),
          head: revision(here),
          base: revision(sides.base),
          node_args: nodeArgs,
          imports,
          head_over_base: ratios,
        },
        null,
        2,
      ) + '\n',
    );
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['base', 'head'] as const) : (['head', 'base'] as const);
    for (const side of order) {
      const datadir = mkdtempSync(join(tmpdir(), 'zecrpc-revisions-'));
      const loadBefore = load();
      try {
        // Run from the side's checkout, whose node_modules give `--import tsx`.
        const out = execFileSync(
          process.execPath,
          ['--import', 'tsx', ...nodeArgs[side], child, resolve(first), sides[side], datadir, ...(maxBlocks ? [maxBlocks] : [])],
          { cwd: sides[side], encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: IMPORT_TIMEOUT_MS },
        );
        const result = JSON.parse(out.trim().split('\n').pop()!) as OneImport;
        imports.push({ ...result, side, round, load_before: loadBefore });
        record([]);
        console.log(
          `round ${round} ${side}: ${result.blocks} blocks, ${fmt(result.wall_seconds, 2)} s wall, ${fmt(result.cpu_seconds, 2)} s CPU, ` +
            `${fmt(result.main_thread_cpu_seconds, 2)} s main thread, ${result.keys} keys (${loadBefore})`,
        );
      } finally {
        rmSync(datadir, { recursive: true, force: true });
      }
    }
  }
  const ratios = Array.from({ length: rounds }, (_, round) => {
    const of = (side: string) => imports.find((i) => i.round === round && i.side === side)!;
    const [b, h] = [of('base'), of('head')];
    if (b.keys !== h.keys) throw new Error(`round ${round}: the base left ${b.keys} keys, this checkout ${h.keys}`);
    return {
      wall: h.wall_seconds / b.wall_seconds,
      cpu: h.cpu_seconds / b.cpu_seconds,
      main_thread_cpu: h.main_thread_cpu_seconds / b.main_thread_cpu_seconds,
    };
  });
  for (const k of ['wall', 'cpu', 'main_thread_cpu'] as const)
    console.log(`head ÷ base, ${k}: ${ratios.map((r) => fmt(r[k], 3)).join(', ')} (median ${fmt(median(ratios.map((r) => r[k])), 3)})`);
  record(ratios);
  console.log(`wrote ${file}`);
}
