/**
 * Address index (insight explorer) costs, all measured in one run on the same machine:
 * 1. import slowdown: the same generated regtest chain (coinbases plus v1 transactions spending
 *    earlier outputs to a pool of P2PKH/P2SH addresses) imported with indexers
 *    [TxIndex, ChainStateIndex] and [TxIndex, ChainStateIndex, AddressIndex] (the store's
 *    default), with group commit as `zecrpc import` opens the store and with one batch per
 *    block; a warm-up pair (not counted: the first import compiles the store's code), then
 *    ROUNDS interleaved rounds (off first in even rounds, on first in odd ones, so whatever one
 *    import leaves behind — dirty pages, a collector's debt — weighs on both alike), the on/off
 *    ratio of import rates taken per round, median and min–max. The address index takes what
 *    an input spends from the chain state, so it never runs without it;
 * 2. index build rate of the version-4 migration (replay of a stored chain whose chain state,
 *    version 3, is built; the version-5 scan of the block records, which follows it, is
 *    counted too): that chain, and the real mainnet blocks 0..20;
 * 3. getaddressutxos / getaddresstxids requests per second, 10 calls in flight (method level,
 *    without HTTP), for the pool address with the most index entries in the chain's first
 *    QUERY_BLOCKS blocks;
 * 4. the same two calls over HTTP as a client sees them, for that address with 1,000 index
 *    entries (the store holds the chain up to the block of its 1,000th entry): zecrpc reading
 *    the LevelDB store as `zecrpc serve -experimentalfeatures -insightexplorer` does, in a child
 *    process, the load generator in processes of its own (bench/lib/load-generator.ts) at 10
 *    connections, against a node:net server in another child replaying
 *    zecrpc's exact replies (the ceiling); HTTP_ROUNDS interleaved rounds, ratio per round.
 *
 * The import chain is long enough for LevelDB to flush its 16 MiB write buffer to tables and
 * compact them during the run: on a shorter chain every write stays in memory,
 * and the index's real cost at scale (LevelDB's work for about twice the rows) would not be
 * measured; at 6,000 blocks one import takes ~0.6 s and rounds spread 0.67–0.85.
 *
 * Run: npx tsx bench/address-index.ts [blocks=20000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { MAINNET, REGTEST, type NetworkParams } from '../src/chain/network.js';
import { parseJson, type JsonValue } from '../src/json/index.js';
import { storeMethods } from '../src/rpc/methods/index.js';
import { NO_EXPERIMENTAL_FEATURES } from '../src/rpc/methods/control/experimental-features.js';
import { AddressIndex } from '../src/store/indexes/address-index.js';
import { AddressIndexReader } from '../src/store/indexes/address-index-reader.js';
import { ChainStateIndex } from '../src/store/indexes/chain-state-index.js';
import type { Indexer } from '../src/store/indexes/indexer.js';
import { TxIndex } from '../src/store/indexes/tx-index.js';
import { keys } from '../src/store/layout.js';
import { encodeVersionRecord, migrate } from '../src/store/migrations/index.js';
import { openChainStore } from '../src/store/index.js';
import { defaultPoolHashers } from '../src/state/hashers.js';
import { POOL, matureStart, nextNode, poolAddress, rng, type ChainNode } from '../test/support/address-index-chain.js';
import { mainnetChain } from '../test/support/store.js';
import { startChildServer, startReplayCeiling, type ChildServer, type RecordedReply } from './lib/child-server.js';
import { describeCell, failuresIn, interleavedRounds } from './lib/interleaved.js';
import { load, median } from './lib/measure.js';
import { captureReply, replyParts } from './lib/raw-http.js';

const BLOCKS = Number(process.argv[2] ?? 20000);
const QUERY_BLOCKS = Math.min(BLOCKS, 1500);
const ROUNDS = 7;
const HTTP_ROUNDS = 5;
const HTTP_SECONDS = 2;
/** Index entries of the address the HTTP measurement asks about. */
const ADDRESS_ENTRIES = 1000;

const random = rng(4242);
// Only the bytes are kept: each node holds its chain position's whole UTXO model, and 20,000 of
// them (≈ 2 GB) would make every collection during the imports slower than the imports.
const chain: Uint8Array[] = [];
// Genesis and 100 coinbase-only blocks, then BLOCKS that spend (coinbases once 100 blocks deep).
const prefix = matureStart('bench');
for (const n of prefix.slice(0, -1)) chain.push(n.block.bytes);
for (let node: ChainNode = prefix.at(-1)!, h = 0; h <= BLOCKS; h++) {
  chain.push(node.block.bytes);
  if (h < BLOCKS) node = nextNode(node, 'bench', random, 6);
}
console.log(`regtest chain: ${chain.length} blocks, ${(chain.reduce((s, b) => s + b.length, 0) / 1e6).toFixed(1)} MB`);

