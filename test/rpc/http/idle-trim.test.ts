// The idle trim: once the server has had no request for its idle time, and nothing is running or
// being written, the reply caches are dropped, idle render threads end and memory is collected;
// never while busy, never before the idle time, once per idle period, and the next request
// arms it again. Its timer and clock are the test's own: nothing here depends on how fast the
// machine is.
import { describe, expect, it, vi } from 'vitest';
import { IdleTrimmer, type TrimScheduler } from '../../../src/rpc/http/idle-trim.js';

/** A scheduler whose timers fire only when the test says so. */
function manualScheduler() {
  const timers: { fire: () => void; ms: number; cancelled: boolean }[] = [];
  const schedule: TrimScheduler = (fire, ms) => {
    const t = { fire, ms, cancelled: false };
    timers.push(t);
    return () => (t.cancelled = true);
  };
  const pending = () => timers.filter((t) => !t.cancelled);
  /** Fires the pending timers (as they fall due, each fires once). */
  const fireAll = () => {
    const due = pending();
    for (const t of due) {
      t.cancelled = true;
      t.fire();
    }
  };
  return { schedule, pending, fireAll };
}

function trimmer(busy = { now: false }) {
  const clock = { ms: 0 };
  const timers = manualScheduler();
  const trim = vi.fn(async () => ({ cacheBytes: 100, renderThreads: 2 }));
  const onTrim = vi.fn();
  const t = new IdleTrimmer({ idleMs: 10_000, busy: () => busy.now, trim, onTrim, now: () => clock.ms, schedule: timers.schedule });
  return { t, clock, timers, trim, onTrim, busy };
}

describe('idle trim', () => {
  it('trims once the idle time has passed since the last request, with one timer however many requests came', async () => {
    const { t, clock, timers, trim, onTrim } = trimmer();
    for (let i = 0; i < 100; i++) {
      clock.ms += 10;
      t.noteActivity();
    }
    expect(timers.pending()).toHaveLength(1);
    expect(timers.pending()[0]!.ms).toBe(10_000);
    // The timer falls due 10 s after the first request; the last came 990 ms later.
    clock.ms = 10_010;
    timers.fireAll();
    expect(trim).not.toHaveBeenCalled();
    expect(timers.pending().map((x) => x.ms)).toEqual([990]);
    clock.ms = 11_000;
    timers.fireAll();
    await t.settled();
    expect(trim).toHaveBeenCalledTimes(1);
    expect(onTrim).toHaveBeenCalledWith({ cacheBytes: 100, renderThreads: 2 });
    expect(t.trims).toBe(1);
    // Nothing more until a request comes.
    expect(timers.pending()).toHaveLength(0);
    t.close();
  });

  it('waits while a request runs or a reply is being written', async () => {
    const { t, clock, timers, trim, busy } = trimmer({ now: true });
    t.noteActivity();
    clock.ms = 60_000;
    timers.fireAll();
    expect(trim).not.toHaveBeenCalled();
    expect(timers.pending()).toHaveLength(1);
    busy.now = false;
    clock.ms = 70_000;
    timers.fireAll();
    await t.settled();
    expect(trim).toHaveBeenCalledTimes(1);
    t.close();
  });

  it('arms again with the next request after a trim', async () => {
    const { t, clock, timers, trim } = trimmer();
    t.noteActivity();
    clock.ms = 10_000;
    timers.fireAll();
    await t.settled();
    clock.ms = 50_000;
    t.noteActivity();
    expect(timers.pending()).toHaveLength(1);
    clock.ms = 60_000;
    timers.fireAll();
    await t.settled();
    expect(trim).toHaveBeenCalledTimes(2);
    t.close();
  });

  it('does nothing once closed, or with an idle time of 0', async () => {
    const { t, clock, timers, trim } = trimmer();
    t.noteActivity();
    t.close();
    expect(timers.pending()).toHaveLength(0);
    clock.ms = 20_000;
    t.noteActivity();
    expect(timers.pending()).toHaveLength(0);
    const never = manualScheduler();
    const off = new IdleTrimmer({ idleMs: 0, busy: () => false, trim, schedule: never.schedule });
    off.noteActivity();
    expect(never.pending()).toHaveLength(0);
    expect(trim).not.toHaveBeenCalled();
  });

  it('counts a failed trim as no trim, and trims again after the next idle period', async () => {
    const { t, clock, timers, trim } = trimmer();
    trim.mockRejectedValueOnce(new Error('terminate failed'));
    t.noteActivity();
    clock.ms = 10_000;
    timers.fireAll();
    await t.settled();
    expect(t.trims).toBe(0);
    t.noteActivity();
    clock.ms = 20_000;
    timers.fireAll();
    await t.settled();
    expect(t.trims).toBe(1);
    t.close();
  });
});
