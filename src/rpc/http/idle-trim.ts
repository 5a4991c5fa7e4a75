/**
 * Gives back what a burst of requests left behind once the server has gone idle. During a burst
 * the reply caches fill, every render thread starts (each with its own heap and reply slabs),
 * buffers reused from request to request are kept (lent reply memory, pooled request bodies) and
 * replies pass through the process by the gigabyte; all of it is bounded, and worth keeping
 * while requests keep coming, but an idle server would otherwise hold it for as long as it stays
 * idle: threads end on their own only after their idle time, caches and kept buffers never, and
 * what they held is freed only by a garbage collection, which an idle process does not run.
 *
 * So after `idleMs` without a request (and with nothing running or being written), the trim
 * runs once: the caches and the kept buffers are dropped, idle render threads end, and a full
 * collection frees what they held. The next request re-arms it. One timer, re-armed only when it falls due, so a busy
 * server pays nothing per request; it never keeps the process alive.
 */

/**
 * How long the server must be idle before it trims: as long as it keeps an idle connection open
 * (-rpcservertimeout's default), far past the gaps between one client's calls, so a client that
 * pauses does not find the cache emptied.
 */
export const DEFAULT_IDLE_TRIM_MS = 30_000;

/** What one trim gave back (for the log and the server's figures). */
export interface TrimOutcome {
  /** Bytes of replies the caches held. */
  cacheBytes: number;
  /** Render threads ended. */
  renderThreads: number;
  /** Bytes of buffers kept for reuse (lent reply memory, pooled request bodies) dropped. */
  keptBufferBytes?: number;
}

/** Waits `ms` then runs `fire`; returns how to cancel. Node's timers by default, a test's own otherwise. */
export type TrimScheduler = (fire: () => void, ms: number) => () => void;

/** `setTimeout`, unref'd: an idle server's pending trim never keeps the process alive. */
export const unrefTimer: TrimScheduler = (fire, ms) => {
  const t = setTimeout(fire, ms);
  t.unref();
  return () => clearTimeout(t);
};

export interface IdleTrimmerOptions {
  idleMs?: number;
  /** True while requests are running or replies are being written: the trim then waits. */
  busy: () => boolean;
  /** The trim itself: drops caches, kept buffers and threads, then collects. */
  trim: () => Promise<TrimOutcome>;
  /** Told what each trim gave back. */
  onTrim?: (outcome: TrimOutcome) => void;
  /** Milliseconds of a monotonic clock (default `performance.now`). */
  now?: () => number;
  schedule?: TrimScheduler;
}

export class IdleTrimmer {
  private readonly idleMs: number;
  private readonly now: () => number;
  private readonly schedule: TrimScheduler;
  private lastActivity: number;
  private cancel: (() => void) | null = null;
  private trimming: Promise<void> | null = null;
  private closed = false;
  /** Trims run so far. */
  trims = 0;

  constructor(private readonly opts: IdleTrimmerOptions) {
    this.idleMs = opts.idleMs ?? DEFAULT_IDLE_TRIM_MS;
    this.now = opts.now ?? (() => performance.now());
    this.schedule = opts.schedule ?? unrefTimer;
    this.lastActivity = this.now();
  }

  /**
   * A request arrived or finished: the idle time counts from now. Arms the timer if none is
   * pending (after the last trim, or at the first request); a pending one is left to fall due
   * and look at the time then.
   */
  noteActivity(): void {
    if (this.closed || this.idleMs <= 0) return;
    this.lastActivity = this.now();
    if (this.cancel === null) this.arm(this.idleMs);
  }

  private arm(ms: number): void {
    this.cancel = this.schedule(() => {
      this.cancel = null;
      this.due();
    }, ms);
  }

  private due(): void {
    if (this.closed) return;
    const idleFor = this.now() - this.lastActivity;
    if (idleFor < this.idleMs) {
      this.arm(this.idleMs - idleFor);
      return;
    }
    if (this.opts.busy()) {
      // Still writing a reply: idle counts from when it is done (its finish is activity too).
      this.arm(this.idleMs);
      return;
    }
    this.trimming = this.opts.trim().then(
      (outcome) => {
        this.trimming = null;
        this.trims++;
        this.opts.onTrim?.(outcome);
      },
      () => {
        this.trimming = null;
      },
    );
  }

  /** Resolves once a trim in progress (if any) has finished. */
  async settled(): Promise<void> {
    await this.trimming;
  }

  close(): void {
    this.closed = true;
    this.cancel?.();
    this.cancel = null;
  }
}
