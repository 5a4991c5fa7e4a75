/**
 * Shared measuring helpers for the import, chain-state and tree benches: medians (the machine is
 * shared, so a best-of run flatters and a single run is noise), the load average printed next to
 * every figure, and the quick-mode switch the runner sets.
 */
import { loadavg } from 'node:os';

/** `--quick` on the command line or ZECRPC_BENCH_QUICK=1 from bench/run-all.ts. */
export const QUICK = process.argv.includes('--quick') || process.env.ZECRPC_BENCH_QUICK === '1';

/** Positional (non-flag) command-line arguments. */
export const positional = (): string[] => process.argv.slice(2).filter((a) => !a.startsWith('--'));

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** Median and min–max of per-round values. */
export function spread(values: readonly number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** "88.1 % (80.2–90.0)": median and min–max of the per-round ratios, given in percent. */
export function describePercent(s: Spread): string {
  return `${s.median.toFixed(1)} % (${s.min.toFixed(1)}–${s.max.toFixed(1)})`;
}

/** "load 3.41" — the 1-minute load average when a figure was taken. */
export const load = (): string => `load ${loadavg()[0]!.toFixed(2)}`;

/** Thousands separators, fixed decimals. */
export const fmt = (n: number, decimals = 0): string => n.toFixed(decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** This process's CPU time in µs (user + system): steadier than wall time when other work runs. */
export function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * Runs `op` repeatedly for about `seconds` of CPU time, `rounds` times, after one warm-up call;
 * returns the median over rounds of CPU µs per unit (`unitsPerOp` units per call).
 */
export function cpuMicrosPerUnit(op: () => void, unitsPerOp: number, rounds: number, seconds: number): number {
  op();
  const perRound: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let units = 0;
    const start = cpuMicros();
    do {
      op();
      units += unitsPerOp;
    } while (cpuMicros() - start < seconds * 1e6);
    perRound.push((cpuMicros() - start) / units);
  }
  return median(perRound);
}

/**
 * `--name=value` from the command line, else `fallback`. Named, not positional: bench/run-all.ts
 * passes suites positional arguments meant for their earlier, time-bounded runs.
 */
export function numberFlag(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = arg === undefined ? fallback : Number(arg.slice(name.length + 3));
  if (!(value > 0)) throw new Error(`--${name} must be a positive number`);
  return value;
}

/** `--name=value` from the command line as text, else undefined. */
export function stringFlag(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}
