/**
 * A bench server answering on several processes (node:cluster): the primary forks the workers,
 * each a whole server on its own event loop listening on the port they share (listen(0) in
 * cluster workers is one port), hands them the connections and prints `PORT <n>` once all
 * listen, as child-server.ts expects; SIGTERM stops them all. What a server spreading requests
 * over the cores with no cost of its own for doing so would reach.
 */
import cluster from 'node:cluster';

/** FLOOR_PROCESSES or PROCESSES from the environment: a whole number ≥ 1 (1 when unset). */
export function processesFromEnv(name: string): number {
  const n = Number(process.env[name] ?? '1');
  if (!(Number.isInteger(n) && n >= 1)) throw new Error(`${name} must be a whole number ≥ 1, not ${process.env[name]}`);
  return n;
}

/** In the primary: starts `n` workers running this script, prints the port they share once each listens. */
export async function serveFromWorkers(n: number): Promise<void> {
  const workers = Array.from({ length: n }, () => cluster.fork());
  const ports = await Promise.all(
    workers.map(
      (w) =>
        new Promise<number>((done, fail) => {
          w.once('listening', (address) => done(address.port));
          w.once('exit', (code) => fail(new Error(`a worker exited with ${code} before listening`)));
        }),
    ),
  );
  if (new Set(ports).size !== 1) throw new Error(`the workers listen on ${ports.join(', ')}, not on one port`);
  process.stdout.write(`PORT ${ports[0]}\n`);
  process.once('SIGTERM', () => {
    for (const w of workers) w.kill('SIGTERM');
    void Promise.all(workers.map((w) => new Promise((done) => (w.isDead() ? done(null) : w.once('exit', done))))).then(() =>
      process.exit(0),
    );
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
