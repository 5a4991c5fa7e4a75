/**
 * Byte budgets that keep the server's memory bounded whatever clients send: request bodies
 * being received and replies being built or waiting to be written all hold reservations on a
 * process-wide budget, and each reply also on its own per-request budget. Buffers reused from
 * request to request count too: while lent to a request, as its reservation; while kept for
 * reuse, as the budget's kept bytes, which it takes back (the keepers drop their buffers)
 * whenever a reservation would not fit otherwise.
 */
import { totalmem } from 'node:os';

/** Keeps buffers for reuse, counted as kept bytes on a budget (`keep`), and gives them up on demand. */
export interface BufferKeeper {
  /** Drops every kept buffer (each `unkeep`ed); returns the bytes they held. */
  dropKept(): number;
}

/** A pool of bytes: reservations either fit or fail immediately, or wait in arrival order. */
export class MemoryBudget {
  private used = 0;
  private keptBytes = 0;
  private readonly keepers: BufferKeeper[] = [];
  private reclaiming = false;
  private readonly waiters: { bytes: number; resolve: () => void }[] = [];

  constructor(readonly limit: number) {}

  /** Bytes reserved by requests (kept buffers not included). */
  get inUse(): number {
    return this.used;
  }

  /** Bytes of buffers kept for reuse, given up whenever a reservation needs their room. */
  get kept(): number {
    return this.keptBytes;
  }

  /** Registers a keeper whose kept buffers the budget may reclaim. */
  addKeeper(keeper: BufferKeeper): void {
    this.keepers.push(keeper);
  }

  /**
   * Counts `bytes` a keeper keeps for reuse, if they fit beside the reservations and nobody
   * waits for room (else false: the keeper drops the buffer).
   */
  keep(bytes: number): boolean {
    if (this.waiters.length > 0 || this.used + this.keptBytes + bytes > this.limit) return false;
    this.keptBytes += bytes;
    return true;
  }

  /** A kept buffer dropped: its bytes no longer count. */
  unkeep(bytes: number): void {
    this.keptBytes = Math.max(0, this.keptBytes - bytes);
    if (!this.reclaiming) this.grantWaiting();
  }

  /** A kept buffer lent to a request: its bytes count as that request's reservation now. */
  useKept(bytes: number): void {
    this.keptBytes = Math.max(0, this.keptBytes - bytes);
    this.used += bytes;
  }

  /** Whether `bytes` more fit now, after taking back kept buffers if they stand in the way. */
  private fits(bytes: number): boolean {
    if (this.used + this.keptBytes + bytes <= this.limit) return true;
    if (this.keptBytes === 0 || this.used + bytes > this.limit) return false;
    this.reclaiming = true;
    try {
      for (const k of this.keepers) k.dropKept();
    } finally {
      this.reclaiming = false;
    }
    return this.used + this.keptBytes + bytes <= this.limit;
  }

  /** Whether `bytes` more fit now (nobody queued ahead), after taking back kept buffers if they stand in the way. */
  hasRoom(bytes: number): boolean {
    return this.waiters.length === 0 && this.fits(bytes);
  }

  /** Reservations waiting for room. */
  get queued(): number {
    return this.waiters.length;
  }

  /**
   * Reserves `bytes` if they fit now (and nobody is queued ahead), else returns false; with
   * `headroom`, only if that much more would fit beside them too.
   */
  tryReserve(bytes: number, headroom = 0): boolean {
    if (this.waiters.length > 0 || !this.fits(bytes + headroom)) return false;
    this.used += bytes;
    return true;
  }

  /**
   * Waits until `bytes` fit, first come first served. A request larger than the whole budget
   * could never be granted, so it is refused (false) instead of waiting forever; with
   * `maxWaitMs`, so is one still waiting after that long (it leaves the queue, and those behind
   * it may then fit).
   */
  async reserve(bytes: number, maxWaitMs?: number): Promise<boolean> {
    if (bytes > this.limit) return false;
    if (this.tryReserve(bytes)) return true;
    return new Promise<boolean>((resolve) => {
      const waiter = {
        bytes,
        resolve: () => {
          clearTimeout(expiry);
          resolve(true);
        },
      };
      this.waiters.push(waiter);
      // Granted waiters leave the queue first, so a timer that finds its waiter gone does nothing.
      const expiry =
        maxWaitMs === undefined
          ? undefined
          : setTimeout(() => {
              const at = this.waiters.indexOf(waiter);
              if (at < 0) return;
              this.waiters.splice(at, 1);
              this.grantWaiting();
              resolve(false);
            }, maxWaitMs);
    });
  }

  release(bytes: number): void {
    this.used -= bytes;
    if (this.used < 0) this.used = 0;
    this.grantWaiting();
  }

  /** Grants the queue's head for as long as it fits. */
  private grantWaiting(): void {
    while (this.waiters.length > 0 && this.fits(this.waiters[0]!.bytes)) {
      const w = this.waiters.shift()!;
      this.used += w.bytes;
      w.resolve();
    }
  }
}

/** One request's share: its own cap, drawing on the process-wide budget as it grows. */
export class RequestBudget {
  private held = 0;
  /** Of `held`, the bytes of memory kept past the reply (a cache's entry), which its release frees none of. */
  private retained = 0;

  constructor(
    private readonly global: MemoryBudget,
    readonly limit: number,
    /** Told how many bytes each release gave back that became garbage (retained ones not counted). */
    private readonly onRelease?: (bytes: number) => void,
  ) {}

  get bytes(): number {
    return this.held;
  }

  /**
   * Takes `bytes` more, or returns which budget refused them. `retained`: the bytes are memory
   * kept past the reply (retained-replies.ts): held like any other while the reply is written,
   * not reported as garbage when it is given back.
   */
  take(bytes: number, retained = false): 'ok' | 'request' | 'global' {
    if (this.held + bytes > this.limit) return 'request';
    if (!this.global.tryReserve(bytes)) return 'global';
    this.held += bytes;
    if (retained) this.retained += bytes;
    return 'ok';
  }

  /** Gives everything back (after the reply is written, or when it is abandoned). */
  releaseAll(): void {
    const bytes = this.held;
    if (bytes === 0) return;
    const garbage = bytes - this.retained;
    this.held = 0;
    this.retained = 0;
    this.global.release(bytes);
    if (garbage > 0) this.onRelease?.(garbage);
  }
}

const MIB = 1024 * 1024;

export interface MemoryLimits {
  /** Largest reply one request may build (bytes). */
  perRequest: number;
  /** All replies being built or written, together (bytes). */
  replies: number;
  /** All request bodies being received, together (bytes). */
  bodies: number;
}

/**
 * Defaults from the machine's memory: replies together may use a sixteenth of it (at least
 * 256 MiB, at most 2 GiB), one request a quarter of that (at most 256 MiB: about 30
 * verbosity-2 renderings of 1.4 MB blocks), and bodies in flight a sixteenth of it (at least
 * 64 MiB, at most 1 GiB). On the 24 GiB reference machine: 1.5 GiB of replies, 256 MiB per
 * request, 1 GiB of bodies. Replies count until the client has taken them, and the process
 * also holds what the collector has not freed yet, so peak RSS runs above these figures.
 */
export function defaultMemoryLimits(total = totalmem()): MemoryLimits {
  const replies = Math.min(2048 * MIB, Math.max(256 * MIB, Math.floor(total / 16)));
  return {
    replies,
    perRequest: Math.min(256 * MIB, Math.floor(replies / 4)),
    bodies: Math.min(1024 * MIB, Math.max(64 * MIB, Math.floor(total / 16))),
  };
}
