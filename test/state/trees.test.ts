import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex } from '../../src/codec/hex.js';
import type { MerkleHasher } from '../../src/state/trees/hasher.js';
import { IncrementalMerkleTree, TreeFullError, type CompletedSubtree } from '../../src/state/trees/incremental.js';
import { SPROUT_HASHER, SPROUT_TESTING_HASHER, createSproutHasher } from '../../src/state/trees/sprout.js';
import { POOL_TREE_STATE_LAYOUT, TreeStateError, type TreeStateErrorReason } from '../../src/state/trees/tree-state.js';
import { readHexVector, readJsonVector } from '../support/vectors.js';

const fromHex = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'));
const fromRpcHex = (h: string): Uint8Array => fromHex(h).reverse();

interface RootEntry {
  network: string;
  height: number;
  pool: string;
  rpc_hex: string;
  internal_hex: string;
}
interface Roots {
  roots: RootEntry[];
  empty_roots: Record<string, { rpc_hex: string; internal_hex: string }>;
  sapling_treestates: {
    height: number;
    final_state_hex: string;
    final_root_internal_hex: string;
    decoded: {
      left_internal_hex: string | null;
      right_internal_hex: string | null;
      parents_internal_hex: (string | null)[];
      tree_size: number;
    };
  }[];
}
const roots = readJsonVector<Roots>('roots.json');
const rootOf = (network: string, height: number, pool: string): RootEntry => {
  const r = roots.roots.find((e) => e.network === network && e.height === height && e.pool === pool);
  if (!r) throw new Error(`no ${pool} root for ${network} ${height} in roots.json`);
  return r;
};

// zcashd src/test/data: 16 commitments appended to a depth-4 SHA256Compress tree.
const commitments = readJsonVector<string[]>('zcashd', 'merkle_commitments.json').map(fromRpcHex);
const rootVectors = readJsonVector<string[]>('zcashd', 'merkle_roots.json');
const serializationVectors = readJsonVector<string[]>('zcashd', 'merkle_serialization.json');

/** The root of 2^depth leaves (missing ones uncommitted), hashed level by level: the definition, not the frontier. */
function naiveRoot(hasher: MerkleHasher, leaves: Uint8Array[]): Uint8Array {
  let level = leaves.slice();
  for (let h = 0; h < hasher.depth; h++) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(hasher.combine(h, level[i]!, level[i + 1] ?? hasher.emptyRoots[h]!));
    if (next.length === 0) next.push(hasher.emptyRoots[h + 1]!);
    level = next;
  }
  return level[0]!;
}

/** Every complete 2^height-leaf subtree root of `leaves`, by the definition. */
function naiveSubtreeRoots(hasher: MerkleHasher, leaves: Uint8Array[], height: number): Uint8Array[] {
  let level = leaves.slice(0, leaves.length - (leaves.length % 2 ** height));
  for (let h = 0; h < height; h++) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(hasher.combine(h, level[i]!, level[i + 1]!));
    level = next;
  }
  return level;
}

function leafFrom(seed: number): Uint8Array {
  const leaf = new Uint8Array(32);
  new DataView(leaf.buffer).setUint32(0, seed >>> 0, true);
  leaf[31] = 0xa5;
  return leaf;
}

function expectTreeStateError(run: () => unknown, reason: TreeStateErrorReason): void {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(TreeStateError);
    expect((e as TreeStateError).reason).toBe(reason);
    return;
  }
  throw new Error(`expected a TreeStateError (${reason})`);
}

