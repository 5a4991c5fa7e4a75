/**
 * What a results file turns into: the markdown table, the charts (one per question: throughput
 * against the ceiling, latency percentiles, import rate per era) and the results section
 * of docs/performance.md (between `<!-- bench:start -->` and `<!-- bench:end -->`). Everything is
 * derived from the results file, so the published text always names the machine and run it came from.
 */
import type { BenchResults, Figure } from './figures.js';
import { formatLatency as formatAtResolution } from './latency.js';
import { dotChart, type DotRow } from './svg-dots.js';
import { barChart, logTicks, type BarRow } from './svg.js';

export const README_START = '<!-- bench:start -->';
export const README_END = '<!-- bench:end -->';

const fmt = (v: number): string =>
  v >= 1000 ? Math.round(v).toLocaleString('en-US') : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);

/** The machine, and the load average at the run's start (or `load`, what to say of it instead). */
export function describeMachine(r: BenchResults, load?: string): string {
  const m = r.machine;
  return `${m.cpuModel}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}; ${load ?? `load average ${m.loadAverageAtStart.toFixed(2)} at start`}`;
}

function runLabel(r: BenchResults): string {
  return `${r.startedAt.slice(0, 10)}${r.commit ? `, commit ${r.commit.slice(0, 10)}` : ''}${r.quick ? ', QUICK RUN (tiny iteration counts, not for publication)' : ''}`;
}

