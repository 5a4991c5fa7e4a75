/**
 * What a results file turns into: the markdown table, the charts (one per question: throughput
 * against the ceiling, latency percentiles, import rate per era) and the results section
 * of docs/performance.md (between `<!-- bench:start -->` and `<!-- bench:end -->`). Everything is
 * derived from the results file, so the published text always names the machine and run it came from.
 */
import type { BenchResults } from './figures.js';
import { barChart, logTicks, type BarRow } from './svg.js';

export const README_START = '<!-- bench:start -->';
export const README_END = '<!-- bench:end -->';

const fmt = (v: number): string =>
  v >= 1000 ? Math.round(v).toLocaleString('en-US') : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);

export function describeMachine(r: BenchResults): string {
  const m = r.machine;
  return `${m.cpuModel}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}; load average ${m.loadAverageAtStart.toFixed(2)} at start`;
}

function runLabel(r: BenchResults): string {
  return `${r.startedAt.slice(0, 10)}${r.commit ? `, commit ${r.commit.slice(0, 10)}` : ''}${r.quick ? ', QUICK RUN (tiny iteration counts, not for publication)' : ''}`;
}

export function markdownTable(r: BenchResults): string {
  const lines = [
    `Machine: ${describeMachine(r)}. Run: ${runLabel(r)}.`,
    '',
    '| suite | figure | zecrpc | in-run baseline | ratio |',
    '|---|---|---:|---|---:|',
  ];
  for (const s of r.suites) {
    if (s.problem) lines.push(`| ${s.suite} | _${s.problem}_ | | | |`);
    for (const f of s.figures) {
      if (f.latency && !f.baseline) continue;
      const base = f.baseline ? `${f.baseline.name}: ${fmt(f.baseline.value)} ${f.unit}` : '—';
      const ratio = f.ratio === null ? '—' : `${f.ratio.toFixed(f.ratio < 10 ? 2 : 0)}×`;
      lines.push(`| ${f.suite} | ${f.name} | ${fmt(f.value)} ${f.unit} | ${base} | ${ratio} |`);
    }
  }
  lines.push('', 'Ratio: how many times the baseline measured in the same run (> 1 is better: more per second, or less time).');
  return lines.join('\n') + '\n';
}

/** A figure's throughput baseline is a ceiling: a server that sends a prebuilt reply, measured in the same run. */
const isCeiling = (name: string): boolean => /ceiling|fixed-body/i.test(name);

/** Request rates are whole counts per second: printed whole, never as `72.0`. */
const fmtCount = (v: number): string => (Number.isInteger(v) ? v.toLocaleString('en-US') : fmt(v));

const ratioText = (r: number): string => `${r < 0.1 ? r.toPrecision(2) : r.toFixed(2)}×`;

