// The benchmark charts drawn from the committed results (bench/results/results.json, a real run, and
// bench/results/import-nu63.md): their structure, not their pixels, which were looked at when drawn.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BenchResults } from '../../bench/lib/figures.js';
import { PARSERS } from '../../bench/lib/parsers.js';
import { formatLatency, importRateSvg, latencySvg, markdownTable, MIN_P99_REQUESTS, throughputSvg } from '../../bench/lib/render.js';
import { MAX_HEIGHT, MAX_WIDTH, PALETTE, barChart, logTicks, type BarChartSpec } from '../../bench/lib/svg.js';

const results = JSON.parse(readFileSync(new URL('../../bench/results/results.json', import.meta.url), 'utf8')) as BenchResults;
const importReport = readFileSync(new URL('../../bench/results/import-nu63.md', import.meta.url), 'utf8');

const unescape = (s: string): string =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const texts = (svg: string): string[] => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => unescape(m[1]!));
const size = (svg: string): { width: number; height: number } => {
  const m = /^<svg [^>]*width="(\d+)" height="(\d+)"/.exec(svg)!;
  return { width: Number(m[1]), height: Number(m[2]) };
};
const attr = (el: string, name: string): number => Number(new RegExp(` ${name}="([^"]+)"`).exec(el)![1]);

function expectWellFormed(svg: string): void {
  expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
  expect(svg).not.toMatch(/NaN|Infinity|undefined/);
  const { width, height } = size(svg);
  expect(width).toBeGreaterThan(300);
  expect(width).toBeLessThanOrEqual(MAX_WIDTH);
  expect(height).toBeLessThanOrEqual(MAX_HEIGHT);
  // Every bar and every point lies inside the drawing.
  const bars = svg.match(/<rect class="bar"[^>]*>/g) ?? [];
  const points = svg.match(/<circle class="point"[^>]*>/g) ?? [];
  expect(bars.length + points.length).toBeGreaterThan(0);
  for (const bar of bars) {
    expect(attr(bar, 'x') + attr(bar, 'width')).toBeLessThanOrEqual(width);
    expect(attr(bar, 'y') + attr(bar, 'height')).toBeLessThanOrEqual(height);
  }
  for (const point of points) {
    expect(attr(point, 'cx') + attr(point, 'r')).toBeLessThanOrEqual(width);
    expect(attr(point, 'cy') + attr(point, 'r')).toBeLessThanOrEqual(height);
  }
}

