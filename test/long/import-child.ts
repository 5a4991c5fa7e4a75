// Child process for the kill -9 trials: imports a shielded-regtest blk directory into a store, printing
// "ready" once the store is open (the parent starts its kill timer there), the tip height every
// second while importing ("tip N": the parent tells a stalled import from a slow one by it), and
// "done" at the end.
// The store is opened as `zecrpc import` opens it: group commit, a solution thread.
import { importBlkFiles, openChainStore } from '../../src/store/index.js';
import { SHIELDED_REGTEST } from '../../test-vectors/regtest-shielded.js';

const [datadir, blocksDir] = process.argv.slice(2);
if (!datadir || !blocksDir) {
  process.stderr.write('usage: import-child.ts DATADIR BLOCKSDIR\n');
  process.exit(2);
}
const store = await openChainStore({ datadir, network: SHIELDED_REGTEST, groupCommit: true, solutionThreads: 1 });
process.stdout.write('ready\n');
const heartbeat = setInterval(() => {
  void store.tip().then((tip) => process.stdout.write(`tip ${tip?.height ?? -1}\n`));
}, 1000);
heartbeat.unref();
await importBlkFiles(store, blocksDir, { progress: 'silent' });
clearInterval(heartbeat);
await store.close();
process.stdout.write('done\n');
