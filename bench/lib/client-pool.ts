/**
 * Load from several client processes (load-client.ts), for replies large enough that reading
 * them costs a client about what writing them costs a server. The connections of a run are
 * spread over the processes; a run is a fixed number of requests, timed here from the moment
 * the processes are told to start to the moment the last one reports. Each request of a set
 * carries the exact size of its recorded reply, so a reply of any other size is a failure.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { childNodeArgs } from './bench-child.js';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLIENT = resolve(fileURLToPath(new URL('.', import.meta.url)), 'load-client.ts');

export interface PooledRequest {
  /** The whole HTTP request. */
  bytes: Buffer;
  /** The whole reply's size, head included, that a correct answer has. */
  replyBytes: number;
}

export interface PoolRun {
  completed: number;
  failures: number;
  seconds: number;
}

interface Done {
  kind: 'done';
  completed: number;
  failures: number;
}

export class ClientPool {
  private constructor(private readonly procs: ChildProcess[]) {}

  static async start(processes: number): Promise<ClientPool> {
    const procs = Array.from({ length: processes }, () =>
      fork(CLIENT, [], {
        execArgv: childNodeArgs(),
        // Waiting for jobs on the channel is this process's whole work: keep it referenced.
        env: { ...process.env, ZECRPC_BENCH_CHANNEL_WORK: '1' },
        stdio: 'inherit',
      }),
    );
    const pool = new ClientPool(procs);
    await Promise.all(procs.map((p) => pool.next(p, 'ready')));
    return pool;
  }

  private next<T>(p: ChildProcess, kind: string): Promise<T> {
    return new Promise((done, fail) => {
      const onMessage = (m: { kind: string }): void => {
        if (m.kind !== kind) return;
        p.off('message', onMessage);
        p.off('exit', onExit);
        done(m as T);
      };
      const onExit = (code: number | null): void => fail(new Error(`a load client exited (${code}) before '${kind}'`));
      p.on('message', onMessage);
      p.once('exit', onExit);
    });
  }

  /** The client processes' ids, for their CPU time (process-cpu.ts). */
  get pids(): number[] {
    return this.procs.map((p) => p.pid!);
  }

  /** Gives every client the requests `set` names. */
  async define(set: string, requests: readonly PooledRequest[]): Promise<void> {
    const message = {
      kind: 'requests',
      set,
      requests: requests.map((r) => ({ bytes: r.bytes.toString('base64'), replyBytes: r.replyBytes })),
    };
    await Promise.all(
      this.procs.map((p) => {
        const ready = this.next(p, 'ready');
        p.send(message);
        return ready;
      }),
    );
  }

  /** `amount` requests of `set` to `port` over `connections` connections, spread over the processes. */
  async run(port: number, set: string, connections: number, amount: number): Promise<PoolRun> {
    const n = this.procs.length;
    const shares = this.procs.map((_, i) => ({
      connections: Math.floor(connections / n) + (i < connections % n ? 1 : 0),
      amount: Math.floor(amount / n) + (i < amount % n ? 1 : 0),
    }));
    const t0 = performance.now();
    const results = await Promise.all(
      this.procs.map((p, i) => {
        const share = shares[i]!;
        if (share.connections === 0) return { kind: 'done', completed: 0, failures: 0 } as Done;
        const done = this.next<Done>(p, 'done');
        p.send({ kind: 'run', port, set, connections: share.connections, amount: Math.max(share.amount, share.connections) });
        return done;
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    return {
      completed: results.reduce((a, r) => a + r.completed, 0),
      failures: results.reduce((a, r) => a + r.failures, 0),
      seconds,
    };
  }

  stop(): void {
    for (const p of this.procs) p.kill('SIGTERM');
  }
}
