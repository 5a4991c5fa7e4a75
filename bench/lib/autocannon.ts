/** autocannon ships no type declarations; this is the slice of its API the benchmarks use. */
import { createRequire } from 'node:module';

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  /** Bytes received, heads included. */
  throughput: { total: number };
  /** Seconds, to 10 ms. */
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

export interface AutocannonOptions {
  url: string;
  connections: number;
  /** Seconds; ignored when `amount` is given. */
  duration?: number;
  /** Stop after this many requests (at least `connections`). */
  amount?: number;
  method: 'POST';
  headers: Record<string, string>;
  body: string | Buffer;
  /** How often autocannon samples its counters, ms (default 1000); a run also ends only on a sample. */
  sampleInt?: number;
  /** Seconds a request may take before autocannon counts it as timed out (default 10). */
  timeout?: number;
}

/** What autocannon returns: a promise of the result that also emits an event per response. */
export type AutocannonRun = PromiseLike<AutocannonResult> & { on(event: 'response', listener: () => void): void };

export type Autocannon = (opts: AutocannonOptions) => AutocannonRun;

export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/**
 * A run timed from its start to its last response. A run of a fixed `amount` ends only at
 * autocannon's next counter sample, so its own duration can exceed the work by up to a whole
 * sampling interval (a second by default).
 */
export async function timedRun(opts: AutocannonOptions): Promise<{ result: AutocannonResult; seconds: number }> {
  const t0 = performance.now();
  let last = t0;
  const run = autocannon({ sampleInt: 20, ...opts });
  run.on('response', () => (last = performance.now()));
  const result = await run;
  return { result, seconds: (last - t0) / 1000 };
}