describe('benchmark charts from the committed results', () => {
  const ceilingFigures = results.suites
    .flatMap((s) => s.figures)
    .filter((f) => !f.latency && f.unit === 'req/s' && f.baseline && /ceiling/.test(f.baseline.name));

  it('throughput: one bar per HTTP figure against the ceiling, its ratio and counts printed, the 1.0 line drawn', () => {
    const svg = throughputSvg(results);
    expectWellFormed(svg);
    expect(svg.match(/<rect class="bar"/g)!.length).toBe(ceilingFigures.length);
    const shown = texts(svg);
    // getblock 0 of block 106598 at 10 connections: 45 of the ceiling's 49 requests per second.
    expect(shown).toContain('0.92× (45 of 49 req/s)');
    expect(shown).toContain('0.0041× (60 of 14,639 req/s)');
    // Every request kind names the store it is served from.
    for (const heading of [
      'decoderawtransaction, no store',
      'getblock 0 main-106598 (1.39 MB), in-memory store',
      "getblock 1 connected 1.37 MB block (106598's shape), LevelDB store",
    ]) {
      expect(shown).toContain(heading);
    }
    expect(shown).toEqual(expect.arrayContaining(['as served', 'reply cache off', 'ceiling = 1.0', '1 conn', '10 conn', '50 conn']));
    const reference = /<line class="reference"[^>]*>/.exec(svg)![0];
    const oneTick = /<line x1="([\d.]+)"[^>]*\/>\n<text [^>]*>1\.0<\/text>/.exec(svg)!;
    expect(attr(reference, 'x1')).toBe(Number(oneTick[1]));
  });

  it('latency: p50, p90 and p99 of every target, to the microsecond, with the requests they rest on', () => {
    const svg = latencySvg(results);
    expectWellFormed(svg);
    const latency = results.suites.flatMap((s) => s.figures).filter((f) => f.latency);
    // One figure per target and cell, each a row of three markers.
    expect(latency.every((f) => f.latency!.percentiles && f.latency!.samples! > 0 && f.latency!.resolutionMs === 0.001)).toBe(true);
    // A target of fewer than 1,000 requests has no p99 (MIN_P99_REQUESTS): two markers.
    const markers = latency.reduce((n, f) => n + (f.latency!.samples! < MIN_P99_REQUESTS ? 2 : 3), 0);
    expect(svg.match(/class="point"/g)!.length).toBe(3 + markers);
    const shown = texts(svg);
    const rows = shown.filter((t) => /^p50 .* \([\d,]+ requests?\)$/.test(t));
    expect(rows.length).toBe(latency.length);
    expect(shown).not.toContainEqual(expect.stringMatching(/\b0\.00\b/));
    // The ceiling's decoderawtransaction at 1 connection: a sub-millisecond p50, printed as such.
    expect(shown).toContain('p50 0.118 ms · p90 1.34 ms · p99 14.9 ms (9,282 requests)');
    expect(shown).toEqual(
      expect.arrayContaining([
        'store-serve · getblock 2 main-106598 (1.39 MB), in-memory store',
        'ceiling (baseline), 50 conn',
        'cache off, 50 conn',
      ]),
    );
  });

  it('table: the suites rerun alone with their date, commit and load, and the store of every HTTP row', () => {
    const table = markdownTable(results);
    expect(table).toContain('Suite rpc rerun alone: 2026-11-29 12:15 UTC, commit 115f7fb94b, load average 17.65 at its start.');
    expect(table).toContain('Suite store-serve rerun alone: 2026-11-29 12:15 UTC, commit 115f7fb94b, load average 17.44 at its start.');
    const httpRows = table.split('\n').filter((l) => /^\| (rpc|store-serve|getblock-connected) \|.* conn \|/.test(l));
    expect(httpRows.length).toBeGreaterThan(40);
    for (const row of httpRows) expect(row).toMatch(/, (no store|in-memory store|LevelDB store)[,)]/);
    expect(table).toContain(
      '| rpc | decoderawtransaction, no store, latency, 1 conn | p99 48.7 ms (p50 0.591 ms, p90 7.03 ms; 4,786 requests) | Buffer-bodied node:net ceiling, own process, p99: 14.9 ms | 0.31× |',
    );
    expect(table).not.toMatch(/\b0\.00 ms/);
  });

  it('latency: one distinct colour per percentile, in percentile order', () => {
    const fig = (percentile: string, value: number) => ({
      suite: 'rpc',
      name: `decoderawtransaction ${percentile}, 10 conn`,
      value,
      unit: 'ms',
      better: 'lower' as const,
      baseline: null,
      ratio: null,
      latency: { percentile, connections: 10, series: 'zecrpc' },
    });
    const r: BenchResults = {
      ...results,
      suites: [{ ...results.suites[0]!, suite: 'rpc', figures: [fig('p99', 12), fig('p50', 0), fig('p90', 3)] }],
    };
    const svg = latencySvg(r);
    const legend = [...svg.matchAll(/<g class="legend"><\w+ class="point"[^>]*fill="([^"]+)"><title>([^<]+)<\/title>/g)].map((m) => [
      m[2],
      m[1],
    ]);
    expect(legend).toEqual([
      ['p50', PALETTE[0]],
      ['p90', PALETTE[1]],
      ['p99', PALETTE[2]],
    ]);
    // Older results' figures, one per percentile, join in one row.
    expect(texts(svg)).toEqual(expect.arrayContaining(['rpc, 10 conn', 'p50 < 1 ms · p90 3 ms · p99 12 ms']));
  });

  it('import rate: each era of the NU6.3 report with its median and its rounds as a whisker', () => {
    const svg = importRateSvg(importReport)!;
    expectWellFormed(svg);
    const shown = texts(svg);
    expect(shown).toEqual(expect.arrayContaining(['mainnet', 'testnet', 'NU6.2 era 3428142–3428142', 'NU6.3 era, all 4134001–4134010']));
    // 1 block in 38.66 ms (slowest round) and 4.84 ms (fastest): 25.9 and 207 blocks/s.
    expect(shown).toContain('72.8 blocks/s (1 block; rounds 25.9–207)');
    expect(svg.match(/<path class="whisker"/g)!.length).toBe(6);
    expect(importRateSvg('# no import lines\n')).toBeNull();
  });
});

