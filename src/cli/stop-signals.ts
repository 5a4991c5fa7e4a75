/**
 * Stop requests for a command that stops between steps (`zecrpc import`): SIGINT or SIGTERM,
 * received directly or, when bin/relaunch.js started this process, forwarded over the IPC channel
 * by the command that did. A signal sent to the whole process group (a terminal's Ctrl-C, GNU
 * timeout, `kill %1`, systemd) reaches this process both ways: the directly received and the
 * forwarded are counted apart and the larger count is the number of requests, so such a signal is
 * one request, and two Ctrl-Cs are two.
 */

/** The IPC message bin/relaunch.js forwards a signal as: `{ [FORWARDED_SIGNAL]: 'SIGINT' }`. */
export const FORWARDED_SIGNAL = 'zecrpcForwardedSignal';
/** Set while requests are taken here; until then bin/relaunch.js raises forwarded signals itself. */
const TAKEN = Symbol.for('zecrpc.stopRequests');

export type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * Calls `onRequest` at each new stop request with how many there have been and the signal of the
 * latest; returns what removes the listeners.
 */
export function onStopRequests(onRequest: (requests: number, signal: StopSignal) => void): () => void {
  let direct = 0;
  let forwarded = 0;
  let requests = 0;
  const update = (signal: StopSignal): void => {
    const n = Math.max(direct, forwarded);
    if (n === requests) return;
    requests = n;
    onRequest(n, signal);
  };
  const onSignal = (signal: StopSignal): void => {
    direct++;
    update(signal);
  };
  const onMessage = (m: unknown): void => {
    const signal = forwardedSignal(m);
    if (!signal) return;
    forwarded++;
    update(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Node counts the channel's 'message' listeners: this one refs the channel while requests are
  // taken and its removal gives back what it took. An explicit unref() here would be for good, and
  // would let a host that started this process with an IPC channel (a test runner's worker, a
  // process manager) lose its own channel's hold on the event loop; bin/relaunch.js makes the
  // relaunched child's channel hold nothing itself.
  process.on('message', onMessage);
  const globals = globalThis as Record<symbol, unknown>;
  globals[TAKEN] = true;
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('message', onMessage);
    globals[TAKEN] = false;
  };
}

function forwardedSignal(m: unknown): StopSignal | null {
  if (typeof m !== 'object' || m === null) return null;
  const signal = (m as Record<string, unknown>)[FORWARDED_SIGNAL];
  return signal === 'SIGINT' || signal === 'SIGTERM' ? signal : null;
}