describe('SPROUT_HASHER (SHA256Compress)', () => {
  it('gives the spec E_1 and the depth-29 empty root', () => {
    expect(toHex(SPROUT_HASHER.emptyRoots[0]!)).toBe('00'.repeat(32));
    expect(toHex(SPROUT_HASHER.emptyRoots[1]!)).toBe('da5698be17b9b46962335799779fbeca8ce5d491c0d26243bafef9ea1837a9d8');
    expect(toHex(SPROUT_HASHER.emptyRoots[29]!)).toBe(roots.empty_roots['sprout_empty_root_depth29']!.internal_hex);
    expect(toHex(new IncrementalMerkleTree(SPROUT_HASHER).root())).toBe(roots.empty_roots['sprout_empty_root_depth29']!.internal_hex);
  });

  it('combineMany equals combine pair by pair', () => {
    const pairs = new Uint8Array(3 * 64).map((_, i) => (i * 37 + 11) & 0xff);
    const many = SPROUT_HASHER.combineMany(0, pairs, 3);
    for (let i = 0; i < 3; i++) {
      const one = SPROUT_HASHER.combine(0, pairs.subarray(i * 64, i * 64 + 32), pairs.subarray(i * 64 + 32, i * 64 + 64));
      expect(toHex(many.subarray(i * 32, i * 32 + 32))).toBe(toHex(one));
    }
  });
});

describe('zcashd depth-4 Sprout vectors (merkle_roots / merkle_serialization)', () => {
  it('matches every root and every serialization after each append', () => {
    const tree = new IncrementalMerkleTree(SPROUT_TESTING_HASHER);
    expect(toHex(tree.root())).toBe(toHex(SPROUT_TESTING_HASHER.emptyRoots[4]!));
    expect(tree.toTreeState()).toBe('000000');
    commitments.forEach((c, i) => {
      tree.append(c);
      expect(tree.size).toBe(i + 1);
      expect(toHex(tree.root())).toBe(rootVectors[i]);
      expect(tree.toTreeState()).toBe(serializationVectors[i]);
    });
  });

  it('appendMany reproduces the vectors at every batch boundary, for every split point', () => {
    for (let split = 0; split <= 16; split++) {
      const tree = new IncrementalMerkleTree(SPROUT_TESTING_HASHER);
      tree.appendMany(commitments.slice(0, split));
      if (split > 0) expect(tree.toTreeState()).toBe(serializationVectors[split - 1]);
      const rest = new Uint8Array((16 - split) * 32);
      commitments.slice(split).forEach((c, i) => rest.set(c, i * 32));
      tree.appendMany(rest);
      expect(tree.size).toBe(16);
      expect(toHex(tree.root())).toBe(rootVectors[15]);
      expect(tree.toTreeState()).toBe(serializationVectors[15]);
    }
  });

  it('toTreeStateBytes, kept from one call to the next, follows every append, appendMany and clone', () => {
    const tree = new IncrementalMerkleTree(SPROUT_TESTING_HASHER);
    const states: IncrementalMerkleTree[] = [];
    commitments.forEach((c, i) => {
      // Asked before the append too, in both layouts, so a kept serialization would show here.
      tree.toTreeStateBytes('padded');
      tree.toTreeStateBytes();
      if (i % 2 === 0) tree.append(c);
      else tree.appendMany([c]);
      const bytes = tree.toTreeStateBytes();
      expect(toHex(bytes)).toBe(serializationVectors[i]);
      bytes.fill(0xff); // a copy: the next call is unaffected
      expect(toHex(tree.toTreeStateBytes())).toBe(serializationVectors[i]);
      states.push(tree.clone());
    });
    // Each clone kept its own state while the tree grew; appending to one leaves the others.
    states.forEach((s, i) => expect(toHex(s.toTreeStateBytes())).toBe(serializationVectors[i]));
    states[3]!.append(commitments[4]!);
    expect(toHex(states[3]!.toTreeStateBytes())).toBe(serializationVectors[4]);
    expect(toHex(states[2]!.toTreeStateBytes())).toBe(serializationVectors[2]);
  });

  it('fromTreeState of each serialization gives that root and size, re-serializes identically and continues', () => {
    serializationVectors.forEach((state, i) => {
      const tree = IncrementalMerkleTree.fromTreeState(SPROUT_TESTING_HASHER, state);
      expect(tree.size).toBe(i + 1);
      expect(toHex(tree.root())).toBe(rootVectors[i]);
      expect(tree.toTreeState()).toBe(state);
      if (i < 15) {
        tree.appendMany(commitments.slice(i + 1));
        expect(tree.toTreeState()).toBe(serializationVectors[15]);
      }
    });
  });

  it('rejects appends to the full tree, as zcashd throws "tree is full", and stays unchanged', () => {
    const full = IncrementalMerkleTree.fromTreeState(SPROUT_TESTING_HASHER, serializationVectors[15]!);
    expect(() => full.append(new Uint8Array(32))).toThrow(TreeFullError);
    expect(() => full.append(new Uint8Array(32))).toThrow(/tree is full/);
    expect(full.toTreeState()).toBe(serializationVectors[15]);

    const partial = new IncrementalMerkleTree(SPROUT_TESTING_HASHER);
    partial.appendMany(commitments.slice(0, 10));
    expect(() => partial.appendMany(commitments.slice(0, 7))).toThrow(TreeFullError);
    expect(partial.toTreeState()).toBe(serializationVectors[9]);
    partial.appendMany(commitments.slice(10));
    expect(partial.toTreeState()).toBe(serializationVectors[15]);
  });
});

