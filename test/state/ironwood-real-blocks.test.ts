// The value-pool deltas of the real blocks around the NU6.3 activation (../shared/test-vectors/nu6.3,
// 6 mainnet and 13 testnet blocks) computed by the state's own per-block function equal Zebra's
// `valueDeltaZat` for the shielded pools and the lockbox (nu6.3/pools/). Transparent deltas need
// the values of the outputs a block spends, which these files do not hold: they are compared for
// the blocks that spend no transparent output, and are unknown (null) for the others.
import { describe, expect, it } from 'vitest';
import { MAINNET, TESTNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { shieldedPool } from '../../src/state/pools.js';
import { IncrementalMerkleTree } from '../../src/state/trees/incremental.js';
import { blockPoolDeltas, listedValuePoolIds } from '../../src/state/value-pools.js';
import { readHexVector, readJsonVector } from '../support/vectors.js';

interface ZebraPools {
  height: number;
  valuePools: { id: string; monitored: boolean; chainValueZat: number; valueDeltaZat: number }[];
}

const HEIGHTS = {
  mainnet: [3428141, 3428142, 3428143, 3428144, 3428145, 3428146],
  testnet: Array.from({ length: 13 }, (_, i) => 4133998 + i),
};
const PARAMS = { mainnet: MAINNET, testnet: TESTNET };

describe('per-block value-pool deltas of the real NU6.3 blocks equal Zebra’s', () => {
  for (const network of ['mainnet', 'testnet'] as const) {
    for (const height of HEIGHTS[network]) {
      it(`${network} ${height}`, () => {
        const block = decodeBlock(readHexVector('nu6.3', 'blocks', network, `${height}.hex`), CURRENT_CHAIN_ACCEPTANCE);
        const zebra = readJsonVector<ZebraPools>('nu6.3', 'pools', network, `${height}.json`);
        expect(zebra.height).toBe(height);
        const zebraDelta = (id: string): bigint => BigInt(zebra.valuePools.find((p) => p.id === id)!.valueDeltaZat);
        // No spent output's value is known: only a coinbase-only block has a transparent delta.
        const deltas = blockPoolDeltas(block, PARAMS[network], height, () => null);
        const computed = deltas as unknown as Record<string, bigint | null | undefined>;
        for (const id of ['sprout', 'sapling', 'orchard', 'lockbox']) expect([id, computed[id]]).toEqual([id, zebraDelta(id)]);
        // Ironwood is a member from NU6.3 on; before, nothing can enter it (Zebra prints 0).
        const nu63 = height >= PARAMS[network].activationHeights['NU6.3']!;
        expect(['ironwood', computed.ironwood ?? null]).toEqual(['ironwood', nu63 ? zebraDelta('ironwood') : null]);
        expect(zebraDelta('ironwood') === 0n || nu63).toBe(true);
        // Known exactly when no transaction spends a transparent output.
        const spendsNothing = block.transactions.every((tx, t) => t === 0 || tx.data.vin.length === 0);
        expect(deltas.transparent).toBe(spendsNothing ? zebraDelta('transparent') : null);
        // getblock lists Ironwood after the lockbox from the activation block on.
        expect(listedValuePoolIds({ network: PARAMS[network], height })).toEqual([
          'transparent',
          'sprout',
          'sapling',
          'orchard',
          'lockbox',
          ...(nu63 ? ['ironwood'] : []),
        ]);
      });
    }
  }

  it('the real Ironwood movements are named: Orchard to Ironwood at mainnet 3428144, into Ironwood at 3428145 and 3428146', () => {
    const ironwood = (height: number): bigint | undefined =>
      blockPoolDeltas(
        decodeBlock(readHexVector('nu6.3', 'blocks', 'mainnet', `${height}.hex`), CURRENT_CHAIN_ACCEPTANCE),
        MAINNET,
        height,
        null,
      ).ironwood;
    expect([ironwood(3428143), ironwood(3428144), ironwood(3428145), ironwood(3428146)]).toEqual([0n, 1000000n, 100000000n, 962355n]);
  });
});

describe('the Ironwood tree of the real chain', () => {
  it('empty at activation, grown from the Ironwood actions, reaches the roots later Ironwood bundles use as anchors', () => {
    const entry = shieldedPool('ironwood')!;
    expect([entry.keyByte, entry.upgrade, entry.treeDepth, entry.rootsPrinted, entry.treeStateLayout]).toEqual([
      3,
      'NU6.3',
      32,
      'raw',
      'padded',
    ]);
    const tree = new IncrementalMerkleTree(entry.hasher());
    const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
    const seen: [number, number, string, boolean][] = [];
    // Every root the tree had (the empty tree's at activation), as the anchor rule reads them.
    const roots = new Set([hex(tree.root())]);
    for (const height of HEIGHTS.mainnet.filter((h) => h >= 3428143)) {
      const block = decodeBlock(readHexVector('nu6.3', 'blocks', 'mainnet', `${height}.hex`), CURRENT_CHAIN_ACCEPTANCE);
      block.transactions.forEach((tx, i) => {
        const anchors: Uint8Array[] = [];
        entry.requirements(tx.data, (kind, value) => (kind === 'anchor' && anchors.push(value), true));
        for (const anchor of anchors) seen.push([height, i, hex(anchor), roots.has(hex(anchor))]);
      });
      const leaves: Uint8Array[] = [];
      for (const tx of block.transactions) entry.commitments(tx.data, leaves);
      tree.appendMany(leaves);
      roots.add(hex(tree.root()));
    }
    // 3428144's and 3428145's bundles use the empty tree's root; 3428146's the root after 3428145 (4 leaves).
    expect(seen).toEqual([
      [3428144, 2, 'ae2935f1dfd8a24aed7c70df7de3a668eb7a49b1319880dde2bbd9031ae5d82f', true],
      [3428145, 1, 'ae2935f1dfd8a24aed7c70df7de3a668eb7a49b1319880dde2bbd9031ae5d82f', true],
      [3428146, 1, 'fecb232ee98cdc42c94cf7b6c40cef439fcf673b25d0a146d4104f3cc5919d2c', true],
      [3428146, 3, 'fecb232ee98cdc42c94cf7b6c40cef439fcf673b25d0a146d4104f3cc5919d2c', true],
    ]);
    expect(tree.size).toBe(8);
  });
});
