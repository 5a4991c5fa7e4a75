// Runs this command again in a child process with more Node options, for options V8 takes only at
// start-up (setting a garbage-collector option at run time aborts the process).
//
// The child stays in this process's group, so what a terminal sends the group (Ctrl-C, Ctrl-Z, a
// window resize) reaches it directly. This process forwards SIGINT and SIGTERM over the IPC
// channel, and SIGHUP, and ends as the child ended, with its exit code or by the same signal. A
// signal sent to the whole group thus reaches the child twice, directly and forwarded: `zecrpc
// import` takes those as one request (src/cli/stop-signals.ts: a second request makes it quit at
// once, without writing out what it holds); a child that takes no requests that way has a
// forwarded signal raised on itself. Should this process be killed outright, the child sees its
// IPC channel close and stops as on SIGTERM.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * `zecrpc import` runs with V8's collector on the JavaScript thread alone: its helper threads
 * would compete for the cores with the import's own threads (solutions, trees, LevelDB's writer
 * and compactions), and cost more CPU than they save (bench/results/import-floors.md, run 11).
 */
export const IMPORT_NODE_OPTIONS = ['--single-threaded-gc'];

const CHILD_MARK = 'ZECRPC_RELAUNCHED';
/** Forwarded over the IPC channel, as src/cli/stop-signals.ts reads them (FORWARDED_SIGNAL). */
const FORWARDED_OVER_IPC = ['SIGINT', 'SIGTERM'];
const FORWARDED_SIGNAL = 'zecrpcForwardedSignal';
const FORWARDED = [...FORWARDED_OVER_IPC, 'SIGHUP'];
/** Set by src/cli/stop-signals.ts while it takes the forwarded signals. */
const TAKEN = Symbol.for('zecrpc.stopRequests');
/**
 * A debugger would attach to this process (its port taken before the child's), and a profile be
 * written for each process, this idle one's beside the child's: such a run is not relaunched.
 */
const KEEP_IN_PROCESS = /^--(cpu-prof|heap-prof|prof|inspect)/;
/** Signals whose default action dumps core: re-raised, they would dump this process's core beside the child's. */
const DUMPS_CORE = new Set(['SIGABRT', 'SIGBUS', 'SIGFPE', 'SIGILL', 'SIGQUIT', 'SIGSEGV', 'SIGSYS', 'SIGTRAP']);

/**
 * Resolves at once when this process already runs with every option of `nodeOptions` (or is the
 * relaunched child); otherwise runs the command again with them, and never resolves: this process
 * exits when the child does.
 */
export async function relaunchWith(nodeOptions) {
  if (process.env[CHILD_MARK] === '1') {
    // Not passed on: a process this one starts decides for itself.
    delete process.env[CHILD_MARK];
    stopWhenParentGoes();
    return;
  }
  const missing = nodeOptions.filter((o) => !process.execArgv.includes(o));
  if (missing.length === 0) return;
  if ([...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((o) => KEEP_IN_PROCESS.test(o))) {
    process.stderr.write(`note: profiling or debugging, so running without ${missing.join(' ')}\n`);
    return;
  }
  // Listening before the child starts: until a listener is there, a signal ends this process alone.
  // Listeners run on the event loop, after the child has started.
  let child = null;
  const forward = (signal) => {
    if (FORWARDED_OVER_IPC.includes(signal) && child.connected) child.send({ [FORWARDED_SIGNAL]: signal }, () => {});
    else child.kill(signal);
  };
  for (const s of FORWARDED) process.on(s, forward);
  child = spawn(process.execPath, [...process.execArgv, ...missing, process.argv[1], ...process.argv.slice(2)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [CHILD_MARK]: '1' },
  });
  await new Promise(() => {
    child.once('error', (e) => {
      process.stderr.write(`Error: could not start ${process.argv[1]} again with ${missing.join(' ')}: ${e.message}\n`);
      process.exit(1);
    });
    child.once('exit', (code, signal) => {
      for (const s of FORWARDED) process.off(s, forward);
      if (signal && !DUMPS_CORE.has(signal)) process.kill(process.pid, signal);
      // Still here: a core-dumping signal, or one this process ignores (Node ignores SIGPIPE).
      if (signal) process.exit(128 + (constants.signals[signal] ?? 0));
      process.exit(code ?? 1);
    });
  });
}

function stopWhenParentGoes() {
  // Gone already, before this ran: nothing was started, so nothing is lost.
  if (!process.channel || !process.connected) {
    process.kill(process.pid, 'SIGTERM');
    return;
  }
  process.on('message', (m) => {
    const signal = typeof m === 'object' && m !== null ? m[FORWARDED_SIGNAL] : undefined;
    if (FORWARDED_OVER_IPC.includes(signal) && globalThis[TAKEN] !== true) process.kill(process.pid, signal);
  });
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  // The channel alone must not keep a finished command alive.
  process.channel.unref();
}