describe('Sprout anchors of real blocks (depth 29)', () => {
  const firstJoinSplitBlocks = [
    ['mainnet', 396],
    ['testnet', 2259],
  ] as const;
  for (const [network, height] of firstJoinSplitBlocks) {
    it(`${network} ${height}: its JoinSplit commitments give the final Sprout root`, () => {
      const block = decodeBlock(readHexVector('blocks', network, `${height}.hex`));
      const leaves = block.transactions.flatMap((tx) => tx.data.joinSplits.flatMap((js) => js.commitments));
      expect(leaves.length).toBe(2);
      const tree = new IncrementalMerkleTree(SPROUT_HASHER);
      tree.appendMany(leaves);
      const expected = rootOf(network, height, 'sprout');
      expect(toHex(tree.root())).toBe(expected.internal_hex);

      const oneByOne = new IncrementalMerkleTree(SPROUT_HASHER);
      for (const leaf of leaves) oneByOne.append(leaf);
      expect(toHex(oneByOne.root())).toBe(expected.internal_hex);
    });
  }
});

describe('tree-state layouts', () => {
  // A stub is fine here: parsing and serializing never hash. Roots are only asserted with real hashers.
  const stub32: MerkleHasher = {
    depth: 32,
    emptyRoots: Array.from({ length: 33 }, () => new Uint8Array(32)),
    combine: () => {
      throw new Error('the stub hasher must not be asked for a hash');
    },
    combineMany: () => {
      throw new Error('the stub hasher must not be asked for a hash');
    },
  };
  const sapling = roots.sapling_treestates[0]!;

  it('parses the Sapling tree state at mainnet 419201 and re-serializes it byte for byte (padded layout)', () => {
    const tree = IncrementalMerkleTree.fromTreeState(stub32, sapling.final_state_hex);
    expect(tree.size).toBe(sapling.decoded.tree_size);
    expect(tree.toTreeState('padded')).toBe(sapling.final_state_hex);
    const parts = tree.toParts('padded');
    expect(parts.left && toHex(parts.left)).toBe(sapling.decoded.left_internal_hex);
    expect(parts.right).toBeNull();
    expect(parts.parents.map((p) => p && toHex(p))).toEqual(sapling.decoded.parents_internal_hex);
  });

  it("prints the same frontier in zcashd's C++ layout (parents end at the last present one)", () => {
    const tree = IncrementalMerkleTree.fromTreeState(stub32, sapling.final_state_hex);
    const d = sapling.decoded;
    const expected = `01${d.left_internal_hex}` + '00' + '02' + '00' + `01${d.parents_internal_hex[1]}`;
    expect(tree.toTreeState('trimmed')).toBe(expected);
    expect(IncrementalMerkleTree.fromTreeState(stub32, expected).toTreeState('padded')).toBe(sapling.final_state_hex);
  });

  it('has the finalState lengths zcashd qa/rpc-tests/finalorchardroot.py and finalsaplingroot.py assert', () => {
    const hasher = createSproutHasher(32); // any real depth-32 hash: the lengths do not depend on it
    const tree = new IncrementalMerkleTree(hasher);
    expect(tree.toTreeState('trimmed')).toBe('000000');
    expect(tree.toTreeState('padded')).toBe('000000');
    tree.appendMany([leafFrom(1), leafFrom(2)]);
    expect(tree.toTreeState(POOL_TREE_STATE_LAYOUT.sapling).length).toBe(134); // 2 notes
    expect(tree.toTreeState(POOL_TREE_STATE_LAYOUT.orchard).length).toBe(196); // 2 actions
    tree.appendMany([leafFrom(3), leafFrom(4)]);
    expect(tree.toTreeState(POOL_TREE_STATE_LAYOUT.orchard).length).toBe(260); // 4 actions
    tree.appendMany([leafFrom(5), leafFrom(6)]);
    expect(tree.toTreeState(POOL_TREE_STATE_LAYOUT.orchard).length).toBe(260); // 6 actions
  });
});

