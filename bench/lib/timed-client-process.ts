/**
 * A load-generator process, started by bench/lib/load-generator.ts with an IPC channel (which
 * keeps it alive: ZECRPC_BENCH_CHANNEL_WORK, bench/lib/exit-with-parent.ts): runs each job it
 * receives (bench/lib/timed-client.ts) and sends back what it measured.
 */
import { runJob, type LoadJob } from './timed-client.js';

if (!process.send) throw new Error('bench/lib/timed-client-process.ts runs as a child with an IPC channel (bench/lib/load-generator.ts)');
process.on('message', (message: { id: number; job: LoadJob }) => {
  void runJob(message.job).then((result) => process.send!({ id: message.id, result }));
});
