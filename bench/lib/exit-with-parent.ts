/**
 * Preloaded into every process a bench starts (`node --import tsx --import <this file> …`, see
 * bench/lib/bench-child.ts): when the process that started it dies, this one ends too, so a bench killed
 * mid-run (SIGKILL, a closed terminal, a timed-out runner) leaves no server or load generator
 * holding a port, a core or a temporary directory.
 *
 * Two signals, whichever comes first: the IPC channel's `disconnect` (immediate, when the parent
 * spawned us with one) and the parent's pid changing (a reparented orphan; Linux has no portable
 * parent-death signal in Node). Either way the process sends itself SIGTERM, so its own SIGTERM
 * handler (a server closing and removing its temporary directory) runs as on a normal stop.
 */
export {};

const POLL_MS = 500;

function parentGone(): void {
  process.kill(process.pid, 'SIGTERM');
}

const parent = process.ppid;
if (process.channel) {
  process.once('disconnect', parentGone);
  // The channel alone must not keep a finished process alive, unless waiting on it is the
  // process's whole work (a load-generator process): referenced from the start, it cannot end
  // while its script is still loading.
  if (process.env.ZECRPC_BENCH_CHANNEL_WORK !== '1') process.channel.unref();
}
setInterval(() => {
  if (process.ppid !== parent) parentGone();
}, POLL_MS).unref();