describe('malformed tree states', () => {
  const valid = serializationVectors[12]!; // left, right and two parents with a gap
  it('rejects bad hex', () => {
    expectTreeStateError(() => IncrementalMerkleTree.fromTreeState(SPROUT_TESTING_HASHER, ''), 'invalid-hex');
    expectTreeStateError(() => IncrementalMerkleTree.fromTreeState(SPROUT_TESTING_HASHER, '0'), 'invalid-hex');
    expectTreeStateError(() => IncrementalMerkleTree.fromTreeState(SPROUT_TESTING_HASHER, 'zz0000'), 'invalid-hex');
  });

  it('rejects every truncation of a valid state', () => {
    for (let cut = 2; cut < valid.length; cut += 2) {
      expectTreeStateError(() => IncrementalMerkleTree.fromTreeState(SPROUT_TESTING_HASHER, valid.slice(0, cut)), 'truncated');
    }
  });

  it('rejects trailing bytes, bad option tags and a non-canonical parent count', () => {
    expectTreeStateError(() => IncrementalMerkleTree.fromTreeState(SPROUT_TESTING_HASHER, valid + '00'), 'trailing-bytes');
    expectTreeStateError(() => IncrementalMerkleTree.fromTreeState(SPROUT_TESTING_HASHER, '02' + valid.slice(2)), 'bad-option');
    expectTreeStateError(() => IncrementalMerkleTree.fromTreeState(SPROUT_TESTING_HASHER, '0000fd0000'), 'non-canonical-compactsize');
  });

  it('rejects more parents than the depth allows (an overfull tree)', () => {
    const leaf = '01' + '11'.repeat(32);
    expect(IncrementalMerkleTree.fromTreeState(SPROUT_TESTING_HASHER, leaf + leaf + '03' + leaf + leaf + leaf).size).toBe(16);
    expectTreeStateError(
      () => IncrementalMerkleTree.fromTreeState(SPROUT_TESTING_HASHER, leaf + leaf + '04' + leaf + leaf + leaf + leaf),
      'too-many-parents',
    );
    expectTreeStateError(() => IncrementalMerkleTree.fromTreeState(SPROUT_TESTING_HASHER, '0000fe00000100'), 'too-many-parents');
  });

  it('rejects a right leaf or parents without a left leaf', () => {
    const node = '01' + '22'.repeat(32);
    expectTreeStateError(() => IncrementalMerkleTree.fromTreeState(SPROUT_TESTING_HASHER, '00' + node + '00'), 'right-without-left');
    expectTreeStateError(() => IncrementalMerkleTree.fromTreeState(SPROUT_TESTING_HASHER, '0000' + '01' + node), 'parents-without-left');
  });
});

