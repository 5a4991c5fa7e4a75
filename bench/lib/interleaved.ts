/**
 * Interleaved load rounds against servers in other processes: each round drives the ceiling and
 * every zecrpc configuration on the same request, back to back, so load from elsewhere on a
 * shared machine hits them alike; the order rotates from round to round (round r starts with
 * target r), so no target always runs first after a pause or last after the others warmed the
 * caches; the ratio is taken within each round and its median and spread (min–max over rounds)
 * are reported, never a best run.
 *
 * Every run is a fixed number of requests sized from the target's last measured rate (about
 * `seconds` of work, more when needed to reach `minSamples` requests over the rounds): a run cut
 * off by time abandons requests the server keeps working on, which would slow whatever is
 * measured next. The load comes from bench/lib/load-generator.ts's processes, which time every
 * request to the microsecond; a target's latency percentiles are those of all its rounds'
 * requests together, printed with their count. With a target's pid, its CPU time per request is
 * read from the kernel's accounting too (bench/lib/process-cpu.ts).
 */
import { describeLatency, summariseNanos, type LatencySummary } from './latency.js';
import { LoadGenerator } from './load-generator.js';
import { describePercent, median, QUICK, spread, type Spread } from './measure.js';
import { processCpuMicros } from './process-cpu.js';
import { requestBytes } from './raw-http.js';

export interface Target {
  name: string;
  port: number;
  /** The server's process, for its CPU time per request. */
  pid?: number;
}

export interface Run {
  /** Completed requests per second of wall time. */
  rate: number;
  /** Every answered request's latency, ns. */
  latenciesNs: Float64Array[];
  /** Non-2xx answers, socket errors, timeouts and replies whose size differs from the expected reply. */
  failures: number;
  /** The server's CPU µs over the run (null without its pid). */
  cpuMicros: number | null;
}

export interface CellResult {
  /** Per target, one run per round. */
  runs: Map<string, Run[]>;
  /** Per non-ceiling target: (target rate ÷ ceiling rate) × 100 of each round. */
  percentOfCeiling: Map<string, Spread>;
}

export interface RoundOptions {
  /** Requests per target over all rounds the runs are sized to reach (default 10,000; 0 in quick mode). */
  minSamples?: number;
  /** No run is sized longer than this many seconds at the target's last rate, whatever `minSamples` asks (default 3). */
  maxRunSeconds?: number;
  /** At least 1 MB replies are read by this many load-generator processes, smaller ones by one (default 2). */
  processesForLargeReplies?: number;
}

const LARGE_REPLY_BYTES = 1e6;
const generators = new Map<number, LoadGenerator>();
/** Started once per process count and kept for the bench's life; their processes end with it. */
function generator(processes: number): LoadGenerator {
  let g = generators.get(processes);
  if (!g) generators.set(processes, (g = new LoadGenerator(processes)));
  return g;
}

async function drive(
  load: LoadGenerator,
  target: Target,
  body: string,
  connections: number,
  amount: number,
  replyBytes: number,
): Promise<Run> {
  const cpuBefore = target.pid === undefined ? 0 : processCpuMicros(target.pid);
  const r = await load.run({ port: target.port, request: requestBytes(target.port, body), connections, amount, replyBytes });
  const cpuMicros = target.pid === undefined ? null : processCpuMicros(target.pid) - cpuBefore;
  return { rate: r.answered / r.seconds, latenciesNs: r.latenciesNs, failures: r.failures, cpuMicros };
}

/** The targets in round `round`'s order: the first one moves to the end each round. */
export function rotated<T>(targets: readonly T[], round: number): T[] {
  const k = round % targets.length;
  return [...targets.slice(k), ...targets.slice(0, k)];
}

/**
 * `rounds` interleaved rounds of `body` at `connections`; `targets[0]` is the ceiling. `replyBytes`
 * is the whole reply's expected size, or per target (servers whose heads differ). Each
 * target first gets one request per connection (warm-up, not counted; it also sizes the runs).
 */
export async function interleavedRounds(
  targets: readonly Target[],
  body: string,
  replyBytes: number | ((target: string) => number),
  connections: number,
  rounds: number,
  seconds: number,
  options: RoundOptions = {},
): Promise<CellResult> {
  const minSamples = options.minSamples ?? (QUICK ? 0 : 10_000);
  const maxRunSeconds = options.maxRunSeconds ?? 3;
  const bytesOf = (t: Target) => (typeof replyBytes === 'number' ? replyBytes : replyBytes(t.name));
  const largest = Math.max(...targets.map(bytesOf));
  const load = generator(largest >= LARGE_REPLY_BYTES ? (options.processesForLargeReplies ?? 2) : 1);
  const lastRate = new Map<string, number>();
  for (const t of targets) lastRate.set(t.name, (await drive(load, t, body, connections, connections, bytesOf(t))).rate);
  const runs = new Map<string, Run[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const t of rotated(targets, round)) {
      const rate = lastRate.get(t.name)!;
      const wanted = Math.max(rate * seconds, Math.min(minSamples / rounds, rate * maxRunSeconds));
      const run = await drive(load, t, body, connections, Math.max(connections, Math.round(wanted)), bytesOf(t));
      lastRate.set(t.name, run.rate);
      runs.get(t.name)!.push(run);
    }
  }
  const ceiling = runs.get(targets[0]!.name)!;
  const percentOfCeiling = new Map<string, Spread>();
  for (const t of targets.slice(1)) {
    percentOfCeiling.set(t.name, spread(runs.get(t.name)!.map((r, i) => (100 * r.rate) / ceiling[i]!.rate)));
  }
  return { runs, percentOfCeiling };
}

/** The latency percentiles of every request of `runs` together. */
export const latencyOf = (runs: readonly Run[]): LatencySummary => summariseNanos(runs.flatMap((r) => r.latenciesNs));

/** CPU time is counted in clock ticks (10 ms): a per-request figure needs this much of it to be within 2 %. */
const MIN_CPU_MICROS = 500_000;

/**
 * "1234 req/s p50 0.214 p90 0.350 p99 0.812 ms, 12345 requests, server CPU 412 µs/req": the
 * median rate over rounds, the percentiles over all rounds' requests, and (with the server's pid,
 * when the rounds took enough of its CPU to count) its CPU time per answered request over all rounds.
 */
export function describeRuns(runs: readonly Run[]): string {
  const latency = latencyOf(runs);
  const cpuTotal = runs.every((r) => r.cpuMicros !== null) ? runs.reduce((a, r) => a + r.cpuMicros!, 0) : 0;
  const cpu = cpuTotal >= MIN_CPU_MICROS ? cpuTotal / latency.count : null;
  return (
    `${median(runs.map((r) => r.rate)).toFixed(0)} req/s ${describeLatency(latency)}` +
    (cpu === null ? '' : `, server CPU ${cpu.toFixed(0)} µs/req`)
  );
}

/**
 * One cell's report: "ceiling R | <label> R = P | …" for the ceiling and then each other target,
 * `labels` naming them in the printed line (bench/lib/parsers-http.ts reads these words).
 */
export function describeCell(r: CellResult, labels: Readonly<Record<string, string>>): string {
  const parts = [`ceiling ${describeRuns(r.runs.get('ceiling')!)}`];
  for (const [name, label] of Object.entries(labels)) {
    parts.push(`${label} ${describeRuns(r.runs.get(name)!)} = ${describePercent(r.percentOfCeiling.get(name)!)}`);
  }
  return parts.join(' | ');
}

export const failuresIn = (runs: readonly Run[]): number => runs.reduce((a, r) => a + r.failures, 0);
