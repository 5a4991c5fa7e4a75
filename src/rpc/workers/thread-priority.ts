/**
 * Lowering one thread's CPU priority. The render threads and the event loop share the machine's
 * cores, and with more render threads than idle cores (the default is one per -rpcthreads) the
 * scheduler gave the event loop only its equal share: a cheap request then waited behind
 * renders for tens of milliseconds. A render thread that yields the CPU to the event loop
 * whenever both want it costs renders nothing when a core is free.
 *
 * Linux applies a nice value to a single thread when given the thread's id, which
 * /proc/thread-self names; elsewhere the thread keeps its priority.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** This thread's kernel id, or null where it cannot be found. */
function threadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** Raises the calling thread's nice value by `by` (at most to 19); false where threads cannot be reniced. */
export function lowerThreadPriority(by: number): boolean {
  const tid = threadId();
  if (tid === null || by <= 0) return false;
  try {
    setPriority(tid, Math.min(19, getPriority(tid) + by));
    return true;
  } catch {
    return false;
  }
}
