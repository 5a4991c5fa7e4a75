/**
 * Chain store import under full validation, and what each part of it costs.
 * Run: npx tsx bench/store-import.ts [regtestBlocks=1200] [--quick]
 *
 * 1. The real mainnet chain 0..20 (lightwalletd mainnet_genesis): addBlock into fresh stores with
 *    everything on (Equihash (200,9), chain state, address index), one batch per block with
 *    solutions checked inline, and as `zecrpc import` runs (group commit, a solution thread).
 * 2. A mined regtest chain (test-vectors/regtest-builder.ts, Equihash (48,5)) whose v1
 *    transactions spend real earlier outputs (test/store/address-index-chain.ts), imported with
 *    (a) everything on, (b) Equihash off, (c) chain state off (TxIndex only), (d) address index
 *    off (TxIndex + ChainStateIndex), (e) everything on with group commit and a solution thread,
 *    as `zecrpc import` opens the store (many blocks per LevelDB batch, written while the next
 *    are validated; Equihash (48,5) is too cheap for the thread to matter here). The
 *    five run interleaved, ROUNDS times, each round starting one configuration later (so none is
 *    always first or always after the same one); each figure is the median, and its ratio is
 *    against (c) from the same run; (e) is also compared with (a) round by round.
 *    A coinbase-only chain of the same length is imported with everything on, so per-block and
 *    per-transaction costs can be told apart: per block = empty chain / blocks, per transaction =
 *    (full chain − empty chain) / transactions.
 * 3. Block bytes in flat files vs as LevelDB values (import and random-read serving), and the
 *    blk-file importer end to end.
 * 4. Equihash (200,9) verification on every real mainnet header in the vectors (the approach of
 *    bench/equihash.ts, default backend only), and (48,5) on the regtest headers: regtest's
 *    solutions are far cheaper, so the "Equihash off" ratio understates mainnet's share.
 * 5. Coins-view lookups (LevelDB getSync of `c` keys, as ChainStateIndex reads them) per second
 *    right after reopening the store, then again warm.
 * The full-mainnet projection is bench/import-eras.ts's, from era-shaped chains.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ClassicLevel } from 'classic-level';
import { join } from 'node:path';
import { MAINNET, REGTEST } from '../src/chain/network.js';
import { decodeBlock } from '../src/codec/block.js';
import { verifyEquihash } from '../src/crypto/equihash.js';
import { sha256 } from '../src/crypto/hash.js';
import { defaultPoolHashers } from '../src/state/hashers.js';
import { ChainStateIndex, chainStateKeys, encodeCoin } from '../src/store/indexes/chain-state-index.js';
import type { Indexer } from '../src/store/indexes/indexer.js';
import { TxIndex } from '../src/store/indexes/tx-index.js';
import { importBlkFiles, openChainStore, type ChainStoreOptions } from '../src/store/index.js';
import { matureStart, nextNode, rng, type ChainNode } from '../test/support/address-index-chain.js';
import { mainnetChain } from '../test/support/store.js';
import { buildChain, regtestGenesis } from '../test-vectors/regtest-builder.js';
import { readHexVector, realBlockFiles } from '../test/support/vectors.js';
import { cpuMicrosPerUnit, fmt, load, median, positional, QUICK } from './lib/measure.js';

const MB = 1024 * 1024;
const BLOCKS = Number(positional()[0] ?? (QUICK ? 100 : 1200));
/** One import of the 1,201-block chain takes 0.15–0.4 s, so seven rounds cost seconds and steady the medians. */
const ROUNDS = QUICK ? 1 : 7;
/** Spending transactions per block: 0..8, ≈ 4 on average, each 1–3 inputs and 1–3 outputs. */
const MAX_TXS_PER_BLOCK = 8;

const root = mkdtempSync(join(tmpdir(), 'zecrpc-bench-store-'));
let dirs = 0;
const freshDir = (): string => join(root, `d${dirs++}`);

function report(label: string, blocks: number, bytes: number, ms: number, extra = ''): void {
  console.log(
    `${label.padEnd(60)} ${fmt((blocks / ms) * 1000).padStart(7)} blocks/s ${((bytes / MB / ms) * 1000).toFixed(2).padStart(7)} MB/s  (${fmt(blocks)} blocks, ${(bytes / MB).toFixed(1)} MB, median ${fmt(ms)} ms${extra}; ${load()})`,
  );
}

