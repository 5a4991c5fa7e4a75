/**
 * The per-block state transition (state/apply-block.ts: coins, value pools, the three note
 * commitment trees, the ZIP-221 history tree, header commitments) on real mainnet blocks, against
 * decoding the same bytes (with block hash and txids, which every reader computes) as the in-run
 * baseline. Each run decodes afresh, so "decode+applyBlock" minus "decode+txids" is what the
 * transition itself adds.
 *
 *   npx tsx bench/chain-state.ts [--quick]
 *
 * - mainnet 0..20 (lightwalletd mainnet_genesis), applied in order from genesis with an in-memory
 *   coins view: coinbase-only blocks, so this is the fixed per-block cost;
 * - 419201 (5 Sapling outputs on the empty tree), 419202 (2 more on zcashd's 419201 tree state)
 *   and 1687107 (the first Orchard actions on the empty tree), each from a checkpoint-style parent
 *   as test/state/apply-block.test.ts builds it. Every run's tree root is checked against
 *   roots.json, so the timed work is the real one.
 * Times are this process's CPU time (steadier than wall time on a shared machine), median of 5
 * rounds. The hashers are the store's (defaultPoolHashers: WebAssembly Sapling and Orchard).
 */
import { MAINNET } from '../src/chain/network.js';
import { decodeBlock, type Block } from '../src/codec/block.js';
import { toHex } from '../src/codec/hex.js';
import { applyBlock, type Coin } from '../src/state/apply-block.js';
import { emptyTrees, type ChainStateTip } from '../src/state/chain-state.js';
import { defaultPoolHashers } from '../src/state/hashers.js';
import { IncrementalMerkleTree } from '../src/state/trees/incremental.js';
import { UNKNOWN_POOL_TOTALS } from '../src/state/value-pools.js';
import { mainnetChain } from '../test/support/store.js';
import { readHexVector, readJsonVector } from '../test/support/vectors.js';
import { cpuMicrosPerUnit, fmt, load, QUICK } from './lib/measure.js';

const ROUNDS = 5;
const SECONDS = QUICK ? 0.05 : 0.6;
const hashers = defaultPoolHashers();

interface RootEntry {
  network: string;
  height: number;
  pool: 'sprout' | 'sapling' | 'orchard';
  internal_hex: string;
}
const ROOTS = readJsonVector<{ roots: RootEntry[]; sapling_treestates: { final_state_hex: string }[] }>('roots.json');
const expectedRoot = (height: number, pool: RootEntry['pool']): string => {
  const r = ROOTS.roots.find((x) => x.network === 'mainnet' && x.height === height && x.pool === pool);
  if (!r) throw new Error(`roots.json has no ${pool} root for mainnet ${height}`);
  return r.internal_hex;
};

function row(label: string, txs: number, applyUs: number, decodeUs: number): void {
  console.log(
    `${label.padEnd(44)} decode+applyBlock ${fmt(applyUs, 1).padStart(9)} µs/block ${fmt(applyUs / txs, 1).padStart(8)} µs/tx | ` +
      `decode+txids ${fmt(decodeUs, 1).padStart(8)} µs/block; applyBlock alone ≈ ${fmt(applyUs - decodeUs, 1)} µs/block, ${fmt((applyUs - decodeUs) / txs, 1)} µs/tx  (${txs} txs; ${load()})`,
  );
}

/** What any reader of a block pays: the decode, its hash and every txid (all computed lazily). */
function decodeWithTxids(bytes: Uint8Array): Block {
  const block = decodeBlock(bytes);
  void block.hash;
  for (const tx of block.transactions) void tx.txid;
  return block;
}

