/**
 * zcashd's penalty for wrong credentials (a worker thread sleeps 250 ms before the 401), kept as
 * a limit on how fast credentials can be guessed without letting guesses take work from anyone:
 * the wait is a timer, not a work-queue slot, so authenticated requests never queue behind
 * wrong-password floods (a deviation: in zcashd the sleeping worker is a slot).
 *
 * The guessing rate stays bounded because credentials are checked only while the penalties
 * already running are few: at most `maxPending` at once, `maxPerAddress` of them for one peer
 * address. Past that, a request whose Authorization header has not been granted recently is
 * answered "Work queue depth exceeded" without being checked (so a flood learns nothing from
 * it), while a header granted recently is still checked and served: a flood from the same
 * address as a working client does not lock that client out.
 */

export interface PenaltyLimits {
  /** The wait before a wrong credential's 401 (zcashd: 250 ms). */
  readonly ms: number;
  /** Penalties running at once, all addresses (zcashd's bound: its worker threads plus queue). */
  readonly maxPending: number;
  /** Penalties running at once for one peer address. */
  readonly maxPerAddress: number;
}

/** How many distinct granted headers are remembered (users, cookies, -rpcauth entries). */
const GRANTED_MEMORY = 64;

export type AuthVerdict = 'granted' | 'missing' | 'refused' | 'busy';

export class FailedAuthPenalty {
  private pending = 0;
  private readonly perAddress = new Map<string, number>();
  private readonly granted = new Set<string>();
  /** Requests answered 'busy' since the last log line about them. */
  private unlogged = 0;
  private lastLog = -Infinity;

  constructor(
    readonly limits: PenaltyLimits,
    /** Told at most once a minute how many requests were turned away unchecked. */
    private readonly onBusy?: (turnedAway: number) => void,
  ) {}

  /** Penalties running now (for metrics and tests). */
  get running(): number {
    return this.pending;
  }

  /**
   * Checks `authorization` with `check` when the limits allow, waiting out the penalty on a
   * refusal. `address` is the peer's. Only a refusal waits: every other verdict is given at once,
   * not as a promise, so that a granted request costs no turn of the event loop.
   */
  authenticate(
    authorization: string | undefined,
    address: string,
    check: (authorization: string) => boolean,
  ): AuthVerdict | Promise<AuthVerdict> {
    if (authorization === undefined) return 'missing';
    const known = this.granted.has(authorization);
    if (!known && !this.mayCheck(address)) return this.busy();
    if (check(authorization)) {
      if (!known) this.remember(authorization);
      return 'granted';
    }
    return this.refuse(address);
  }

  private async refuse(address: string): Promise<'refused'> {
    this.pending++;
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    try {
      await new Promise((resolve) => setTimeout(resolve, this.limits.ms));
    } finally {
      this.pending--;
      const n = this.perAddress.get(address)! - 1;
      if (n === 0) this.perAddress.delete(address);
      else this.perAddress.set(address, n);
    }
    return 'refused';
  }

  private mayCheck(address: string): boolean {
    return this.pending < this.limits.maxPending && (this.perAddress.get(address) ?? 0) < this.limits.maxPerAddress;
  }

  private remember(authorization: string): void {
    if (this.granted.size >= GRANTED_MEMORY) this.granted.clear();
    this.granted.add(authorization);
  }

  private busy(): 'busy' {
    this.unlogged++;
    const now = Date.now();
    if (now - this.lastLog >= 60_000) {
      this.onBusy?.(this.unlogged);
      this.unlogged = 0;
      this.lastLog = now;
    }
    return 'busy';
  }
}
