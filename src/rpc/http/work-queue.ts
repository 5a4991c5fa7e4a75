/**
 * zcashd's HTTP work queue (src/httpserver.cpp `WorkQueue`): `-rpcthreads` requests execute at
 * once, at most `-rpcworkqueue` more wait, and a request arriving when that many are already
 * waiting is refused ("Work queue depth exceeded"). Executing requests have left the queue, so
 * with the defaults 4 run and 16 wait.
 *
 * Unlike zcashd's threads, a slot here is held by asynchronous work that can hand it back and
 * queue again (`yield`) — a long batch does so between items, which lets waiting requests run
 * in between (round-robin) instead of behind it. Those re-queued slots do not count towards the
 * depth limit: only newly admitted requests do, as in zcashd.
 */

export interface WorkSlot {
  /** Gives the slot to the next waiting request and waits for a turn again. */
  yield(): Promise<void>;
  /**
   * Gives the slot up while the request waits on something that is not the event loop (a
   * render thread); the returned function takes a slot back, ahead of requests not yet started.
   */
  suspend(): () => Promise<void>;
  /** Frees the slot for good. */
  release(): void;
}

interface Waiter {
  resolve: () => void;
  fresh: boolean;
}

/** Requests coming back from a suspension go first: they finish work that already holds memory. */

export class WorkQueue {
  private running = 0;
  private freshWaiting = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly threads: number,
    readonly maxDepth: number,
  ) {}

  /** Requests admitted but not yet running (zcashd's queue size). */
  get depth(): number {
    return this.freshWaiting;
  }

  get active(): number {
    return this.running;
  }

  /**
   * Admits a request: resolves with a slot once it may run, or returns null at once when
   * `maxDepth` requests are already waiting.
   */
  enter(): Promise<WorkSlot> | null {
    const now = this.enterNow();
    if (now !== null) return Promise.resolve(now);
    if (this.freshWaiting >= this.maxDepth) return null;
    this.freshWaiting++;
    return new Promise<void>((resolve) => this.waiting.push({ resolve, fresh: true })).then(() => this.slot());
  }

  /** A slot at once when one is free and no request waits for one; null otherwise (`enter` then queues or refuses). */
  enterNow(): WorkSlot | null {
    if (this.running >= this.threads || this.waiting.length > 0) return null;
    this.running++;
    return this.slot();
  }

  private slot(): WorkSlot {
    return new Slot(this);
  }

  /** @internal (Slot) The slot is handed straight to the next waiter; resolves on its next turn. */
  handOverAndWait(): Promise<void> {
    const turn = new Promise<void>((resolve) => this.waiting.push({ resolve, fresh: false }));
    this.handOver();
    return turn;
  }

  /** @internal (Slot) Whether anyone waits for a slot. */
  get anyWaiting(): boolean {
    return this.waiting.length > 0;
  }

  /** @internal (Slot) Takes a slot back after a suspension, ahead of requests not yet started. */
  async resume(): Promise<void> {
    if (this.running < this.threads && this.waiting.length === 0) this.running++;
    else await new Promise<void>((resolve) => this.waiting.unshift({ resolve, fresh: false }));
  }

  /** @internal (Slot) */
  freeSlot(): void {
    this.free();
  }

  private free(): void {
    this.running--;
    if (this.waiting.length > 0 && this.running < this.threads) {
      this.running++;
      this.handOver();
    }
  }

  /** Starts the first waiter on a slot that is already counted as running. */
  private handOver(): void {
    const next = this.waiting.shift()!;
    if (next.fresh) this.freshWaiting--;
    next.resolve();
  }
}

/** A request's slot: methods on a prototype, not closures made for every request. */
class Slot implements WorkSlot {
  private held = true;

  constructor(private readonly queue: WorkQueue) {}

  async yield(): Promise<void> {
    if (!this.held || !this.queue.anyWaiting) return;
    // Hand the slot straight to the next waiter and queue behind everyone already waiting.
    await this.queue.handOverAndWait();
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    this.queue.freeSlot();
  }

  suspend(): () => Promise<void> {
    if (!this.held) return () => Promise.resolve();
    this.queue.freeSlot();
    return () => this.queue.resume();
  }
}
