/** An Equihash pool thread (equihash-pool.ts): verifies solutions and posts the verdicts back. */
import { parentPort } from 'node:worker_threads';
import { verifyEquihash } from './equihash.js';
import type { EquihashJob, EquihashVerdict } from './equihash-pool.js';

const port = parentPort;
if (!port) throw new Error('equihash-worker.ts must run as a worker thread');

/** A message carries several jobs (equihash-pool.ts verifyMany): their verdicts go back in one. */
port.on('message', (jobs: EquihashJob[]) => {
  port.postMessage(jobs.map(verdictOn));
});

function verdictOn(job: EquihashJob): EquihashVerdict {
  try {
    return { id: job.id, result: verifyEquihash(job.n, job.k, job.input, job.solution) };
  } catch (e) {
    return { id: job.id, error: e instanceof Error ? e.message : String(e) };
  }
}
