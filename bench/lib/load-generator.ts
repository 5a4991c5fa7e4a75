/**
 * The HTTP benches' load generator: processes of its own (bench/lib/timed-client-process.ts), apart from
 * the servers measured and from the bench, each timing its requests to the microsecond. A job's
 * connections are shared out among the processes, so the replies of one job are read by several
 * processes at once: one process reading multi-megabyte replies is busy enough to become what is
 * measured.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { childNodeArgs } from './bench-child.js';
import type { LoadJob, LoadJobResult } from './timed-client.js';

const CLIENT = fileURLToPath(new URL('./timed-client-process.ts', import.meta.url));

export interface LoadResult {
  /** Every answered request's latency, ns, one array per process. */
  latenciesNs: Float64Array[];
  answered: number;
  failures: number;
  /** From the first request written to the last reply read, over all processes. */
  seconds: number;
}

interface Client {
  proc: ChildProcess;
  pending: Map<number, { resolve: (r: LoadJobResult) => void; reject: (e: Error) => void }>;
}

export class LoadGenerator {
  private readonly clients: Client[] = [];
  private nextId = 0;

  /** `processes`: at most this many processes share a job (never more than its connections). */
  constructor(readonly processes: number) {
    if (!(Number.isInteger(processes) && processes >= 1)) throw new Error('a load generator needs at least one process');
  }

  async run(job: LoadJob): Promise<LoadResult> {
    const n = Math.min(this.processes, job.connections);
    while (this.clients.length < n) this.clients.push(this.start());
    const shares = Array.from({ length: n }, (_, i) => {
      const connections = Math.floor(job.connections / n) + (i < job.connections % n ? 1 : 0);
      return { ...job, connections, amount: Math.max(connections, Math.round((job.amount * connections) / job.connections)) };
    });
    const results = await Promise.all(shares.map((share, i) => this.send(this.clients[i]!, share)));
    const first = results.reduce((a, r) => (r.firstSentNs < a ? r.firstSentNs : a), results[0]!.firstSentNs);
    const last = results.reduce((a, r) => (r.lastReceivedNs > a ? r.lastReceivedNs : a), results[0]!.lastReceivedNs);
    return {
      latenciesNs: results.map((r) => r.latenciesNs),
      answered: results.reduce((a, r) => a + r.latenciesNs.length, 0),
      failures: results.reduce((a, r) => a + r.failures, 0),
      seconds: Number(last - first) / 1e9,
    };
  }

  /** Ends the processes (they also end on their own when this process does). */
  stop(): void {
    for (const c of this.clients.splice(0)) c.proc.kill('SIGTERM');
  }

  private start(): Client {
    const proc = spawn(process.execPath, [...childNodeArgs(), CLIENT], {
      env: { ...process.env, ZECRPC_BENCH_CHANNEL_WORK: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    const client: Client = { proc, pending: new Map() };
    proc.on('message', (m: { id: number; result: LoadJobResult }) => {
      client.pending.get(m.id)?.resolve(m.result);
      client.pending.delete(m.id);
      if (client.pending.size === 0) proc.channel?.unref();
    });
    proc.once('exit', (code, signal) => {
      const error = new Error(`a load-generator process ended (${signal ?? code}) with a job in flight`);
      for (const p of client.pending.values()) p.reject(error);
      client.pending.clear();
    });
    // Idle, the processes must not keep this one alive (when it ends, their channel closes and they end too).
    proc.unref();
    proc.channel?.unref();
    return client;
  }

  private send(c: Client, job: LoadJob): Promise<LoadJobResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      c.pending.set(id, { resolve, reject });
      c.proc.channel?.ref();
      c.proc.send({ id, job });
    });
  }
}
