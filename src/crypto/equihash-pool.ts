/**
 * Equihash verification on worker threads, so an import checks the solutions of the blocks it
 * has read ahead while the main thread validates and connects the current one. Checking a
 * (200, 9) solution is a large part of a small mainnet block's import time (bench/equihash.ts).
 *
 * The verdict is the same function's (`verifyEquihash`) on the same bytes; callers key it by
 * the block hash, which covers the header prefix and the solution.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../workers/module-worker.js';
import type { EquihashResult } from './equihash.js';

export interface EquihashJob {
  id: number;
  n: number;
  k: number;
  input: Uint8Array;
  solution: Uint8Array;
}

export type EquihashVerdict = { id: number; result: EquihashResult } | { id: number; error: string };

interface PoolThread {
  worker: Worker;
  pending: Map<number, { resolve: (r: EquihashResult) => void; reject: (e: Error) => void }>;
}

export class EquihashPool {
  private readonly threads: PoolThread[] = [];
  private nextId = 1;
  private closed = false;

  constructor(readonly size: number) {
    if (!(size >= 1)) throw new RangeError('an Equihash pool needs at least one thread');
  }

  /** The verdict on `solution` for the 140-byte header prefix `input`. */
  verify(n: number, k: number, input: Uint8Array, solution: Uint8Array): Promise<EquihashResult> {
    if (this.closed) return Promise.reject(new Error('the Equihash pool is closed'));
    const t = this.pick();
    const id = this.nextId++;
    return new Promise<EquihashResult>((resolve, reject) => {
      // A thread with work keeps the process alive (its caller awaits the verdict); an idle one does not.
      if (t.pending.size === 0) t.worker.ref();
      t.pending.set(id, { resolve, reject });
      // Copies (structured clone): the caller's buffers may be views into a larger block.
      const job: EquihashJob = { id, n, k, input: input.slice(), solution: solution.slice() };
      t.worker.postMessage(job);
    });
  }

  private pick(): PoolThread {
    let best: PoolThread | undefined;
    for (const t of this.threads) if (!best || t.pending.size < best.pending.size) best = t;
    if (best && (best.pending.size === 0 || this.threads.length >= this.size)) return best;
    return this.spawn();
  }

  private spawn(): PoolThread {
    const worker = startModuleWorker(new URL('./equihash-worker.js', import.meta.url));
    const t: PoolThread = { worker, pending: new Map() };
    worker.on('message', (v: EquihashVerdict) => {
      const p = t.pending.get(v.id);
      if (!p) return;
      t.pending.delete(v.id);
      if (t.pending.size === 0) worker.unref();
      if ('result' in v) p.resolve(v.result);
      else p.reject(new Error(`Equihash worker: ${v.error}`));
    });
    const fail = (e: Error): void => {
      const i = this.threads.indexOf(t);
      if (i >= 0) this.threads.splice(i, 1);
      for (const p of t.pending.values()) p.reject(e);
      t.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.threads.includes(t)) fail(new Error(`Equihash worker exited with code ${code}`));
    });
    // An idle pool must not keep the process alive (verify() refs a thread while it has work).
    worker.unref();
    this.threads.push(t);
    return t;
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = this.threads.splice(0);
    for (const t of all) for (const p of t.pending.values()) p.reject(new Error('the Equihash pool is closed'));
    await Promise.all(all.map((t) => t.worker.terminate()));
  }
}
