/**
 * The runs of one check (bench/import-contiguous.ts) kept in the result file: each new run of the
 * same chain under the same prediction keeps the ones before it, so how much the import moves from
 * run to run stays on record beside the newest run.
 */
/** What a measured run in the file was, when it had the prediction this run makes. */
export interface RunSummary {
  predicted_at: string;
  seconds: number;
  cpu_seconds: number;
  wall_ratio: number;
  cpu_ratio: number;
  mb_per_second: number;
  load: [number, number] | null;
  window_cpu_seconds: number[];
}

/**
 * The runs to keep beside a new run predicted at `predictedCpuSeconds` for `blocks` blocks: those the
 * file's `previous` record kept, and `previous` itself if it ran to the end under that prediction.
 */
export function sameRunsBefore(previous: unknown, predictedCpuSeconds: number, blocks: number): RunSummary[] {
  const p = previous as
    | (Omit<RunSummary, 'load'> & {
        blocks: number;
        blocks_imported: number;
        predicted_cpu_seconds: number;
        trace: { load1: number }[];
        earlier_runs_with_this_prediction?: RunSummary[];
      })
    | undefined;
  if (!p || p.blocks !== blocks || Math.abs(p.predicted_cpu_seconds - predictedCpuSeconds) > 1e-6) return [];
  const earlier = p.earlier_runs_with_this_prediction ?? [];
  // A run killed or stopped early (--max-seconds) adds nothing, and loses none of the runs before it.
  if (!p.seconds || p.blocks_imported !== blocks) return earlier;
  const loads = p.trace.map((t) => t.load1);
  return [
    ...earlier,
    {
      predicted_at: p.predicted_at,
      seconds: p.seconds,
      cpu_seconds: p.cpu_seconds,
      wall_ratio: p.wall_ratio,
      cpu_ratio: p.cpu_ratio,
      mb_per_second: p.mb_per_second,
      load: loads.length > 0 ? [Math.min(...loads), Math.max(...loads)] : null,
      // by window, so where the prediction erred stays readable for every run, not only the newest
      window_cpu_seconds: p.window_cpu_seconds,
    },
  ];
}
