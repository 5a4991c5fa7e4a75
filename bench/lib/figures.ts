/**
 * One benchmark figure: a measured value and the baseline measured in the same run, so the
 * ratio (not the absolute number, which depends on the machine and its load) is what is
 * published.
 */

export interface Figure {
  suite: string;
  name: string;
  value: number;
  unit: string;
  /** 'higher': throughput; 'lower': time or latency. */
  better: 'higher' | 'lower';
  baseline: { name: string; value: number } | null;
  /** How many times better than the baseline (> 1 = faster); null without a baseline. */
  ratio: number | null;
  /** Latency figures carry the concurrency they were measured at, for the latency chart. */
  latency?: LatencyInfo;
}

/**
 * A latency figure's context. Figures from autocannon (older results) carry one percentile each
 * at 1 ms resolution; those from bench/lib/load-generator.ts carry p50, p90 and p99 of one target
 * in one cell (the figure's value is its p99), their resolution and how many requests they rest on.
 */
export interface LatencyInfo {
  /** Which percentile the figure's value is. */
  percentile: string;
  connections: number;
  /** The target: 'as served', 'cache off', 'ceiling' (older results: 'zecrpc', 'getblock 1 cached', …). */
  series: string;
  /** The request kind the chart groups by, with the store it is served from; older results derive it from the name. */
  kind?: string;
  /** The unit the latencies were measured in, ms (absent: autocannon's whole milliseconds). */
  resolutionMs?: number;
  /** How many requests the percentiles rest on. */
  samples?: number;
  percentiles?: { p50: number; p90: number; p99: number };
}

export function figure(
  suite: string,
  name: string,
  value: number,
  unit: string,
  better: 'higher' | 'lower',
  baseline: { name: string; value: number } | null,
  latency?: Figure['latency'],
): Figure {
  const ratio =
    baseline && baseline.value > 0 && value > 0 ? (better === 'higher' ? value / baseline.value : baseline.value / value) : null;
  return { suite, name, value, unit, better, baseline, ratio, ...(latency ? { latency } : {}) };
}

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run started (other work on the machine skews numbers). */
  loadAverageAtStart: number;
}

export interface SuiteResult {
  suite: string;
  file: string;
  args: string[];
  seconds: number;
  exitCode: number | null;
  /** 1-minute load average when this suite started. */
  loadAverage: number;
  figures: Figure[];
  /** Why the suite has no figures (failed, output not recognised, no parser). */
  problem?: string;
  /** Set when this suite was rerun alone (`--only`) into an earlier run's results: when and at which commit. */
  rerun?: { startedAt: string; commit: string | null };
}

export interface BenchResults {
  /** Tiny iteration counts: checks the runner, numbers not for publication. */
  quick: boolean;
  startedAt: string;
  commit: string | null;
  machine: MachineInfo;
  suites: SuiteResult[];
}
