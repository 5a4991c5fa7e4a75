/**
 * A render-pool worker thread: decodes, verifies and renders blocks for getblock
 * (block-renderer.ts) and posts the result back. Byte results are written into the job's
 * shared slab when it has one and they fit, otherwise they are transferred, not copied. Raw
 * blocks (verbosity 0) are bytes too: a hex string would be copied into the event loop's heap
 * and encoded there again.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { renderVerifiedBlock } from './block-renderer.js';
import type { RenderJob, RenderOutcome, RenderWorkerData } from './render-protocol.js';
import { lowerThreadPriority } from './thread-priority.js';

const port = parentPort;
if (!port) throw new Error('render-worker.ts must run as a worker thread');
lowerThreadPriority((workerData as RenderWorkerData | undefined)?.niceness ?? 0);

/** This thread's views of the slabs it has been given, by slab id. */
const slabs = new Map<number, Buffer>();

/** The job's slab as a Buffer, when it has one. */
function slabOf(job: RenderJob): Buffer | undefined {
  if (!job.slab) return undefined;
  if (job.slab.buffer) slabs.set(job.slab.id, Buffer.from(job.slab.buffer));
  return slabs.get(job.slab.id);
}

/**
 * The result as bytes the event loop can take without copying: the slab it was rendered into,
 * or a transferred buffer (a result that outgrew the slab, or a job without one).
 */
function byteOutcome(job: RenderJob, out: Buffer, slab: Buffer | undefined, transfer: ArrayBuffer[]): RenderOutcome {
  if (slab && out.buffer === slab.buffer) return { id: job.id, slabLength: out.length };
  // The buffer is moved, not copied, unless most of it is slack (the reply budget counts the
  // result's length) or it is a view into Node's shared pool (small results).
  const backing = out.buffer as ArrayBuffer;
  const movable = backing.byteLength >= 64 * 1024 && backing.byteLength <= out.byteLength * 1.5;
  const own = movable ? new Uint8Array(backing, out.byteOffset, out.byteLength) : new Uint8Array(out);
  transfer.push(own.buffer as ArrayBuffer);
  return { id: job.id, bytes: own };
}

port.on('message', (job: RenderJob) => {
  let outcome: RenderOutcome;
  const transfer: ArrayBuffer[] = [];
  try {
    const slab = slabOf(job);
    // The slab is memory this thread has written before: rendering into it spares a large
    // reply the page faults of fresh memory and the copy into the slab afterwards.
    const out = renderVerifiedBlock(job.bytes, job.verbosity, job.context, job.network, slab);
    if (typeof out === 'string') outcome = { id: job.id, text: out };
    else if (Buffer.isBuffer(out)) outcome = byteOutcome(job, out, slab, transfer);
    else outcome = { id: job.id, problem: out.problem };
  } catch (e) {
    outcome = { id: job.id, error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(outcome, transfer);
});
