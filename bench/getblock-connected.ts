/**
 * getblock of a large *connected* block from a real LevelDB store, served as `zecrpc serve`
 * serves it (verified reads), measured from outside:
 *
 *   npx tsx bench/getblock-connected.ts [--seconds=0.5] [--rounds=5] [--quick]      (about 90 s)
 *
 * The block (bench/lib/connected-large-block.ts) has mainnet 106598's shape — 1.37 MB, 41
 * transactions, 9,250 transparent inputs — on a regtest chain the store connects, so it has the
 * chain-state record every block of a synced node has. Three servers in child processes serve
 * copies of the same store: replies cached; uncached from the index (verbosity 1 without reading
 * the block: header, verified txid list, chain state); uncached through the decode path (read,
 * decode, verify the merkle root, render — the in-run baseline). A ceiling in another child
 * replays the exact reply bytes. Interleaved rounds; ratios taken per round, median and min–max.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toHexReversed } from '../src/codec/hex.js';
import { startChildServer, startReplayCeiling, type ChildServer } from './lib/child-server.js';
import { LARGE_BLOCK_INPUTS, LARGE_BLOCK_TXS, writeConnectedLargeBlockStore } from './lib/connected-large-block.js';
import { describeCell, failuresIn, interleavedRounds } from './lib/interleaved.js';
import { fmt, load, numberFlag, QUICK, spread } from './lib/measure.js';
import { captureReply, replyParts } from './lib/raw-http.js';

const SECONDS = numberFlag('seconds', QUICK ? 0.15 : 0.5);
const ROUNDS = numberFlag('rounds', QUICK ? 1 : 5);
const CONNECTIONS = [1, 10];

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'zecrpc-bench-connected-'));
  const children: ChildServer[] = [];
  try {
    const store = join(root, 'store');
    const block = await writeConnectedLargeBlockStore(store);
    const hash = toHexReversed(block.hash);
    console.log(
      `block regtest ${block.height}: ${fmt(block.bytes.length)} bytes, ${LARGE_BLOCK_TXS} txs, ${fmt(LARGE_BLOCK_INPUTS)} transparent inputs (mainnet 106598's shape), connected in a LevelDB store and served from LevelDB`,
    );
    const server = async (name: string, env: Record<string, string>): Promise<ChildServer> => {
      const datadir = join(root, name);
      cpSync(store, datadir, { recursive: true });
      const child = await startChildServer('bench/lib/zecrpc-server.ts', {
        SERVE: 'datadir',
        NETWORK: 'regtest',
        DATADIR: datadir,
        ...env,
      });
      children.push(child);
      return child;
    };
    const cached = await server('cached', { CACHE: '1' });
    const fromIndex = await server('index', { CACHE: '0', SUMMARY: '1' });
    const decoded = await server('decoded', { CACHE: '0', SUMMARY: '0' });

    const recorded: { body: string; reply: string }[] = [];
    const replyBytes = new Map<number, number>();
    for (const v of [1, 2]) {
      const body = `{"jsonrpc":"1.0","id":1,"method":"getblock","params":["${hash}",${v}]}`;
      const replies = await Promise.all([cached, fromIndex, decoded].map((c) => captureReply(c.port, body)));
      const bodies = replies.map((r) => replyParts(r).body);
      if (replies.some((r) => r.status !== 200) || !bodies.every((b) => b.equals(bodies[0]!)) || !bodies[0]!.includes(`"hash":"${hash}"`)) {
        throw new Error(`getblock ${v}: the three servers do not give the same successful reply`);
      }
      recorded.push({ body, reply: replies[0]!.bytes.toString('base64') });
      replyBytes.set(v, replies[0]!.bytes.length);
    }
    const ceiling = await startReplayCeiling(root, recorded);
    children.push(ceiling);

    const targets = [
      { name: 'ceiling', port: ceiling.port, pid: ceiling.pid },
      { name: 'cached', port: cached.port, pid: cached.pid },
      { name: 'index', port: fromIndex.port, pid: fromIndex.pid },
      { name: 'decoded', port: decoded.port, pid: decoded.pid },
    ];
    let failures = 0;
    for (const v of [1, 2]) {
      const body = recorded[v - 1]!.body;
      for (const c of v === 1 ? CONNECTIONS : [1]) {
        const r = await interleavedRounds(targets, body, replyBytes.get(v)!, c, ROUNDS, SECONDS);
        failures += targets.reduce((a, t) => a + failuresIn(r.runs.get(t.name)!), 0);
        const index = r.runs.get('index')!;
        const speedup = spread(index.map((run, i) => run.rate / r.runs.get('decoded')![i]!.rate));
        console.log(
          `connected-large v${v} ${String(c).padStart(2)} conn: ${describeCell(r, { cached: 'cached', index: 'uncached from the index', decoded: 'uncached decode path' })} | ` +
            `index ÷ decode path ${speedup.median.toFixed(2)}× (${speedup.min.toFixed(2)}–${speedup.max.toFixed(2)}) | ${load()}`,
        );
      }
    }
    if (failures) {
      console.log(`${failures} requests failed or answered something other than the recorded reply`);
      process.exitCode = 1;
    }
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