describe('completed subtrees (z_getsubtreesbyindex)', () => {
  it('reports each 4-leaf subtree of the zcashd depth-4 vectors, consistent with the vector roots', () => {
    const h = SPROUT_TESTING_HASHER;
    const E = h.emptyRoots;
    const tree = new IncrementalMerkleTree(h, { subtreeHeight: 2 });
    const reported: CompletedSubtree[] = [];
    commitments.forEach((c, i) => {
      const done = tree.append(c);
      expect(done !== null).toBe((i + 1) % 4 === 0);
      if (done) {
        expect(done.index).toBe((i + 1) / 4 - 1);
        reported.push(done);
      }
      expect(tree.currentSubtreeIndex).toBe(Math.floor((i + 1) / 4));
    });
    const [s0, s1, s2, s3] = reported.map((r) => r.root);
    // As zcashd's gtest subtree_roots: the tree root rebuilt from subtree roots and empty roots.
    expect(toHex(h.combine(3, h.combine(2, s0!, E[2]!), E[3]!))).toBe(rootVectors[3]);
    expect(toHex(h.combine(3, h.combine(2, s0!, s1!), E[3]!))).toBe(rootVectors[7]);
    expect(toHex(h.combine(3, h.combine(2, s0!, s1!), h.combine(2, s2!, E[2]!)))).toBe(rootVectors[11]);
    expect(toHex(h.combine(3, h.combine(2, s0!, s1!), h.combine(2, s2!, s3!)))).toBe(rootVectors[15]);

    const batched = new IncrementalMerkleTree(h, { subtreeHeight: 2 });
    const all = batched.appendMany(commitments);
    expect(all.map((s) => [s.index, toHex(s.root), s.batchOffset])).toEqual(reported.map((s) => [s.index, toHex(s.root), s.index * 4 + 3]));
  });

  it('reports 2^16-leaf subtrees of a depth-29 tree in a batch, with the completing leaf', () => {
    const leaves = new Uint8Array((2 ** 16 + 3) * 32);
    for (let i = 0; i < 2 ** 16 + 3; i++) leaves.set(leafFrom(i), i * 32);
    const tree = new IncrementalMerkleTree(SPROUT_HASHER);
    expect(tree.subtreeHeight).toBe(16);
    tree.appendMany(leaves.subarray(0, 100 * 32));
    const done = tree.appendMany(leaves.subarray(100 * 32));
    expect(done.length).toBe(1);
    expect(done[0]!.index).toBe(0);
    expect(done[0]!.batchOffset).toBe(2 ** 16 - 1 - 100);
    const expected = naiveSubtreeRoots(
      SPROUT_HASHER,
      Array.from({ length: 2 ** 16 }, (_, i) => leaves.subarray(i * 32, i * 32 + 32)),
      16,
    );
    expect(toHex(done[0]!.root)).toBe(toHex(expected[0]!));
    expect(tree.currentSubtreeIndex).toBe(1);
  });
});

