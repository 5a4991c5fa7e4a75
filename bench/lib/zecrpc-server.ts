/**
 * zecrpc's RPC server as the serving benches run it, in a child process (child-server.ts).
 *
 *   SERVE=store NETWORK=mainnet|testnet   storeMethods over served-blocks.ts's store
 *   SERVE=decoderaw                       decoderawtransaction alone
 *   CACHE=1|0                             the method's reply cache on (as served) or off
 *   ARGS="-rpcworkqueue=64 …"             zcashd-style options
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadNodeConfig } from '../../src/config.js';
import type { RpcMethod } from '../../src/rpc/method.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { createDecodeRawTransaction } from '../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { startRpcServer } from '../../src/rpc/http/server.js';
import { BENCH_PASSWORD, BENCH_USER } from './raw-http.js';
import { servedStore, type ServedNetwork } from './served-blocks.js';

const cache = process.env.CACHE !== '0';
const network = (process.env.NETWORK ?? 'mainnet') as ServedNetwork;
const methods: RpcMethod[] =
  process.env.SERVE === 'decoderaw'
    ? [createDecodeRawTransaction(cache ? {} : { cacheBytes: 0 })]
    : storeMethods(servedStore(network), { cacheReplies: cache });

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-bench-server-'));
const extra = (process.env.ARGS ?? '').split(' ').filter((a) => a !== '');
const config = loadNodeConfig([
  `-datadir=${dir}`,
  '-rpcport=0',
  `-rpcuser=${BENCH_USER}`,
  `-rpcpassword=${BENCH_PASSWORD}`,
  ...(network === 'testnet' ? ['-testnet'] : []),
  ...extra,
]);
const server = await startRpcServer({ config, methods });
process.stdout.write(`PORT ${server.port}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
