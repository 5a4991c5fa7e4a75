/**
 * A render-pool worker thread: decodes, verifies and renders blocks for getblock
 * (block-renderer.ts) and posts the result back. Byte results are transferred, not copied.
 */
import { parentPort } from 'node:worker_threads';
import { renderVerifiedBlock } from './block-renderer.js';
import type { RenderJob, RenderOutcome } from './render-protocol.js';

const port = parentPort;
if (!port) throw new Error('render-worker.ts must run as a worker thread');

port.on('message', (job: RenderJob) => {
  let outcome: RenderOutcome;
  const transfer: ArrayBuffer[] = [];
  try {
    const out = renderVerifiedBlock(job.bytes, job.verbosity, job.context, job.network);
    if (typeof out === 'string') outcome = { id: job.id, text: out };
    else if (Buffer.isBuffer(out)) {
      // The writer's buffer is moved, not copied, unless most of it is slack (the reply budget
      // counts the result's length) or it is a view into Node's shared pool (small results).
      const backing = out.buffer as ArrayBuffer;
      const movable = backing.byteLength >= 64 * 1024 && backing.byteLength <= out.byteLength * 1.5;
      const own = movable ? new Uint8Array(backing, out.byteOffset, out.byteLength) : new Uint8Array(out);
      outcome = { id: job.id, bytes: own };
      transfer.push(own.buffer as ArrayBuffer);
    } else outcome = { id: job.id, problem: out.problem };
  } catch (e) {
    outcome = { id: job.id, error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(outcome, transfer);
});
