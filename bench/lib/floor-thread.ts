/**
 * The uncached render floor with its per-request work on worker threads (render-floor-server.ts,
 * FLOOR_THREADS=n): the event loop matches the request and hands the job over through shared
 * memory (floor-thread-memory.ts: the body copied into a free slot, Atomics.store and notify),
 * awaits it with Atomics.waitAsync and sends the reply straight from the thread's output slot,
 * which it gives back once the reply is written out. A job waits only for a free slot and its
 * thread's earlier jobs; each job goes to the thread with the fewest queued.
 */
import { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../src/workers/module-worker.js';
import { DONE, FloorThreadMemory } from './floor-thread-memory.js';
import type { FloorThreadData } from './floor-thread-worker.js';
import type { RecordedReply } from './recorded-replies.js';

/** A whole number ≥ 1 from the environment variable `name`, or 0 when it is unset. */
export function threadsFromEnv(name: string): number {
  const value = process.env[name];
  if (value === undefined || value === '') return 0;
  const n = Number(value);
  if (!(Number.isInteger(n) && n >= 1)) throw new Error(`${name} must be a whole number ≥ 1, not ${value}`);
  return n;
}

/** Slot memory rounded up to this: room to spare, whole pages. */
const SLOT_ROUNDING = 4096;
const rounded = (n: number): number => Math.ceil(Math.max(1, n) / SLOT_ROUNDING) * SLOT_ROUNDING;

/**
 * A thread of this module's. Under the bench's dist hooks (child-server.ts' 'dist' mode) a worker
 * inherits them and loads the TypeScript entry with the compiled sources, as its event loop does;
 * otherwise module-worker.ts registers tsx in it first.
 */
function startThread(data: FloorThreadData): Worker {
  if (process.execArgv.some((a) => a.endsWith('dist-register.mjs')))
    return new Worker(new URL('./floor-thread-worker.ts', import.meta.url), { workerData: data });
  return startModuleWorker(new URL('./floor-thread-worker.js', import.meta.url), { workerData: data });
}

export class FloorThreads {
  private readonly freeSlots: number[];
  private readonly waitingForSlot: ((slot: number) => void)[] = [];
  private nextThread = 0;

  private constructor(
    private readonly memory: FloorThreadMemory,
    /** The recorded requests (by index) a thread builds the reply to. */
    readonly built: ReadonlySet<number>,
    /** Each render thread's id in /proc/<pid>/task: its CPU is read from there. */
    readonly tids: readonly number[],
  ) {
    this.freeSlots = Array.from({ length: memory.layout.slots }, (_, i) => memory.layout.slots - 1 - i);
  }

  /**
   * Starts `threads` threads over the recorded replies of `repliesFile` (`recorded`, in its
   * order), with `slots` job slots; checks that every thread builds the same requests' replies
   * and each exactly as recorded, handed over as every request's will be. After the start a
   * thread that ends ends the process: the floor never answers with fewer threads than it says.
   */
  static async start(
    threads: number,
    slots: number,
    repliesFile: string,
    recorded: readonly { request: Buffer; reply: RecordedReply }[],
  ): Promise<FloorThreads> {
    const layout = {
      slots,
      threads,
      inputBytes: rounded(Math.max(...recorded.map((r) => r.request.length))),
      outputBytes: rounded(Math.max(...recorded.map((r) => r.reply.body.length))),
    };
    const memory = new FloorThreadMemory(layout);
    const workers = Array.from({ length: threads }, (_, thread) => startThread({ thread, repliesFile, layout, buffers: memory.buffers }));
    let started = false;
    // A thread ending during the start-up check fails the start, rather than leave it waiting for that thread's job.
    let threadEnded: (e: Error) => void = () => undefined;
    const ended = new Promise<never>((_, fail) => (threadEnded = fail));
    ended.catch(() => undefined);
    const ready = await Promise.all(
      workers.map(
        (w, thread) =>
          new Promise<{ built: number[]; tid: number }>((done, fail) => {
            w.once('message', done);
            w.once('error', (e) => {
              if (started) process.stderr.write(`render thread ${thread} failed: ${e.message}\n`);
              fail(e);
            });
            w.once('exit', (code) => {
              const e = new Error(`render thread ${thread} exited with ${code} before starting`);
              fail(e);
              threadEnded(e);
              if (started) {
                process.stderr.write(`render thread ${thread} exited with ${code}: the floor stops\n`);
                process.exit(1);
              }
            });
          }),
      ),
    );
    const built = ready[0]!.built;
    if (ready.some((r) => r.built.join() !== built.join())) throw new Error('the render threads build different requests');
    const pool = new FloorThreads(
      memory,
      new Set(built),
      ready.map((r) => r.tid),
    );
    for (let thread = 0; thread < threads; thread++) {
      for (const plan of built) {
        const slot = await pool.takeSlot();
        memory.post(slot, thread, plan, recorded[plan]!.request);
        const state = await Promise.race([memory.finished(slot), ended]);
        const got = memory.result(slot);
        if (state !== DONE) throw new Error(`render thread ${thread} failed: ${got.toString()}`);
        if (!got.equals(recorded[plan]!.reply.body))
          throw new Error(`render thread ${thread}'s reply to request ${plan} is not the recorded one`);
        pool.giveBack(slot);
      }
    }
    started = true;
    for (const w of workers) w.unref();
    return pool;
  }

  private takeSlot(): Promise<number> | number {
    return this.freeSlots.pop() ?? new Promise((done) => this.waitingForSlot.push(done));
  }

  /** Gives `slot` back: to the longest-waiting job, or to the free ones. */
  giveBack(slot: number): void {
    this.memory.free(slot);
    const next = this.waitingForSlot.shift();
    if (next) next(slot);
    else this.freeSlots.push(slot);
  }

  /**
   * Builds the reply to recorded request `plan` (whose body is `body`) on the thread with the
   * fewest jobs queued: its slot, and the reply (a view of the slot's output, valid until the slot
   * is given back) or the thread's error text.
   */
  async build(plan: number, body: Buffer): Promise<{ slot: number; ok: boolean; bytes: Buffer }> {
    const slot = await this.takeSlot();
    const threads = this.memory.layout.threads;
    let thread = this.nextThread;
    for (let i = 1; i < threads; i++) {
      const t = (this.nextThread + i) % threads;
      if (this.memory.outstanding(t) < this.memory.outstanding(thread)) thread = t;
    }
    this.nextThread = (thread + 1) % threads;
    this.memory.post(slot, thread, plan, body);
    const ok = (await this.memory.finished(slot)) === DONE;
    return { slot, ok, bytes: this.memory.result(slot) };
  }
}
