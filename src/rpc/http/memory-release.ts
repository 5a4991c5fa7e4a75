/**
 * Hands memory back to the system after large replies. A multi-hundred-megabyte reply is
 * garbage the moment it is written, but V8 only frees it (and the process only shrinks) at its
 * next full collection, which an idle server may not run for minutes: RSS stayed at its peak
 * after a burst. So once enough reply bytes have been released, a full collection is asked
 * for — at most every few seconds, and only while no other large reply is in progress.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Released bytes that make a collection worth its pause (tens of milliseconds). */
const RELEASED_THRESHOLD = 128 * 1024 * 1024;
const MIN_INTERVAL_MS = 5000;

function exposeGc(): (() => void) | null {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

export class MemoryReleaser {
  private released = 0;
  private last = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly gc = exposeGc();

  /** Records `bytes` given back; `busyBytes` is what replies still hold. */
  noteRelease(bytes: number, busyBytes: number): void {
    if (!this.gc) return;
    this.released += bytes;
    if (this.released < RELEASED_THRESHOLD || busyBytes > RELEASED_THRESHOLD || this.timer) return;
    const wait = Math.max(100, this.last + MIN_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.released = 0;
      this.last = Date.now();
      this.gc?.();
    }, wait);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
