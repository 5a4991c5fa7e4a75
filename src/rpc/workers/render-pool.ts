/**
 * Worker threads that decode and render large blocks for getblock, so the event loop keeps
 * serving other clients meanwhile and the other cores do the work (rendering verbosity 2 of a
 * large block takes milliseconds of CPU). Small blocks are rendered inline: below
 * `inlineMaxBytes` a thread round trip costs more than the work.
 *
 * Threads start on first use and stay; each takes one job at a time and jobs go to the thread
 * with the fewest outstanding. They run at a lower CPU priority than the event loop
 * (thread-priority.ts), and write replies that are only needed until written into slabs of
 * shared memory they reuse (reply-slab.ts). Threads start through workers/module-worker.ts
 * (compiled, or under tsx from the TypeScript sources).
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../workers/module-worker.js';
import type { RawJson } from '../method.js';
import { inlineBlockRenderer, unreadableBlock, type BlockRenderRequest, type BlockRenderer } from './block-renderer.js';
import type { RenderJob, RenderOutcome, RenderWorkerData } from './render-protocol.js';
import { ReplySlab, SLAB_BYTES, SLABS_PER_THREAD, type ReplyScope } from './reply-slab.js';

/** Blocks below this size are rendered on the calling thread. */
export const DEFAULT_INLINE_MAX_BYTES = 96 * 1024;

interface Pending {
  req: BlockRenderRequest;
  resolve: (v: RawJson) => void;
  reject: (e: Error) => void;
  /** The slab lent to this job, and the request that will hold it until its reply is written. */
  slab: ReplySlab | null;
  scope: ReplyScope | undefined;
}

interface PoolWorker {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Slabs this thread writes into (it keeps a view of each). */
  slabs: ReplySlab[];
  /** Ends an idle thread (armed whenever its last job finishes). */
  idleTimer: NodeJS.Timeout | null;
  /** When this thread last went from no job to one (performance.now()), null while idle. */
  busySince: number | null;
}

/**
 * Threads idle this long are ended: a thread's heap grows with the blocks it rendered and is
 * only given back to the system when the thread exits (a collection inside it keeps the pages),
 * so after a burst memory returns to its baseline. The time is long because starting a thread
 * again is expensive: it loads its modules and runs its first renders unoptimized, many renders'
 * worth of CPU. With a short idle time, a client asking for large blocks at intervals just above
 * it would pay that on every request; with a long one, each thread restarts at most once per
 * idle time. The idle trim (rpc/http/idle-trim.ts) ends idle threads sooner, after 30 s in which
 * no request but cheap probes came: memory back after a burst wins there, so a client that asks
 * for a large block each 75-second block interval and only polls cheap calls between pays a
 * thread start per block, while one with other requests between is served by a running thread.
 */
export const DEFAULT_IDLE_MS = 120_000;

/**
 * Render threads' nice value above the event loop's: a higher value shortens a small request's
 * wait behind renders, until the renders start losing rate to it. Renders alone run as fast at
 * any value: the priority only decides who waits when both want a core.
 */
export const DEFAULT_RENDER_NICENESS = 5;

/**
 * Young-generation size of a render thread: V8 makes it two 32 MB semi-spaces (it rounds a
 * third of this to a power of two), twice its default. Rendering a 1.4 MB block at verbosity 2
 * allocates tens of megabytes of short-lived objects, and with the default the collector ran
 * several times per render, each time copying the decoded block still in use. The larger size
 * cuts the CPU per render; the price is memory while threads are busy (larger semi-spaces cut
 * a little more CPU for much more memory). It goes with the thread when it ends after
 * `DEFAULT_IDLE_MS` without work.
 */
export const RENDER_YOUNG_GENERATION_MB = 96;

/**
 * The worker to start: the compiled `render-worker.js` beside this module, or — when running
 * from TypeScript sources (tsx, vitest) — a bootstrap that registers tsx's loader inside the
 * thread first (Node 20 does not pass `--import` hooks on to workers reliably).
 */
