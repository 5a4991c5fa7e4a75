/**
 * Request latencies as the HTTP benches record them: every request's time from its first byte
 * written to its reply's last byte read, in nanoseconds (`process.hrtime.bigint()` in the load
 * generator's processes, bench/lib/timed-client.ts), pooled over a figure's rounds and summarised
 * as nearest-rank percentiles with the count they rest on.
 */

/** What the suites print and the results keep: milliseconds to the microsecond. */
export const LATENCY_RESOLUTION_MS = 0.001;

export interface LatencySummary {
  /** How many requests the percentiles rest on. */
  count: number;
  p50: number;
  p90: number;
  p99: number;
}

/** The nearest-rank percentile `p` (0 < p ≤ 100) of ascending `sorted`: the smallest value with at least p % of the values at or below it. */
export function nearestRank(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) throw new Error('percentile of no samples');
  if (!(p > 0 && p <= 100)) throw new Error(`percentile ${p} is not in (0, 100]`);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
}

/** p50, p90 and p99 in milliseconds of latencies given in nanoseconds, over every array given. */
export function summariseNanos(parts: readonly Float64Array[]): LatencySummary {
  const all = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  all.sort();
  const ms = (p: number): number => nearestRank(all, p) / 1e6;
  return { count: all.length, p50: ms(50), p90: ms(90), p99: ms(99) };
}

/** "p50 0.214 p90 0.350 p99 0.812 ms, 12345 requests": the form the suites print and bench/lib/parsers-http.ts reads. */
export function describeLatency(s: LatencySummary): string {
  const ms = (v: number): string => v.toFixed(3);
  return `p50 ${ms(s.p50)} p90 ${ms(s.p90)} p99 ${ms(s.p99)} ms, ${s.count} requests`;
}

/** The pattern `describeLatency` prints; groups: p50, p90, p99, count. */
export const LATENCY_PATTERN = String.raw`p50 ([\d.]+) p90 ([\d.]+) p99 ([\d.]+) ms, (\d+) requests`;

/**
 * A latency at the resolution it was measured at: three significant digits, never finer than the
 * resolution, and a value under the resolution as `< resolution` (never `0.00 ms`).
 */
export function formatLatency(ms: number, resolutionMs: number): string {
  if (ms < resolutionMs) return `< ${resolutionMs} ms`;
  const resolutionDecimals = Math.max(0, -Math.floor(Math.log10(resolutionMs) + 1e-9));
  const significant = Math.max(0, 2 - Math.floor(Math.log10(ms)));
  const decimals = Math.min(resolutionDecimals, significant);
  return `${ms.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })} ms`;
}