// ---- mainnet 0..20 from genesis.
{
  const bytes = mainnetChain();
  const txs = bytes.reduce((sum, b) => sum + decodeBlock(b).transactions.length, 0);
  // Blocks are decoded afresh in every run: hashes and txids are computed lazily and cached on
  // the decoded block, and an import decodes each block once.
  const chainFromGenesis = (): ChainStateTip => {
    const coins = new Map<string, Coin>();
    let tip: ChainStateTip | null = null;
    bytes.forEach((b, height) => {
      const r = applyBlock({
        network: MAINNET,
        hashers,
        block: decodeBlock(b),
        height,
        parent: tip,
        coin: (o) => coins.get(`${toHex(o.hash)}:${o.index}`) ?? null,
      });
      for (const c of r.created) coins.set(`${toHex(c.outpoint.hash)}:${c.outpoint.index}`, c.coin);
      tip = r.tip;
    });
    return tip!;
  };
  // The supply after block 20 (62,500 zat × (1 + … + 20), spec §3.6) shows the chain really was applied.
  const tip = chainFromGenesis();
  if (tip.height !== 20 || tip.totals.chainSupply !== 62500n * 210n)
    throw new Error(`unexpected state after 0..20: ${tip.height}, ${tip.totals.chainSupply}`);
  const apply = cpuMicrosPerUnit(chainFromGenesis, bytes.length, ROUNDS, SECONDS);
  const decode = cpuMicrosPerUnit(() => bytes.forEach((b) => decodeWithTxids(b)), bytes.length, ROUNDS, SECONDS);
  row('mainnet 0..20 from genesis (per block)', txs / bytes.length, apply, decode);
}

// ---- shielded blocks from checkpoint-style parents.
function checkpointParent(block: Block, height: number, trees: Partial<ChainStateTip['trees']> = {}): ChainStateTip {
  return {
    hash: block.header.prevHash,
    height: height - 1,
    trees: { ...emptyTrees(hashers), ...trees },
    history: 'unknown',
    totals: UNKNOWN_POOL_TOTALS,
    coinsComplete: false,
  };
}

const cases: {
  height: number;
  pool: 'sapling' | 'orchard';
  parentTrees: () => Partial<ChainStateTip['trees']>;
  leaves: (b: Block) => number;
}[] = [
  {
    height: 419201,
    pool: 'sapling',
    parentTrees: () => ({}),
    leaves: (b) => b.transactions.reduce((s, t) => s + (t.data.sapling?.outputs.length ?? 0), 0),
  },
  {
    height: 419202,
    pool: 'sapling',
    parentTrees: () => ({ sapling: IncrementalMerkleTree.fromTreeState(hashers.sapling, ROOTS.sapling_treestates[0]!.final_state_hex) }),
    leaves: (b) => b.transactions.reduce((s, t) => s + (t.data.sapling?.outputs.length ?? 0), 0),
  },
  {
    height: 1687107,
    pool: 'orchard',
    parentTrees: () => ({}),
    leaves: (b) => b.transactions.reduce((s, t) => s + (t.data.orchard?.actions.length ?? 0), 0),
  },
];
for (const c of cases) {
  const bytes = readHexVector('blocks', 'mainnet', `${c.height}.hex`);
  const block = decodeBlock(bytes);
  const parent = checkpointParent(block, c.height, c.parentTrees());
  const run = (): void => {
    const r = applyBlock({ network: MAINNET, hashers, block: decodeBlock(bytes), height: c.height, parent, coin: () => null });
    const root = c.pool === 'sapling' ? r.record.saplingRoot : r.record.orchardRoot!;
    if (toHex(root) !== expectedRoot(c.height, c.pool)) throw new Error(`${c.height}: ${c.pool} root differs from roots.json`);
  };
  const apply = cpuMicrosPerUnit(run, 1, ROUNDS, SECONDS);
  const decode = cpuMicrosPerUnit(() => decodeWithTxids(bytes), 1, ROUNDS, SECONDS);
  row(
    `mainnet ${c.height} (${c.leaves(block)} ${c.pool} leaves, ${(bytes.length / 1024).toFixed(0)} KiB)`,
    block.transactions.length,
    apply,
    decode,
  );
}
