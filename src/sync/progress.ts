/**
 * Import progress: a cli-progress bar on a terminal (blocks, MB/s, ETA), otherwise one log line
 * every `logIntervalMs` so a long import under systemd/CI still shows it is alive.
 */
import cliProgress, { type SingleBar } from 'cli-progress';

/** Where an import's messages go. */
export interface ImportLogger {
  info(msg: string): void;
  warn(msg: string): void;
}

/** Writes plain lines to stderr; the default when no logger is given. */
export const stderrLogger: ImportLogger = {
  info: (msg) => process.stderr.write(`${msg}\n`),
  warn: (msg) => process.stderr.write(`warning: ${msg}\n`),
};

/** A logger that drops every message. */
export const silentLogger: ImportLogger = { info: () => undefined, warn: () => undefined };

/** How progress is shown: a bar or log lines, chosen by the terminal (`auto`), or none. */
export type ProgressMode = 'auto' | 'bar' | 'log' | 'silent';

export interface ProgressOptions {
  label: string;
  /** What `total` counts: bytes of input, or blocks (upstream RPC). */
  unit: 'bytes' | 'blocks';
  total: number;
  mode?: ProgressMode;
  logger?: ImportLogger;
  logIntervalMs?: number;
}

const MB = 1024 * 1024;

/** Reports an import's progress as a bar on a terminal or as log lines. */
export class ImportProgress {
  private readonly started = Date.now();
  private lastLog = Date.now();
  private done = 0;
  private blocks = 0;
  private bytes = 0;
  private readonly bar: SingleBar | null;
  private readonly mode: Exclude<ProgressMode, 'auto'>;

  constructor(private readonly opts: ProgressOptions) {
    this.mode = opts.mode === undefined || opts.mode === 'auto' ? (process.stderr.isTTY ? 'bar' : 'log') : opts.mode;
    if (this.mode === 'bar') {
      const amount = opts.unit === 'bytes' ? '{doneMB}/{totalMB} MB' : '{value}/{total} blocks';
      this.bar = new cliProgress.SingleBar(
        {
          format: `${opts.label} [{bar}] {percentage}% | ${amount} | {blocks} blocks | {speed} MB/s | ETA {eta_formatted}`,
          stream: process.stderr,
          hideCursor: true,
          etaBuffer: 50,
          fps: 5,
        },
        cliProgress.Presets.shades_classic,
      );
      this.bar.start(Math.max(opts.total, 1), 0, this.payload());
    } else {
      this.bar = null;
    }
  }

  /** Counts one processed block of `size` bytes; `advance` is progress in the total's unit. */
  tick(size: number, advance: number): void {
    this.blocks++;
    this.bytes += size;
    this.done += advance;
    if (this.bar) this.bar.update(Math.min(this.done, this.opts.total), this.payload());
    else if (this.mode === 'log' && Date.now() - this.lastLog >= (this.opts.logIntervalMs ?? 10_000)) {
      this.lastLog = Date.now();
      (this.opts.logger ?? stderrLogger).info(this.line());
    }
  }

  /** Moves progress without a block (skipped padding, resumed positions). */
  advance(amount: number): void {
    this.done += amount;
  }

  setTotal(total: number): void {
    this.opts.total = total;
    this.bar?.setTotal(Math.max(total, 1));
  }

  private payload(): Record<string, unknown> {
    return {
      blocks: this.blocks,
      speed: this.mbPerSecond().toFixed(2),
      doneMB: (this.done / MB).toFixed(1),
      totalMB: (this.opts.total / MB).toFixed(1),
    };
  }

  private mbPerSecond(): number {
    const seconds = Math.max((Date.now() - this.started) / 1000, 0.001);
    return this.bytes / MB / seconds;
  }

  private line(): string {
    const seconds = (Date.now() - this.started) / 1000;
    const fraction = this.opts.total > 0 ? this.done / this.opts.total : 0;
    const eta = fraction > 0 ? Math.round(seconds / fraction - seconds) : NaN;
    return (
      `${this.opts.label}: ${this.blocks} blocks, ${(this.bytes / MB).toFixed(1)} MB, ${this.mbPerSecond().toFixed(2)} MB/s` +
      (this.opts.total > 0 ? `, ${(fraction * 100).toFixed(1)}%` : '') +
      (Number.isFinite(eta) ? `, ETA ${eta}s` : '')
    );
  }

  stop(): void {
    this.bar?.stop();
  }
}