function startWorker(workerData: RenderWorkerData): Worker {
  return startModuleWorker(new URL('./render-worker.js', import.meta.url), {
    workerData,
    resourceLimits: { maxYoungGenerationSizeMb: RENDER_YOUNG_GENERATION_MB },
  });
}

export interface RenderPoolOptions {
  threads: number;
  inlineMaxBytes?: number;
  idleMs?: number;
  /** Render threads' nice value above the event loop's (default DEFAULT_RENDER_NICENESS; 0 keeps it equal). */
  niceness?: number;
  /** Capacity of each reply slab (default SLAB_BYTES); larger results are transferred instead. */
  slabBytes?: number;
  /** Slabs per thread (default SLABS_PER_THREAD; 0: none, every byte result is transferred). */
  slabsPerThread?: number;
}

export class RenderPool implements BlockRenderer {
  private readonly workers: PoolWorker[] = [];
  private nextId = 1;
  private closed = false;
  /** Milliseconds threads spent busy, up to each one's last idle moment. */
  private busyMsDone = 0;
  /** Threads started so far (each start loads the modules afresh). */
  private started = 0;
  /** Jobs handed to threads so far. */
  private dispatched = 0;
  readonly threads: number;
  private readonly inlineMaxBytes: number;
  private readonly idleMs: number;
  private readonly niceness: number;
  private readonly slabCapacity: number;
  private readonly slabsPerThread: number;

  constructor(opts: RenderPoolOptions) {
    this.threads = Math.max(1, opts.threads);
    this.inlineMaxBytes = opts.inlineMaxBytes ?? DEFAULT_INLINE_MAX_BYTES;
    this.idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
    this.niceness = opts.niceness ?? DEFAULT_RENDER_NICENESS;
    this.slabCapacity = opts.slabBytes ?? SLAB_BYTES;
    this.slabsPerThread = opts.slabsPerThread ?? SLABS_PER_THREAD;
  }

  /** Threads currently running. */
  get size(): number {
    return this.workers.length;
  }

  /** Threads started since the pool was made, ended ones included. */
  get threadsStarted(): number {
    return this.started;
  }

  /** Renders handed to threads since the pool was made (inline renders not counted). */
  get threadRenders(): number {
    return this.dispatched;
  }

  /** Jobs handed to threads and not yet answered. */
  get pending(): number {
    let n = 0;
    for (const w of this.workers) n += w.pending.size;
    return n;
  }

  /** Bytes of reply slabs the threads hold (each thread's go with it when it ends). */
  get slabBytes(): number {
    let n = 0;
    for (const w of this.workers) for (const slab of w.slabs) n += slab.buffer.byteLength;
    return n;
  }

  /**
   * Ends every thread without a job now, rather than after its own idle time (the server has gone
   * idle as a whole); resolves once they have exited, so their heaps and slabs can be freed.
   * Returns how many were ended. A later render starts a thread again.
   */
  async retireIdle(): Promise<number> {
    const idle = this.workers.filter((w) => w.pending.size === 0);
    for (const w of idle) this.retire(w);
    await Promise.all(idle.map((w) => w.worker.terminate()));
    return idle.length;
  }

  /** Takes an idle thread out of the pool (its `terminate` is the caller's). */
  private retire(w: PoolWorker): void {
    if (w.idleTimer) clearTimeout(w.idleTimer);
    w.idleTimer = null;
    const at = this.workers.indexOf(w);
    if (at >= 0) this.workers.splice(at, 1);
  }

  /** Seconds threads have spent with at least one job (those busy now counted up to now). */
  busySeconds(): number {
    const now = performance.now();
    let ms = this.busyMsDone;
    for (const w of this.workers) if (w.busySince !== null) ms += now - w.busySince;
    return ms / 1000;
  }

  private markIdle(w: PoolWorker): void {
    if (w.busySince === null) return;
    this.busyMsDone += performance.now() - w.busySince;
    w.busySince = null;
  }

  /** Whether `render` would hand this request to a thread (false: rendered inline). */
  usesThread(req: BlockRenderRequest): boolean {
    return !this.closed && req.bytes.length >= this.inlineMaxBytes;
  }

