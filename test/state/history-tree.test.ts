import { blake2b } from '@noble/hashes/blake2.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BRANCH_IDS, MAINNET, TESTNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { ByteReader } from '../../src/codec/bytes.js';
import { reversedHexToBytes, toHex, toHexReversed } from '../../src/codec/hex.js';
import {
  appendHistoryLeaf,
  combineHistoryNodes,
  connectHistoryBlock,
  decodeHistoryTree,
  emptyHistoryTree,
  encodeHistoryTree,
  hashBlockCommitments,
  hashHistoryNode,
  historyLeaf,
  historyLeafFacts,
  historyRoot,
  historyRootNode,
  peakSizes,
  prevHistoryRoot,
  readHistoryNode,
  serializeHistoryNode,
  type HistoryLeafFacts,
  type HistoryNode,
  type HistoryTree,
} from '../../src/state/history-tree.js';
import { readFacts, readHexVector, readJsonVector } from '../support/vectors.js';

interface RootEntry {
  network: string;
  height: number;
  pool: string;
  internal_hex: string;
}
const roots = readJsonVector<{ roots: RootEntry[] }>('roots.json').roots;
const rootOf = (network: string, height: number, pool: string): Uint8Array => {
  const e = roots.find((r) => r.network === network && r.height === height && r.pool === pool);
  if (!e) throw new Error(`no ${pool} root for ${network} ${height}`);
  return new Uint8Array(Buffer.from(e.internal_hex, 'hex'));
};
const facts = readFacts().blocks;
const fact = (network: string, height: number) => facts.find((b) => b.network === network && b.height === height)!;
const block = (network: string, height: number) => decodeBlock(readHexVector('blocks', network, `${height}.hex`));

/** Leaf facts taken from facts.json (an independent parser) and roots.json. */
function factsLeaf(network: string, height: number, withOrchard = false): HistoryLeafFacts {
  const f = fact(network, height);
  const leaf: HistoryLeafFacts = {
    hash: reversedHexToBytes(f.hash),
    height,
    time: f.time,
    bits: parseInt(f.bits, 16),
    saplingRoot: rootOf(network, height, 'sapling'),
    saplingTxCount: f.transactions.filter((t) => t.sapling_spends + t.sapling_outputs > 0).length,
  };
  if (withOrchard) {
    leaf.orchardRoot = rootOf(network, height, 'orchard');
    leaf.orchardTxCount = f.transactions.filter((t) => t.orchard_actions > 0).length;
  }
  return leaf;
}

const le32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v);
  return b.toString('hex');
};