/** One chart: each HTTP request kind's throughput as a share of the ceiling, per concurrency, with the 1.0 line. */
export function throughputSvg(r: BenchResults): string {
  const AS_SERVED = 'as served';
  const CACHE_OFF = 'reply cache off';
  const groups = new Map<string, Map<string, BarRow>>();
  const ceilings = new Set<string>();
  let maxRatio = 1;
  for (const f of r.suites.flatMap((s) => s.figures)) {
    if (f.latency || f.unit !== 'req/s' || !f.baseline || !isCeiling(f.baseline.name) || f.ratio === null) continue;
    const conn = /, (\d+) conn\b/.exec(f.name);
    if (!conn) continue;
    ceilings.add(f.baseline.name);
    const series = / uncached\b/.test(f.name) ? CACHE_OFF : AS_SERVED;
    const kind = f.name.replace(conn[0], '').replace(/ (un)?cached\b/, '');
    const label = `${conn[1]} conn`;
    const rows = groups.get(kind) ?? new Map<string, BarRow>();
    const row = rows.get(label) ?? { label, bars: [] };
    const ratio = f.value / f.baseline.value;
    maxRatio = Math.max(maxRatio, ratio);
    row.bars.push({ series, value: ratio, text: `${ratioText(ratio)} (${fmtCount(f.value)} of ${fmtCount(f.baseline.value)} req/s)` });
    rows.set(label, row);
    groups.set(kind, rows);
  }
  for (const rows of groups.values()) for (const row of rows.values()) row.bars.sort((a, b) => a.series.localeCompare(b.series));
  const max = Math.ceil(maxRatio * 10 + 0.5) / 10;
  return barChart({
    title: 'Throughput as a share of the ceiling, per request kind',
    subtitle: [`${describeMachine(r)} — ${runLabel(r)}`, `1.0 = the ceiling measured in the same run: ${[...ceilings].join('; ')}`],
    axis: {
      scale: 'linear',
      min: 0,
      max,
      ticks: Array.from({ length: Math.floor(max / 0.2 + 1e-9) + 1 }, (_, i) => Number((i * 0.2).toFixed(1))),
      tickLabel: (v) => v.toFixed(1),
      title: 'requests per second ÷ the ceiling’s (higher is better)',
    },
    reference: { value: 1, label: 'ceiling = 1.0' },
    series: [AS_SERVED, CACHE_OFF].filter((s) =>
      [...groups.values()].some((rows) => [...rows.values()].some((row) => row.bars.some((b) => b.series === s))),
    ),
    groups: [...groups].map(([heading, rows]) => ({ heading, rows: [...rows.values()] })),
  });
}

/** autocannon's percentiles come from an HDR histogram of whole milliseconds. */
export const LATENCY_RESOLUTION_MS = 1;

/** A latency at its resolution: a value under it reads `< 1 ms`, never `0.00`. */
export function formatLatency(ms: number, resolutionMs = LATENCY_RESOLUTION_MS): string {
  if (ms < resolutionMs) return `< ${resolutionMs} ms`;
  const decimals = Math.max(0, -Math.floor(Math.log10(resolutionMs)));
  return `${ms.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })} ms`;
}

const PERCENTILE_ORDER = ['p50', 'p75', 'p90', 'p97.5', 'p99', 'p99.9'];

/** One chart: each request kind's latency percentiles, one row per concurrency, one colour per percentile. */
export function latencySvg(r: BenchResults): string {
  const groups = new Map<string, Map<string, BarRow>>();
  const percentiles = new Set<string>();
  let max = LATENCY_RESOLUTION_MS;
  for (const f of r.suites.flatMap((s) => s.figures)) {
    if (!f.latency) continue;
    const kind = `${f.suite} · ${f.name.replace(/,? ?p[\d.]+, \d+ conn$/, '')}`;
    const label = `${f.suite}, ${f.latency.connections} conn`;
    const rows = groups.get(kind) ?? new Map<string, BarRow>();
    const row = rows.get(label) ?? { label, bars: [] };
    row.bars.push({ series: f.latency.percentile, value: f.value, text: `${f.latency.percentile} ${formatLatency(f.value)}` });
    percentiles.add(f.latency.percentile);
    max = Math.max(max, f.value);
    rows.set(label, row);
    groups.set(kind, rows);
  }
  const order = (p: string): number => (PERCENTILE_ORDER.includes(p) ? PERCENTILE_ORDER.indexOf(p) : PERCENTILE_ORDER.length);
  const series = [...percentiles].sort((a, b) => order(a) - order(b));
  for (const rows of groups.values()) for (const row of rows.values()) row.bars.sort((a, b) => order(a.series) - order(b.series));
  const axisMax = 10 ** Math.ceil(Math.log10(max * 1.05));
  return barChart({
    title: 'Latency percentiles per request kind',
    subtitle: [
      `${describeMachine(r)} — ${runLabel(r)}`,
      `Percentiles recorded by this run: ${series.join(', ') || 'none'}; resolution ${LATENCY_RESOLUTION_MS} ms (“< ${LATENCY_RESOLUTION_MS} ms” is under it). Log scale.`,
    ],
    axis: {
      scale: 'log',
      min: LATENCY_RESOLUTION_MS / 2,
      max: axisMax,
      ticks: logTicks(LATENCY_RESOLUTION_MS, axisMax, [1]),
      tickLabel: (v) => v.toLocaleString('en-US'),
      title: 'milliseconds (lower is better)',
    },
    series,
    groups: [...groups].map(([heading, rows]) => ({ heading, rows: [...rows.values()] })),
  });
}

