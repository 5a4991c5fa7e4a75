/**
 * Which `bench/*.ts` files the runner executes and with which arguments. Every file in bench/ is
 * a suite unless listed in NOT_SUITES; a new file is run even before it has a parser (the results
 * then say it has none).
 */
import { readdirSync } from 'node:fs';

/** Arguments for a full run and for `--quick` (tiny counts: checks the runner, not the numbers). */
const ARGS: Readonly<Record<string, { full: string[]; quick: string[] }>> = {
  'scale-out': { full: [], quick: ['--seconds=1', '--blocks=2'] },
  'store-import': { full: [], quick: ['100'] },
  'import-eras': { full: [], quick: ['--blocks=30', '--rounds=1'] },
  'trees-append': { full: ['200000'], quick: ['5000'] },
  decoderaw: { full: [], quick: ['--quick'] },
};

/** Files in bench/ that are not benchmarks. */
export const NOT_SUITES: Readonly<Record<string, string>> = {
  'run-all': 'this runner',
  'import-profile': 'imports chosen calibration chains to be profiled (node --cpu-prof): a tool, not a measurement',
  'coin-reads':
    'fits the group sizes of the coin-read simulation (`fit`) or checks the simulation against an import (`check DIR`): run by hand before bench/import-contiguous.ts',
  'coins-cache':
    'the coins cache off and on, on the calibration chains or a chain directory: run by hand with a mode (bench/results/import-floors.md, run 5)',
  'growth-mix-posthoc':
    'a post-hoc prediction of a recorded contiguous import (bench/results/import-floors.md, run 7): a tool, not a measurement',
  'import-address-index':
    'imports the chain `import-contiguous.ts generate DIR` builds with and without the address index (tens of minutes): run by hand, bench/results/address-index-import.json',
  'import-tree-thread':
    'imports the chain `import-contiguous.ts generate DIR` builds with the tree thread and without (tens of minutes): run by hand, bench/results/tree-thread-import.json',
  'import-joinsplits':
    'imports two small chains with and without Sprout JoinSplits, interleaved, for the cost of one (minutes): run by hand, bench/results/import-floors.md run 13',
  'import-revisions':
    'imports one chain with this checkout and with another (--base=DIR), interleaved, each import in a process of its own (minutes): run by hand, bench/results/import-floors.md run 14',
  'leveldb-key-order':
    "the address index's rows written as the import writes them and as sorted runs merged at the end, interleaved (minutes): run by hand, bench/results/leveldb-key-order.json, bench/results/import-floors.md run 18",
  'import-contiguous':
    'generates and imports a 100,000-block chain (an hour or more): run by hand, its result joins bench/results/import-projection.json',
};

export interface SuitePlan {
  suite: string;
  file: string;
  args: string[];
}

export function discoverSuites(benchDir: string, quick: boolean, only?: readonly string[]): SuitePlan[] {
  const names = readdirSync(benchDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => f.slice(0, -3))
    .filter((n) => !(n in NOT_SUITES))
    .sort();
  if (only) {
    const unknown = only.filter((n) => !names.includes(n));
    if (unknown.length > 0) throw new Error(`no such suite: ${unknown.join(', ')} (suites: ${names.join(', ')})`);
  }
  return names
    .filter((n) => !only || only.includes(n))
    .map((suite) => ({ suite, file: `bench/${suite}.ts`, args: (quick ? ARGS[suite]?.quick : ARGS[suite]?.full) ?? [] }));
}
