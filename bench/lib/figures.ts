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
  latency?: { percentile: string; connections: number; series: string };
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
}

export interface BenchResults {
  /** Tiny iteration counts: checks the runner, numbers not for publication. */
  quick: boolean;
  startedAt: string;
  commit: string | null;
  machine: MachineInfo;
  suites: SuiteResult[];
}
