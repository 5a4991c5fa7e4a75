// Run by relaunch.test.ts: a command relaunched with --single-threaded-gc (bin/relaunch.js), which
// reports what it runs with and every signal it receives.
import { relaunchWith } from '../../bin/relaunch.js';

await relaunchWith(['--single-threaded-gc']);
const mode = process.argv[2];
if (mode === 'options') {
  process.stdout.write(`${JSON.stringify({ execArgv: process.execArgv, pid: process.pid, ppid: process.ppid })}\n`);
  process.exit(7);
}
// Kept alive until a SIGTERM.
const alive = setInterval(() => {}, 1 << 30);
if (mode === 'signals') {
  process.on('SIGINT', () => process.stdout.write('got SIGINT\n'));
  process.on('SIGTERM', () => {
    process.stdout.write('got SIGTERM\n');
    clearInterval(alive);
    process.exitCode = 3;
  });
}
process.stdout.write('ready\n');