type Config = 'all' | 'noEquihash' | 'noChainState' | 'noAddressIndex' | 'grouped';
const CONFIG_LABEL: Record<Config, string> = {
  all: '(a) everything on',
  grouped: '(e) everything on, group commit (as `zecrpc import`)',
  noEquihash: '(b) Equihash off',
  noChainState: '(c) chain state off (TxIndex only)',
  noAddressIndex: '(d) address index off (TxIndex + ChainStateIndex)',
};

/** Store options for a configuration; indexers are fresh per store (ChainStateIndex caches its tip). */
function options(config: Config, datadir: string, network = REGTEST): ChainStoreOptions {
  const base = { datadir, network };
  switch (config) {
    case 'all':
      return base;
    case 'grouped':
      return { ...base, groupCommit: true, solutionThreads: 1 };
    case 'noEquihash':
      return { ...base, verifySolutions: false };
    case 'noChainState':
      return { ...base, indexers: [new TxIndex()], addressIndex: false };
    case 'noAddressIndex': {
      const indexers: Indexer[] = [new TxIndex(), new ChainStateIndex({ network, hashers: defaultPoolHashers() })];
      return { ...base, indexers, addressIndex: false };
    }
  }
}

/** Imports `blocks` into a new store (closed afterwards); returns the wall time of the addBlock calls in ms. */
async function importInto(opts: ChainStoreOptions, blocks: readonly Uint8Array[]): Promise<number> {
  const store = await openChainStore(opts);
  // Steady state of an import: the solution thread (if any) runs ahead of the blocks being
  // connected, so their verdicts are ready. Its start-up (≈ 0.2 s under tsx, once per import)
  // is left out: on 21 blocks it would be all there is to measure.
  for (const b of blocks) store.prefetch(b);
  await store.prefetchSettled();
  const t0 = performance.now();
  for (const b of blocks) {
    const r = await store.addBlock(b);
    if (r.status !== 'connected') throw new Error(`block at ${r.height} not connected: ${r.status}`);
  }
  // Group commit's last blocks are written before the clock stops: the time covers every write.
  await store.flush();
  const ms = performance.now() - t0;
  await store.close();
  return ms;
}

// ---- 1. Real mainnet 0..20 (Equihash (200,9) headers), everything on: one batch per block and
// solutions checked inline, against `zecrpc import`'s way (group commit, a solution thread
// that has checked the blocks read ahead), interleaved.
{
  const chain = mainnetChain();
  const bytes = chain.reduce((s, b) => s + b.length, 0);
  const samples = { inline: [] as number[], ahead: [] as number[] };
  for (let i = 0; i < (QUICK ? 3 : 15); i++) {
    for (const mode of ['inline', 'ahead'] as const) {
      const dir = freshDir();
      const opts: ChainStoreOptions =
        mode === 'inline' ? { datadir: dir, network: MAINNET } : { datadir: dir, network: MAINNET, groupCommit: true, solutionThreads: 1 };
      samples[mode].push(await importInto(opts, chain));
      rmSync(dir, { recursive: true, force: true });
    }
  }
  report(`mainnet 0..20 (real), everything on, ${samples.inline.length} fresh stores`, chain.length, bytes, median(samples.inline));
  const perRound = samples.inline.map((a, i) => a / samples.ahead[i]!);
  report(
    'mainnet 0..20 (real), as `zecrpc import` (group commit, solutions ahead)',
    chain.length,
    bytes,
    median(samples.ahead),
    `, ${median(perRound).toFixed(2)}× the line above per round (${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)})`,
  );
}

