/**
 * Runs every benchmark suite in bench/ one after another, each in its own process, and writes
 * bench/results/: results.json (machine, run, every figure with its in-run baseline and ratio),
 * results.md (the table), the charts (throughput.svg, latency.svg and, from import-nu63.md,
 * import-rate.svg) and performance-section.md.
 *
 *   npx tsx bench/run-all.ts [--quick] [--only decode,rpc [--fresh]] [--out DIR] [--docs] [--charts-only]
 *
 * --quick        tiny iteration counts: checks the runner; the numbers are labelled as not for publication
 * --only         runs these suites; their results replace theirs in DIR/results.json (the other suites' stay,
 *                and the table says which suites were rerun, when, at which commit and load), unless --fresh
 *                or DIR/results.json is of the other kind (quick or not)
 * --docs         also replaces the section between <!-- bench:start --> and <!-- bench:end --> in docs/performance.md
 * --charts-only  runs no suite: redraws the table, the charts and the section from DIR/results.json
 *
 * A full run takes tens of minutes and is only meaningful on an otherwise idle machine: each
 * suite's load average at start is recorded next to its figures.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childNodeArgs } from './lib/bench-child.js';
import type { BenchResults, MachineInfo, SuiteResult } from './lib/figures.js';
import { PARSERS } from './lib/parsers.js';
import { importRateSvg, latencySvg, markdownTable, readmeSection, replaceReadmeSection, throughputSvg } from './lib/render.js';
import { discoverSuites } from './lib/suites.js';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const quick = process.argv.includes('--quick');
const chartsOnly = process.argv.includes('--charts-only');
const only = option('--only')
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const outDir = resolve(root, option('--out') ?? 'bench/results');
const suiteTimeoutMs = (quick ? 10 : 30) * 60_000;

function machine(): MachineInfo {
  const list = cpus();
  return {
    cpuModel: list[0]?.model.trim() ?? 'unknown CPU',
    cores: list.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${platform()} ${release()}`,
    loadAverageAtStart: loadavg()[0]!,
  };
}

function commit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/** Runs one suite under tsx; its output is echoed to stderr as it comes and returned. */
function runSuite(file: string, args: string[]): Promise<{ code: number | null; out: string; timedOut: boolean }> {
  return new Promise((done) => {
    // With an IPC channel, which the suite's preloaded watcher reads: the suite (and, through
    // theirs, its servers) ends when this runner does.
    const child = spawn(process.execPath, [...childNodeArgs(), file, ...args], {
      cwd: root,
      env: { ...process.env, ZECRPC_BENCH_QUICK: quick ? '1' : '' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let out = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, suiteTimeoutMs);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      process.stderr.write(c);
    });
    child.stderr!.on('data', (c: Buffer) => process.stderr.write(c));
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, out, timedOut });
    });
  });
}

const resultsFile = join(outDir, 'results.json');
const earlier = existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as BenchResults) : null;
const rerun = !chartsOnly && only !== undefined && !process.argv.includes('--fresh') && earlier !== null && earlier.quick === quick;
if (chartsOnly && !earlier) throw new Error(`--charts-only: no ${relative(root, resultsFile)} to draw from`);
const startedAt = new Date().toISOString();
// The checkout the suites run from, taken once: a commit made while they run is not theirs.
const runCommit = chartsOnly ? null : commit();
const results: BenchResults = chartsOnly
  ? earlier!
  : rerun
    ? { ...earlier!, suites: earlier!.suites.filter((s) => !only.includes(s.suite)) }
    : { quick, startedAt, commit: runCommit, machine: machine(), suites: [] };
const plans = chartsOnly ? [] : discoverSuites(join(root, 'bench'), quick, only);
if (!chartsOnly) {
  process.stderr.write(
    `${plans.length} suites${quick ? ' (QUICK: tiny counts, numbers not for publication)' : ''}: ${plans.map((p) => p.suite).join(', ')}\n`,
  );
}
for (const p of plans) {
  process.stderr.write(`\n=== ${p.suite} ${p.args.join(' ')}\n`);
  const load = loadavg()[0]!;
  const t0 = performance.now();
  const run = await runSuite(p.file, p.args);
  const suite: SuiteResult = {
    suite: p.suite,
    file: p.file,
    args: p.args,
    seconds: (performance.now() - t0) / 1000,
    exitCode: run.code,
    loadAverage: load,
    figures: [],
    ...(rerun ? { rerun: { startedAt, commit: runCommit } } : {}),
  };
  const parse = PARSERS[p.suite];
  if (run.timedOut) suite.problem = `stopped after ${suiteTimeoutMs / 60_000} min`;
  else if (run.code !== 0) suite.problem = `exited with status ${run.code}`;
  else if (!parse) suite.problem = 'no parser in bench/lib/parsers.ts';
  else {
    suite.figures = parse(run.out);
    if (suite.figures.length === 0) suite.problem = 'output not recognised by bench/lib/parsers.ts';
  }
  results.suites.push(suite);
}

