/**
 * JSON-RPC transport throughput: `decoderawtransaction` of a real v5 transaction (mainnet block
 * 1687107, Sapling + Orchard) through zecrpc's server, against a bare Fastify route returning a
 * fixed body of the same size in the same run (the HTTP ceiling on this machine). Autocannon on
 * loopback, bounded in time. Target: ≥ 60 % of the ceiling.
 *
 *   npx tsx bench/rpc.ts [seconds-per-run=5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { MAINNET } from '../src/chain/network.js';
import { loadNodeConfig } from '../src/config.js';
import { decodeBlock } from '../src/codec/block.js';
import { toHex } from '../src/codec/hex.js';
import { txToJson } from '../src/json/tx.js';
import { decodeRawTransaction } from '../src/rpc/methods/rawtransaction-decode.js';
import { startRpcServer } from '../src/rpc/server.js';
import { readHexVector } from '../test/vectors.js';
import { autocannon } from './lib/autocannon.js';

const seconds = Number(process.argv[2] ?? 5);
const tx = decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex')).transactions.find((t) => t.data.orchard)!;
const request = `{"jsonrpc":"1.0","id":"curltest","method":"decoderawtransaction","params":["${toHex(tx.bytes)}"]}`;
const replyBody = `{"result":${txToJson(tx, MAINNET)},"error":null,"id":"curltest"}\n`;

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-bench-rpc-'));
const server = await startRpcServer({
  config: loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', '-rpcuser=bench', '-rpcpassword=bench']),
  methods: [decodeRawTransaction],
});
const ceiling = Fastify();
ceiling.removeAllContentTypeParsers();
ceiling.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, b, done) => done(null, b));
ceiling.post('/', (_req, reply) => reply.header('content-type', 'application/json').send(replyBody));
await ceiling.listen({ host: '127.0.0.1', port: 0 });
const ceilingPort = (ceiling.server.address() as { port: number }).port;

const headers = { authorization: 'Basic ' + Buffer.from('bench:bench').toString('base64'), 'content-type': 'text/plain' };
console.log(`decoderawtransaction of v5 tx ${tx.txidHex} (${tx.size} bytes in, ${replyBody.length} bytes out), ${seconds} s per run`);
for (const connections of [1, 10, 50]) {
  const base = await autocannon({ url: `http://127.0.0.1:${ceilingPort}/`, connections, duration: seconds, method: 'POST', headers, body: request });
  const ours = await autocannon({ url: `http://127.0.0.1:${server.port}/`, connections, duration: seconds, method: 'POST', headers, body: request });
  if (ours.non2xx || ours.errors) throw new Error(`zecrpc answered ${ours.non2xx} non-2xx, ${ours.errors} errors`);
  console.log(
    `${String(connections).padStart(2)} conn: zecrpc ${ours.requests.average.toFixed(0)} req/s p99 ${ours.latency.p99} ms | ` +
      `fixed-body Fastify ${base.requests.average.toFixed(0)} req/s p99 ${base.latency.p99} ms | ` +
      `ratio ${((100 * ours.requests.average) / base.requests.average).toFixed(1)} %`,
  );
}
await server.close();
await ceiling.close();
rmSync(dir, { recursive: true, force: true });
