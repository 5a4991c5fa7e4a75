/**
 * Interleaved load rounds against servers in other processes: each round drives the ceiling and
 * then every zecrpc configuration on the same request, back to back, so load from elsewhere on a
 * shared machine hits them alike; the ratio is taken within each round and its median and spread
 * (min–max over rounds) are reported, never a best run.
 *
 * Every run is a fixed number of requests sized from the target's last measured rate (about
 * `seconds` of work): a run cut off by time abandons requests the server keeps working on,
 * which would slow whatever is measured next.
 */
import { timedRun } from './autocannon.js';
import { describePercent, median, spread, type Spread } from './measure.js';
import { BENCH_HEADERS } from './raw-http.js';

export interface Target {
  name: string;
  port: number;
}

export interface Run {
  /** Completed requests per second of wall time. */
  rate: number;
  p99: number;
  /** Non-2xx answers, socket errors, timeouts and replies whose size differs from the expected reply. */
  failures: number;
}

export interface CellResult {
  /** Per target, one run per round. */
  runs: Map<string, Run[]>;
  /** Per non-ceiling target: (target rate ÷ ceiling rate) × 100 of each round. */
  percentOfCeiling: Map<string, Spread>;
}

async function drive(port: number, body: string, connections: number, amount: number, replyBytes: number): Promise<Run> {
  const { result: r, seconds } = await timedRun({
    url: `http://127.0.0.1:${port}/`,
    connections,
    amount,
    method: 'POST',
    headers: { ...BENCH_HEADERS },
    body,
    // Large replies to 10 connections at once may take longer than autocannon's default 10 s.
    timeout: 120,
  });
  const perReply = r.requests.total > 0 ? r.throughput.total / r.requests.total : 0;
  // Every reply of a run is the same reply (the Date header keeps its length), so a size off by
  // more than rounding means some answers were something else (an error, a shed request).
  const wrongSize = Math.abs(perReply - replyBytes) > 0.005 * replyBytes ? r.requests.total : 0;
  return { rate: r.requests.total / seconds, p99: r.latency.p99, failures: r.non2xx + r.errors + r.timeouts + wrongSize };
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
): Promise<CellResult> {
  const bytesOf = (t: Target) => (typeof replyBytes === 'number' ? replyBytes : replyBytes(t.name));
  const lastRate = new Map<string, number>();
  for (const t of targets) lastRate.set(t.name, (await drive(t.port, body, connections, connections, bytesOf(t))).rate);
  const runs = new Map<string, Run[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const t of targets) {
      const amount = Math.max(connections, Math.round(lastRate.get(t.name)! * seconds));
      const run = await drive(t.port, body, connections, amount, bytesOf(t));
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

/** "1234 req/s p99 5 ms": the medians over rounds. */
export function describeRuns(runs: readonly Run[]): string {
  return `${median(runs.map((r) => r.rate)).toFixed(0)} req/s p99 ${median(runs.map((r) => r.p99))} ms`;
}

/**
 * One cell's report: "ceiling R | <label> R = P | …" for the ceiling and then each other target,
 * `labels` naming them in the printed line (bench/lib/parsers.ts reads these words).
 */
export function describeCell(r: CellResult, labels: Readonly<Record<string, string>>): string {
  const parts = [`ceiling ${describeRuns(r.runs.get('ceiling')!)}`];
  for (const [name, label] of Object.entries(labels)) {
    parts.push(`${label} ${describeRuns(r.runs.get(name)!)} = ${describePercent(r.percentOfCeiling.get(name)!)}`);
  }
  return parts.join(' | ');
}

export const failuresIn = (runs: readonly Run[]): number => runs.reduce((a, r) => a + r.failures, 0);