const IMPORT_LINE =
  /^(mainnet|testnet) (NU[\d.]+ era.*?)\s{2,}([\d.]+) blocks\/s\s+[\d.]+ MB\/s\s+\((\d+) blocks, [\d,]+ bytes, [\d.]+ ms, rounds ([\d.]+)–([\d.]+) ms\)/;

/**
 * One chart: the import rate on each side of a network upgrade, from the report bench/import-nu63.ts
 * writes (bench/results/import-nu63.md); null when the report holds no such lines.
 */
export function importRateSvg(report: string): string | null {
  const networks = new Map<string, BarRow[]>();
  let max = 1;
  let min = Infinity;
  for (const line of report.split('\n')) {
    const m = IMPORT_LINE.exec(line);
    if (!m) continue;
    const [, network, era, median, blocks, fastestMs, slowestMs] = m as unknown as [string, string, string, string, string, string, string];
    const n = Number(blocks);
    const range = [n / (Number(slowestMs) / 1000), n / (Number(fastestMs) / 1000)] as const;
    max = Math.max(max, range[1]);
    min = Math.min(min, range[0]);
    const rounds = `rounds ${fmt(range[0])}–${fmt(range[1])}`;
    const rows = networks.get(network) ?? [];
    rows.push({
      label: era.trim(),
      bars: [
        {
          series: 'median of the timed rounds',
          value: Number(median),
          text: `${median} blocks/s (${n} block${n === 1 ? '' : 's'}; ${rounds})`,
          range,
        },
      ],
    });
    networks.set(network, rows);
  }
  if (networks.size === 0) return null;
  const heading = /^import rate.*$/m.exec(report)?.[0] ?? '';
  const load = /load ([\d.]+)\)?\s*$/.exec(heading)?.[1];
  const axisMin = 10 ** Math.floor(Math.log10(min));
  const axisMax = 10 ** Math.ceil(Math.log10(max));
  return barChart({
    title: 'Import rate per era: NU6.2 and NU6.3 blocks',
    subtitle: [
      'bench/import-nu63.ts: real blocks imported from a checkpoint as `zecrpc import` does; whiskers: slowest–fastest round.',
      `${load ? `Taken at load average ${load}: ` : ''}bench/results/import-nu63.md says how far these figures can be read.`,
    ],
    axis: {
      scale: 'log',
      min: axisMin,
      max: axisMax,
      ticks: logTicks(axisMin, axisMax),
      tickLabel: (v) => v.toLocaleString('en-US'),
      title: 'blocks per second (higher is better), log scale',
    },
    series: ['median of the timed rounds'],
    groups: [...networks].map(([network, rows]) => ({ heading: network, rows })),
  });
}

/**
 * The generated results section of docs/performance.md; `chartDir` is where the SVGs are, relative
 * to that page; `importRateChart` whether import-rate.svg was drawn (its data is another report's).
 */
export function readmeSection(r: BenchResults, chartDir: string, importRateChart = false): string {
  return [
    README_START,
    `<!-- generated by \`npm run bench\` (bench/run-all.ts) from ${chartDir}/results.json; do not edit by hand -->`,
    '',
    `**Benchmark results** — ${runLabel(r)}.`,
    '',
    `![ratios against in-run baselines](${chartDir}/throughput.svg)`,
    '',
    `![latency percentiles per request kind](${chartDir}/latency.svg)`,
    '',
    ...(importRateChart ? [`![import rate per era](${chartDir}/import-rate.svg)`, ''] : []),
    markdownTable(r).trimEnd(),
    README_END,
  ].join('\n');
}

/** `readme` (the page holding the markers) with its generated section replaced; null when the markers are missing. */
export function replaceReadmeSection(readme: string, section: string): string | null {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) return null;
  return readme.slice(0, start) + section + readme.slice(end + README_END.length);
}
