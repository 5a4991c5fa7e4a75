/** An Equihash pool thread (equihash-pool.ts): verifies solutions and posts the verdicts back. */
import { parentPort } from 'node:worker_threads';
import { verifyEquihash } from './equihash.js';
import type { EquihashJob, EquihashVerdict } from './equihash-pool.js';

const port = parentPort;
if (!port) throw new Error('equihash-worker.ts must run as a worker thread');

port.on('message', (job: EquihashJob) => {
  let verdict: EquihashVerdict;
  try {
    verdict = { id: job.id, result: verifyEquihash(job.n, job.k, job.input, job.solution) };
  } catch (e) {
    verdict = { id: job.id, error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(verdict);
});
