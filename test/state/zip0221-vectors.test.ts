// ZIP-221 history trees against librustzcash's zcash_history vectors (nu6.3/zip/zip_0221_v{1,2,3}.json):
// V1 nodes (Heartwood), V2 (NU5, with Orchard fields) and V3 (NU6.3, with Ironwood fields). Each row is
// one leaf appended to the tree of the rows before it: its serialization, every peak, the root node and
// the root hash after the append (so one to four peaks are bagged). The generator draws random leaf
// values: times, bits and work do not belong to real blocks.
import { describe, expect, it } from 'vitest';
import { ByteReader } from '../../src/codec/bytes.js';
import {
  appendHistoryLeaf,
  decodeHistoryTree,
  emptyHistoryTree,
  encodeHistoryTree,
  historyLeaf,
  historyNodeVersion,
  historyRoot,
  historyRootNode,
  readHistoryNode,
  serializeHistoryNode,
  type HistoryLeafFacts,
  type HistoryTree,
} from '../../src/state/history-tree.js';
import { blockWork } from '../../src/chain/pow.js';
import { readJsonVector } from '../support/vectors.js';

interface Row {
  consensus_branch_id: number;
  n_leaves: number;
  leaf_block_hash: string;
  leaf_time: number;
  leaf_target_bits: number;
  leaf_sapling_root: string;
  leaf_work: string;
  leaf_height: number;
  leaf_sapling_tx_count: number;
  leaf_orchard_root?: string;
  leaf_orchard_tx_count?: number;
  leaf_ironwood_root?: string;
  leaf_ironwood_tx_count?: number;
  leaf_serialized: string;
  peaks: string[];
  root_serialized: string;
  hash_chain_history_root: string;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const bytes = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'));

function factsOf(row: Row): HistoryLeafFacts {
  const facts: HistoryLeafFacts = {
    hash: bytes(row.leaf_block_hash),
    height: row.leaf_height,
    time: row.leaf_time,
    bits: row.leaf_target_bits,
    saplingRoot: bytes(row.leaf_sapling_root),
    saplingTxCount: row.leaf_sapling_tx_count,
  };
  if (row.leaf_orchard_root !== undefined) {
    facts.orchardRoot = bytes(row.leaf_orchard_root);
    facts.orchardTxCount = row.leaf_orchard_tx_count!;
  }
  if (row.leaf_ironwood_root !== undefined) {
    facts.ironwoodRoot = bytes(row.leaf_ironwood_root);
    facts.ironwoodTxCount = row.leaf_ironwood_tx_count!;
  }
  return facts;
}

/** The vectors' leaf work is drawn at random, not derived from the bits: the leaf takes it as given. */
function leafOf(row: Row) {
  const leaf = historyLeaf(factsOf(row), row.consensus_branch_id);
  let work = 0n;
  const le = bytes(row.leaf_work);
  for (let i = le.length - 1; i >= 0; i--) work = (work << 8n) | BigInt(le[i]!);
  return { ...leaf, work };
}

const VERSIONS = [
  { file: 'zip_0221_v1.json', version: 1, pools: 'Sapling' },
  { file: 'zip_0221_v2.json', version: 2, pools: 'Sapling and Orchard' },
  { file: 'zip_0221_v3.json', version: 3, pools: 'Sapling, Orchard and Ironwood' },
] as const;

describe.each(VERSIONS)('zcash_history $file (V$version nodes: $pools)', ({ file, version }) => {
  const rows = readJsonVector<Row[]>('nu6.3', 'zip', file);

  it('holds 16 appends to one tree of one epoch, whose nodes are of this version', () => {
    expect(rows.map((r) => r.n_leaves)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.consensus_branch_id)).size).toBe(1);
    expect(historyNodeVersion(rows[0]!.consensus_branch_id)).toBe(version);
  });

  it('serializes every leaf as the vectors do, and reads it back', () => {
    for (const row of rows) {
      const serialized = serializeHistoryNode(leafOf(row));
      expect(hex(serialized)).toBe(row.leaf_serialized);
      const r = new ByteReader(serialized);
      expect(hex(serializeHistoryNode(readHistoryNode(r, version)))).toBe(row.leaf_serialized);
      expect(r.pos).toBe(serialized.length);
    }
  });

  it('after every append: each peak, the root node and the root hash', () => {
    const branchId = rows[0]!.consensus_branch_id;
    let tree: HistoryTree = emptyHistoryTree(branchId);
    for (const row of rows) {
      tree = appendHistoryLeaf(tree, leafOf(row));
      expect(tree.leafCount).toBe(row.n_leaves);
      expect(tree.peaks.map((p) => hex(serializeHistoryNode(p)))).toEqual(row.peaks);
      expect(hex(serializeHistoryNode(historyRootNode(tree)!))).toBe(row.root_serialized);
      expect(hex(historyRoot(tree))).toBe(row.hash_chain_history_root);
      // What the store persists restores the same tree.
      expect(hex(encodeHistoryTree(decodeHistoryTree(encodeHistoryTree(tree))))).toBe(hex(encodeHistoryTree(tree)));
    }
  });
});

describe('V3 leaves need their pools, and versions do not mix', () => {
  const [v2, v3] = [readJsonVector<Row[]>('nu6.3', 'zip', 'zip_0221_v2.json'), readJsonVector<Row[]>('nu6.3', 'zip', 'zip_0221_v3.json')];

  it('a V3 epoch refuses a leaf without the Ironwood root and count', () => {
    const facts = factsOf(v3[0]!);
    delete facts.ironwoodRoot;
    expect(() => historyLeaf(facts, v3[0]!.consensus_branch_id)).toThrow('V3 epochs need the Ironwood root and tx count');
  });

  it('a V2 and a V3 node cannot be combined', () => {
    const tree = appendHistoryLeaf(emptyHistoryTree(v3[0]!.consensus_branch_id), leafOf(v2[0]!));
    expect(() => appendHistoryLeaf(tree, leafOf(v3[0]!))).toThrow('V2 and V3 nodes cannot be combined');
  });

  it("a V3 leaf's work is the block's own work from its bits when built from facts", () => {
    expect(historyLeaf(factsOf(v3[0]!), v3[0]!.consensus_branch_id).work).toBe(blockWork(v3[0]!.leaf_target_bits));
  });
});