function tmp(label: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `zecrpc-bench-${label}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

async function importMs(
  indexers: Indexer[],
  blocks: readonly Uint8Array[],
  network: NetworkParams,
  keep = false,
  groupCommit = false,
): Promise<{ ms: number; dir: { path: string; remove(): void } }> {
  const dir = tmp('import');
  const addressIndex = indexers.some((i) => i instanceof AddressIndex);
  const store = await openChainStore({ datadir: dir.path, network, indexers, groupCommit, addressIndex });
  const t0 = performance.now();
  for (const b of blocks) await store.addBlock(b);
  await store.flush();
  const ms = performance.now() - t0;
  await store.close();
  if (!keep) dir.remove();
  return { ms, dir };
}

const chainState = (network: NetworkParams): ChainStateIndex => new ChainStateIndex({ network, hashers: defaultPoolHashers() });
const indexOff = (network: NetworkParams): Indexer[] => [new TxIndex(), chainState(network)];
const indexOn = (network: NetworkParams): Indexer[] => [new TxIndex(), chainState(network), new AddressIndex()];

// 1. Import with the index off and on, interleaved so machine noise hits both alike.
const rate = (ms: number): string => ((chain.length / ms) * 1000).toFixed(0);
for (const grouped of [true, false]) {
  const mode = grouped ? 'group commit (zecrpc import)' : 'one batch per block';
  const times = { off: [] as number[], on: [] as number[] };
  await importMs(indexOff(REGTEST), chain, REGTEST, false, grouped);
  await importMs(indexOn(REGTEST), chain, REGTEST, false, grouped);
  for (let r = 0; r < ROUNDS; r++) {
    for (const mode of r % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      times[mode].push((await importMs(mode === 'on' ? indexOn(REGTEST) : indexOff(REGTEST), chain, REGTEST, false, grouped)).ms);
    }
  }
  const ratios = times.on.map((on, i) => times.off[i]! / on);
  const slowdowns = times.on.map((on, i) => (on / times.off[i]! - 1) * 100);
  console.log(`import, ${mode}, index off: ${rate(median(times.off))} blocks/s (median of ${ROUNDS}, ${load()})`);
  console.log(`import, ${mode}, index on:  ${rate(median(times.on))} blocks/s (median of ${ROUNDS})`);
  console.log(
    `import rate with / without the address index, ${mode}: ${median(ratios).toFixed(2)}× ` +
      `(min–max ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}; per round ${ratios.map((x) => x.toFixed(2)).join(', ')}; ` +
      `target ≥ 0.80×, i.e. at most 25 % slower: median slowdown ${median(slowdowns).toFixed(1)} %)`,
  );
}

// 2. Build rate: a store imported with its chain state but without the index, marked version 3,
// migrated to version 4.
async function buildRate(blocks: readonly Uint8Array[], network: NetworkParams, label: string): Promise<void> {
  const { dir } = await importMs(indexOff(network), blocks, network, true);
  const db = new ClassicLevel<Buffer, Buffer>(join(dir.path, 'zecrpc', 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
  await db.open();
  // A store from before version 4 has no record of keeping no index.
  await db.del(keys.noAddressIndex());
  await db.put(keys.version(), encodeVersionRecord(3, network.name));
  const t0 = performance.now();
  await migrate(db, 3, network.name, () => undefined);
  const ms = performance.now() - t0;
  await db.close();
  dir.remove();
  console.log(
    `index build (v4-v5 migrations), ${label}: ${((blocks.length / ms) * 1000).toFixed(0)} blocks/s (${blocks.length} blocks in ${ms.toFixed(0)} ms)`,
  );
}
await buildRate(chain, REGTEST, 'regtest chain');
await buildRate(mainnetChain(), MAINNET, 'real mainnet blocks 0..20');

// 3. Query throughput for the busiest pool address.
{
  const { dir } = await importMs(indexOn(REGTEST), chain.slice(0, QUERY_BLOCKS + 1), REGTEST, true);
  const store = await openChainStore({ datadir: dir.path, network: REGTEST, indexers: indexOn(REGTEST) });
  // A freshly imported store serves ranges from many level-0 files; a long-running one has been
  // compacted. Measure that steady state.
  await store.database.compactRange(Buffer.of(0x00), Buffer.of(0xff));
  const reader = new AddressIndexReader(store.database);
  let busiest = 0;
  let entries = 0;
  for (const [i, a] of POOL.entries()) {
    const n = (await reader.deltas(a.type, a.hash, 0, 0)).length;
    if (n > entries) [busiest, entries] = [i, n];
  }
  const unspent = (await reader.unspent(POOL[busiest]!.type, POOL[busiest]!.hash)).length;
  const methods = new Map(
    storeMethods(store, { features: { ...NO_EXPERIMENTAL_FEATURES, insightExplorer: true } }).map((m) => [m.name, m]),
  );
  const params = parseJson(`["${poolAddress(busiest)}"]`) as JsonValue[];
  for (const name of ['getaddressutxos', 'getaddresstxids']) {
    const m = methods.get(name)!;
    const ctx = { network: REGTEST, requestStop: () => {} };
    const until = performance.now() + 2000;
    let done = 0;
    const worker = async (): Promise<void> => {
      while (performance.now() < until) {
        await m.call(params, ctx);
        done++;
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 10 }, worker));
    const s = (performance.now() - t0) / 1000;
    console.log(`${name}: ${(done / s).toFixed(0)} req/s, 10 in flight, address with ${entries} index entries (${unspent} unspent)`);
  }
  // The block of the address's 1,000th entry (its last on a chain too short for 1,000): the
  // store cut there holds that entry and the rest of its block, the count printed below.
  const busiestDeltas = await reader.deltas(POOL[busiest]!.type, POOL[busiest]!.hash, 0, 0);
  const cutHeight = busiestDeltas[Math.min(ADDRESS_ENTRIES, busiestDeltas.length) - 1]!.height;
  await store.close();
  dir.remove();
  await overHttp(busiest, cutHeight);
}

/** Section 4: the address of pool entry `address`, on the chain up to `cutHeight`. */
async function overHttp(address: number, cutHeight: number): Promise<void> {
  const { dir } = await importMs(indexOn(REGTEST), chain.slice(0, cutHeight + 1), REGTEST, true);
  const children: ChildServer[] = [];
  try {
    const { type, hash } = POOL[address]!;
    let entries: number;
    let unspent: number;
    const store = await openChainStore({ datadir: dir.path, network: REGTEST, indexers: indexOn(REGTEST) });
    try {
      await store.database.compactRange(Buffer.of(0x00), Buffer.of(0xff));
      const reader = new AddressIndexReader(store.database);
      entries = (await reader.deltas(type, hash, 0, 0)).length;
      unspent = (await reader.unspent(type, hash)).length;
    } finally {
      await store.close();
    }
    const zecrpc = await startChildServer('bench/lib/zecrpc-server.ts', {
      SERVE: 'datadir',
      DATADIR: dir.path,
      NETWORK: 'regtest',
      INSIGHT: '1',
    });
    children.push(zecrpc);
    const bodies = ['getaddressutxos', 'getaddresstxids'].map((method) => ({
      method,
      body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params: [poolAddress(address)] }),
    }));
    const recorded: RecordedReply[] = [];
    const replyBytes = new Map<string, number>();
    for (const { method, body } of bodies) {
      const reply = await captureReply(zecrpc.port, body);
      const parsed = JSON.parse(replyParts(reply).body.toString('utf8')) as { result: unknown[] | null; error: unknown };
      if (reply.status !== 200 || !Array.isArray(parsed.result)) throw new Error(`${method} over HTTP answered ${reply.status}`);
      recorded.push({ body, reply: reply.bytes.toString('base64') });
      replyBytes.set(body, reply.bytes.length);
      console.log(`${method} over HTTP: reply ${reply.bytes.length.toLocaleString('en-US')} bytes, ${parsed.result.length} items`);
    }
    const ceiling = await startReplayCeiling(dir.path, recorded);
    children.push(ceiling);
    const targets = [
      { name: 'ceiling', port: ceiling.port, pid: ceiling.pid },
      { name: 'zecrpc', port: zecrpc.port, pid: zecrpc.pid },
    ];
    for (const { method, body } of bodies) {
      const r = await interleavedRounds(targets, body, replyBytes.get(body)!, 10, HTTP_ROUNDS, HTTP_SECONDS);
      const bad = failuresIn(r.runs.get('ceiling')!) + failuresIn(r.runs.get('zecrpc')!);
      console.log(
        `${method} over HTTP, 10 conn, address with ${entries} index entries (${unspent} unspent), served from LevelDB, ${HTTP_ROUNDS} interleaved rounds: ` +
          `${describeCell(r, { zecrpc: 'zecrpc' })} | ${load()}${bad ? ` | ${bad} FAILED requests` : ''}`,
      );
      if (bad) process.exitCode = 1;
    }
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    dir.remove();
  }
}