describe('the V1 leaf of mainnet 903000 (Heartwood activation), spec §6.4', () => {
  const leafFacts = factsLeaf('mainnet', 903000);
  const leaf = historyLeaf(leafFacts, BRANCH_IDS.Heartwood);
  const bytes = serializeHistoryNode(leaf);

  it('is 155 bytes, field by field', () => {
    const f = fact('mainnet', 903000);
    const hashInternal = toHex(reversedHexToBytes(f.hash));
    const root = toHex(rootOf('mainnet', 903000, 'sapling'));
    // Work of 0x1c02954a is 425645897796 = 0x631a78f844 (spec §2.7), 32 bytes little-endian.
    const work = '44f8781a63' + '00'.repeat(27);
    // Height 903000 = 0x0dc758 as a 5-byte CompactSize; 3 transactions carry a Sapling bundle.
    const expected =
      hashInternal + le32(f.time).repeat(2) + le32(0x1c02954a).repeat(2) + root + root + work + 'fe58c70d00'.repeat(2) + '03';
    expect(bytes.length).toBe(155);
    expect(toHex(bytes)).toBe(expected);
  });

  it('matches the spec excerpt: 4356be39…00000000 | 4832105f ×2 | 4a95021c ×2 | 796c9796…83e411 ×2 | 44f8781a63 | fe58c70d00 ×2 | 03', () => {
    const hex = toHex(bytes);
    expect(hex.slice(0, 8)).toBe('4356be39');
    expect(hex.slice(56, 64)).toBe('00000000');
    expect(hex.slice(64, 80)).toBe('4832105f4832105f');
    expect(hex.slice(80, 96)).toBe('4a95021c4a95021c');
    expect(hex.slice(96, 104)).toBe('796c9796');
    expect(hex.slice(218, 224)).toBe('83e411');
    expect(hex.slice(224, 234)).toBe('44f8781a63');
    expect(hex.slice(288)).toBe('fe58c70d00fe58c70d0003');
  });

  it('the counts and hash from the decoded block agree with facts.json', () => {
    const fromBlock = historyLeafFacts(block('mainnet', 903000), 903000, { saplingRoot: leafFacts.saplingRoot });
    expect(fromBlock).toEqual(leafFacts);
  });

  it('H_Heartwood(leaf) is the hashLightClientRoot of block 903001', () => {
    expect(toHexReversed(hashHistoryNode(leaf, BRANCH_IDS.Heartwood))).toBe(fact('mainnet', 903001).blockcommitments);
    expect(fact('mainnet', 903001).blockcommitments).toBe('4e0cbe7186f98b5e42e2c8609133ca7581e602c9be231ad30136960c6364883f');
  });

  it('survives a serialization round trip', () => {
    expect(readHistoryNode(new ByteReader(bytes), 1)).toEqual(leaf);
  });
});

describe('one-leaf trees verified against real headers', () => {
  it('testnet 903800 (Heartwood activation) → 903801', () => {
    const leaf = historyLeaf(factsLeaf('testnet', 903800), BRANCH_IDS.Heartwood);
    expect(toHexReversed(hashHistoryNode(leaf, BRANCH_IDS.Heartwood))).toBe(fact('testnet', 903801).blockcommitments);
  });

  it('mainnet 1046400 (Canopy activation) → 1046401 = 94470fa6…47e0b5 (spec §2.4)', () => {
    const leafFacts = factsLeaf('mainnet', 1046400);
    expect(leafFacts.saplingTxCount).toBe(0);
    const leaf = historyLeaf(leafFacts, BRANCH_IDS.Canopy);
    expect(toHexReversed(hashHistoryNode(leaf, BRANCH_IDS.Canopy))).toBe(
      '94470fa66ebd1a5fdb109a5aa3f3204f14de3a42135e71aa7f4c44055847e0b5',
    );
    // The same leaf hashed under Heartwood's branch id does not give it.
    expect(toHexReversed(hashHistoryNode(leaf, BRANCH_IDS.Heartwood))).not.toBe(
      '94470fa66ebd1a5fdb109a5aa3f3204f14de3a42135e71aa7f4c44055847e0b5',
    );
  });
});

