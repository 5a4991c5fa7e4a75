// Run by stop-signals-host.test.ts (node --import tsx) with an IPC channel, as a test runner's
// worker or a process manager starts a process: it takes stop requests for a while, as `zecrpc
// import` does in-process (src/cli/stop-signals.ts), then stops taking them. In `host` mode it has
// a 'message' listener of its own, which must still keep it alive until its parent's message
// comes; in `bare` mode it has none, and must end by itself.
import { onStopRequests } from '../../src/cli/stop-signals.js';

const mode = process.argv[2];
if (mode === 'host') {
  process.on('message', (m) => {
    process.send!({ echoed: m });
    process.disconnect();
  });
}
const stop = onStopRequests(() => undefined);
stop();
process.send!('ready');
