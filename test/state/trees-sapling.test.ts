// The incremental tree with the real Sapling hasher (MerkleCRH^Sapling): roots asserted against
// zcashd's depth-4 Sapling vectors and real mainnet blocks.
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex } from '../../src/codec/hex.js';
import { SAPLING_HASHER } from '../../src/crypto/sapling/pure-hasher.js';
import type { MerkleHasher } from '../../src/state/trees/hasher.js';
import { IncrementalMerkleTree } from '../../src/state/trees/incremental.js';
import { readHexVector, readJsonVector } from '../support/vectors.js';

const fromHex = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'));

interface Roots {
  roots: { network: string; height: number; pool: string; internal_hex: string }[];
  sapling_treestates: { height: number; final_state_hex: string; final_root_internal_hex: string }[];
}
const roots = readJsonVector<Roots>('roots.json');
const saplingRoot = (height: number): string => {
  const r = roots.roots.find((e) => e.network === 'mainnet' && e.height === height && e.pool === 'sapling');
  if (!r) throw new Error(`no Sapling root for mainnet ${height}`);
  return r.internal_hex;
};
const treestate419201 = roots.sapling_treestates[0]!;

function blockCmus(height: number): Uint8Array[] {
  const block = decodeBlock(readHexVector('blocks', 'mainnet', `${height}.hex`));
  return block.transactions.flatMap((tx) => tx.data.sapling?.outputs.map((o) => o.cmu) ?? []);
}

/** zcashd's depth-4 Sapling testing tree: the same MerkleCRH, fewer levels. */
const saplingTesting: MerkleHasher = {
  depth: 4,
  emptyRoots: SAPLING_HASHER.emptyRoots.slice(0, 5),
  combine: (h, l, r) => SAPLING_HASHER.combine(h, l, r),
  combineMany: (h, pairs, count) => SAPLING_HASHER.combineMany(h, pairs, count),
};

describe('Sapling tree', () => {
  it('matches zcashd merkle_roots_sapling / merkle_serialization_sapling after each append', () => {
    const commitments = readJsonVector<string[]>('zcashd', 'merkle_commitments_sapling.json').map((h) => fromHex(h).reverse());
    const rootVectors = readJsonVector<string[]>('zcashd', 'merkle_roots_sapling.json');
    const serializations = readJsonVector<string[]>('zcashd', 'merkle_serialization_sapling.json');
    const tree = new IncrementalMerkleTree(saplingTesting);
    commitments.forEach((c, i) => {
      tree.append(c);
      expect(toHex(tree.root())).toBe(rootVectors[i]);
      expect(tree.toTreeState()).toBe(serializations[i]);
    });
    const batched = new IncrementalMerkleTree(saplingTesting);
    batched.appendMany(commitments);
    expect(batched.toTreeState()).toBe(serializations[15]);
  });

  it('mainnet 419201: the tree state root is the block final root, and its 5 cmus rebuild that state', () => {
    const parsed = IncrementalMerkleTree.fromTreeState(SAPLING_HASHER, treestate419201.final_state_hex);
    expect(toHex(parsed.root())).toBe(treestate419201.final_root_internal_hex);
    expect(treestate419201.final_root_internal_hex).toBe(saplingRoot(419201));

    const cmus = blockCmus(419201);
    expect(cmus.length).toBe(5);
    const built = new IncrementalMerkleTree(SAPLING_HASHER);
    built.appendMany(cmus);
    expect(built.toTreeState('padded')).toBe(treestate419201.final_state_hex);
    expect(built.toTreeState()).toBe(parsed.toTreeState());
  });

  it('mainnet 419202: appending its cmus to the 419201 state gives its final root', () => {
    const tree = IncrementalMerkleTree.fromTreeState(SAPLING_HASHER, treestate419201.final_state_hex);
    const cmus = blockCmus(419202);
    expect(cmus.length).toBe(2);
    tree.appendMany(cmus);
    expect(tree.size).toBe(7);
    expect(toHex(tree.root())).toBe(saplingRoot(419202));
  });
});
