/**
 * Serving cost of `getblock` from the LevelDB chain store.
 *
 *   npx tsx bench/store-serve.ts [seconds-per-run=3] [connections=10]      (~1.5 minutes)
 *
 * 1. CPU time of getblock verbosity 2 for the largest golden block (zcashd-2019 106598,
 *    1.4 MB, 9250 transparent inputs): decode + JSON, median of 30 runs in-process.
 * 2. HTTP throughput: mainnet blocks 0..20 are imported into a fresh store, the RPC server is
 *    started with the real read methods, and autocannon drives `getblock <hash> N` for
 *    N = 0, 1, 2 at 10 connections. Each run is paired with a "ceiling" method on the same
 *    server that returns the identical reply text without touching the store, so the ratio
 *    getblock / ceiling isolates what the store lookup + JSON building cost over the HTTP
 *    and JSON-RPC layers (target: ≥ 80 % for verbosity 1). `getblock` is the served method
 *    (its replies are cached per tip, so a hot block is measured); `getblock_uncached` is the
 *    same method with the cache off, i.e. store reads + decode + JSON on every request.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAINNET } from '../src/chain/network.js';
import { loadNodeConfig } from '../src/config.js';
import { decodeBlock } from '../src/codec/block.js';
import { blockToJsonBytes } from '../src/render/block.js';
import { parseJson, type JsonValue } from '../src/json/index.js';
import type { RpcMethod } from '../src/rpc/method.js';
import { getBlockMethod } from '../src/rpc/methods/blockchain/getblock.js';
import { storeMethods } from '../src/rpc/methods/index.js';
import { startRpcServer } from '../src/rpc/http/server.js';
import { openChainStore } from '../src/store/index.js';
import { readHexVector, vectorPath } from '../test/support/vectors.js';

import { autocannon, type AutocannonResult } from './lib/autocannon.js';

const seconds = Number(process.argv[2] ?? 3);
const ROUNDS = 3;
const connections = Number(process.argv[3] ?? 10);
const USER = 'bench';
const PASSWORD = 'bench';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function verbosity2CpuTime(): void {
  const bytes = readHexVector('zcashd-2019', '106598.hex');
  const ctx = { height: 106598, confirmations: 1, chainWork: 1n, previousBlockHash: null, nextBlockHash: null };
  const total: number[] = [];
  const jsonOnly: number[] = [];
  let size = 0;
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    const block = decodeBlock(bytes);
    for (const tx of block.transactions) void tx.txid;
    const t1 = performance.now();
    // What getblock does: render straight into the reply bytes.
    size = blockToJsonBytes(block, 2, ctx, MAINNET).length;
    const t2 = performance.now();
    total.push(t2 - t0);
    jsonOnly.push(t2 - t1);
  }
  console.log(
    `getblock verbosity 2, zcashd-2019 106598 (${bytes.length} bytes → ${size} bytes of JSON): ` +
      `decode+txids+JSON median ${median(total).toFixed(1)} ms (JSON alone ${median(jsonOnly).toFixed(1)} ms; target ≤ 30 ms)`,
  );
}

/** A method that answers with a fixed text: the HTTP + JSON-RPC ceiling for that reply. */
function fixedReply(name: string, text: string): RpcMethod {
  return { name, category: 'hidden', required: 0, optional: 0, help: `${name}\n`, call: () => text };
}

async function drive(port: number, body: string): Promise<AutocannonResult> {
  return autocannon({
    url: `http://127.0.0.1:${port}/`,
    connections,
    duration: seconds,
    method: 'POST',
    headers: {
      authorization: 'Basic ' + Buffer.from(`${USER}:${PASSWORD}`).toString('base64'),
      'content-type': 'text/plain',
    },
    body,
  });
}

async function main(): Promise<void> {
  verbosity2CpuTime();

  const datadir = mkdtempSync(join(tmpdir(), 'zecrpc-bench-'));
  const store = await openChainStore({ datadir, network: MAINNET });
  try {
    const lines = readFileSync(vectorPath('lightwalletd', 'mainnet_genesis'), 'utf8').trim().split('\n');
    for (const l of lines) await store.addBlock(new Uint8Array(Buffer.from(l.trim(), 'hex')));
    const methods = storeMethods(store);
    const uncached = { ...getBlockMethod(store, { cacheReplies: false }), name: 'getblock_uncached', category: 'hidden' };
    const getblock = methods.find((m) => m.name === 'getblock')!;
    const hash = decodeBlock(new Uint8Array(Buffer.from(lines[10]!.trim(), 'hex'))).hashHex;

    // The exact replies getblock gives, served again by fixed-reply methods.
    const ceilings: RpcMethod[] = [];
    for (const v of [0, 1, 2]) {
      const raw = await getblock.call(parseJson(`["${hash}", ${v}]`) as JsonValue[], { network: MAINNET, requestStop: () => {} });
      const text = typeof raw === 'string' ? raw : raw.toString('utf8');
      ceilings.push(fixedReply(`ceiling${v}`, text));
    }

    const config = loadNodeConfig([
      `-datadir=${datadir}`,
      // Port 0: the OS picks a free one (server.port).
      '-rpcport=0',
      `-rpcuser=${USER}`,
      `-rpcpassword=${PASSWORD}`,
    ]);
    const server = await startRpcServer({ config, methods: [...methods, uncached, ...ceilings] });
    try {
      console.log(`HTTP, mainnet block 10, ${connections} connections, ${ROUNDS} alternating rounds of ${seconds} s per method`);
      for (const v of [0, 1, 2]) {
        const served: AutocannonResult[] = [];
        const cold: AutocannonResult[] = [];
        const ceiling: AutocannonResult[] = [];
        // Alternate the two so load from anything else on the machine hits both alike.
        for (let round = 0; round < ROUNDS; round++) {
          served.push(await drive(server.port, `{"jsonrpc":"1.0","id":1,"method":"getblock","params":["${hash}",${v}]}`));
          cold.push(await drive(server.port, `{"jsonrpc":"1.0","id":1,"method":"getblock_uncached","params":["${hash}",${v}]}`));
          ceiling.push(await drive(server.port, `{"jsonrpc":"1.0","id":1,"method":"ceiling${v}","params":[]}`));
        }
        const rate = (rs: AutocannonResult[]): number => rs.reduce((a, r) => a + r.requests.average, 0) / rs.length;
        const bad = [...served, ...cold, ...ceiling].reduce((a, r) => a + r.non2xx + r.errors, 0);
        console.log(
          `  verbosity ${v}: getblock ${rate(served).toFixed(0)} req/s (p99 ${median(served.map((r) => r.latency.p99))} ms)` +
            ` | fixed reply ${rate(ceiling).toFixed(0)} req/s` +
            ` | ratio ${((100 * rate(served)) / rate(ceiling)).toFixed(1)} %` +
            ` | uncached ${rate(cold).toFixed(0)} req/s (${((100 * rate(cold)) / rate(ceiling)).toFixed(1)} %)` +
            (bad ? ` | ${bad} failed requests` : ''),
        );
      }
    } finally {
      await server.close();
    }
  } finally {
    await store.close();
    rmSync(datadir, { recursive: true, force: true });
  }
}

await main();