describe('barChart', () => {
  const spec = (value: number, rows = 1): BarChartSpec => ({
    title: 't',
    subtitle: [],
    axis: { scale: 'linear', min: 0, max: 2, ticks: [0, 1, 2], tickLabel: String, title: 'x' },
    series: ['s'],
    groups: [
      { heading: 'g', rows: Array.from({ length: rows }, (_, i) => ({ label: `r${i}`, bars: [{ series: 's', value, text: 'v' }] })) },
    ],
  });

  it('refuses a value that is not a number, an unknown series and a chart past its size bounds', () => {
    expect(() => barChart(spec(Number.NaN))).toThrow('not a number');
    expect(() => barChart({ ...spec(1), series: [] })).toThrow('not in the legend');
    expect(() => barChart(spec(1, 200))).toThrow(/split it/);
  });

  it('gives a label column wide enough for the longest label', () => {
    const long = 'x'.repeat(60);
    const svg = barChart({ ...spec(1), groups: [{ heading: 'g', rows: [{ label: long, bars: [{ series: 's', value: 1, text: 'v' }] }] }] });
    const label = new RegExp(`<text x="([\\d.]+)"[^>]*text-anchor="end">${long}</text>`).exec(svg)!;
    // 12 px text averages well under 7 px a character.
    expect(Number(label[1])).toBeGreaterThanOrEqual(60 * 7);
  });

  it('puts log ticks on 1, 2 and 5 of each decade', () => {
    expect(logTicks(10, 1000)).toEqual([10, 20, 50, 100, 200, 500, 1000]);
    expect(logTicks(1, 1000, [1])).toEqual([1, 10, 100, 1000]);
  });

  it('prints a latency under its resolution as such', () => {
    expect(formatLatency(0)).toBe('< 1 ms');
    expect(formatLatency(0.05, 0.1)).toBe('< 0.1 ms');
    expect(formatLatency(0.25, 0.01)).toBe('0.25 ms');
    expect(formatLatency(1234)).toBe('1,234 ms');
  });
});

