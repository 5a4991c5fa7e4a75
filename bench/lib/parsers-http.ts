/**
 * Figures from the HTTP serving benches' reports (bench/rpc.ts, bench/store-serve.ts,
 * bench/getblock-connected.ts), whose cells bench/lib/interleaved.ts prints: per target its
 * median rate, its latency percentiles over all its rounds' requests with their count, and the
 * server's CPU time per request. Older reports (p99 only, whole milliseconds, from autocannon)
 * are still read, into the figures they gave then.
 */
import { figure, type Figure, type LatencyInfo } from './figures.js';
import { LATENCY_PATTERN, LATENCY_RESOLUTION_MS } from './latency.js';

export const num = (s: string): number => Number(s.replace(/,/g, ''));

/**
 * A figure whose ratio is the median of per-round ratios (interleaved rounds, bench/lib/interleaved.ts)
 * rather than the quotient of the two medians: each round's ratio is what shared-machine noise
 * affects least.
 */
export function perRoundRatio(f: Figure, percent: number): Figure {
  return { ...f, ratio: percent / 100 };
}

export const OWN_CEILING = 'Buffer-bodied node:net ceiling, own process';

/** One target's part of a printed cell. */
export interface CellPart {
  rate: number;
  latency: { p50: number; p90: number; p99: number; count: number };
  /** The server's CPU µs per request, when printed. */
  cpuMicros: number | null;
  /** Median per-round percentage of the ceiling's rate (not for the ceiling). */
  percent: number | null;
}

const PART = new RegExp(String.raw`^(.+?) (\d+) req\/s ${LATENCY_PATTERN}(?:, server CPU (\d+) µs\/req)?(?: = ([\d.]+) %)?`);

/** A cell as bench/lib/interleaved.ts's describeCell prints it ("ceiling … | cached … = 33.0 % (…) | …"), by label; null for any other text. */
export function parseCell(text: string): Map<string, CellPart> | null {
  const parts = new Map<string, CellPart>();
  for (const piece of text.split(' | ')) {
    const m = PART.exec(piece);
    if (!m) continue;
    parts.set(m[1]!, {
      rate: num(m[2]!),
      latency: { p50: num(m[3]!), p90: num(m[4]!), p99: num(m[5]!), count: num(m[6]!) },
      cpuMicros: m[7] === undefined ? null : num(m[7]),
      percent: m[8] === undefined ? null : num(m[8]),
    });
  }
  return parts.has('ceiling') ? parts : null;
}

/** Which store the report says its server read: ", in-memory store", ", LevelDB store", ", no store" or nothing (older reports). */
export function storeLabel(out: string): string {
  const m = /served from (an in-memory store|LevelDB|no store)/.exec(out);
  if (!m) return '';
  return m[1] === 'LevelDB' ? ', LevelDB store' : m[1] === 'no store' ? ', no store' : ', in-memory store';
}

/** A target's latency as a figure: its p99, against the ceiling's when it is not the ceiling. */
function latencyFigure(suite: string, kind: string, series: string, c: number, part: CellPart, ceiling: CellPart | null): Figure {
  const latency: LatencyInfo = {
    percentile: 'p99',
    connections: c,
    series,
    kind,
    resolutionMs: LATENCY_RESOLUTION_MS,
    samples: part.latency.count,
    percentiles: { p50: part.latency.p50, p90: part.latency.p90, p99: part.latency.p99 },
  };
  const baseline = ceiling ? { name: `${OWN_CEILING}, p99`, value: ceiling.latency.p99 } : null;
  const name = `${kind}${series === 'ceiling' ? ', the ceiling' : series === 'as served' ? '' : `, ${series}`}, latency, ${c} conn`;
  return figure(suite, name, part.latency.p99, 'ms', 'lower', baseline, latency);
}

/**
 * The figures of one cell: for each non-ceiling target its rate against the ceiling's (the
 * printed median of per-round ratios), and for every target its latency. `targets` maps the
 * printed labels to [the series name, the words the throughput figure's name adds after the kind].
 */
