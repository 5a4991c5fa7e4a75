// The runs of one import check kept in bench/results/import-projection.json (bench/lib/check-runs.ts).
import { describe, expect, it } from 'vitest';
import { sameRunsBefore, type RunSummary } from '../../bench/lib/check-runs.js';

const PREDICTED = 610.65;
const BLOCKS = 100_526;

function finished(seconds: number, earlier?: RunSummary[]) {
  return {
    blocks: BLOCKS,
    blocks_imported: BLOCKS,
    predicted_cpu_seconds: PREDICTED,
    predicted_at: `run of ${seconds} s`,
    seconds,
    cpu_seconds: seconds * 1.6,
    wall_ratio: seconds / 364,
    cpu_ratio: (seconds * 1.6) / PREDICTED,
    mb_per_second: 4255 / seconds,
    trace: [{ load1: 1.5 }, { load1: 3.7 }],
    window_cpu_seconds: [17.9, 15.2],
    ...(earlier ? { earlier_runs_with_this_prediction: earlier } : {}),
  };
}

describe('sameRunsBefore', () => {
  it('keeps a finished run under the same prediction, after those it kept', () => {
    const first = sameRunsBefore(finished(370), PREDICTED, BLOCKS);
    expect(first).toEqual([
      expect.objectContaining({ seconds: 370, load: [1.5, 3.7], window_cpu_seconds: [17.9, 15.2], predicted_at: 'run of 370 s' }),
    ]);
    const second = sameRunsBefore(finished(459, first), PREDICTED, BLOCKS);
    expect(second.map((r) => r.seconds)).toEqual([370, 459]);
  });

  it('loses no earlier run when the last one was killed or stopped early', () => {
    const kept = sameRunsBefore(finished(459, sameRunsBefore(finished(370), PREDICTED, BLOCKS)), PREDICTED, BLOCKS);
    const killed = { ...finished(0, kept), seconds: null, trace: undefined };
    expect(sameRunsBefore(killed, PREDICTED, BLOCKS).map((r) => r.seconds)).toEqual([370, 459]);
    const stopped = { ...finished(200, kept), blocks_imported: 40_000 };
    expect(sameRunsBefore(stopped, PREDICTED, BLOCKS).map((r) => r.seconds)).toEqual([370, 459]);
  });

  it('starts afresh under another prediction or another chain', () => {
    expect(sameRunsBefore(finished(370), PREDICTED + 1, BLOCKS)).toEqual([]);
    expect(sameRunsBefore(finished(370), PREDICTED, BLOCKS + 1)).toEqual([]);
    expect(sameRunsBefore(undefined, PREDICTED, BLOCKS)).toEqual([]);
  });
});