  /**
   * Renders in a thread (or inline, for small blocks). With `scope`, a `transient` request's
   * byte result may be a view into a slab, which stays lent until the scope's release runs.
   */
  render(req: BlockRenderRequest, scope?: ReplyScope): Promise<RawJson> {
    if (!this.usesThread(req)) return inlineBlockRenderer.render(req);
    const w = this.pick();
    const id = this.nextId++;
    // Verbosity 1 is text of a few hundred kilobytes at most; it is not worth a slab.
    const slab = scope && req.transient === true && req.verbosity !== 1 ? this.lendSlab(w) : null;
    const job: RenderJob = { id, bytes: req.bytes, verbosity: req.verbosity, context: req.context, network: req.network };
    if (slab) {
      job.slab = slab.sent ? { id: slab.id } : { id: slab.id, buffer: slab.buffer };
      slab.sent = true;
    }
    if (w.idleTimer) clearTimeout(w.idleTimer);
    w.idleTimer = null;
    return new Promise<RawJson>((resolve, reject) => {
      w.pending.set(id, { req, resolve, reject, slab, scope });
      w.busySince ??= performance.now();
      this.dispatched++;
      w.worker.postMessage(job);
    });
  }

  /** A slab of `w` that no reply holds, creating one while it has fewer than its share; null if all are lent. */
  private lendSlab(w: PoolWorker): ReplySlab | null {
    let slab = w.slabs.find((s) => !s.lent);
    if (!slab && w.slabs.length < this.slabsPerThread) {
      slab = new ReplySlab(this.slabCapacity);
      w.slabs.push(slab);
    }
    if (slab) slab.lent = true;
    return slab ?? null;
  }

  /** The least busy thread, starting a new one while fewer than `threads` exist. */
  private pick(): PoolWorker {
    let best: PoolWorker | undefined;
    for (const w of this.workers) if (!best || w.pending.size < best.pending.size) best = w;
    if (best && (best.pending.size === 0 || this.workers.length >= this.threads)) return best;
    return this.spawn();
  }

  private spawn(): PoolWorker {
    const worker = startWorker({ niceness: this.niceness });
    this.started++;
    const w: PoolWorker = { worker, pending: new Map(), slabs: [], idleTimer: null, busySince: null };
    worker.on('message', (m: RenderOutcome) => {
      const p = w.pending.get(m.id);
      if (!p) return;
      w.pending.delete(m.id);
      if (w.pending.size === 0) {
        this.markIdle(w);
        w.idleTimer = setTimeout(() => {
          if (w.pending.size > 0 || !this.workers.includes(w)) return;
          this.retire(w);
          void w.worker.terminate();
        }, this.idleMs);
        w.idleTimer.unref();
      }
      const slab = p.slab;
      if ('slabLength' in m && slab) {
        p.scope!.hold(() => (slab.lent = false));
        p.resolve(slab.view(m.slabLength));
        return;
      }
      if (slab) slab.lent = false;
      if ('text' in m) p.resolve(m.text);
      else if ('bytes' in m) p.resolve(Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength));
      else if ('problem' in m) p.reject(unreadableBlock(p.req.hash, m.problem));
      else if ('error' in m) p.reject(new Error(m.error));
      else p.reject(new Error('render worker answered with a slab it was not lent'));
    });
    const fail = (e: Error) => {
      const at = this.workers.indexOf(w);
      if (at >= 0) this.workers.splice(at, 1);
      for (const p of w.pending.values()) {
        if (p.slab) p.slab.lent = false;
        p.reject(e);
      }
      w.pending.clear();
      this.markIdle(w);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.workers.includes(w)) fail(new Error(`render worker exited with code ${code}`));
    });
    // An idle pool must not keep the process alive.
    worker.unref();
    this.workers.push(w);
    return w;
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = this.workers.splice(0);
    for (const w of all) {
      if (w.idleTimer) clearTimeout(w.idleTimer);
      for (const p of w.pending.values()) {
        if (p.slab) p.slab.lent = false;
        p.reject(new Error('server shutting down'));
      }
      this.markIdle(w);
    }
    await Promise.all(all.map((w) => w.worker.terminate()));
  }
}
