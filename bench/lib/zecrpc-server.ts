/**
 * zecrpc's RPC server as the serving benches run it, in a child process (child-server.ts).
 *
 *   SERVE=store NETWORK=mainnet|testnet   storeMethods over served-blocks.ts's store
 *   SERVE=decoderaw                       decoderawtransaction alone
 *   SERVE=datadir DATADIR=… NETWORK=regtest  the LevelDB chain store at DATADIR, read as
 *                                         `zecrpc serve` reads it (verified reads)
 *   INSIGHT=1                             with -insightexplorer's methods (SERVE=datadir)
 *   CACHE=1|0                             the method's reply cache and the point checks' memo on (as served) or off
 *   SUMMARY=1|0                           getblock 1 of connected blocks from the index (as served) or decoded
 *   ARGS="-rpcworkqueue=64 …"             zcashd-style options
 *   LARGE_BLOCK=<bytes>                   SERVE=store mainnet also serves largeMainnetSide(bytes)
 *   SAPLING_BLOCK=<bytes>                 SERVE=store mainnet also serves largeSaplingSide(bytes)
 *   PROCESSES=<n>                         n servers on one port (node:cluster), SERVE=store or decoderaw
 */
import cluster from 'node:cluster';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadNodeConfig } from '../../src/config.js';
import type { RpcMethod } from '../../src/rpc/method.js';
import { REGTEST } from '../../src/chain/network.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { NO_EXPERIMENTAL_FEATURES } from '../../src/rpc/methods/control/experimental-features.js';
import { openChainStore } from '../../src/store/index.js';
import { verifiedStoreReader } from '../../src/store/verify.js';
import { createDecodeRawTransaction } from '../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { setPointCheckCache } from '../../src/crypto/curves.js';
import { startRpcServer } from '../../src/rpc/http/server.js';
import { BENCH_PASSWORD, BENCH_USER } from './raw-http.js';
import { holdWorkerChannel, printsPort, processesFromEnv, serveFromWorkers } from './cluster-workers.js';
import { largeMainnetSide, largeSaplingSide, servedStore, type ServedNetwork } from './served-blocks.js';

const cache = process.env.CACHE !== '0';
// Uncached, the curve points' verdict memo is off too: a load's distinct copies of a transaction
// share their points, which a memo would answer from its second round on, where a transaction
// never seen before (a new one, or an old block's) has its points checked.
if (!cache) setPointCheckCache(false);
const summaryReplies = process.env.SUMMARY !== '0';
const network = (process.env.NETWORK ?? 'mainnet') as ServedNetwork | 'regtest';

async function methodsToServe(): Promise<RpcMethod[]> {
  if (process.env.SERVE === 'decoderaw') return [createDecodeRawTransaction(cache ? {} : { cacheBytes: 0 })];
  if (process.env.SERVE === 'datadir') {
    const store = await openChainStore({ datadir: process.env.DATADIR!, network: REGTEST });
    const features = { ...NO_EXPERIMENTAL_FEATURES, insightExplorer: process.env.INSIGHT === '1' };
    return storeMethods(verifiedStoreReader(store), { cacheReplies: cache, summaryReplies, features });
  }
  const large = Number(process.env.LARGE_BLOCK ?? 0);
  const sapling = Number(process.env.SAPLING_BLOCK ?? 0);
  const extra = [
    ...(large > 0 && network === 'mainnet' ? [largeMainnetSide(large)] : []),
    ...(sapling > 0 && network === 'mainnet' ? [largeSaplingSide(sapling)] : []),
  ];
  return storeMethods(servedStore(network as ServedNetwork, extra), { cacheReplies: cache, summaryReplies });
}
// PROCESSES=n: n such servers (cluster-workers.ts), each with its own copy of the methods'
// in-memory store: what zecrpc's code would reach spread over the cores at no cost.
const PROCESSES = processesFromEnv('PROCESSES');
if (PROCESSES > 1 && process.env.SERVE === 'datadir')
  throw new Error('a LevelDB store opens in one process only: PROCESSES=1 with SERVE=datadir');
/** Where a worker makes its datadir: in a folder of its primary's, which the primary removes when it stops, however its workers end. */
const WORKER_DIRS = 'ZECRPC_BENCH_WORKER_DIRS';
if (PROCESSES > 1 && cluster.isPrimary) {
  const parent = mkdtempSync(join(tmpdir(), 'zecrpc-bench-servers-'));
  await serveFromWorkers(PROCESSES, { [WORKER_DIRS]: parent }, () => rmSync(parent, { recursive: true, force: true }));
} else await serve();

async function serve(): Promise<void> {
  const methods = await methodsToServe();

  const dir = mkdtempSync(join(process.env[WORKER_DIRS] ?? tmpdir(), 'zecrpc-bench-server-'));
  const extra = (process.env.ARGS ?? '').split(' ').filter((a) => a !== '');
  const config = loadNodeConfig([
    `-datadir=${dir}`,
    '-rpcport=0',
    `-rpcuser=${BENCH_USER}`,
    `-rpcpassword=${BENCH_PASSWORD}`,
    ...(network === 'testnet' ? ['-testnet'] : network === 'regtest' ? ['-regtest'] : []),
    ...extra,
  ]);
  holdWorkerChannel();
  const server = await startRpcServer({ config, methods });
  if (printsPort()) process.stdout.write(`PORT ${server.port}\n`);
  process.once('SIGTERM', () => {
    void server.close().then(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}
