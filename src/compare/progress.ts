/**
 * Progress of a comparison on stderr: a bar with ETA on a terminal, otherwise a log line every
 * `intervalMs` (so a long run under CI or systemd shows it is alive without flooding the log).
 */
import cliProgress, { type SingleBar } from 'cli-progress';
import type { CompareProgress } from './run.js';

export type CompareProgressMode = 'auto' | 'bar' | 'log' | 'none';

export function createCompareProgress(
  mode: CompareProgressMode,
  stream: NodeJS.WriteStream = process.stderr,
  intervalMs = 10_000,
): CompareProgress | undefined {
  const chosen = mode === 'auto' ? (stream.isTTY ? 'bar' : 'log') : mode;
  if (chosen === 'none') return undefined;
  if (chosen === 'bar') {
    let bar: SingleBar | null = null;
    return {
      start(total) {
        bar = new cliProgress.SingleBar(
          {
            format: 'compare [{bar}] {percentage}% | {value}/{total} heights | {requests} requests | ETA {eta_formatted}',
            stream,
            hideCursor: true,
            fps: 5,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(Math.max(1, total), 0, { requests: 0 });
      },
      update(done, requests) {
        bar?.update(done, { requests });
      },
      stop() {
        bar?.stop();
      },
    };
  }
  let total = 0;
  let started = 0;
  let last = 0;
  return {
    start(t) {
      total = t;
      started = last = Date.now();
      stream.write(`compare: ${total} heights to visit\n`);
    },
    update(done, requests) {
      const now = Date.now();
      if (now - last < intervalMs && done < total) return;
      last = now;
      const elapsed = (now - started) / 1000;
      const eta = done > 0 ? Math.round((elapsed / done) * (total - done)) : NaN;
      stream.write(
        `compare: ${done}/${total} heights, ${requests} requests, ${elapsed.toFixed(0)} s${Number.isFinite(eta) ? `, ETA ${eta} s` : ''}\n`,
      );
    },
    stop() {},
  };
}
