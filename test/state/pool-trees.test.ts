// The library's tree classes and MerkleCRH functions against the real chain and the official
// vectors: the same answers as the hashers underneath, through the public names.
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex } from '../../src/codec/hex.js';
import { OrchardTree, SaplingTree, orchardMerkleHash, saplingMerkleHash } from '../../src/state/trees/pool-trees.js';
import { readHexVector, readJsonVector } from '../support/vectors.js';

const ROOTS = readJsonVector<{
  roots: { network: string; height: number; pool: string; internal_hex: string }[];
  sapling_treestates: { final_state_hex: string }[];
}>('roots.json');
const root = (h: number, pool: string): string =>
  ROOTS.roots.find((r) => r.network === 'mainnet' && r.height === h && r.pool === pool)!.internal_hex;
const leaves = (h: number, pool: 'sapling' | 'orchard'): Uint8Array[] =>
  decodeBlock(readHexVector('blocks', 'mainnet', `${h}.hex`)).transactions.flatMap((tx) =>
    pool === 'sapling' ? (tx.data.sapling?.outputs ?? []).map((o) => o.cmu) : (tx.data.orchard?.actions ?? []).map((a) => a.cmx),
  );

describe('SaplingTree / OrchardTree', () => {
  it("mainnet 419201 from the empty tree, then 419202 from zcashd's tree state at 419201", () => {
    const tree = new SaplingTree();
    for (const cmu of leaves(419201, 'sapling')) tree.append(cmu);
    expect([toHex(tree.root()), tree.size]).toEqual([root(419201, 'sapling'), 5]);
    const resumed = SaplingTree.fromTreeState(ROOTS.sapling_treestates[0]!.final_state_hex);
    expect(toHex(resumed.root())).toBe(root(419201, 'sapling'));
    resumed.appendMany(leaves(419202, 'sapling'));
    expect([toHex(resumed.root()), resumed.size]).toEqual([root(419202, 'sapling'), 7]);
    // fromTreeState(toTreeState()) keeps root and size.
    const again = SaplingTree.fromTreeState(resumed.toTreeState());
    expect([toHex(again.root()), again.size]).toEqual([root(419202, 'sapling'), 7]);
  });

  it('mainnet 1687107: the first two Orchard actions', () => {
    const tree = new OrchardTree();
    tree.appendMany(leaves(1687107, 'orchard'));
    expect([toHex(tree.root()), tree.size]).toEqual([root(1687107, 'orchard'), 2]);
    const again = OrchardTree.fromTreeState(tree.toTreeState());
    expect([toHex(again.root()), again.size]).toEqual([root(1687107, 'orchard'), 2]);
  });

  it('MerkleCRH at layer 0 of two empty subtrees is the empty root (Orchard vectors)', () => {
    const empty = readJsonVector<unknown[]>('zip', 'json', 'orchard_empty_roots.json')[2] as [string[]];
    const roots = empty[0];
    const e31 = Buffer.from(roots[31]!, 'hex');
    expect(toHex(orchardMerkleHash(0, e31, e31))).toBe(roots[32]);
    const two = new Uint8Array(32);
    two[0] = 2;
    expect(toHex(orchardMerkleHash(31, two, two))).toBe(roots[1]);
    expect(() => saplingMerkleHash(32, two, two)).toThrow('layer must be an integer from 0 to 31, got 32');
  });

  it('MerkleCRH^Sapling at layer 31 of two uncommitted leaves is E_1', () => {
    const one = new Uint8Array(32);
    one[0] = 1;
    expect(toHex(saplingMerkleHash(31, one, one))).toBe('817de36ab2d57feb077634bca77819c8e0bd298c04f6fed0e6a83cc1356ca155');
  });
});