// ---- 2. Mined regtest chains: transactions spending real earlier outputs, and coinbase-only.
const buildStart = performance.now();
const random = rng(20261123);
// Genesis and 100 coinbase-only blocks, then BLOCKS that spend (coinbases once 100 blocks deep).
const nodes: ChainNode[] = matureStart('bench');
for (let h = 1; h <= BLOCKS; h++) nodes.push(nextNode(nodes.at(-1)!, 'bench', random, MAX_TXS_PER_BLOCK));
const chain = nodes.map((n) => n.block.bytes);
const chainBytes = chain.reduce((s, b) => s + b.length, 0);
const txCount = chain.reduce((s, b) => s + decodeBlock(b).transactions.length, 0);
const genesis = regtestGenesis();
const emptyChain = [genesis.bytes, ...buildChain(genesis, nodes.length - 1, 'bench-empty').map((b) => b.bytes)];
const emptyBytes = emptyChain.reduce((s, b) => s + b.length, 0);
console.log(
  `regtest chain: ${fmt(chain.length)} mined blocks, ${fmt(txCount)} transactions (${fmt(txCount - chain.length)} spending earlier outputs), ` +
    `${(chainBytes / MB).toFixed(2)} MB; coinbase-only twin ${(emptyBytes / MB).toFixed(2)} MB; built in ${fmt(performance.now() - buildStart)} ms`,
);

const CONFIGS: Config[] = ['noChainState', 'all', 'noEquihash', 'noAddressIndex', 'grouped'];
// Warm-up: JIT, lazily built hasher tables and empty roots, so the first measured configuration
// does not pay for what every later one reuses.
for (const config of CONFIGS) {
  const dir = freshDir();
  await importInto(options(config, dir), chain.slice(0, Math.min(chain.length, 60)));
  rmSync(dir, { recursive: true, force: true });
}
const samples: Record<Config | 'empty' | 'emptyGrouped', number[]> = {
  all: [],
  noEquihash: [],
  noChainState: [],
  noAddressIndex: [],
  grouped: [],
  empty: [],
  emptyGrouped: [],
};
let keptDir: string | null = null;
for (let round = 0; round < ROUNDS; round++) {
  const order = CONFIGS.map((_, i) => CONFIGS[(i + round) % CONFIGS.length]!);
  for (const config of order) {
    const dir = freshDir();
    samples[config].push(await importInto(options(config, dir), chain));
    // The last full store stays for the coins-view lookups below.
    if (config === 'all' && round === ROUNDS - 1) keptDir = dir;
    else rmSync(dir, { recursive: true, force: true });
  }
  const dir = freshDir();
  samples.empty.push(await importInto(options('all', dir), emptyChain));
  rmSync(dir, { recursive: true, force: true });
  const groupedDir = freshDir();
  samples.emptyGrouped.push(await importInto(options('grouped', groupedDir), emptyChain));
  rmSync(groupedDir, { recursive: true, force: true });
}
const ms = (c: Config | 'empty' | 'emptyGrouped'): number => median(samples[c]);
const baseRate = chain.length / ms('noChainState');
for (const config of CONFIGS) {
  const ratio = chain.length / ms(config) / baseRate;
  report(
    `regtest + spends, ${CONFIG_LABEL[config]}`,
    chain.length,
    chainBytes,
    ms(config),
    `, ${ratio.toFixed(2)}× (c), ${fmt((txCount / ms(config)) * 1000)} tx/s`,
  );
}
{
  const perRound = samples.all.map((a, i) => a / samples.grouped[i]!);
  console.log(
    `group commit (e) vs one batch per block (a), everything on: ${median(perRound).toFixed(2)}× ` +
      `(per round ${perRound.map((r) => r.toFixed(2)).join(', ')}; target ≥ 2×)`,
  );
}
report('regtest coinbase-only, everything on', emptyChain.length, emptyBytes, ms('empty'));
const perBlockUs = (ms('empty') * 1000) / emptyChain.length;
const perTxUs = ((ms('all') - ms('empty')) * 1000) / (txCount - chain.length);
const groupedPerBlockUs = (ms('emptyGrouped') * 1000) / emptyChain.length;
const groupedPerTxUs = ((ms('grouped') - ms('emptyGrouped')) * 1000) / (txCount - chain.length);
console.log(
  `cost model (everything on, median of ${ROUNDS}): ${perBlockUs.toFixed(0)} µs per block (coinbase-only, Equihash (48,5) included) + ${perTxUs.toFixed(0)} µs per spending transaction; ` +
    `with group commit ${groupedPerBlockUs.toFixed(0)} µs + ${groupedPerTxUs.toFixed(0)} µs`,
);
console.log(
  `chain state + address index share of import time: ${(((ms('all') - ms('noChainState')) / ms('all')) * 100).toFixed(0)} %; ` +
    `address index alone ${(((ms('all') - ms('noAddressIndex')) / ms('all')) * 100).toFixed(0)} %; Equihash (48,5) ${(((ms('all') - ms('noEquihash')) / ms('all')) * 100).toFixed(0)} %`,
);