function cellFigures(
  suite: string,
  kind: string,
  store: string,
  c: number,
  cell: Map<string, CellPart>,
  targets: Readonly<Record<string, readonly [series: string, nameWords: string]>>,
): Figure[] {
  const ceiling = cell.get('ceiling')!;
  const figs: Figure[] = [];
  for (const [label, [, words]] of Object.entries(targets)) {
    const part = cell.get(label);
    if (!part || part.percent === null) continue;
    const f = figure(suite, `${kind}${words}${store}, ${c} conn`, part.rate, 'req/s', 'higher', { name: OWN_CEILING, value: ceiling.rate });
    figs.push(perRoundRatio(f, part.percent));
  }
  figs.push(latencyFigure(suite, `${kind}${store}`, 'ceiling', c, ceiling, null));
  for (const [label, [series]] of Object.entries(targets)) {
    const part = cell.get(label);
    if (part) figs.push(latencyFigure(suite, `${kind}${store}`, series, c, part, ceiling));
  }
  return figs;
}

/** The server CPU per request of each non-ceiling target, against the ceiling's. */
function cpuFigures(
  suite: string,
  kind: string,
  store: string,
  c: number,
  cell: Map<string, CellPart>,
  targets: Readonly<Record<string, string>>,
): Figure[] {
  const ceiling = cell.get('ceiling')!.cpuMicros;
  const figs: Figure[] = [];
  for (const [label, words] of Object.entries(targets)) {
    const cpu = cell.get(label)?.cpuMicros;
    if (cpu === null || cpu === undefined) continue;
    const baseline = ceiling === null ? null : { name: `${OWN_CEILING}, its CPU per request`, value: ceiling };
    figs.push(figure(suite, `${kind}${words}${store}, server CPU per request, ${c} conn`, cpu, 'µs', 'lower', baseline));
  }
  return figs;
}

export function rpc(out: string): Figure[] {
  const figs: Figure[] = [];
  const store = storeLabel(out);
  for (const line of out.split('\n')) {
    const conn = /^\s*(\d+) conn: (ceiling .*)$/.exec(line);
    const cell = conn ? parseCell(conn[2]!) : null;
    if (conn && cell) {
      figs.push(
        ...cellFigures('rpc', 'decoderawtransaction', store, Number(conn[1]), cell, {
          zecrpc: ['as served', ''],
          'cache off': ['cache off', ' uncached'],
        }),
      );
      continue;
    }
    figs.push(...rpcAutocannonLine(line), ...rpcInProcessLine(line));
  }
  return figs;
}

/** bench/rpc.ts's decoderawtransaction p99 figures, cached and with the cache off, against the ceiling's p99. */
function decoderawP99(c: number, cached: number, uncached: number, p99Ceiling: { name: string; value: number }): Figure[] {
  return [
    figure('rpc', `decoderawtransaction p99, ${c} conn`, cached, 'ms', 'lower', p99Ceiling, {
      percentile: 'p99',
      connections: c,
      series: 'zecrpc',
    }),
    figure('rpc', `decoderawtransaction uncached p99, ${c} conn`, uncached, 'ms', 'lower', p99Ceiling, {
      percentile: 'p99',
      connections: c,
      series: 'zecrpc, cache off',
    }),
  ];
}

