// The coin-read simulation of the import projection (bench/lib/coin-read-sim.ts): who answers each
// coin read of an import, replayed over a chain's blocks. Checked against the same counts derived
// another way: with one byte a block, a group is 512 blocks, so a coin's group is its height / 512.
import { describe, expect, it } from 'vitest';
import { decodeBlock, type Block } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { DEFAULT_GROUP_COMMIT } from '../../src/store/chain-db.js';
import { EraChainGenerator } from '../../test-vectors/era-chain.js';
import { CoinReadSimulation, estimateGroupBytes, fitGroupSizes, type GroupSizes } from '../../bench/lib/coin-read-sim.js';

const GROUP = DEFAULT_GROUP_COMMIT.maxBlocks;

/**
 * 101 coinbase blocks, one block splitting a coinbase into `age` outputs, `age` blocks each
 * spending one of them into 2 outputs, then `age` blocks of one 2-input transaction (the
 * generator spends the oldest outputs first, so these spend coins about `age` blocks old).
 */
function agedChain(age: number): Block[] {
  const generator = new EraChainGenerator({ tag: 'coin-read-sim' });
  const built = [generator.genesis];
  for (let i = 0; i < 101; i++) built.push(generator.next([]));
  built.push(generator.next([{ inputs: 1, outputs: age }]));
  for (let i = 0; i < age; i++) built.push(generator.next([{ inputs: 1, outputs: 2 }]));
  for (let i = 0; i < age; i++) built.push(generator.next([{ inputs: 2, outputs: 1 }]));
  return built.map((b) => decodeBlock(b.bytes, CURRENT_CHAIN_ACCEPTANCE));
}

/** Each input's height and the height of the coin it spends. */
function spends(blocks: readonly Block[]): { spent: number; created: number }[] {
  const createdAt = new Map<string, number>();
  const out: { spent: number; created: number }[] = [];
  blocks.forEach((block, height) =>
    block.transactions.forEach((tx, i) => {
      if (i > 0)
        for (const input of tx.data.vin)
          out.push({ spent: height, created: createdAt.get(Buffer.from(input.prevout.hash).toString('hex') + ':' + input.prevout.index)! });
      tx.data.vout.forEach((_, n) => createdAt.set(Buffer.from(tx.txid).toString('hex') + ':' + n, height));
    }),
  );
  return out;
}

const ONE_BYTE_A_BLOCK: GroupSizes = {
  bytesPerUnit: { blocks: 1, txs: 0, inputs: 0, outputs: 0, scriptBytes: 0, nullifiers: 0 },
  memoryPerByte: 1,
};

describe('coin-read simulation', () => {
  const blocks = agedChain(1100);
  const expected = spends(blocks);
  const group = (height: number) => Math.floor(height / GROUP);
  const run = (cacheBytes: number) => {
    const sim = new CoinReadSimulation(ONE_BYTE_A_BLOCK, cacheBytes, 1000);
    for (const b of blocks) sim.add(b);
    return sim;
  };

  it('groups blocks as the importer does and sends a read past the two newest groups to LevelDB without a cache', () => {
    const sim = run(0);
    expect(sim.groups.map((g) => g.blocks)).toEqual([512, 512, 512, 512, blocks.length - 4 * 512]);
    const beyond = expected.filter((s) => group(s.created) < group(s.spent) - 1).length;
    expect(expected.length).toBe(1 + 1100 + 2 * 1100);
    // The 2-input blocks spend coins ≈ 1,100 blocks old: most of their reads are LevelDB's.
    expect(beyond).toBeGreaterThan(1500);
    expect(sim.total).toEqual({ pending: expected.length - beyond, cached: 0, leveldb: beyond });
    // Per window of 1,000 blocks, adding up to the whole.
    expect(sim.windows.reduce((s, w) => s + w.leveldb, 0)).toBe(beyond);
    expect(sim.windows).toHaveLength(Math.ceil(blocks.length / 1000));
  });

  it('answers from the kept groups what a cache of two groups holds, and from LevelDB what is older', () => {
    // Each group holds 512 bytes of memory at one byte a block: a 1,024-byte bound keeps two.
    const sim = run(2 * GROUP);
    const cached = expected.filter((s) => group(s.created) < group(s.spent) - 1 && group(s.created) >= group(s.spent) - 2).length;
    const older = expected.filter((s) => group(s.created) < group(s.spent) - 2).length;
    expect(cached).toBeGreaterThan(0);
    expect(older).toBeGreaterThan(0);
    expect(sim.total).toEqual({ pending: expected.length - cached - older, cached, leveldb: older });
  });

  it('fits per-unit group bytes back from groups whose bytes follow known sizes, and never below zero', () => {
    const truth: GroupSizes = {
      bytesPerUnit: { blocks: 3000, txs: 90, inputs: 320, outputs: 220, scriptBytes: 0, nullifiers: 40 },
      memoryPerByte: 2,
    };
    // Groups of varied make-up (blocks, txs, inputs, outputs, script bytes, nullifiers).
    const rows = [
      [512, 600, 0, 512, 12_800, 0],
      [200, 4_000, 40_000, 20_000, 500_000, 0],
      [150, 2_000, 45_000, 50_000, 1_250_000, 0],
      [512, 2_000, 1_000, 1_200, 40_000, 30_000],
      [512, 1_600, 500, 800, 20_000, 61_000],
      [126, 300, 200, 400, 10_000, 100],
      [300, 9_000, 9_000, 9_000, 300_000, 4_000],
    ];
    const groups = rows.map(([blocks, txs, inputs, outputs, scriptBytes, nullifiers], i) => {
      const units = { blocks: blocks!, txs: txs!, inputs: inputs!, outputs: outputs!, scriptBytes: scriptBytes!, nullifiers: nullifiers! };
      const bytes = estimateGroupBytes(truth, units);
      return { units, bytes, memoryBytes: 2 * bytes, full: i < rows.length - 1 };
    });
    const fitted = fitGroupSizes(groups);
    expect(fitted.memoryPerByte).toBeCloseTo(2, 9);
    for (const unit of ['blocks', 'txs', 'inputs', 'outputs', 'nullifiers'] as const)
      expect(fitted.bytesPerUnit[unit]).toBeCloseTo(truth.bytesPerUnit[unit], 3);
    expect(fitted.bytesPerUnit.scriptBytes).toBeCloseTo(0, 6);
    expect(fitted.bytesPerUnit.scriptBytes).toBeGreaterThanOrEqual(0);
  });
});
