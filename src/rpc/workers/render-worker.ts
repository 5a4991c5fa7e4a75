/**
 * A render-pool worker thread: decodes, verifies and renders blocks for getblock
 * (block-renderer.ts) and posts the result back. Byte results go into the job's shared slab
 * when it has one and they fit, otherwise they are transferred, not copied. Raw blocks
 * (verbosity 0) are sent as bytes too: a hex string would be copied into the event loop's heap
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

/** The result as bytes the event loop can take without copying: a slab, or a transferred buffer. */
function byteOutcome(job: RenderJob, out: Buffer | string, transfer: ArrayBuffer[]): RenderOutcome {
  const length = out.length;
  if (job.slab) {
    if (job.slab.buffer) slabs.set(job.slab.id, Buffer.from(job.slab.buffer));
    const slab = slabs.get(job.slab.id);
    if (slab && length <= slab.length) {
      if (typeof out === 'string') slab.write(out, 0, 'latin1');
      else out.copy(slab);
      return { id: job.id, slabLength: length };
    }
  }
  const bytes = typeof out === 'string' ? Buffer.from(out, 'latin1') : out;
  // The buffer is moved, not copied, unless most of it is slack (the reply budget counts the
  // result's length) or it is a view into Node's shared pool (small results).
  const backing = bytes.buffer as ArrayBuffer;
  const movable = backing.byteLength >= 64 * 1024 && backing.byteLength <= bytes.byteLength * 1.5;
  const own = movable ? new Uint8Array(backing, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes);
  transfer.push(own.buffer as ArrayBuffer);
  return { id: job.id, bytes: own };
}

port.on('message', (job: RenderJob) => {
  let outcome: RenderOutcome;
  const transfer: ArrayBuffer[] = [];
  try {
    const out = renderVerifiedBlock(job.bytes, job.verbosity, job.context, job.network);
    // Verbosity 0 is `"` + hex + `"`: ASCII, so its latin1 bytes are its UTF-8.
    if (typeof out === 'string') outcome = job.verbosity === 0 ? byteOutcome(job, out, transfer) : { id: job.id, text: out };
    else if (Buffer.isBuffer(out)) outcome = byteOutcome(job, out, transfer);
    else outcome = { id: job.id, problem: out.problem };
  } catch (e) {
    outcome = { id: job.id, error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(outcome, transfer);
});
