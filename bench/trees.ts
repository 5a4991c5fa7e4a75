/**
 * Sapling and Orchard note-commitment trees: µs per node, fast (WebAssembly) against pure
 * (TypeScript/BigInt) hashers in the same run, the per-block work of an import, and a projected
 * full-mainnet rebuild on one and on two cores.
 *
 *   npx tsx bench/trees.ts [--quick]
 *
 * 1. Table build time of each WebAssembly hasher (paid once per process or worker).
 * 2. µs per node: combine (one pair a call, as root() hashes) and combineMany over one tree level
 *    of n pairs (as appendMany hashes), for defaultSaplingHasher()/defaultOrchardHasher() and
 *    SAPLING_HASHER/ORCHARD_HASHER. CPU time, median of 3 rounds.
 * 3. Per block, fast hashers: a tree at a mainnet-sized position (2^26 + …), then per block one
 *    appendMany of k leaves and one root(), for k = 2, 25, 200 (mainnet averages ≈ 25 Sapling
 *    leaves per Sapling-era block and ≈ 29 Orchard leaves per NU5-era block): µs per leaf, µs per
 *    root, µs per block.
 * 4. The two trees are independent, so they can be built in two worker threads: the same work
 *    run one tree after the other, then both at once, wall time.
 * 5. Projection (sizes in bench/lib/mainnet.ts): leaves × µs/leaf at 25 leaves a block + blocks ×
 *    µs/root (a root for every block of the pool's era: an upper bound, since a block without
 *    leaves keeps its parent's cached root), per tree; one core = the sum, two idle cores = the
 *    larger of the two.
 * 6. Ironwood (NU6.3) through the pool registry against Orchard, the same leaves and block sizes
 *    in alternating rounds: µs per leaf and the ratio (its hasher is Orchard's).
 */
import { Worker } from 'node:worker_threads';
import { defaultOrchardHasher, ORCHARD_HASHER } from '../src/crypto/orchard/index.js';
import { defaultSaplingHasher, SAPLING_HASHER } from '../src/crypto/sapling/index.js';
import { shieldedPool } from '../src/state/pools.js';
import type { MerkleHasher } from '../src/state/trees/hasher.js';
import { cpuMicrosPerUnit, fmt, load, median, QUICK } from './lib/measure.js';
import { MAINNET_ASSUMPTIONS } from './lib/mainnet.js';
import { blockSizes, importBlocks, randomNodes, treeAtSize } from './lib/tree-work.js';
import type { TreeJob } from './lib/tree-worker.js';

const ROUNDS = 3;
const SECONDS = QUICK ? 0.05 : 0.4;
const START_SIZE = 2 ** 26 + 1_234_567;
type Pool = 'sapling' | 'orchard';

// ---- 1. Tables.
const built: Record<Pool, { fast: MerkleHasher; pure: MerkleHasher; kind: string; buildMs: number }> = {} as never;
for (const pool of ['sapling', 'orchard'] as const) {
  const t0 = performance.now();
  const choice = pool === 'sapling' ? defaultSaplingHasher() : defaultOrchardHasher();
  const buildMs = performance.now() - t0;
  if (choice.kind !== 'wasm')
    console.log(
      `${pool}: WebAssembly hasher unavailable (${choice.fallbackReason ?? 'ZECRPC_PURE_TREES=1'}); "fast" rows are the pure hasher`,
    );
  built[pool] = { fast: choice.hasher, pure: pool === 'sapling' ? SAPLING_HASHER : ORCHARD_HASHER, kind: choice.kind, buildMs };
  console.log(`${pool} ${choice.kind} hasher ready in ${fmt(buildMs)} ms (tables and empty roots; ${load()})`);
}

