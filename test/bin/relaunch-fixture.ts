// Run by relaunch.test.ts (node --import tsx): a command relaunched with --single-threaded-gc
// (bin/relaunch.js) that reports what it runs with and, in `requests` mode, each stop request as
// `zecrpc import` takes them (src/cli/stop-signals.ts) and each signal forwarded to it; in `plain`
// mode it takes none.
import { relaunchWith } from '../../bin/relaunch.js';
import { onStopRequests } from '../../src/cli/stop-signals.js';

await relaunchWith(['--single-threaded-gc']);
const mode = process.argv[2];
if (mode === 'options') {
  process.stdout.write(`${JSON.stringify({ execArgv: process.execArgv, pid: process.pid, ppid: process.ppid })}\n`);
  process.exit(7);
}
// Kept alive until it is done.
const alive = setInterval(() => {}, 1 << 30);
if (mode === 'requests') {
  // Each copy the launcher forwards, so that a test can wait for both copies of a signal.
  process.on('message', (m: Record<string, unknown>) => process.stdout.write(`forwarded ${String(m.zecrpcForwardedSignal)}\n`));
  const stop = onStopRequests((requests, signal) => {
    process.stdout.write(`request ${requests} ${signal}\n`);
    // Done at the second request, or at the first once the launcher is gone.
    if (requests >= 2 || !process.connected) {
      stop();
      clearInterval(alive);
      process.exitCode = 3;
    }
  });
}
process.stdout.write('ready\n');
