// Runs this command again in a child process with more Node options, for options V8 takes only at
// start-up (setting a garbage-collector option at run time aborts the process).
//
// The child gets a process group of its own, so that a terminal's Ctrl-C reaches it once, through
// this process, and not twice (a second SIGINT or SIGTERM makes `zecrpc import` quit at once
// without writing out what it holds). This process forwards SIGINT, SIGTERM and SIGHUP, and ends
// as the child ended: with its exit code, or killed by the same signal. Should this process be
// killed outright, the child sees its IPC channel close and stops as on SIGTERM. A supervisor that
// signals every process of the command (systemd's default KillMode=control-group) reaches the
// child twice: KillMode=mixed signals this process alone.
// Outside the terminal's foreground group, the child would be stopped if it read the terminal, so
// a terminal on standard input is not passed on (the child reads it as empty).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * `zecrpc import` runs with V8's collector on the JavaScript thread alone: its helper threads
 * would compete for the cores with the import's own threads (solutions, trees, LevelDB's writer
 * and compactions), and cost more CPU than they save (bench/results/import-floors.md, run 11).
 */
export const IMPORT_NODE_OPTIONS = ['--single-threaded-gc'];

const CHILD_MARK = 'ZECRPC_RELAUNCHED';
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];

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
  const child = spawn(process.execPath, [...process.execArgv, ...missing, process.argv[1], ...process.argv.slice(2)], {
    stdio: [process.stdin.isTTY ? 'ignore' : 'inherit', 'inherit', 'inherit', 'ipc'],
    detached: true,
    env: { ...process.env, [CHILD_MARK]: '1' },
  });
  const forward = (signal) => child.kill(signal);
  for (const s of FORWARDED) process.on(s, forward);
  await new Promise(() => {
    child.once('error', (e) => {
      process.stderr.write(`Error: could not start ${process.argv[1]} again with ${missing.join(' ')}: ${e.message}\n`);
      process.exit(1);
    });
    child.once('exit', (code, signal) => {
      for (const s of FORWARDED) process.off(s, forward);
      if (signal) {
        process.kill(process.pid, signal);
        // Still here: a signal this process ignores (Node ignores SIGPIPE); the shell's code for it.
        process.exit(128 + (constants.signals[signal] ?? 0));
      }
      process.exit(code ?? 1);
    });
  });
}

function stopWhenParentGoes() {
  if (!process.channel) return;
  // The channel alone must not keep a finished command alive.
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