// ---- 2. µs per node.
const perNode: Record<Pool, { fastOne: number; pureOne: number; fastMany: Map<number, number>; pureMany: number }> = {} as never;
for (const pool of ['sapling', 'orchard'] as const) {
  const { fast, pure } = built[pool];
  const pairs = randomNodes(2 * 4096, pool === 'sapling' ? 3 : 5);
  let height = 0;
  const one = (h: MerkleHasher): number =>
    cpuMicrosPerUnit(() => h.combine(height++ & 31, pairs.subarray(0, 32), pairs.subarray(32, 64)), 1, ROUNDS, SECONDS);
  const many = (h: MerkleHasher, n: number): number =>
    cpuMicrosPerUnit(() => h.combineMany(height++ & 31, pairs.subarray(0, 64 * n), n), n, ROUNDS, SECONDS);
  const pureOne = one(pure);
  const pureMany = many(pure, 16);
  const fastOne = one(fast);
  const fastMany = new Map<number, number>();
  for (const n of QUICK ? [16, 4096] : [2, 16, 128, 4096]) fastMany.set(n, many(fast, n));
  perNode[pool] = { fastOne, pureOne, fastMany, pureMany };
  const label = pool === 'sapling' ? 'Sapling' : 'Orchard';
  console.log(
    `${label} pure    combine          ${fmt(pureOne, 2).padStart(9)} µs/node   combineMany 16 ${fmt(pureMany, 2).padStart(9)} µs/node  (${load()})`,
  );
  console.log(
    `${label} fast    combine          ${fmt(fastOne, 2).padStart(9)} µs/node   ${(pureOne / fastOne).toFixed(0)}× pure  (${load()})`,
  );
  for (const [n, us] of fastMany)
    console.log(
      `${label} fast    combineMany ${String(n).padStart(5)} ${fmt(us, 2).padStart(9)} µs/node   ${(pureOne / us).toFixed(0)}× pure  (${load()})`,
    );
}

// ---- 3. Per block.
const BLOCK_SIZES = [2, 25, 200];
const perBlock: Record<Pool, Map<number, { leafUs: number; rootUs: number }>> = { sapling: new Map(), orchard: new Map() };
for (const pool of ['sapling', 'orchard'] as const) {
  const { fast } = built[pool];
  for (const k of BLOCK_SIZES) {
    const blocks = QUICK ? 10 : Math.max(20, Math.round(2000 / k));
    const leaves = randomNodes(k * blocks, 17 + k);
    const sizes = blockSizes([k], k * blocks);
    importBlocks(treeAtSize(fast, START_SIZE), leaves, sizes); // warm-up: JIT and allocation paths
    const runs = Array.from({ length: ROUNDS }, () => importBlocks(treeAtSize(fast, START_SIZE), leaves, sizes));
    const leafUs = median(runs.map((r) => r.appendMicros / r.leaves));
    const rootUs = median(runs.map((r) => r.rootMicros / r.blocks));
    perBlock[pool].set(k, { leafUs, rootUs });
    console.log(
      `${pool === 'sapling' ? 'Sapling' : 'Orchard'} block of ${String(k).padStart(3)} leaves: appendMany ${fmt(leafUs, 2).padStart(7)} µs/leaf, root() ${fmt(rootUs, 0).padStart(5)} µs, ` +
        `${fmt(leafUs * k + rootUs, 0).padStart(6)} µs/block  (${blocks} blocks, CPU, median of ${ROUNDS}; ${load()})`,
    );
  }
}

// ---- 4. Two trees in two workers.
// Worker threads do not inherit tsx's loader: the worker registers it, then loads the TypeScript.
const WORKER_BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./lib/tree-worker.ts', import.meta.url).href)}); });`;
const LEAVES = QUICK ? 2000 : 20_000;
const jobs: TreeJob[] = [
  { pool: 'sapling', leaves: LEAVES, sizes: [25], startSize: START_SIZE },
  { pool: 'orchard', leaves: Math.round(LEAVES / 2), sizes: [29], startSize: START_SIZE },
];
const pool = jobs.map((job) => {
  const w = new Worker(WORKER_BOOT, { eval: true, workerData: job });
  const ready = new Promise<void>((resolve, reject) => {
    w.once('error', reject);
    w.once('message', () => resolve());
  });
  return { w, ready };
});
await Promise.all(pool.map((p) => p.ready));
const go = (p: (typeof pool)[number]): Promise<number> =>
  new Promise((resolve) => {
    p.w.once('message', (m: { wallMs: number }) => resolve(m.wallMs));
    p.w.postMessage('go');
  });