describe('properties (cheap real hasher: SHA256Compress)', () => {
  const depths = [4, 7];
  for (const depth of depths) {
    const hasher = depth === 4 ? SPROUT_TESTING_HASHER : createSproutHasher(depth);
    const capacity = 2 ** depth;
    const leavesArb = fc
      .array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { maxLength: capacity, size: 'max' })
      .chain((leaves) => fc.tuple(fc.constant(leaves), fc.array(fc.integer({ min: 0, max: leaves.length }), { maxLength: 6 })));

    it(`depth ${depth}: appendMany in any chunks == repeated append (frontier, root, subtrees)`, () => {
      fc.assert(
        fc.property(leavesArb, ([leaves, cuts]) => {
          const bounds = [0, ...cuts.sort((a, b) => a - b), leaves.length];
          const single = new IncrementalMerkleTree(hasher, { subtreeHeight: 2 });
          const singleSubtrees: [number, string, number][] = [];
          leaves.forEach((leaf, pos) => {
            const done = single.append(leaf);
            if (done) singleSubtrees.push([done.index, toHex(done.root), pos]);
          });
          const batched = new IncrementalMerkleTree(hasher, { subtreeHeight: 2 });
          const batchedSubtrees: [number, string, number][] = [];
          for (let b = 0; b + 1 < bounds.length; b++) {
            const chunk = leaves.slice(bounds[b], bounds[b + 1]);
            for (const s of batched.appendMany(chunk)) batchedSubtrees.push([s.index, toHex(s.root), bounds[b]! + s.batchOffset]);
          }
          expect(batched.size).toBe(leaves.length);
          expect(batched.toTreeState()).toBe(single.toTreeState());
          expect(batched.toTreeState('padded')).toBe(single.toTreeState('padded'));
          expect(toHex(batched.root())).toBe(toHex(single.root()));
          expect(batchedSubtrees).toEqual(singleSubtrees);
        }),
        { numRuns: 150 },
      );
    });

    it(`depth ${depth}: root == the root built bottom-up from the padded leaf list`, () => {
      fc.assert(
        fc.property(leavesArb, ([leaves]) => {
          const tree = new IncrementalMerkleTree(hasher);
          tree.appendMany(leaves);
          expect(toHex(tree.root())).toBe(toHex(naiveRoot(hasher, leaves)));
        }),
        { numRuns: 100 },
      );
    });

    it(`depth ${depth}: fromTreeState(toTreeState()) keeps size, root and state in both layouts`, () => {
      fc.assert(
        fc.property(leavesArb, ([leaves]) => {
          const tree = new IncrementalMerkleTree(hasher);
          tree.appendMany(leaves);
          for (const layout of ['trimmed', 'padded'] as const) {
            const back = IncrementalMerkleTree.fromTreeState(hasher, tree.toTreeState(layout));
            expect(back.size).toBe(tree.size);
            expect(toHex(back.root())).toBe(toHex(tree.root()));
            expect(back.toTreeState('trimmed')).toBe(tree.toTreeState('trimmed'));
            expect(back.toTreeState('padded')).toBe(tree.toTreeState('padded'));
          }
        }),
        { numRuns: 100 },
      );
    });
  }

  it('clone is independent of the original', () => {
    const tree = new IncrementalMerkleTree(SPROUT_TESTING_HASHER);
    tree.appendMany(commitments.slice(0, 5));
    const copy = tree.clone();
    copy.appendMany(commitments.slice(5, 9));
    expect(tree.toTreeState()).toBe(serializationVectors[4]);
    expect(toHex(tree.root())).toBe(rootVectors[4]);
    expect(copy.toTreeState()).toBe(serializationVectors[8]);
    expect(toHex(copy.root())).toBe(rootVectors[8]);
  });

  it('leaves the tree unchanged when the hasher throws part-way through an append', () => {
    let failAt = -1;
    let calls = 0;
    const flaky: MerkleHasher = {
      depth: 4,
      emptyRoots: SPROUT_TESTING_HASHER.emptyRoots,
      combine: (h, l, r) => {
        if (calls++ === failAt) throw new Error('hasher failure');
        return SPROUT_TESTING_HASHER.combine(h, l, r);
      },
      combineMany: (h, p, c) => {
        if (calls++ === failAt) throw new Error('hasher failure');
        return SPROUT_TESTING_HASHER.combineMany(h, p, c);
      },
    };
    const tree = new IncrementalMerkleTree(flaky);
    tree.appendMany(commitments.slice(0, 7));
    calls = 0;
    failAt = 1; // the second hash of the batch: after level 0, before level 1
    expect(() => tree.appendMany(commitments.slice(7, 12))).toThrow('hasher failure');
    expect(tree.toTreeState()).toBe(serializationVectors[6]);
    calls = 0;
    failAt = 2; // appending the 9th leaf carries the 8th up three levels; fail on the last
    tree.append(commitments[7]!);
    expect(() => tree.append(commitments[8]!)).toThrow('hasher failure');
    expect(tree.toTreeState()).toBe(serializationVectors[7]);
    failAt = -1;
    tree.appendMany(commitments.slice(8));
    expect(tree.toTreeState()).toBe(serializationVectors[15]);
    expect(toHex(tree.root())).toBe(rootVectors[15]);
  });

  it('does not alias leaf buffers the caller reuses', () => {
    const buffer = new Uint8Array(32 * 3);
    commitments.slice(0, 3).forEach((c, i) => buffer.set(c, i * 32));
    const tree = new IncrementalMerkleTree(SPROUT_TESTING_HASHER);
    tree.appendMany(buffer);
    const single = commitments[3]!.slice();
    tree.append(single);
    buffer.fill(0xee);
    single.fill(0xee);
    expect(tree.toTreeState()).toBe(serializationVectors[3]);
    expect(toHex(tree.root())).toBe(rootVectors[3]);
  });
});