// The order discoverSuites runs them in, whichever were rerun.
results.suites.sort((a, b) => (a.suite < b.suite ? -1 : a.suite > b.suite ? 1 : 0));
mkdirSync(outDir, { recursive: true });
writeFileSync(resultsFile, JSON.stringify(results, null, 2) + '\n');
writeFileSync(join(outDir, 'results.md'), markdownTable(results));
writeFileSync(join(outDir, 'throughput.svg'), throughputSvg(results));
writeFileSync(join(outDir, 'latency.svg'), latencySvg(results));
// The import rate per era is bench/import-nu63.ts's report, not a figure of results.json.
const importReport = join(outDir, 'import-nu63.md');
const importChart = existsSync(importReport) ? importRateSvg(readFileSync(importReport, 'utf8')) : null;
if (importChart) writeFileSync(join(outDir, 'import-rate.svg'), importChart);
else rmSync(join(outDir, 'import-rate.svg'), { force: true });
// The charts are linked from docs/performance.md, so their paths are relative to docs/.
const performanceDoc = join(root, 'docs', 'performance.md');
const section = readmeSection(results, relative(dirname(performanceDoc), outDir), importChart !== null);
writeFileSync(join(outDir, 'performance-section.md'), section + '\n');
process.stderr.write(
  `\nwrote ${relative(root, outDir)}/{results.json,results.md,throughput.svg,latency.svg,${importChart ? 'import-rate.svg,' : ''}performance-section.md}\n`,
);

if (process.argv.includes('--docs')) {
  const updated = replaceReadmeSection(readFileSync(performanceDoc, 'utf8'), section);
  if (updated === null) {
    process.stderr.write(
      'docs/performance.md has no <!-- bench:start --> … <!-- bench:end --> markers: section left in performance-section.md\n',
    );
    process.exitCode = 1;
  } else {
    writeFileSync(performanceDoc, updated);
    process.stderr.write('docs/performance.md results section updated\n');
  }
}
printImportProjection(join(root, 'bench', 'results', 'import-projection.json'));
// The same for stores made with -addressindex=0, where `import-eras.ts --address-index=0` wrote one.
const noAddressIndex = join(root, 'bench', 'results', 'import-projection-no-address-index.json');
if (existsSync(noAddressIndex)) printImportProjection(noAddressIndex);
const failed = results.suites.filter((s) => s.problem);
if (failed.length > 0) {
  process.stderr.write(`problems: ${failed.map((s) => `${s.suite} (${s.problem})`).join('; ')}\n`);
  process.exitCode = 1;
}

/** The import projection (bench/import-eras.ts, bench/import-contiguous.ts), as written. */
function printImportProjection(file: string): void {
  let p: {
    address_index?: boolean;
    mainnet_hours: number;
    mainnet_hours_at_measured_load?: number;
    cores: number;
    eras: { era: string; mainnet: { blocks: number; bytes: number }; connect_seconds: number; equihash_seconds: number }[];
    contiguous: {
      blocks: number;
      blocks_imported?: number;
      seconds: number | null;
      predicted_seconds: number;
      predicted_seconds_for_imported?: number;
      cpu_seconds?: number;
      predicted_cpu_seconds?: number;
      predicted_cpu_seconds_for_imported?: number;
    } | null;
  };
  try {
    p = JSON.parse(readFileSync(file, 'utf8')) as typeof p;
  } catch {
    process.stderr.write(`\nno import projection (${relative(root, file)}): run bench/import-eras.ts\n`);
    return;
  }
  const lines = [
    `\nimport projection (${relative(root, file)}${p.address_index === false ? ', -addressindex=0' : ''}): full mainnet ${p.mainnet_hours.toFixed(2)} h of CPU, ` +
      `at least ${(p.mainnet_hours / p.cores).toFixed(2)} h on ${p.cores} cores` +
      (p.mainnet_hours_at_measured_load ? ` (${p.mainnet_hours_at_measured_load.toFixed(2)} h at the load measured)` : ''),
    ...p.eras.map(
      (e) =>
        `  ${e.era.padEnd(8)} ${e.mainnet.blocks.toLocaleString('en')} blocks, ${(e.mainnet.bytes / 1e9).toFixed(1)} GB: ` +
        `connect ${(e.connect_seconds / 3600).toFixed(2)} h, Equihash ${(e.equihash_seconds / 3600).toFixed(2)} h`,
    ),
    p.contiguous
      ? `  contiguous import: ${(p.contiguous.blocks_imported ?? p.contiguous.blocks).toLocaleString('en')} blocks, ` +
        (p.contiguous.seconds === null
          ? `predicted ${p.contiguous.predicted_seconds.toFixed(0)} s, not run yet`
          : `${p.contiguous.seconds.toFixed(0)} s, predicted ${(p.contiguous.predicted_seconds_for_imported ?? p.contiguous.predicted_seconds).toFixed(0)} s` +
            (p.contiguous.cpu_seconds !== undefined && p.contiguous.predicted_cpu_seconds !== undefined
              ? `; ${p.contiguous.cpu_seconds.toFixed(0)} s of CPU, predicted ${(p.contiguous.predicted_cpu_seconds_for_imported ?? p.contiguous.predicted_cpu_seconds).toFixed(0)} s`
              : ''))
      : '  contiguous import: not run (bench/import-contiguous.ts)',
  ];
  process.stderr.write(lines.join('\n') + '\n');
}