/** The line bench/rpc.ts printed when autocannon drove it: p99 only, in whole milliseconds. */
function rpcAutocannonLine(line: string): Figure[] {
  const m =
    /^\s*(\d+) conn: ceiling (\d+) req\/s p99 ([\d.]+) ms \| zecrpc (\d+) req\/s p99 ([\d.]+) ms = ([\d.]+) % \([^)]*\) \| cache off (\d+) req\/s p99 ([\d.]+) ms = ([\d.]+) %/.exec(
      line,
    );
  if (!m) return [];
  const c = Number(m[1]);
  const ceiling = { name: OWN_CEILING, value: num(m[2]!) };
  const p99Ceiling = { name: `${OWN_CEILING}, p99`, value: num(m[3]!) };
  return [
    perRoundRatio(figure('rpc', `decoderawtransaction, ${c} conn`, num(m[4]!), 'req/s', 'higher', ceiling), num(m[6]!)),
    perRoundRatio(figure('rpc', `decoderawtransaction uncached, ${c} conn`, num(m[7]!), 'req/s', 'higher', ceiling), num(m[9]!)),
    ...decoderawP99(c, num(m[5]!), num(m[8]!), p99Ceiling),
    figure('rpc', `ceiling p99, ${c} conn`, num(m[3]!), 'ms', 'lower', null, { percentile: 'p99', connections: c, series: 'ceiling' }),
  ];
}

/**
 * The line bench/rpc.ts printed while it drove an in-process server against a string-bodied
 * Fastify route; test/compare/bench-results.test.ts still feeds results in that form.
 */
function rpcInProcessLine(line: string): Figure[] {
  const m =
    /^\s*(\d+) conn: fixed-body Fastify (\d+) req\/s p99 ([\d.]+) ms \| zecrpc (\d+) req\/s p99 ([\d.]+) ms = [\d.]+ % \| cache off (\d+) req\/s p99 ([\d.]+) ms/.exec(
      line,
    );
  if (!m) return [];
  const c = Number(m[1]);
  const ceiling = { name: 'fixed-body Fastify route', value: num(m[2]!) };
  const p99Ceiling = { name: 'fixed-body Fastify route p99', value: num(m[3]!) };
  return [
    figure('rpc', `decoderawtransaction, ${c} conn`, num(m[4]!), 'req/s', 'higher', ceiling),
    figure('rpc', `decoderawtransaction uncached, ${c} conn`, num(m[6]!), 'req/s', 'higher', ceiling),
    ...decoderawP99(c, num(m[5]!), num(m[7]!), p99Ceiling),
    figure('rpc', `fixed-body ceiling p99, ${c} conn`, num(m[3]!), 'ms', 'lower', null, {
      percentile: 'p99',
      connections: c,
      series: 'fixed-body ceiling',
    }),
  ];
}

