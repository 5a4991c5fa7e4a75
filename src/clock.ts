/**
 * The node's clock: the one "now" every rule and reply that zcashd takes from GetTime() reads
 * (the header's future-time rule, initial block download and verification progress, the
 * timestamps getinfo, getmininginfo and the network methods print). As zcashd v6.12.2's
 * util/time.cpp it is the system clock, a fixed time (`-mocktime`, moved by `setmocktime`) or
 * the system clock shifted by a constant (`-clockoffset`), chosen once at start-up.
 */

export type ClockMode = { kind: 'system' } | { kind: 'fixed'; seconds: number } | { kind: 'offset'; seconds: number };

export class NodeClock {
  private mode: ClockMode;

  constructor(mode: ClockMode = { kind: 'system' }) {
    this.mode = { ...mode };
  }

  /** Whether the clock is fixed (`-mocktime`): only then may `setmocktime` move it. */
  get isFixed(): boolean {
    return this.mode.kind === 'fixed';
  }

  /** zcashd's GetTime(): Unix seconds. */
  readonly seconds = (): number => Math.floor(this.millis() / 1000);

  /** zcashd's GetTimeMillis(): a fixed clock's time in whole seconds, times 1000. */
  readonly millis = (): number => {
    const mode = this.mode;
    if (mode.kind === 'fixed') return mode.seconds * 1000;
    const now = Date.now();
    return mode.kind === 'offset' ? now + mode.seconds * 1000 : now;
  };

  /** FixedClock::Set; refused by a clock that is not fixed. */
  setFixed(seconds: number): void {
    if (this.mode.kind !== 'fixed') throw new Error('the clock is not fixed (start with -mocktime)');
    this.mode = { kind: 'fixed', seconds };
  }
}

/** The system clock, for a process that was given no clock. */
export const SYSTEM_CLOCK = new NodeClock();
