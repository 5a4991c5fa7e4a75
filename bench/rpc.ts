/**
 * JSON-RPC transport throughput: `decoderawtransaction` of a real v5 transaction (mainnet block
 * 1687107, Sapling + Orchard) over HTTP, measured from outside.
 *
 *   npx tsx bench/rpc.ts [--seconds=1] [--rounds=7] [--quick]      (about 55 s)
 *
 * zecrpc's server runs in child processes (bench/lib/zecrpc-server.ts): the served
 * configuration (results of repeated requests cached) and one with the cache off, which pays for
 * validation, ZIP-244 hashing and rendering on every request. The ceiling is a plain node:net
 * server in another child (bench/lib/ceiling-server.ts) writing zecrpc's exact reply bytes as
 * one Buffer; the load generator runs in processes of its own (bench/lib/load-generator.ts).
 * Interleaved rounds (ceiling, cached, uncached, the order rotating) at 1, 10 and 50
 * connections; the ratio to the ceiling is taken per round, median and min–max printed, and
 * each target's latency percentiles over all its rounds' requests (at least 10,000 where a run of
 * 3 s allows), with the load average (the machine is shared). No store is read: the transaction
 * is in the request. Target: ≥ 60 % of the ceiling.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAINNET } from '../src/chain/network.js';
import { decodeBlock } from '../src/codec/block.js';
import { toHex } from '../src/codec/hex.js';
import { txToJson } from '../src/render/tx.js';
import { readHexVector } from '../test/support/vectors.js';
import { startChildServer, startReplayCeiling, type ChildServer } from './lib/child-server.js';
import { describeCell, failuresIn, interleavedRounds } from './lib/interleaved.js';
import { load, median, numberFlag, QUICK } from './lib/measure.js';
import { captureReply, replyParts } from './lib/raw-http.js';

const SECONDS = numberFlag('seconds', QUICK ? 0.2 : 1);
const ROUNDS = numberFlag('rounds', QUICK ? 1 : 7);
const CONNECTIONS = [1, 10, 50];
const WORK_QUEUE = 64;

const tx = decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex')).transactions.find((t) => t.data.orchard)!;
const request = `{"jsonrpc":"1.0","id":"curltest","method":"decoderawtransaction","params":["${toHex(tx.bytes)}"]}`;
const expectedBody = `{"result":${txToJson(tx, MAINNET)},"error":null,"id":"curltest"}\n`;

async function main(): Promise<void> {
  const children: ChildServer[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'zecrpc-bench-rpc-'));
  try {
    const env = (cache: boolean): Record<string, string> => ({
      SERVE: 'decoderaw',
      CACHE: cache ? '1' : '0',
      ARGS: `-rpcworkqueue=${WORK_QUEUE}`,
    });
    const [cached, uncached] = await Promise.all([
      startChildServer('bench/lib/zecrpc-server.ts', env(true)),
      startChildServer('bench/lib/zecrpc-server.ts', env(false)),
    ]);
    children.push(cached, uncached);

    const timings: string[] = [];
    let reply: Buffer | null = null;
    for (const [name, server] of [
      ['cache on', cached],
      ['cache off', uncached],
    ] as const) {
      const first = await captureReply(server.port, request);
      if (replyParts(first).body.toString('latin1') !== expectedBody)
        throw new Error(`${name}: the reply is not TxToJSON of the transaction`);
      const warm: number[] = [];
      for (let i = 0; i < 9; i++) warm.push((await captureReply(server.port, request)).ms);
      timings.push(`${name} first ${first.ms.toFixed(2)} ms, warm ${median(warm).toFixed(2)} ms`);
      reply ??= first.bytes;
    }
    const ceiling = await startReplayCeiling(dir, [{ body: request, reply: reply!.toString('base64') }]);
    children.push(ceiling);

    console.log(
      `decoderawtransaction of v5 tx ${tx.txidHex} (${tx.size} bytes in, ${expectedBody.length} bytes out): zecrpc in child processes (-rpcworkqueue=${WORK_QUEUE}) ` +
        `against a Buffer-bodied node:net ceiling in another child; served from no store (the transaction is in the request); ` +
        `load generator in processes of its own, latency timed per request to the microsecond; ${ROUNDS} interleaved rounds ` +
        `(order rotating) of ≈ ${SECONDS} s per target, more to reach 10,000 requests per target where a run of 3 s allows`,
    );
    console.log(`cold/warm, one request at a time: ${timings.join(' | ')} | ${load()}`);
    const targets = [
      { name: 'ceiling', port: ceiling.port, pid: ceiling.pid },
      { name: 'cached', port: cached.port, pid: cached.pid },
      { name: 'uncached', port: uncached.port, pid: uncached.pid },
    ];
    let failures = 0;
    for (const c of CONNECTIONS) {
      const r = await interleavedRounds(targets, request, reply!.length, c, ROUNDS, SECONDS);
      const bad = targets.reduce((a, t) => a + failuresIn(r.runs.get(t.name)!), 0);
      failures += bad;
      console.log(
        `${String(c).padStart(2)} conn: ${describeCell(r, { cached: 'zecrpc', uncached: 'cache off' })} | ${load()}` +
          (bad ? ` | ${bad} FAILED requests` : ''),
      );
    }
    if (failures) {
      console.log(`${failures} requests failed or answered something other than the recorded reply`);
      process.exitCode = 1;
    }
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