export function storeServe(out: string): Figure[] {
  const figs: Figure[] = [];
  const lines = out.split('\n');
  const store = storeLabel(out);
  // "main-106598 (1.39 MB)": every figure names the block and its size.
  const sizes = new Map<string, number>();
  // Reply bodies of a megabyte or more: their server CPU per request is a figure too.
  const large = new Set<string>();
  for (const line of lines) {
    const b = /^block (\S+): \S+ \d+, ([\d,]+) bytes.*reply bodies (.*) bytes/.exec(line);
    if (!b) continue;
    sizes.set(b[1]!, num(b[2]!));
    for (const r of b[3]!.matchAll(/v(\d) ([\d,]+)/g)) if (num(r[2]!) >= 1e6) large.add(`${b[1]} v${r[1]}`);
  }
  const named = (block: string): string => (sizes.has(block) ? `${block} (${(sizes.get(block)! / 1e6).toFixed(2)} MB)` : block);
  // Older reports: latency figures only for the block measured at every connection count.
  const allConnections = new Set(lines.map((l) => /^(\S+) v\d 50 conn:/.exec(l)?.[1]).filter((b): b is string => b !== undefined));
  for (const line of lines) {
    const cpu =
      /^in-process getblock verbosity 2, (\S+) \(([\d,]+) bytes → .*decode\+txids\+JSON median ([\d.]+) ms into a reply slab .*, ([\d.]+) ms into fresh memory/.exec(
        line,
      );
    if (cpu) {
      const mb = (num(cpu[2]!) / 1e6).toFixed(2);
      const name = `getblock 2 in-process (decode+txids+JSON), ${cpu[1]} (${mb} MB), median`;
      const outgrown = line.includes('outgrowing its');
      // V8's serializer writing the same reply from objects built beforehand, in the same run.
      const sj = /Buffer\.from\(JSON\.stringify\(…\)\) of the same reply prebuilt as objects ([\d.]+) ms/.exec(line);
      const stringify = sj ? { name: 'Buffer.from(JSON.stringify(…)) of the same reply prebuilt as objects', value: num(sj[1]!) } : null;
      figs.push(
        figure(
          'store-serve',
          `${name}, into a reply slab${outgrown ? ' it outgrows' : ''} (uncached serving)`,
          num(cpu[3]!),
          'ms',
          'lower',
          stringify,
        ),
      );
      figs.push(figure('store-serve', `${name}, into fresh memory (first cached rendering)`, num(cpu[4]!), 'ms', 'lower', stringify));
      continue;
    }
    const cold =
      /^\s*cold\/warm (\S+) v([12]): cache on first [\d.]+ ms, warm [\d.]+ ms \| cache off first ([\d.]+) ms, warm ([\d.]+) ms/.exec(line);
    if (cold && (sizes.get(cold[1]!) ?? 0) > 1e6) {
      figs.push(
        figure('store-serve', `getblock ${cold[2]} ${named(cold[1]!)}, cache off, first request`, num(cold[3]!), 'ms', 'lower', null),
      );
      figs.push(figure('store-serve', `getblock ${cold[2]} ${named(cold[1]!)}, cache off, warm`, num(cold[4]!), 'ms', 'lower', null));
      continue;
    }
    const head = /^(\S+) v(\d) +(\d+) conn: (ceiling .*)$/.exec(line);
    const cell = head ? parseCell(head[4]!) : null;
    if (head && cell) {
      const [block, v, c] = [head[1]!, head[2]!, Number(head[3])];
      const kind = `getblock ${v} ${named(block)}`;
      figs.push(...cellFigures('store-serve', kind, store, c, cell, { cached: ['as served', ''], uncached: ['cache off', ' uncached'] }));
      if (large.has(`${block} v${v}`)) figs.push(...cpuFigures('store-serve', kind, store, c, cell, { cached: '', uncached: ' uncached' }));
      continue;
    }
    figs.push(...storeServeAutocannonLine(line, named, allConnections));
  }
  return figs;
}

/** A cell as bench/store-serve.ts printed it when autocannon drove it: p99 only, in whole milliseconds. */
function storeServeAutocannonLine(line: string, named: (block: string) => string, allConnections: ReadonlySet<string>): Figure[] {
  const m =
    /^(\S+) v(\d) +(\d+) conn: ceiling (\d+) req\/s p99 ([\d.]+) ms \| cached (\d+) req\/s p99 ([\d.]+) ms = ([\d.]+) % \([^)]*\) \| uncached (\d+) req\/s p99 ([\d.]+) ms = ([\d.]+) %/.exec(
      line,
    );
  if (!m) return [];
  const [block, v, c] = [m[1]!, m[2]!, Number(m[3])];
  const ceiling = { name: OWN_CEILING, value: num(m[4]!) };
  const figs = [
    perRoundRatio(figure('store-serve', `getblock ${v} ${named(block)}, ${c} conn`, num(m[6]!), 'req/s', 'higher', ceiling), num(m[8]!)),
    perRoundRatio(
      figure('store-serve', `getblock ${v} ${named(block)} uncached, ${c} conn`, num(m[9]!), 'req/s', 'higher', ceiling),
      num(m[11]!),
    ),
  ];
  if (allConnections.has(block) && v !== '0') {
    const p99Ceiling = { name: `${OWN_CEILING}, p99`, value: num(m[5]!) };
    const p99 = (value: string, series: string): Figure =>
      figure('store-serve', `getblock ${v} ${named(block)} ${series} p99, ${c} conn`, num(value), 'ms', 'lower', p99Ceiling, {
        percentile: 'p99',
        connections: c,
        series: `getblock ${v} ${series}`,
      });
    figs.push(p99(m[7]!, 'cached'), p99(m[10]!, 'uncached'));
  }
  return figs;
}
