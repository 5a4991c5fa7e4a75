/**
 * A bench server answering on several processes (node:cluster): the primary forks the workers,
 * each a whole server on its own event loop listening on the port they share (listen(0) in
 * cluster workers is one port), hands them the connections and, once all listen, prints
 * `WORKERS <pid> …` and `PORT <n>` (child-server.ts reads both: the workers' pids are what a
 * bench reads their CPU from). SIGTERM stops them all; a worker ending on its own ends the
 * primary, so a run never goes on with fewer processes than it says. What a server spreading
 * requests over the cores with no cost of its own for doing so would reach.
 *
 * A worker whose primary dies ends at once (Node's cluster code exits it when their channel
 * closes) without running its SIGTERM handler, unlike the lone servers exit-with-parent.ts
 * stops: what a worker must remove goes in a folder of its primary's (zecrpc-server.ts).
 */
import cluster from 'node:cluster';

/** A whole number ≥ 1 from the environment variable `name` (1 when unset). */
export function processesFromEnv(name: string): number {
  const n = Number(process.env[name] ?? '1');
  if (!(Number.isInteger(n) && n >= 1)) throw new Error(`${name} must be a whole number ≥ 1, not ${process.env[name]}`);
  return n;
}

/**
 * In the primary: starts `n` workers running this script (with `env` added to theirs), prints
 * their pids and the port they share once each listens; `cleanUp` runs after they have stopped.
 */
export async function serveFromWorkers(n: number, env: Record<string, string> = {}, cleanUp: () => void = () => {}): Promise<void> {
  const workers = Array.from({ length: n }, () => cluster.fork(env));
  let stopping = false;
  const ports = await Promise.all(
    workers.map(
      (w) =>
        new Promise<number>((done, fail) => {
          w.once('listening', (address) => done(address.port));
          w.once('exit', (code, signal) => {
            if (stopping) return;
            stopping = true;
            for (const other of workers) if (other !== w) other.kill('SIGTERM');
            cleanUp();
            const why = `a worker (pid ${w.process.pid}) exited with ${code ?? signal}`;
            fail(new Error(`${why} before listening`));
            process.stderr.write(`${why}: the server stops\n`);
            process.exitCode = 1;
          });
        }),
    ),
  );
  if (new Set(ports).size !== 1) throw new Error(`the workers listen on ${ports.join(', ')}, not on one port`);
  process.stdout.write(`WORKERS ${workers.map((w) => w.process.pid).join(' ')}\nPORT ${ports[0]}\n`);
  process.once('SIGTERM', () => {
    stopping = true;
    for (const w of workers) w.kill('SIGTERM');
    void Promise.all(workers.map((w) => new Promise((done) => (w.isDead() ? done(null) : w.once('exit', done))))).then(() => {
      cleanUp();
      process.exit(0);
    });
  });
}

/**
 * In a worker, before it listens: listening goes through the primary, over the IPC channel that
 * exit-with-parent.ts unreferenced; without a reference nothing keeps the worker alive until the
 * primary answers.
 */
export function holdWorkerChannel(): void {
  if (cluster.isWorker) process.channel?.ref();
}

/** Whether this process prints the port: a lone server or the primary, not a worker. */
export const printsPort = (): boolean => cluster.isPrimary;