describe('latency chart from the load generator’s figures', () => {
  // Two cells as bench/store-serve.ts prints them (bench/lib/interleaved.ts's describeCell).
  const out = [
    'getblock over HTTP: zecrpc in child processes; served from an in-memory store (bench/lib/served-blocks.ts); …',
    'block main-106598: mainnet 106598, 1,385,299 bytes, 41 txs (…); reply bodies v0 2,770,632, v1 6,845, v2 8,174,757 bytes',
    'main-106598 v1  1 conn: ceiling 14756 req/s p50 0.052 p90 0.071 p99 0.148 ms, 30000 requests, server CPU 21 µs/req | ' +
      'cached 9591 req/s p50 0.088 p90 0.120 p99 0.391 ms, 28000 requests, server CPU 60 µs/req = 59.0 % (55.0–61.0) | ' +
      'uncached 540 req/s p50 1.702 p90 2.514 p99 4.250 ms, 4860 requests, server CPU 1650 µs/req = 3.7 % (3.5–3.9) | load 1.10',
    'main-106598 v2 10 conn: ceiling 97 req/s p50 98.100 p90 140.000 p99 178.400 ms, 873 requests, server CPU 4100 µs/req | ' +
      'cached 99 req/s p50 96.000 p90 130.000 p99 154.000 ms, 891 requests, server CPU 4500 µs/req = 101.0 % (97.0–103.0) | ' +
      'uncached 65 req/s p50 150.000 p90 200.000 p99 247.000 ms, 585 requests, server CPU 14000 µs/req = 62.0 % (60.0–66.0) | load 1.20',
  ].join('\n');
  const figures = PARSERS['store-serve']!(out);
  const r: BenchResults = { ...results, suites: [{ ...results.suites[0]!, suite: 'store-serve', figures }] };

  it('names the store and keeps every target’s percentiles with their count and resolution', () => {
    const cached = figures.find((f) => f.name === 'getblock 1 main-106598 (1.39 MB), in-memory store, latency, 1 conn')!;
    expect(cached).toMatchObject({
      value: 0.391,
      unit: 'ms',
      baseline: { value: 0.148 },
      latency: { series: 'as served', samples: 28000, resolutionMs: 0.001, percentiles: { p50: 0.088, p90: 0.12, p99: 0.391 } },
    });
    const uncached = figures.find((f) => f.name === 'getblock 1 main-106598 (1.39 MB) uncached, in-memory store, 1 conn')!;
    expect(uncached).toMatchObject({ value: 540, baseline: { value: 14756 } });
    // The printed median of the per-round ratios, not 540 ÷ 14,756.
    expect(uncached.ratio).toBeCloseTo(0.037, 10);
    // Server CPU per request: a figure for the multi-megabyte reply (v2) only.
    expect(figures.filter((f) => f.unit === 'µs').map((f) => [f.name, f.value, f.baseline?.value])).toEqual([
      ['getblock 2 main-106598 (1.39 MB), in-memory store, server CPU per request, 10 conn', 4500, 4100],
      ['getblock 2 main-106598 (1.39 MB) uncached, in-memory store, server CPU per request, 10 conn', 14000, 4100],
    ]);
    const table = markdownTable(r);
    expect(table).toContain(
      '| store-serve | getblock 1 main-106598 (1.39 MB), in-memory store, latency, 1 conn | p99 0.391 ms (p50 0.088 ms, p90 0.120 ms; 28,000 requests) | Buffer-bodied node:net ceiling, own process, p99: 0.148 ms | 0.38× |',
    );
    expect(table).not.toMatch(/\b0\.00 ms/);
  });

  it('prints no p99 for a target of fewer than 1,000 requests, and no ratio from it', () => {
    const table = markdownTable(r);
    // 891 requests: the p99 would be the slowest request but eight; the ceiling's, of 873, as few.
    expect(table).toContain(
      '| store-serve | getblock 2 main-106598 (1.39 MB), in-memory store, latency, 10 conn | p50 96.0 ms, p90 130 ms (891 requests: too few for a p99) | Buffer-bodied node:net ceiling, own process: p50 98.1 ms, p90 140 ms (873 requests: too few for a p99) | — |',
    );
    expect(table).not.toContain('p99 154');
    expect(latencySvg(r)).not.toContain('154');
  });

  it('draws p50, p90 and p99 as three series in the legend, distinct in colour and shape, the ceiling as the baseline', () => {
    const svg = latencySvg(r);
    expectWellFormed(svg);
    const legend = [...svg.matchAll(/<g class="legend"><(\w+) class="point"[^>]*fill="([^"]+)"><title>([^<]+)<\/title>/g)].map((m) => [
      m[3],
      m[1],
      m[2],
    ]);
    expect(legend).toEqual([
      ['p50', 'circle', PALETTE[0]],
      ['p90', 'rect', PALETTE[1]],
      ['p99', 'path', PALETTE[2]],
    ]);
    const shown = texts(svg);
    expect(shown).toEqual(expect.arrayContaining(['p50', 'p90', 'p99', 'ceiling p50–p99 (baseline)']));
    expect(shown).toEqual(
      expect.arrayContaining([
        'store-serve · getblock 1 main-106598 (1.39 MB), in-memory store',
        'ceiling (baseline), 1 conn',
        'as served, 1 conn',
        'cache off, 10 conn',
        'p50 0.088 ms · p90 0.120 ms · p99 0.391 ms (28,000 requests)',
        'p50 150 ms · p90 200 ms (585 requests)',
      ]),
    );
    // Three markers a row of 1 connection, two a row of 10 (fewer than 1,000 requests: no p99); a band (the
    // ceiling's p50–p99) behind each of the two rows measured against a ceiling with a p99.
    expect(svg.match(/class="point"/g)!.length).toBe(3 + 3 * 3 + 3 * 2);
    const bands = [...svg.matchAll(/<rect class="band" x="([\d.]+)"[^>]*width="([\d.]+)"/g)];
    expect(bands.length).toBe(2);
    // The band spans the ceiling's own p50 and p99 markers.
    const ceilingRow = /ceiling \(baseline\), 1 conn<\/text>\n<line x1="([\d.]+)"[^>]*x2="([\d.]+)"/.exec(svg)!;
    expect(Number(bands[0]![1])).toBeCloseTo(Number(ceilingRow[1]), 0);
    expect(Number(bands[0]![1]) + Number(bands[0]![2])).toBeCloseTo(Number(ceilingRow[2]), 0);
    expect(shown.join('\n')).toContain('timed per request to 1 µs');
    expect(shown).not.toContainEqual(expect.stringMatching(/\b0\.00\b/));
  });
});