describe('epochs and prevRoot (spec §6.4)', () => {
  it('Heartwood activation: prevRoot is null (the header field is zero), then the one-leaf tree', () => {
    const at = connectHistoryBlock(MAINNET, null, 903000, factsLeaf('mainnet', 903000));
    expect(toHexReversed(at.prevRoot)).toBe(fact('mainnet', 903000).blockcommitments);
    expect(at.prevRoot.every((b) => b === 0)).toBe(true);
    expect(at.tree).toMatchObject({ branchId: BRANCH_IDS.Heartwood, leafCount: 1 });
    const next = connectHistoryBlock(MAINNET, at.tree, 903001, factsLeaf('mainnet', 903001));
    expect(toHexReversed(next.prevRoot)).toBe(fact('mainnet', 903001).blockcommitments);
    expect(next.tree!.leafCount).toBe(2);
    expect(next.tree!.peaks.length).toBe(1);
  });

  it('before Heartwood there is no tree and no prevRoot', () => {
    const step = connectHistoryBlock(MAINNET, null, 902999, { ...factsLeaf('mainnet', 903000), height: 902999 });
    expect(step.tree).toBeNull();
    expect(step.prevRoot.every((b) => b === 0)).toBe(true);
  });

  it("Canopy activation: prevRoot is the Heartwood tree's final root; the Canopy tree starts empty", () => {
    // The real Heartwood tree has 143,400 leaves; a one-leaf stand-in ending at 1046399 shows
    // which tree prevRoot reads.
    const heartwood = appendHistoryLeaf(
      emptyHistoryTree(BRANCH_IDS.Heartwood),
      historyLeaf(factsLeaf('mainnet', 1046399), BRANCH_IDS.Heartwood),
    );
    const at = connectHistoryBlock(MAINNET, heartwood, 1046400, factsLeaf('mainnet', 1046400));
    expect(at.prevRoot).toEqual(historyRoot(heartwood));
    expect(at.tree).toMatchObject({ branchId: BRANCH_IDS.Canopy, leafCount: 1 });
    // The next block's prevRoot is the one-leaf Canopy tree: the real header value of 1046401.
    const nextFacts = { ...factsLeaf('mainnet', 1046400), height: 1046401 };
    const next = connectHistoryBlock(MAINNET, at.tree, 1046401, nextFacts);
    expect(toHexReversed(next.prevRoot)).toBe('94470fa66ebd1a5fdb109a5aa3f3204f14de3a42135e71aa7f4c44055847e0b5');
  });

  it('refuses a tree of the wrong epoch or one that does not end at h−1', () => {
    const t = connectHistoryBlock(MAINNET, null, 903000, factsLeaf('mainnet', 903000)).tree!;
    expect(() => prevHistoryRoot(MAINNET, t, 903002)).toThrow(/ends at 903000/);
    const canopy = { ...t, branchId: BRANCH_IDS.Canopy };
    expect(() => prevHistoryRoot(MAINNET, canopy, 903001)).toThrow(/branch/);
    expect(() => prevHistoryRoot(MAINNET, null, 903001)).toThrow(/needed/);
  });

  it('testnet: the same rules at its own heights', () => {
    const at = connectHistoryBlock(TESTNET, null, 903800, factsLeaf('testnet', 903800));
    const next = prevHistoryRoot(TESTNET, at.tree, 903801);
    expect(toHexReversed(next)).toBe(fact('testnet', 903801).blockcommitments);
  });
});

