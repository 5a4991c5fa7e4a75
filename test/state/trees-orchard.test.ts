// The incremental tree with the real Orchard hasher (MerkleCRH^Orchard, Sinsemilla): roots
// asserted against zcashd's Orchard anchors and a real mainnet block.
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex } from '../../src/codec/hex.js';
import { ORCHARD_HASHER } from '../../src/crypto/orchard/hasher.js';
import { IncrementalMerkleTree } from '../../src/state/trees/incremental.js';
import { readHexVector, readJsonVector } from '../support/vectors.js';

const fromHex = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'));

interface Roots {
  roots: { network: string; height: number; pool: string; internal_hex: string }[];
}

describe('Orchard tree', () => {
  it('reproduces every anchor of zcashd merkle_roots_orchard (bundles appended one after another)', () => {
    // Row 0 is provenance, row 1 the column names; then [bundle, commitments, anchor].
    const rows = readJsonVector<unknown[]>('zcashd', 'merkle_roots_orchard.json').slice(2) as [string, string[], string][];
    expect(rows.length).toBe(10);
    const tree = new IncrementalMerkleTree(ORCHARD_HASHER);
    for (const [, commitments, anchor] of rows) {
      tree.appendMany(commitments.map(fromHex));
      expect(toHex(tree.root())).toBe(anchor);
    }
    expect(tree.size).toBe(rows.reduce((n, [, c]) => n + c.length, 0));
    const reparsed = IncrementalMerkleTree.fromTreeState(ORCHARD_HASHER, tree.toTreeState('padded'));
    expect(toHex(reparsed.root())).toBe(rows[rows.length - 1]![2]);
  });

  it('mainnet 1687107 (the first Orchard actions): its cmx give the final Orchard root', () => {
    const block = decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex'));
    const cmx = block.transactions.flatMap((tx) => tx.data.orchard?.actions.map((a) => a.cmx) ?? []);
    expect(cmx.length).toBe(2);
    const tree = new IncrementalMerkleTree(ORCHARD_HASHER);
    tree.appendMany(cmx);
    const expected = readJsonVector<Roots>('roots.json').roots.find(
      (r) => r.network === 'mainnet' && r.height === 1687107 && r.pool === 'orchard',
    );
    expect(toHex(tree.root())).toBe(expected!.internal_hex);
    expect(toHex(tree.root())).toBe('7b61fc613cea5c2c84c5e2c64d4fd4afb8c8c9d10dce9bcad49431c9cf32f131');
  });
});