export function markdownTable(r: BenchResults): string {
  const reruns = r.suites.filter((s) => s.rerun);
  const lines = [
    `Machine: ${describeMachine(r)}. Run: ${runLabel(r)}.`,
    ...reruns.map(
      (s) =>
        `Suite ${s.suite} rerun alone: ${s.rerun!.startedAt.slice(0, 16).replace('T', ' ')} UTC${s.rerun!.commit ? `, commit ${s.rerun!.commit.slice(0, 10)}` : ''}, load average ${s.loadAverage.toFixed(2)} at its start.`,
    ),
    '',
    '| suite | figure | zecrpc | in-run baseline | ratio |',
    '|---|---|---:|---|---:|',
  ];
  for (const s of r.suites) {
    if (s.problem) lines.push(`| ${s.suite} | _${s.problem}_ | | | |`);
    for (const f of s.figures) {
      if (f.latency && !f.baseline) continue;
      const value = f.latency ? latencyCell(f) : `${fmt(f.value)} ${f.unit}`;
      // A latency's baseline is its ceiling's p99, unless the ceiling had too few requests for one.
      const ceiling = f.latency ? ceilingOf(s.figures, f) : undefined;
      const ceilingWithoutP99 = ceiling !== undefined && tooFewForP99(ceiling);
      const baseValue =
        f.baseline &&
        (ceilingWithoutP99
          ? latencyCell(ceiling)
          : f.latency
            ? formatLatency(f.baseline.value, resolutionOf(f))
            : `${fmt(f.baseline.value)} ${f.unit}`);
      const base = f.baseline ? `${ceilingWithoutP99 ? f.baseline.name.replace(/, p99$/, '') : f.baseline.name}: ${baseValue}` : '—';
      const ratio = f.ratio === null || tooFewForP99(f) || ceilingWithoutP99 ? '—' : `${f.ratio.toFixed(f.ratio < 10 ? 2 : 0)}×`;
      lines.push(`| ${f.suite} | ${f.name} | ${value} | ${base} | ${ratio} |`);
    }
  }
  lines.push('', 'Ratio: how many times the baseline measured in the same run (> 1 is better: more per second, or less time).');
  const latency = r.suites.some((s) => s.figures.some((f) => f.latency?.percentiles));
  if (latency) {
    lines.push(
      '',
      'Latency: percentiles of all a target’s requests over its interleaved rounds, each request timed by the load generator ' +
        '(bench/lib/load-generator.ts, processes of its own) from its first byte written to its reply’s last byte read; the ratio is the p99’s.',
    );
  }
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

/** autocannon's percentiles (older results) come from an HDR histogram of whole milliseconds. */
export const AUTOCANNON_RESOLUTION_MS = 1;

/** A latency figure's value at the resolution it was measured at: `< 1 ms` under autocannon's, never `0.00`. */
export function formatLatency(ms: number, resolutionMs = AUTOCANNON_RESOLUTION_MS): string {
  return formatAtResolution(ms, resolutionMs);
}

const resolutionOf = (f: Figure): number => f.latency?.resolutionMs ?? AUTOCANNON_RESOLUTION_MS;

/**
 * Requests a target needs before its p99 is printed: with fewer, the 99th percentile is the
 * slowest request or next to it, one outlier, not a percentile; a thousand leave ten above it.
 */
export const MIN_P99_REQUESTS = 1000;

/** Whether a latency figure holds too few requests for its p99 to be a percentile (its count known). */
const tooFewForP99 = (f: Figure): boolean => f.latency?.samples !== undefined && f.latency.samples < MIN_P99_REQUESTS;

/** The ceiling's own latency figure beside `f` (same request kind and connections), where the suite printed one. */
const ceilingOf = (figures: readonly Figure[], f: Figure): Figure | undefined =>
  f.latency?.kind === undefined
    ? undefined
    : figures.find(
        (g) =>
          g.latency?.series === CEILING_SERIES && g.latency.kind === f.latency!.kind && g.latency.connections === f.latency!.connections,
      );

/**
 * A latency figure's table cell: its p99, and with the load generator's figures p50, p90 and the
 * request count; with too few requests, p50 and p90 only.
 */
function latencyCell(f: Figure): string {
  const res = resolutionOf(f);
  const p = f.latency?.percentiles;
  if (!p) return formatLatency(f.value, res);
  const n = f.latency?.samples;
  const count = n ? `${n.toLocaleString('en-US')} requests` : '';
  if (tooFewForP99(f)) return `p50 ${formatLatency(p.p50, res)}, p90 ${formatLatency(p.p90, res)} (${count}: too few for a p99)`;
  return `p99 ${formatLatency(p.p99, res)} (p50 ${formatLatency(p.p50, res)}, p90 ${formatLatency(p.p90, res)}${count ? `; ${count}` : ''})`;
}

const PERCENTILE_ORDER = ['p50', 'p75', 'p90', 'p97.5', 'p99', 'p99.9'];
const CEILING_SERIES = 'ceiling';

interface LatencyRow {
  heading: string;
  label: string;
  connections: number;
  baseline: boolean;
  values: Map<string, number>;
  resolutionMs: number;
  samples?: number;
}

/** Latency figures as chart rows: one per target and concurrency, its percentiles together. */
function latencyRows(r: BenchResults): LatencyRow[] {
  const rows = new Map<string, LatencyRow>();
  for (const f of r.suites.flatMap((s) => s.figures)) {
    const l = f.latency;
    if (!l) continue;
    // Older results: one figure per percentile, the kind in the name, one row per suite and concurrency.
    const heading = `${f.suite} · ${l.kind ?? f.name.replace(/,? ?p[\d.]+, \d+ conn$/, '')}`;
    const label = l.kind
      ? `${l.series === CEILING_SERIES ? 'ceiling (baseline)' : l.series}, ${l.connections} conn`
      : `${f.suite}, ${l.connections} conn`;
    const key = `${heading}\n${label}`;
    const row = rows.get(key) ?? {
      heading,
      label,
      connections: l.connections,
      baseline: l.kind !== undefined && l.series === CEILING_SERIES,
      values: new Map<string, number>(),
      resolutionMs: l.resolutionMs ?? AUTOCANNON_RESOLUTION_MS,
      ...(l.samples ? { samples: l.samples } : {}),
    };
    if (l.percentiles) for (const [p, v] of Object.entries(l.percentiles)) row.values.set(p, v);
    else row.values.set(l.percentile, f.value);
    if (tooFewForP99(f)) for (const p of ['p99', 'p99.9']) row.values.delete(p);
    rows.set(key, row);
  }
  return [...rows.values()];
}

/** The machine and run the latency figures come from (a rerun's, when every suite holding them was rerun alone), and each suite's load: two lines. */
function latencyRunLabel(r: BenchResults): [string, string] {
  const suites = r.suites.filter((s) => s.figures.some((f) => f.latency));
  const load = suites.length
    ? `load average ${suites.map((s) => `${s.loadAverage.toFixed(2)} (${s.suite})`).join(', ')} at the start of each suite`
    : undefined;
  const reruns = new Set(suites.map((s) => (s.rerun ? `${s.rerun.startedAt.slice(0, 10)}|${s.rerun.commit ?? ''}` : '')));
  const only = suites[0]?.rerun;
  const run = reruns.size !== 1 || !only ? runLabel(r) : runLabel({ ...r, startedAt: only.startedAt, commit: only.commit });
  return [describeMachine(r, load), `Run: ${run}.`];
}

/**
 * One chart: each request kind's latency percentiles, one row per target and concurrency, one
 * marker (colour and shape) per percentile, the ceiling's row drawn as the baseline and its
 * p50–p99 as a band behind the rows measured against it.
 */
export function latencySvg(r: BenchResults): string {
  const rows = latencyRows(r);
  const order = (p: string): number => (PERCENTILE_ORDER.includes(p) ? PERCENTILE_ORDER.indexOf(p) : PERCENTILE_ORDER.length);
  const series = [...new Set(rows.flatMap((row) => [...row.values.keys()]))].sort((a, b) => order(a) - order(b));
  const ceilingBand = new Map<string, readonly [number, number]>();
  for (const row of rows.filter((x) => x.baseline)) {
    const p50 = row.values.get('p50');
    const p99 = row.values.get('p99');
    if (p50 !== undefined && p99 !== undefined) ceilingBand.set(`${row.heading}\n${row.connections}`, [p50, p99]);
  }
  const groups = new Map<string, DotRow[]>();
  let lo = Infinity;
  let hi = 0;
  for (const row of rows) {
    const points = [...row.values].sort((a, b) => order(a[0]) - order(b[0]));
    for (const [, v] of points) {
      lo = Math.min(lo, Math.max(v, row.resolutionMs / 2));
      hi = Math.max(hi, v);
    }
    const band = row.baseline ? undefined : ceilingBand.get(`${row.heading}\n${row.connections}`);
    const text =
      points.map(([p, v]) => `${p} ${formatLatency(v, row.resolutionMs)}`).join(' · ') +
      (row.samples ? ` (${row.samples.toLocaleString('en-US')} request${row.samples === 1 ? '' : 's'})` : '');
    const list = groups.get(row.heading) ?? [];
    list.push({
      label: row.label,
      points: points.map(([p, v]) => ({ series: p, value: v })),
      text,
      baseline: row.baseline,
      ...(band ? { band } : {}),
    });
    groups.set(row.heading, list);
  }
  if (rows.length === 0) lo = hi = AUTOCANNON_RESOLUTION_MS;
  const axisMin = 10 ** Math.floor(Math.log10(lo));
  const axisMax = 10 ** Math.ceil(Math.log10(Math.max(hi, lo) * 1.05));
  const resolutions = [...new Set(rows.map((row) => row.resolutionMs))];
  const resolutionText = resolutions
    .map((res) =>
      res === AUTOCANNON_RESOLUTION_MS ? 'autocannon’s whole milliseconds (“< 1 ms” is under it)' : `timed per request to ${res * 1000} µs`,
    )
    .join('; ');
  const hasBand = ceilingBand.size > 0;
  return dotChart({
    title: 'Latency percentiles per request kind',
    subtitle: [
      ...latencyRunLabel(r),
      `Percentiles of all a target's requests over its rounds (their count in brackets); resolution: ${resolutionText || 'none recorded'}. Log scale.`,
      ...(hasBand
        ? ['Ceiling: a server replaying zecrpc’s exact reply bytes, measured in the same rounds; its p50–p99 is the grey band.']
        : []),
    ],
    axis: {
      scale: 'log',
      min: axisMin,
      max: axisMax,
      ticks: logTicks(axisMin, axisMax, [1]),
      tickLabel: (v) => (v >= 1 ? v.toLocaleString('en-US') : String(Number(v.toPrecision(1)))),
      title: 'milliseconds (lower is better)',
    },
    series,
    ...(hasBand ? { bandLabel: 'ceiling p50–p99 (baseline)' } : {}),
    groups: [...groups].map(([heading, list]) => ({ heading, rows: list })),
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