describe('NU5: V2 leaves of mainnet 1687106..1687108', () => {
  const heights = [1687106, 1687107, 1687108];
  const leaves = heights.map((h) => factsLeaf('mainnet', h, true));

  it('counts from the decoded blocks agree with facts.json', () => {
    for (const [i, h] of heights.entries()) {
      const fromBlock = historyLeafFacts(block('mainnet', h), h, {
        saplingRoot: leaves[i]!.saplingRoot,
        orchardRoot: leaves[i]!.orchardRoot!,
      });
      expect(fromBlock).toEqual(leaves[i]);
    }
    // 1687107 holds the first Orchard actions (one transaction).
    expect(leaves.map((l) => l.orchardTxCount)).toEqual([0, 1, 0]);
  });

  it('serialize as V2 (220 bytes at these heights) and round-trip', () => {
    for (const f of leaves) {
      const leaf = historyLeaf(f, BRANCH_IDS.NU5);
      const bytes = serializeHistoryNode(leaf);
      expect(bytes.length).toBe(32 + 16 + 64 + 32 + 5 + 5 + 1 + 64 + 1);
      // The Orchard roots follow the V1 part unchanged.
      expect(toHex(bytes.subarray(155, 187))).toBe(toHex(f.orchardRoot!));
      expect(toHex(bytes.subarray(187, 219))).toBe(toHex(f.orchardRoot!));
      expect(readHistoryNode(new ByteReader(bytes), 2)).toEqual(leaf);
    }
  });

  it('need the Orchard fields, and NU6/NU6.1 also use V2', () => {
    const { orchardRoot: _r, orchardTxCount: _c, ...v1Only } = leaves[0]!;
    expect(() => historyLeaf(v1Only, BRANCH_IDS.NU5)).toThrow(/Orchard/);
    expect(historyLeaf(leaves[0]!, BRANCH_IDS.NU6).orchard).not.toBeNull();
    expect(historyLeaf(leaves[0]!, BRANCH_IDS['NU6.1']).orchard).not.toBeNull();
  });

  it('a 3-leaf tree bags its two peaks left to right', () => {
    const b = BRANCH_IDS.NU5;
    let tree = emptyHistoryTree(b);
    for (const f of leaves) tree = appendHistoryLeaf(tree, historyLeaf(f, b));
    expect(tree.peaks.map((p) => [p.startHeight, p.endHeight])).toEqual([
      [1687106, 1687107],
      [1687108, 1687108],
    ]);
    const [l6, l7, l8] = leaves.map((f) => historyLeaf(f, b));
    expect(historyRootNode(tree)).toEqual(combineHistoryNodes(combineHistoryNodes(l6!, l7!, b), l8!, b));
    expect(historyRootNode(tree)!.orchard).toEqual({ startRoot: leaves[0]!.orchardRoot, endRoot: leaves[2]!.orchardRoot, txCount: 1 });
  });

  // The header of an NU5 block commits to prevRoot(h), the NU5 tree over 1687104..h−1; blocks
  // 1687104 and 1687105 are not in the vectors, so no real header's hashBlockCommitments can be
  // recomputed here. Its arithmetic is checked against an independent BLAKE2b instead.
  it('hashBlockCommitments = BLAKE2b-256("ZcashBlockCommit", prevRoot ‖ authDataRoot ‖ 0^32)', () => {
    const authDataRoot = block('mainnet', 1687107).computeAuthDataRoot();
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (prevRoot) => {
        const msg = new Uint8Array(96);
        msg.set(prevRoot, 0);
        msg.set(authDataRoot, 32);
        const want = blake2b(msg, { dkLen: 32, personalization: new TextEncoder().encode('ZcashBlockCommit') });
        expect(toHex(hashBlockCommitments(prevRoot, authDataRoot))).toBe(toHex(want));
      }),
      { numRuns: 20 },
    );
    expect(() => hashBlockCommitments(new Uint8Array(31), authDataRoot)).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Structural properties of the MMR on synthesized leaves.

const arbRoot = fc.uint8Array({ minLength: 32, maxLength: 32 });
const arbLeaf = (height: number, v2: boolean): fc.Arbitrary<HistoryNode> =>
  fc
    .record({
      hash: arbRoot,
      time: fc.nat({ max: 0xffffffff }),
      bits: fc.constantFrom(0x1c02954a, 0x1f07ffff, 0x1d00ffff),
      sapling: arbRoot,
      saplingTx: fc.nat({ max: 300 }),
      orchard: arbRoot,
      orchardTx: fc.nat({ max: 300 }),
    })
    .map((r) =>
      historyLeaf(
        {
          hash: r.hash,
          height,
          time: r.time,
          bits: r.bits,
          saplingRoot: r.sapling,
          saplingTxCount: r.saplingTx,
          ...(v2 ? { orchardRoot: r.orchard, orchardTxCount: r.orchardTx } : {}),
        },
        v2 ? BRANCH_IDS.NU5 : BRANCH_IDS.Heartwood,
      ),
    );

const arbLeaves = (v2: boolean) =>
  fc.integer({ min: 1, max: 40 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => arbLeaf(70000 + i, v2))));

/** The root built the other way: perfect subtrees of the binary decomposition, bottom up, then bagged. */
function bottomUpRoot(leaves: readonly HistoryNode[], branchId: number): HistoryNode {
  const subtrees: HistoryNode[] = [];
  let at = 0;
  for (const size of peakSizes(leaves.length)) {
    let level = leaves.slice(at, at + size);
    while (level.length > 1) {
      const up: HistoryNode[] = [];
      for (let i = 0; i < level.length; i += 2) up.push(combineHistoryNodes(level[i]!, level[i + 1]!, branchId));
      level = up;
    }
    subtrees.push(level[0]!);
    at += size;
  }
  return subtrees.reduce((acc, s) => combineHistoryNodes(acc, s, branchId));
}

describe('MMR properties', () => {
  for (const v2 of [false, true]) {
    const branchId = v2 ? BRANCH_IDS.NU5 : BRANCH_IDS.Heartwood;
    it(`${v2 ? 'V2' : 'V1'}: appending n leaves gives the bottom-up bagged root`, () => {
      fc.assert(
        fc.property(arbLeaves(v2), (leaves) => {
          let tree: HistoryTree = emptyHistoryTree(branchId);
          for (const l of leaves) tree = appendHistoryLeaf(tree, l);
          expect(tree.leafCount).toBe(leaves.length);
          expect(tree.peaks.length).toBe(peakSizes(leaves.length).length);
          const root = historyRootNode(tree)!;
          expect(root).toEqual(bottomUpRoot(leaves, branchId));
          expect(historyRoot(tree)).toEqual(hashHistoryNode(root, branchId));
          // Aggregates span the whole range.
          expect(root.startHeight).toBe(leaves[0]!.startHeight);
          expect(root.endHeight).toBe(leaves[leaves.length - 1]!.endHeight);
          expect(root.startTime).toBe(leaves[0]!.startTime);
          expect(root.endTime).toBe(leaves[leaves.length - 1]!.endTime);
          expect(root.work).toBe(leaves.reduce((s, l) => s + l.work, 0n));
          expect(root.saplingTxCount).toBe(leaves.reduce((s, l) => s + l.saplingTxCount, 0));
          if (v2) expect(root.orchard!.txCount).toBe(leaves.reduce((s, l) => s + l.orchard!.txCount, 0));
        }),
        { numRuns: 60 },
      );
    });

    it(`${v2 ? 'V2' : 'V1'}: a persisted tree restores exactly and keeps growing the same way`, () => {
      fc.assert(
        fc.property(arbLeaves(v2), fc.nat(), (leaves, cut) => {
          const k = cut % leaves.length;
          let tree: HistoryTree = emptyHistoryTree(branchId);
          for (const l of leaves.slice(0, k)) tree = appendHistoryLeaf(tree, l);
          const restored = decodeHistoryTree(encodeHistoryTree(tree));
          expect(restored).toEqual(tree);
          let a = tree;
          let b = restored;
          for (const l of leaves.slice(k)) {
            a = appendHistoryLeaf(a, l);
            b = appendHistoryLeaf(b, l);
          }
          expect(historyRoot(b)).toEqual(historyRoot(a));
        }),
        { numRuns: 40 },
      );
    });
  }

  it('a root reuses an earlier bag only for the same peak after the same left bag, in the same epoch', () => {
    // Two trees sharing their last peak's node, with different peaks before it (as two branches'
    // trees never do, but a bag cached by its right peak alone would then give a wrong root).
    const leaves = Array.from({ length: 3 }, (_, i) =>
      historyLeaf({ ...factsLeaf('mainnet', 903000), height: 903000 + i, time: 1000 + i }, BRANCH_IDS.Heartwood),
    );
    const other = historyLeaf({ ...factsLeaf('mainnet', 903000), height: 903000, time: 5 }, BRANCH_IDS.Heartwood);
    const shared = leaves[2]!;
    const a: HistoryTree = {
      branchId: BRANCH_IDS.Heartwood,
      leafCount: 3,
      peaks: [combineHistoryNodes(leaves[0]!, leaves[1]!, BRANCH_IDS.Heartwood), shared],
    };
    const b: HistoryTree = { ...a, peaks: [combineHistoryNodes(other, leaves[1]!, BRANCH_IDS.Heartwood), shared] };
    const fresh = (t: HistoryTree): Uint8Array => historyRoot(decodeHistoryTree(encodeHistoryTree(t)));
    expect(historyRoot(a)).toEqual(fresh(a));
    expect(historyRoot(b)).toEqual(fresh(b));
    expect(historyRoot(b)).not.toEqual(historyRoot(a));
    // The same peaks in another epoch hash under its own personalization.
    const c: HistoryTree = { ...a, branchId: BRANCH_IDS.Canopy };
    expect(historyRoot(c)).toEqual(fresh(c));
    expect(historyRoot(c)).not.toEqual(historyRoot(a));
  });

  it('each root along a growing tree equals the root of the same tree decoded afresh', () => {
    let tree: HistoryTree = emptyHistoryTree(BRANCH_IDS.NU5);
    for (let i = 0; i < 70; i++) {
      const facts = {
        ...factsLeaf('mainnet', 903000),
        height: 1687106 + i,
        time: 1700 + i,
        orchardRoot: new Uint8Array(32).fill(i),
        orchardTxCount: i,
      };
      tree = appendHistoryLeaf(tree, historyLeaf(facts, BRANCH_IDS.NU5));
      expect(historyRoot(tree)).toEqual(historyRoot(decodeHistoryTree(encodeHistoryTree(tree))));
    }
  });

  it('serializeHistoryNode hands out a copy: changing it changes no later hash', () => {
    const node = historyLeaf(factsLeaf('mainnet', 903000), BRANCH_IDS.Heartwood);
    const before = hashHistoryNode(node, BRANCH_IDS.Heartwood);
    serializeHistoryNode(node).fill(0);
    expect(hashHistoryNode(node, BRANCH_IDS.Heartwood)).toEqual(before);
    expect(serializeHistoryNode(node)[0]).toBe(node.commitment[0]);
  });

  it('appending does not modify the previous state (disconnect = keep the old one)', () => {
    const l = historyLeaf(factsLeaf('mainnet', 903000), BRANCH_IDS.Heartwood);
    const one = appendHistoryLeaf(emptyHistoryTree(BRANCH_IDS.Heartwood), l);
    const snapshot = encodeHistoryTree(one);
    appendHistoryLeaf(one, { ...l, startHeight: 903001, endHeight: 903001 });
    expect(encodeHistoryTree(one)).toEqual(snapshot);
  });

  it('an empty tree has the null root', () => {
    expect(historyRoot(emptyHistoryTree(BRANCH_IDS.NU5))).toEqual(new Uint8Array(32));
    expect(historyRoot(null)).toEqual(new Uint8Array(32));
  });

  it('peakSizes is the binary decomposition, largest first', () => {
    expect(peakSizes(0)).toEqual([]);
    expect(peakSizes(1)).toEqual([1]);
    expect(peakSizes(7)).toEqual([4, 2, 1]);
    // The whole Heartwood epoch, 903000..1046399: 143400 = 131072 + 8192 + 4096 + 32 + 8.
    expect(peakSizes(143400)).toEqual([131072, 8192, 4096, 32, 8]);
  });

  it('node serialization round-trips at CompactSize boundaries', () => {
    fc.assert(
      fc.property(fc.constantFrom(0, 0xfc, 0xfd, 0xffff, 0x10000, 0x1ffffff), fc.boolean(), (height, v2) => {
        const base = historyLeaf(
          { ...factsLeaf('mainnet', 903000), height, orchardRoot: new Uint8Array(32).fill(7), orchardTxCount: height },
          v2 ? BRANCH_IDS.NU5 : BRANCH_IDS.Heartwood,
        );
        const node = { ...base, saplingTxCount: height };
        expect(readHistoryNode(new ByteReader(serializeHistoryNode(node)), v2 ? 2 : 1)).toEqual(node);
      }),
    );
  });
});