describe('decoderawtransaction figures', () => {
  // bench/decoderaw.ts's lines for v4 (1 Dec 2026 07:42 UTC, with the median's note it prints since).
  const out = [
    'v4 zecrpc txToJsonBytes (reply bytes)           88676 tx/s  803.9 MB/s JSON out  119.2 MB/s tx in  (median of 5 rounds)',
    'v4 Buffer.from(JSON.stringify(prebuilt))        28638 tx/s  259.6 MB/s JSON out  38.5 MB/s tx in  (median of 5 rounds)',
    'v4 zecrpc per request (decode, reply bytes)     42466 tx/s  385.0 MB/s JSON out  57.1 MB/s tx in  (median of 5 rounds)',
    'v4 JSON.stringify(prebuilt plain object)        47796 tx/s  433.3 MB/s JSON out  64.2 MB/s tx in  (median of 5 rounds)',
  ].join('\n');

  it('says which figure renders the same decoded objects with warm addresses, and which is a request', () => {
    expect(PARSERS.decoderaw!(out).map((f) => [f.name, f.value, f.baseline?.value])).toEqual([
      ['decoded v4 tx → reply bytes (txToJsonBytes), the same decoded objects, warm addresses', 88676, 28638],
      ['v4 tx bytes → reply bytes per request (fresh decode, cold addresses)', 42466, 28638],
    ]);
  });
});
describe('Equihash rows from bench/equihash.ts’s output', () => {
  // Its lines as the suite printed them for the 30 Nov 2026 rerun in bench/results/results.json.
  const out = [
    'Equihash (200,9), 72 real headers, Node v20.20.2',
    'verifyEquihash, batching SIMD backend                              81.9 µs/header      4.6 min for 3.4 M headers',
    'verifyEquihash, blake2b-wasm backend                               98.2 µs/header      5.6 min for 3.4 M headers',
    'verifyEquihash, @noble/hashes backend                            2798.1 µs/header    158.6 min for 3.4 M headers',
    'hashing only, batching SIMD (2 indices/compression)                51.7 µs/header      2.9 min for 3.4 M headers',
    'hashing only, blake2b-wasm (1 compression/index)                   71.2 µs/header      4.0 min for 3.4 M headers',
    'hashing only, @noble/hashes clone (1 compression/index)          1954.7 µs/header    110.8 min for 3.4 M headers',
    'baseline: @noble/hashes one-shot per index (2 compressions)      3721.0 µs/header    210.9 min for 3.4 M headers',
  ].join('\n');

  it('names each backend, the batching SIMD one verifyEquihash uses first, against the naive baseline', () => {
    const figures = PARSERS.equihash!(out);
    expect(figures.map((f) => [f.name, f.value, f.baseline?.value])).toEqual([
      ['Equihash hashing, batching SIMD (2 indices a compression)', 51.7, 3721],
      ['Equihash hashing, blake2b-wasm', 71.2, 3721],
      ['verifyEquihash (batching SIMD), full check', 81.9, 3721],
      ['verifyEquihash (blake2b-wasm), full check', 98.2, 3721],
      ['verifyEquihash (@noble), full check', 2798.1, 3721],
    ]);
  });

  it('leaves out a backend the suite did not print (no WebAssembly SIMD), and everything without the baseline', () => {
    const withoutSimd = out
      .split('\n')
      .filter((l) => !l.includes('batching SIMD'))
      .join('\n');
    expect(PARSERS.equihash!(withoutSimd).map((f) => f.name)).toEqual([
      'Equihash hashing, blake2b-wasm',
      'verifyEquihash (blake2b-wasm), full check',
      'verifyEquihash (@noble), full check',
    ]);
    expect(PARSERS.equihash!(out.replace(/^baseline:.*$/m, ''))).toEqual([]);
  });
});
