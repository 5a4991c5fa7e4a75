/**
 * The store against an earlier checkout of itself, in one process: import rate (one batch per
 * block, and group commit with a solution thread) on a regtest chain with spends, every indexer on,
 * and uncached `getblock <hash> 1` and `2` latency on real mainnet blocks 1..20. Rounds are
 * interleaved and the side that goes first alternates; each ratio is taken within a round. The
 * replies of getblock 0/1/2 must be byte-identical on both sides, or the run fails.
 *
 *   git worktree add /tmp/zecrpc-base <rev> && ln -s "$PWD/node_modules" /tmp/zecrpc-base/ \
 *     && (cd /tmp/zecrpc-base && npm run build:wasm)
 *   npx tsx bench/store-ab.ts --base=/tmp/zecrpc-base [--rounds=8]
 *
 * The base checkout must have the same store and method APIs used here (openChainStore,
 * addBlock, prefetch, flush, hashAtHeight, getBlockMethod).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { matureStart, nextNode, rng } from '../test/support/address-index-chain.js';
import { mainnetGenesisRun } from '../test/support/memory-store.js';

const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const baseDir = arg('base');
if (!baseDir) throw new Error('usage: npx tsx bench/store-ab.ts --base=DIR (a checkout of the revision to compare with)');
const ROUNDS = Number(arg('rounds') ?? 8);
const here = resolve(import.meta.dirname, '..');

/* eslint-disable @typescript-eslint/no-explicit-any -- two revisions' modules, typed by neither */
async function sideOf(root: string) {
  const load = (path: string): Promise<any> => import(pathToFileURL(join(root, path)).href);
  return {
    store: await load('src/store/index.ts'),
    net: await load('src/chain/network.ts'),
    getblock: await load('src/rpc/methods/blockchain/getblock.ts'),
    call: (await load('test/support/call.ts')).callMethod as (m: unknown, params: string) => Promise<Record<string, unknown>>,
  };
}
const sides = { base: await sideOf(resolve(baseDir)), head: await sideOf(here) };
type Side = keyof typeof sides;
const SIDES: Side[] = ['base', 'head'];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[]): string => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

/** Runs `measure` for both sides in every round, the first side alternating; returns per-side values and head/base ratios. */
async function interleaved(measure: (side: Side) => Promise<number>): Promise<{ per: Record<Side, number[]>; ratios: number[] }> {
  for (const side of SIDES) await measure(side); // warm-up
  const per: Record<Side, number[]> = { base: [], head: [] };
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const got: Partial<Record<Side, number>> = {};
    for (const side of r % 2 ? [...SIDES].reverse() : SIDES) per[side].push((got[side] = await measure(side)));
    ratios.push(got.head! / got.base!);
  }
  return { per, ratios };
}

// Import: a fresh store per measurement.
const random = rng(77);
const nodes = matureStart('ab');
for (let i = 0; i < 250; i++) nodes.push(nextNode(nodes.at(-1)!, 'ab', random, 3));
const chain = nodes.map((n) => n.block.bytes);

for (const grouped of [false, true]) {
  const { per, ratios } = await interleaved(async (side) => {
    const dir = mkdtempSync(join(tmpdir(), `zecrpc-ab-${side}-`));
    const s = sides[side];
    const store = await s.store.openChainStore({
      datadir: dir,
      network: s.net.REGTEST,
      ...(grouped ? { groupCommit: true, solutionThreads: 1 } : {}),
    });
    const started = process.hrtime.bigint();
    if (grouped) for (const b of chain) store.prefetch(b);
    for (const b of chain) await store.addBlock(b);
    await store.flush();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    return chain.length / seconds; // blocks per second
  });
  console.log(
    `import of ${chain.length} regtest blocks with spends, every indexer${grouped ? ', group commit + a solution thread' : ', one batch per block'}: ` +
      `base ${median(per.base).toFixed(0)} blocks/s, head ${median(per.head).toFixed(0)} blocks/s; ` +
      `head/base rate per round: median ${median(ratios).toFixed(3)} (${range(ratios)}), ${ROUNDS} rounds; load ${loadavg()[0]!.toFixed(1)}`,
  );
}

// getblock, uncached: every call reads the store.
const mainnet = mainnetGenesisRun();
const opened = {} as Record<Side, { store: any; dir: string; method: unknown }>;
for (const side of SIDES) {
  const s = sides[side];
  const dir = mkdtempSync(join(tmpdir(), `zecrpc-ab-gb-${side}-`));
  const store = await s.store.openChainStore({ datadir: dir, network: s.net.MAINNET });
  for (const b of mainnet) await store.addBlock(b);
  opened[side] = { store, dir, method: s.getblock.getBlockMethod(store, { cacheReplies: false }) };
}
const hashes: string[] = [];
for (let h = 1; h < mainnet.length; h++)
  hashes.push(
    Buffer.from((await opened.head.store.hashAtHeight(h)) as Uint8Array)
      .reverse()
      .toString('hex'),
  );
const CALLS = 3000;
for (const verbosity of [1, 2]) {
  const { per, ratios } = await interleaved(async (side) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) {
      const out = await sides[side].call(opened[side].method, `["${hashes[i % hashes.length]}", ${verbosity}]`);
      if (!('result' in out)) throw new Error(JSON.stringify(out));
    }
    return Number(process.hrtime.bigint() - started) / 1e3 / CALLS; // µs per call
  });
  console.log(
    `getblock <hash> ${verbosity}, uncached, mainnet 1..20: base ${median(per.base).toFixed(1)} µs, head ${median(per.head).toFixed(1)} µs a call; ` +
      `head/base latency per round: median ${median(ratios).toFixed(3)} (${range(ratios)}), ${ROUNDS} rounds; load ${loadavg()[0]!.toFixed(1)}`,
  );
}
for (const h of hashes) {
  for (const v of [0, 1, 2]) {
    const [a, b] = await Promise.all(SIDES.map((side) => sides[side].call(opened[side].method, `["${h}", ${v}]`)));
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`getblock ${h} ${v}: the replies differ`);
  }
}
console.log('getblock 0/1/2 replies byte-identical on both sides for mainnet 1..20');
for (const side of SIDES) {
  await opened[side].store.close();
  rmSync(opened[side].dir, { recursive: true, force: true });
}
