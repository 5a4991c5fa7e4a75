/**
 * Latency samples of one side of a comparison and their summary. Both sides are driven in
 * lockstep (each request goes to both at once), so wall-clock requests/second would be the same
 * for both; each side's throughput is instead what its own latencies allow at the concurrency
 * used (Little's law: in-flight requests / mean latency).
 */

export interface LatencySummary {
  count: number;
  /** Milliseconds. */
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Requests per second this side sustains at `concurrency` requests in flight. */
  throughput: number;
  /** Reply bytes per second at that rate. */
  bytesPerSecond: number;
}

/** Nearest-rank percentile of sorted samples. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export class LatencyRecorder {
  private samples = new Float64Array(1024);
  private n = 0;
  private bytes = 0;

  record(ms: number, replyBytes: number): void {
    if (this.n === this.samples.length) {
      const grown = new Float64Array(this.samples.length * 2);
      grown.set(this.samples);
      this.samples = grown;
    }
    this.samples[this.n++] = ms;
    this.bytes += replyBytes;
  }

  get count(): number {
    return this.n;
  }

  summary(concurrency: number): LatencySummary {
    const sorted = this.samples.slice(0, this.n).sort();
    let total = 0;
    for (const s of sorted) total += s;
    const mean = this.n > 0 ? total / this.n : NaN;
    const busySeconds = total / 1000 / Math.max(1, concurrency);
    return {
      count: this.n,
      mean,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: this.n > 0 ? sorted[this.n - 1]! : NaN,
      throughput: busySeconds > 0 ? this.n / busySeconds : NaN,
      bytesPerSecond: busySeconds > 0 ? this.bytes / busySeconds : NaN,
    };
  }
}
