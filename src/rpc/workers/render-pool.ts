/**
 * Worker threads that decode and render large blocks for getblock, so the event loop keeps
 * serving other clients meanwhile and the other cores do the work (rendering verbosity 2 of a
 * 1.4 MB block takes 12–15 ms of CPU). Small blocks are rendered inline: below
 * `inlineMaxBytes` a thread round trip costs more than the work.
 *
 * Threads start on first use and stay; each takes one job at a time and jobs go to the thread
 * with the fewest outstanding. Under tsx or vitest (TypeScript sources) the worker is loaded
 * through tsx's loader; from the compiled package it is plain JavaScript.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RawJson } from '../method.js';
import { inlineBlockRenderer, unreadableBlock, type BlockRenderRequest, type BlockRenderer } from './block-renderer.js';
import type { RenderJob, RenderOutcome } from './render-protocol.js';

/** Blocks below this size are rendered on the calling thread. */
export const DEFAULT_INLINE_MAX_BYTES = 96 * 1024;

interface Pending {
  req: BlockRenderRequest;
  resolve: (v: RawJson) => void;
  reject: (e: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Ends an idle thread (armed whenever its last job finishes). */
  idleTimer: NodeJS.Timeout | null;
}

/**
 * Threads idle this long are ended: a thread's heap grows with the blocks it rendered and is
 * only given back to the system when the thread exits, so after a burst memory returns to its
 * baseline. Restarting one costs a few tens of milliseconds.
 */
export const DEFAULT_IDLE_MS = 15_000;

/**
 * The worker to start: the compiled `render-worker.js` beside this module, or — when running
 * from TypeScript sources (tsx, vitest) — a bootstrap that registers tsx's loader inside the
 * thread first (Node 20 does not pass `--import` hooks on to workers reliably).
 */
function startWorker(): Worker {
  const js = new URL('./render-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(js))) return new Worker(js);
  const ts = new URL('./render-worker.ts', import.meta.url).href;
  const api = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
  const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(ts)}); });`;
  return new Worker(boot, { eval: true });
}

export interface RenderPoolOptions {
  threads: number;
  inlineMaxBytes?: number;
  idleMs?: number;
}

export class RenderPool implements BlockRenderer {
  private readonly workers: PoolWorker[] = [];
  private nextId = 1;
  private closed = false;
  readonly threads: number;
  private readonly inlineMaxBytes: number;
  private readonly idleMs: number;

  constructor(opts: RenderPoolOptions) {
    this.threads = Math.max(1, opts.threads);
    this.inlineMaxBytes = opts.inlineMaxBytes ?? DEFAULT_INLINE_MAX_BYTES;
    this.idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
  }

  /** Threads currently running. */
  get size(): number {
    return this.workers.length;
  }

  /** Whether `render` would hand this request to a thread (false: rendered inline). */
  usesThread(req: BlockRenderRequest): boolean {
    return !this.closed && req.bytes.length >= this.inlineMaxBytes;
  }

  render(req: BlockRenderRequest): Promise<RawJson> {
    if (!this.usesThread(req)) return inlineBlockRenderer.render(req);
    const w = this.pick();
    const id = this.nextId++;
    const job: RenderJob = { id, bytes: req.bytes, verbosity: req.verbosity, context: req.context, network: req.network };
    if (w.idleTimer) clearTimeout(w.idleTimer);
    w.idleTimer = null;
    return new Promise<RawJson>((resolve, reject) => {
      w.pending.set(id, { req, resolve, reject });
      w.worker.postMessage(job);
    });
  }

  /** The least busy thread, starting a new one while fewer than `threads` exist. */
  private pick(): PoolWorker {
    let best: PoolWorker | undefined;
    for (const w of this.workers) if (!best || w.pending.size < best.pending.size) best = w;
    if (best && (best.pending.size === 0 || this.workers.length >= this.threads)) return best;
    return this.spawn();
  }

  private spawn(): PoolWorker {
    const worker = startWorker();
    const w: PoolWorker = { worker, pending: new Map(), idleTimer: null };
    worker.on('message', (m: RenderOutcome) => {
      const p = w.pending.get(m.id);
      if (!p) return;
      w.pending.delete(m.id);
      if (w.pending.size === 0) {
        w.idleTimer = setTimeout(() => {
          if (w.pending.size > 0 || !this.workers.includes(w)) return;
          this.workers.splice(this.workers.indexOf(w), 1);
          void w.worker.terminate();
        }, this.idleMs);
        w.idleTimer.unref();
      }
      if ('text' in m) p.resolve(m.text);
      else if ('bytes' in m) p.resolve(Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength));
      else if ('problem' in m) p.reject(unreadableBlock(p.req.hash, m.problem));
      else p.reject(new Error(m.error));
    });
    const fail = (e: Error) => {
      this.workers.splice(this.workers.indexOf(w), 1);
      for (const p of w.pending.values()) p.reject(e);
      w.pending.clear();
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
      for (const p of w.pending.values()) p.reject(new Error('server shutting down'));
    }
    await Promise.all(all.map((w) => w.worker.terminate()));
  }
}
