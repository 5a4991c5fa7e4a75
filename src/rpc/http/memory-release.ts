/**
 * Hands memory back to the system after large replies. A multi-hundred-megabyte reply is
 * garbage the moment it is written, but V8 only frees it (and the process only shrinks) at its
 * next full collection, which an idle server may not run for minutes: RSS stayed at its peak
 * after a burst. So once enough reply bytes have been released, a full collection is asked
 * for — at most every few seconds, and only once no reply is being built or written: the
 * collection stops the event loop, which every request waiting meanwhile would pay. While requests keep coming V8 collects on
 * its own; the collection here is for the quiet after them.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Released bytes that make a collection worth its pause (tens of milliseconds). */
const RELEASED_THRESHOLD = 128 * 1024 * 1024;
const MIN_INTERVAL_MS = 5000;
/** How often a collection that found the server busy looks again. */
const QUIET_CHECK_MS = 250;

/** V8's collection function as `--expose-gc` defines it: options choose how thorough. */
type GcFunction = (options?: { type: 'major'; execution: 'sync'; flavor?: 'regular' | 'last-resort' }) => void;

function exposedGcFunction(): GcFunction | null {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as GcFunction) : null;
  } catch {
    return null;
  }
}

/** V8's full collection, exposed at run time; null where it cannot be. */
export function exposeGc(): (() => void) | null {
  const gc = exposedGcFunction();
  return gc ? () => gc() : null;
}

/**
 * A full collection, then V8's most thorough one (what it runs before giving up on an
 * allocation), worth their longer pause only when the server is idle. The first, called without
 * options, is the one that frees the memory of dead buffers (replies are buffers): called with
 * options, V8 keeps it. The second hands the freed heap pages back to the system at once rather
 * than keeping them for reuse.
 */
export function exposeThoroughGc(): (() => void) | null {
  const gc = exposedGcFunction();
  return gc
    ? () => {
        gc();
        gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      }
    : null;
}

export interface MemoryReleaserOptions {
  /** True while requests are running or replies are being written. */
  busy: () => boolean;
  /** The full collection; by default V8's (exposed at start-up), none if it cannot be exposed. */
  collect?: (() => void) | null;
  /** The collection for an idle server (`collectNow`); by default V8's thorough one. */
  collectThoroughly?: (() => void) | null;
  thresholdBytes?: number;
  minIntervalMs?: number;
  quietCheckMs?: number;
}

export class MemoryReleaser {
  private released = 0;
  private last = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly collect: (() => void) | null;
  private readonly collectThoroughly: (() => void) | null;
  private readonly busy: () => boolean;
  private readonly threshold: number;
  private readonly minIntervalMs: number;
  private readonly quietCheckMs: number;

  constructor(opts: MemoryReleaserOptions) {
    this.busy = opts.busy;
    this.collect = opts.collect === undefined ? exposeGc() : opts.collect;
    this.collectThoroughly = opts.collectThoroughly === undefined ? exposeThoroughGc() : opts.collectThoroughly;
    this.threshold = opts.thresholdBytes ?? RELEASED_THRESHOLD;
    this.minIntervalMs = opts.minIntervalMs ?? MIN_INTERVAL_MS;
    this.quietCheckMs = opts.quietCheckMs ?? QUIET_CHECK_MS;
  }

  /** Records `bytes` of replies given back. */
  noteRelease(bytes: number): void {
    if (!this.collect) return;
    this.released += bytes;
    if (this.released < this.threshold || this.timer) return;
    this.arm(Math.max(this.quietCheckMs, this.last + this.minIntervalMs - Date.now()));
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.busy()) {
        this.arm(this.quietCheckMs);
        return;
      }
      this.released = 0;
      this.last = Date.now();
      this.collect?.();
    }, ms);
    this.timer.unref();
  }

  /**
   * Collects now, thoroughly (the server has gone idle: idle-trim.ts), and starts counting
   * released bytes afresh. Returns whether a collection ran.
   */
  collectNow(): boolean {
    if (!this.collectThoroughly) return false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.released = 0;
    this.last = Date.now();
    this.collectThoroughly();
    return true;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