// ---- 3. Flat files vs LevelDB values, and the blk-file importer.
{
  const imp: Record<'flat' | 'leveldb', number[]> = { flat: [], leveldb: [] };
  const reads: Record<'flat' | 'leveldb', { perSec: number[]; mbps: number[] }> = {
    flat: { perSec: [], mbps: [] },
    leveldb: { perSec: [], mbps: [] },
  };
  for (let round = 0; round < (QUICK ? 1 : 2); round++) {
    for (const kind of ['flat', 'leveldb'] as const) {
      const datadir = freshDir();
      imp[kind].push(await importInto({ ...options('noChainState', datadir), blockData: kind }, chain));
      // Serving: reopen (cold index cache), then random blockBytes reads, 8 in flight like concurrent RPCs.
      const reader = await openChainStore({ datadir, network: REGTEST, blockData: kind, indexers: [new TxIndex()], addressIndex: false });
      const count = QUICK ? 800 : 8000;
      let readBytes = 0;
      let k = 12345 + round;
      const t1 = performance.now();
      const worker = async (n: number): Promise<void> => {
        for (let i = 0; i < n; i++) {
          k = (k * 1103515245 + 12345) & 0x7fffffff;
          const hash = await reader.hashAtHeight(k % chain.length);
          readBytes += (await reader.blockBytes(hash!))!.length;
        }
      };
      await Promise.all(Array.from({ length: 8 }, () => worker(count / 8)));
      const readMs = performance.now() - t1;
      reads[kind].perSec.push((count / readMs) * 1000);
      reads[kind].mbps.push((readBytes / MB / readMs) * 1000);
      await reader.close();
      rmSync(datadir, { recursive: true, force: true });
    }
  }
  for (const kind of ['flat', 'leveldb'] as const) {
    const where = kind === 'flat' ? 'flat files' : 'LevelDB values';
    report(`regtest + spends, (c), bytes in ${where}`, chain.length, chainBytes, median(imp[kind]));
    console.log(
      `  serving from ${where}: ${fmt(median(reads[kind].perSec))} random block reads/s, ${median(reads[kind].mbps).toFixed(1)} MB/s (8 in flight; ${load()})`,
    );
  }

  const dir = freshDir();
  mkdirSync(dir, { recursive: true });
  const framed = Buffer.concat(
    chain.flatMap((b) => {
      const h = Buffer.alloc(8);
      h.set(REGTEST.magic, 0);
      h.writeUInt32LE(b.length, 4);
      return [h, Buffer.from(b)];
    }),
  );
  writeFileSync(join(dir, 'blk00000.dat'), framed);
  const store = await openChainStore({ datadir: join(dir, 'data'), network: REGTEST });
  const t0 = performance.now();
  const r = await importBlkFiles(store, dir, { progress: 'silent' });
  if (r.added !== chain.length) throw new Error(`blk import added ${r.added} of ${chain.length} blocks`);
  report('regtest + spends, (a), blk-file importer end to end (1 run)', r.added, r.bytes, performance.now() - t0);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

// ---- 4. Equihash per header.
const mainnetHeaders = realBlockFiles().map((f) => decodeBlock(readHexVector(f.file)).header);
const eq200 = cpuMicrosPerUnit(
  () => {
    for (const h of mainnetHeaders) {
      const r = verifyEquihash(200, 9, h.bytes.subarray(0, 140), h.solution);
      if (!r.ok) throw new Error(`real header rejected: ${r.reason}`);
    }
  },
  mainnetHeaders.length,
  3,
  QUICK ? 0.1 : 0.5,
);
const regtestHeaders = chain.slice(1).map((b) => decodeBlock(b).header);
const eq48 = cpuMicrosPerUnit(
  () => {
    for (const h of regtestHeaders) {
      const r = verifyEquihash(48, 5, h.bytes.subarray(0, 140), h.solution);
      if (!r.ok) throw new Error(`mined header rejected: ${r.reason}`);
    }
  },
  regtestHeaders.length,
  3,
  QUICK ? 0.1 : 0.3,
);
console.log(
  `Equihash (200,9) verification, ${mainnetHeaders.length} real mainnet headers: ${eq200.toFixed(1)} µs/header (CPU, median of 3; ${load()})`,
);
console.log(
  `Equihash (48,5) verification, ${regtestHeaders.length} mined regtest headers: ${eq48.toFixed(1)} µs/header (CPU, median of 3; ${load()})`,
);

// ---- 5. Coins-view lookups after reopening the store.
{
  const store = await openChainStore({ datadir: keptDir!, network: REGTEST });
  const unspent = nodes[nodes.length - 1]!.utxos;
  const keyList = unspent.map((u) => chainStateKeys.coin(u.txid, u.n));
  // A fixed shuffle, so reads do not follow key order.
  const order = keyList.map((_, i) => i);
  const pick = rng(7);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(pick() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const pass = (): number => {
    const t0 = performance.now();
    for (const i of order) if (!store.database.getSync(keyList[i]!)) throw new Error('an unspent output is missing from the coins view');
    return (order.length / (performance.now() - t0)) * 1000;
  };
  const cold = pass();
  const warm = median([pass(), pass(), pass()]);
  console.log(
    `coins-view lookups (getSync of c keys): ${fmt(cold)}/s right after reopening, ${fmt(warm)}/s warm (${fmt(order.length)} coins, in shuffled order; ${load()})`,
  );
  await store.close();
  rmSync(keptDir!, { recursive: true, force: true });
}

// A coins view larger than LevelDB's 8 MB block cache, as mainnet's is: COINS coin records
// written with the store's own encoding (P2PKH outputs), the database closed and reopened, then
// random lookups, half of them for outpoints that are not there (spent or never existed).
{
  const COINS = QUICK ? 20_000 : 300_000;
  const dir = freshDir();
  const open = async (): Promise<ClassicLevel<Buffer, Buffer>> => {
    const db = new ClassicLevel<Buffer, Buffer>(dir, { keyEncoding: 'buffer', valueEncoding: 'buffer' });
    await db.open();
    return db;
  };
  const txidOf = (i: number): Uint8Array => sha256(Buffer.from(`coin ${i}`));
  let db = await open();
  const script = Uint8Array.from([0x76, 0xa9, 0x14, ...new Uint8Array(20).fill(9), 0x88, 0xac]);
  for (let i = 0; i < COINS; i += 10_000) {
    const batch = db.batch();
    for (let j = i; j < Math.min(COINS, i + 10_000); j++) {
      batch.put(
        chainStateKeys.coin(txidOf(j), j % 3),
        encodeCoin({ value: 1000 + j, height: j >> 4, coinbase: false, scriptPubKey: script }),
      );
    }
    await batch.write();
  }
  await db.close();
  db = await open();
  const pick = rng(99);
  const LOOKUPS = QUICK ? 5_000 : 50_000;
  const probes = Array.from({ length: LOOKUPS }, (_, i) => {
    const j = Math.floor(pick() * COINS);
    return chainStateKeys.coin(txidOf(j), i % 2 === 0 ? j % 3 : 3);
  });
  const pass = (): number => {
    const t0 = performance.now();
    let found = 0;
    for (const k of probes) if (db.getSync(k)) found++;
    if (found !== LOOKUPS / 2) throw new Error(`expected ${LOOKUPS / 2} hits, got ${found}`);
    return (LOOKUPS / (performance.now() - t0)) * 1000;
  };
  const cold = pass();
  const warm = pass();
  console.log(
    `coins-view lookups, ${fmt(COINS)}-coin view reopened: ${fmt(cold)}/s first pass, ${fmt(warm)}/s second pass ` +
      `(${fmt(LOOKUPS)} random getSync, half misses; OS page cache not dropped; ${load()})`,
  );
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}

// ---- 6. No mainnet projection here: these chains' v1 transactions of 1–3 inputs and outputs and
// 36-byte solutions are not mainnet's composition. bench/import-eras.ts projects full mainnet
// from unit costs measured on era-shaped chains (bench/results/import-projection.json).
rmSync(root, { recursive: true, force: true });
