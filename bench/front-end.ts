/**
 * The Fastify front end against a bare node:http ceiling: small replies (`getblockcount`, a
 * cached `getblock 1`, a 9 kB `decoderawtransaction`) and a large one (cached `getblock 2` of the
 * 1.39 MB mainnet block 106598, 9,250 transparent inputs).
 *
 *   npx tsx bench/front-end.ts [--seconds=1] [--rounds=5] [--quick]
 *
 * zecrpc (Fastify 5 on node:http, with its auth, work queue and budgets) serves the mainnet
 * vector store in a child process (bench/lib/zecrpc-server.ts); the ceiling, in another child
 * (bench/lib/http-ceiling-server.ts), is node:http answering each request with zecrpc's reply
 * body captured beforehand. Interleaved rounds at 10 connections; the ratio is taken per round,
 * median and min–max printed, with the load average (the machine is shared).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeBlock } from '../src/codec/block.js';
import { toHex, toHexReversed } from '../src/codec/hex.js';
import { readHexVector } from '../test/support/vectors.js';
import { startChildServer, type ChildServer } from './lib/child-server.js';
import { describeCell, failuresIn, interleavedRounds } from './lib/interleaved.js';
import { load, numberFlag, QUICK } from './lib/measure.js';
import { captureReply, replyParts } from './lib/raw-http.js';
import { servedBlockBytes, SERVED_BLOCKS } from './lib/served-blocks.js';

const SECONDS = numberFlag('seconds', QUICK ? 0.2 : 1);
const ROUNDS = numberFlag('rounds', QUICK ? 1 : 5);
const CONNECTIONS = 10;

const v5 = decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex')).transactions.find((t) => t.data.orchard)!;
const large = decodeBlock(servedBlockBytes(SERVED_BLOCKS.find((b) => b.name === 'main-106598')!));
const block1 = toHexReversed(decodeBlock(readHexVector('blocks', 'mainnet', '1.hex')).hash);
const CASES: { name: string; body: string }[] = [
  { name: 'getblockcount', body: '{"id":1,"method":"getblockcount"}' },
  { name: 'getblock 1 (block 1, cached)', body: `{"id":1,"method":"getblock","params":["${block1}",1]}` },
  { name: 'decoderawtransaction (v5)', body: `{"id":1,"method":"decoderawtransaction","params":["${toHex(v5.bytes)}"]}` },
  { name: 'getblock 2 (106598, cached)', body: `{"id":1,"method":"getblock","params":["${toHexReversed(large.hash)}",2]}` },
];

async function main(): Promise<void> {
  const children: ChildServer[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'zecrpc-bench-front-end-'));
  try {
    const zecrpc = await startChildServer('bench/lib/zecrpc-server.ts', { SERVE: 'store', NETWORK: 'mainnet', ARGS: '-rpcworkqueue=64' });
    children.push(zecrpc);
    const recorded: { body: string; reply: string; bytes: number }[] = [];
    for (const c of CASES) {
      const reply = await captureReply(zecrpc.port, c.body);
      if (reply.status !== 200) throw new Error(`${c.name}: zecrpc answered ${reply.status}`);
      recorded.push({ body: c.body, reply: reply.bytes.toString('base64'), bytes: replyParts(reply).body.length });
    }
    const file = join(dir, 'replies.json');
    writeFileSync(file, JSON.stringify(recorded.map(({ body, reply }) => ({ body, reply }))));
    const ceiling = await startChildServer('bench/lib/http-ceiling-server.ts', { REPLIES: file });
    children.push(ceiling);
    console.log(
      `zecrpc on Fastify ${(await import('fastify/package.json', { with: { type: 'json' } })).default.version} vs node:http ${process.version}, ` +
        `both in child processes; autocannon here; ${ROUNDS} interleaved rounds of ≈ ${SECONDS} s at ${CONNECTIONS} connections`,
    );
    const targets = [
      { name: 'ceiling', port: ceiling.port },
      { name: 'zecrpc', port: zecrpc.port },
    ];
    let failures = 0;
    for (const [i, c] of CASES.entries()) {
      const bytes = recorded[i]!.bytes;
      // autocannon counts the whole reply; the head is within the 0.5 % it allows.
      const capture = Buffer.from(recorded[i]!.reply, 'base64').length;
      const r = await interleavedRounds(targets, c.body, capture, CONNECTIONS, ROUNDS, SECONDS);
      const bad = targets.reduce((a, t) => a + failuresIn(r.runs.get(t.name)!), 0);
      failures += bad;
      console.log(`${c.name} (${bytes} B): ${describeCell(r, { zecrpc: 'Fastify' })} | ${load()}${bad ? ` | ${bad} FAILED` : ''}`);
    }
    if (failures) process.exitCode = 1;
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
