/**
 * What the record checksums (src/store/record-checksums.ts) cost: an import as `zecrpc import`
 * runs it (group commit, everything on) and uncached `getblock <hash> 1` of every block, each
 * with checksums on and off in the same run.
 *
 *   npx tsx bench/record-checksums.ts [spendingBlocks=600] [--quick]
 *
 * The chain is the store-import bench's (test/support/address-index-chain.ts: genesis, 100
 * coinbase-only blocks, then blocks spending real earlier outputs). "Off" is the same store
 * with its checksum state switched off right after creation, before any block: nothing sealed on
 * write, nothing checked on read; such a store exists only here. The two run interleaved,
 * ROUNDS times, alternating which goes first; the figures are medians and the ratio is on / off.
 * Times are this process's CPU time (user + system, LevelDB's own threads included): on a
 * machine shared with other work, wall time varies several-fold between identical runs.
 * Results: bench/results/record-checksums.md.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REGTEST } from '../src/chain/network.js';
import { decodeBlock } from '../src/codec/block.js';
import { toHexReversed } from '../src/codec/hex.js';
import { parseJson, type JsonValue } from '../src/json/index.js';
import { storeMethods } from '../src/rpc/methods/index.js';
import { openChainStore, type ChainStore } from '../src/store/index.js';
import { hasValidChecksum, SealingScratch, sealValue, type RecordChecksums } from '../src/store/record-checksums.js';
import { verifiedStoreReader } from '../src/store/verify.js';
import { matureStart, nextNode, rng, type ChainNode } from '../test/support/address-index-chain.js';
import { cpuMicros, cpuMicrosPerUnit, fmt, load, median, positional, QUICK } from './lib/measure.js';

const SPENDING_BLOCKS = Number(positional()[0] ?? (QUICK ? 100 : 600));
const ROUNDS = QUICK ? 1 : 7;
const GETBLOCK_PASSES = QUICK ? 2 : 10;
type Mode = 'on' | 'off';

const root = mkdtempSync(join(tmpdir(), 'zecrpc-bench-checksums-'));
let dirs = 0;

const nodes: ChainNode[] = matureStart('checksums');
const random = rng(20261129);
for (let h = 1; h <= SPENDING_BLOCKS; h++) nodes.push(nextNode(nodes.at(-1)!, 'checksums', random, 8));
const chain = nodes.map((n) => n.block.bytes);
const hashes = chain.map((b) => toHexReversed(decodeBlock(b).hash));

async function openStore(datadir: string, mode: Mode): Promise<ChainStore> {
  const store = await openChainStore({ datadir, network: REGTEST, groupCommit: true, verifySolutions: false });
  if (mode === 'off') {
    const state = (store as unknown as { db: { checksums: RecordChecksums } }).db.checksums;
    state.sealed = false;
    state.decoding = false;
  }
  return store;
}

/** Imports the chain into a fresh store; returns the milliseconds and the store, still open. */
async function importChain(mode: Mode): Promise<{ ms: number; store: ChainStore; dir: string }> {
  const dir = join(root, `d${dirs++}`);
  const store = await openStore(dir, mode);
  const started = cpuMicros();
  for (const b of chain) await store.addBlock(b);
  await store.flush();
  return { ms: (cpuMicros() - started) / 1000, store, dir };
}

/** Microseconds per uncached `getblock <hash> 1`, over every block of the chain, GETBLOCK_PASSES times. */
async function getblockMicros(store: ChainStore): Promise<number> {
  const getblock = storeMethods(verifiedStoreReader(store), { cacheReplies: false }).find((m) => m.name === 'getblock')!;
  const ctx = { network: REGTEST, requestStop: () => undefined };
  const params = hashes.map((h) => parseJson(`["${h}",1]`) as JsonValue[]);
  const started = cpuMicros();
  for (let pass = 0; pass < GETBLOCK_PASSES; pass++) for (const p of params) await getblock.call(p, ctx as never);
  return (cpuMicros() - started) / (GETBLOCK_PASSES * params.length);
}

const samples: Record<Mode, { importMs: number[]; getblockUs: number[] }> = {
  on: { importMs: [], getblockUs: [] },
  off: { importMs: [], getblockUs: [] },
};
try {
  // Warm-up: JIT and lazily built tables, for neither mode to pay them first.
  for (const mode of ['on', 'off'] as const) {
    const { store, dir } = await importChain(mode);
    await getblockMicros(store);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
      const { ms, store, dir } = await importChain(mode);
      samples[mode].importMs.push(ms);
      samples[mode].getblockUs.push(await getblockMicros(store));
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

/** The operations alone: CPU ns to seal (on write) and to check (on read) one value of each size. */
const scratch = new SealingScratch();
const perValue = [8, 40, 200, 2000].map((size) => {
  const value = Buffer.alloc(size, 0x5a);
  const sealed = sealValue(value);
  const seal =
    cpuMicrosPerUnit(
      () => {
        for (let i = 0; i < 1000; i++) scratch.seal(value);
      },
      1000,
      5,
      QUICK ? 0.02 : 0.2,
    ) * 1000;
  const check =
    cpuMicrosPerUnit(
      () => {
        for (let i = 0; i < 1000; i++) hasValidChecksum(sealed);
      },
      1000,
      5,
      QUICK ? 0.02 : 0.2,
    ) * 1000;
  return `| ${size} | ${seal.toFixed(0)} | ${check.toFixed(0)} |`;
});

const importOn = median(samples.on.importMs);
const importOff = median(samples.off.importMs);
const getblockOn = median(samples.on.getblockUs);
const getblockOff = median(samples.off.getblockUs);
const pct = (on: number, off: number): string => `${((on / off - 1) * 100).toFixed(1)} %`;
const lines = [
  '# Record checksums: cost on import and getblock 1',
  '',
  `\`npx tsx bench/record-checksums.ts${QUICK ? ' --quick' : ''}\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${load()} at the end).`,
  `Chain: ${fmt(chain.length)} regtest blocks (${fmt(SPENDING_BLOCKS)} spending earlier outputs), imported with group commit, Equihash off (so`,
  "the store's own work is what is measured); getblock 1 uncached over every block, " +
    `${GETBLOCK_PASSES} passes. Medians of ${ROUNDS} interleaved rounds.`,
  '',
  '| | checksums on | checksums off | cost |',
  '|---|---|---|---|',
  `| import (CPU ms) | ${importOn.toFixed(0)} | ${importOff.toFixed(0)} | ${pct(importOn, importOff)} |`,
  `| getblock 1 (CPU µs per call) | ${getblockOn.toFixed(1)} | ${getblockOff.toFixed(1)} | ${pct(getblockOn, getblockOff)} |`,
  '',
  `Samples (on / off): import ${samples.on.importMs.map((v) => v.toFixed(0)).join(', ')} / ${samples.off.importMs.map((v) => v.toFixed(0)).join(', ')} ms;`,
  `getblock 1 ${samples.on.getblockUs.map((v) => v.toFixed(1)).join(', ')} / ${samples.off.getblockUs.map((v) => v.toFixed(1)).join(', ')} µs.`,
  '',
  'The operations alone (CPU ns per value, median of 5 runs):',
  '',
  '| value bytes | seal (write) | check (read) |',
  '|---|---|---|',
  ...perValue,
  '',
];
console.log(lines.join('\n'));
if (!QUICK) writeFileSync(join(import.meta.dirname, 'results', 'record-checksums.md'), lines.join('\n'));