// Each round: the two jobs one after the other, then both at once. Ideal: both at once takes as
// long as the longer job alone; efficiency says how close it came (median over rounds).
const rounds: { sequential: number; parallel: number; efficiency: number }[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const t0 = performance.now();
  const each: number[] = [];
  for (const p of pool) each.push(await go(p));
  const sequential = performance.now() - t0;
  const t1 = performance.now();
  await Promise.all(pool.map(go));
  const parallel = performance.now() - t1;
  rounds.push({ sequential, parallel, efficiency: Math.min(1, Math.max(...each) / parallel) });
}
await Promise.all(pool.map((p) => p.w.terminate()));
const efficiency = median(rounds.map((r) => r.efficiency));
console.log(
  `two workers (${fmt(LEAVES)} Sapling leaves in blocks of 25, ${fmt(LEAVES / 2)} Orchard in blocks of 29): one after the other ${fmt(median(rounds.map((r) => r.sequential)))} ms, ` +
    `both at once ${fmt(median(rounds.map((r) => r.parallel)))} ms, ${(efficiency * 100).toFixed(0)} % of the ideal (the longer job alone); ` +
    `median of ${ROUNDS}, 2 cores shared with other work, ${load()}`,
);

// ---- 5. Projection.
{
  const a = MAINNET_ASSUMPTIONS;
  const s = perBlock.sapling.get(25)!;
  const o = perBlock.orchard.get(25)!;
  const hours = (us: number): number => us / 3.6e9;
  const sap = hours(a.saplingLeaves * s.leafUs + a.saplingBlocks * s.rootUs);
  const orc = hours(a.orchardLeaves * o.leafUs + a.orchardBlocks * o.rootUs);
  const oneCore = sap + orc;
  // Two cores: the trees share nothing, so one worker each finishes when the larger one does.
  const twoCores = Math.max(sap, orc);
  console.log(
    `projection, full mainnet tree rebuild: Sapling ${fmt(a.saplingLeaves / 1e6)} M leaves × ${s.leafUs.toFixed(2)} µs + ${fmt(a.saplingBlocks / 1e6, 2)} M roots × ${s.rootUs.toFixed(0)} µs = ${sap.toFixed(2)} h; ` +
      `Orchard ${fmt(a.orchardLeaves / 1e6)} M leaves × ${o.leafUs.toFixed(2)} µs + ${fmt(a.orchardBlocks / 1e6, 2)} M roots × ${o.rootUs.toFixed(0)} µs = ${orc.toFixed(2)} h; ` +
      `one core ${oneCore.toFixed(2)} h; two cores, one tree per worker, ${twoCores.toFixed(2)} h on idle cores (${(twoCores / efficiency).toFixed(2)} h at the ${(efficiency * 100).toFixed(0)} % parallel efficiency measured above)`,
  );
}

// ---- 6. Ironwood (NU6.3) through the pool registry: its tree is built with the registry's hasher
// (Orchard's Sinsemilla), so its appends cost what Orchard's do. Same leaves, same block sizes,
// alternating rounds in this run.
{
  const entries = { orchard: shieldedPool('orchard')!, ironwood: shieldedPool('ironwood')! };
  const hashers = { orchard: entries.orchard.hasher(), ironwood: entries.ironwood.hasher() };
  for (const k of [2, 29]) {
    const blocks = QUICK ? 10 : Math.max(20, Math.round(2000 / k));
    const leaves = randomNodes(k * blocks, 41 + k);
    const sizes = blockSizes([k], k * blocks);
    const leafUs: Record<'orchard' | 'ironwood', number[]> = { orchard: [], ironwood: [] };
    for (const pool of ['orchard', 'ironwood'] as const) importBlocks(treeAtSize(hashers[pool], START_SIZE), leaves, sizes);
    for (let round = 0; round < ROUNDS; round++) {
      for (const pool of ['orchard', 'ironwood'] as const) {
        const r = importBlocks(treeAtSize(hashers[pool], START_SIZE), leaves, sizes);
        leafUs[pool].push(r.appendMicros / r.leaves);
      }
    }
    const orchardUs = median(leafUs.orchard);
    const ironwoodUs = median(leafUs.ironwood);
    console.log(
      `Ironwood vs Orchard, blocks of ${String(k).padStart(2)} leaves: appendMany ${fmt(ironwoodUs, 2)} vs ${fmt(orchardUs, 2)} µs/leaf, ` +
        `ratio ${(ironwoodUs / orchardUs).toFixed(2)}  (${blocks} blocks, CPU, median of ${ROUNDS} alternating rounds; ${load()})`,
    );
  }
}
