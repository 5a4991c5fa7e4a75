/**
 * JSON-RPC transport throughput: `decoderawtransaction` of a real v5 transaction (mainnet block
 * 1687107, Sapling + Orchard) through zecrpc's server, against a bare Fastify route returning a
 * fixed body of the same size in the same run (the HTTP ceiling on this machine). Autocannon on
 * loopback, bounded in time. Target: ≥ 60 % of the ceiling. Two zecrpc servers run: the served
 * configuration (results of repeated requests cached) and one with the cache off, which pays
 * for validation, ZIP-244 hashing and rendering on every request.
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
import { txToJson } from '../src/render/tx.js';
import { createDecodeRawTransaction, decodeRawTransaction } from '../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { startRpcServer } from '../src/rpc/http/server.js';
import { readHexVector } from '../test/support/vectors.js';
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
const uncached = await startRpcServer({
  config: loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', '-rpcuser=bench', '-rpcpassword=bench']),
  methods: [createDecodeRawTransaction({ cacheBytes: 0 })],
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
  const base = await autocannon({
    url: `http://127.0.0.1:${ceilingPort}/`,
    connections,
    duration: seconds,
    method: 'POST',
    headers,
    body: request,
  });
  const ours = await autocannon({
    url: `http://127.0.0.1:${server.port}/`,
    connections,
    duration: seconds,
    method: 'POST',
    headers,
    body: request,
  });
  const cold = await autocannon({
    url: `http://127.0.0.1:${uncached.port}/`,
    connections,
    duration: seconds,
    method: 'POST',
    headers,
    body: request,
  });
  for (const r of [ours, cold]) if (r.non2xx || r.errors) throw new Error(`zecrpc answered ${r.non2xx} non-2xx, ${r.errors} errors`);
  const pct = (r: { requests: { average: number } }) => ((100 * r.requests.average) / base.requests.average).toFixed(1);
  console.log(
    `${String(connections).padStart(2)} conn: fixed-body Fastify ${base.requests.average.toFixed(0)} req/s p99 ${base.latency.p99} ms | ` +
      `zecrpc ${ours.requests.average.toFixed(0)} req/s p99 ${ours.latency.p99} ms = ${pct(ours)} % | ` +
      `cache off ${cold.requests.average.toFixed(0)} req/s p99 ${cold.latency.p99} ms = ${pct(cold)} %`,
  );
}
await server.close();
await uncached.close();
await ceiling.close();
rmSync(dir, { recursive: true, force: true });
