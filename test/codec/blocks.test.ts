import { describe, expect, it } from 'vitest';
import { checkedMerkleRoot, decodeBlock, encodeBlock, merkleRoot } from '../../src/codec/block.js';
import { toHex, toHexReversed } from '../../src/codec/hex.js';
import { readFacts, readHexVector, readJsonVector, realBlockFiles, zcashd2019Heights } from '../support/vectors.js';

const factsFile = readFacts();
const facts = factsFile.blocks;

describe('real blocks (facts.json)', () => {
  it('covers every block file', () => {
    expect(facts.length).toBe(factsFile.summary.blocks);
    expect(facts.some((f) => f.file.startsWith('blocks/invalid/'))).toBe(true);
  });

  for (const f of facts) {
    it(`${f.network} ${f.height} (${f.file})`, () => {
      const bytes = readHexVector(f.file);
      const block = decodeBlock(bytes);
      expect(block.size).toBe(f.size);
      expect(block.bytes.length).toBe(bytes.length);
      expect(block.hashHex).toBe(f.hash);
      const h = block.header;
      expect(h.version).toBe(f.version);
      expect(toHexReversed(h.prevHash)).toBe(f.previousblockhash);
      expect(toHexReversed(h.merkleRoot)).toBe(f.merkleroot);
      expect(toHexReversed(h.commitments)).toBe(f.blockcommitments);
      expect(h.time).toBe(f.time);
      expect(h.bits.toString(16).padStart(8, '0')).toBe(f.bits);
      expect(toHexReversed(h.nonce)).toBe(f.nonce);
      expect(block.transactions.length).toBe(f.tx_count);
      expect(block.transactions.map((t) => t.txidHex)).toEqual(f.txids);
      const merkleMatches = toHex(block.computeMerkleRoot()) === toHex(h.merkleRoot);
      expect(merkleMatches).toBe(f.merkle_check);
      f.transactions.forEach((ft, i) => {
        const tx = block.transactions[i]!;
        const d = tx.data;
        expect(toHexReversed(tx.authDigest)).toBe(ft.authdigest);
        expect(d.version).toBe(ft.version);
        expect(d.overwintered).toBe(ft.overwintered);
        expect(tx.size).toBe(ft.size);
        expect(d.lockTime).toBe(ft.locktime);
        expect(d.vin.length).toBe(ft.vin);
        expect(d.vout.length).toBe(ft.vout);
        expect(d.joinSplits.length).toBe(ft.joinsplits);
        expect(d.sapling?.spends.length ?? 0).toBe(ft.sapling_spends);
        expect(d.sapling?.outputs.length ?? 0).toBe(ft.sapling_outputs);
        expect(d.orchard?.actions.length ?? 0).toBe(ft.orchard_actions);
        // every transaction re-serializes to its exact bytes
        expect(toHex(tx.serialize())).toBe(toHex(tx.bytes));
      });
      // the whole block re-serializes byte for byte
      const again = encodeBlock(
        h,
        block.transactions.map((t) => t.serialize()),
      );
      expect(toHex(again)).toBe(toHex(bytes));
    });
  }
});

describe('zcashd-2019 blocks', () => {
  for (const height of zcashd2019Heights()) {
    it(`mainnet ${height}`, () => {
      const bytes = readHexVector('zcashd-2019', `${height}.hex`);
      const golden = readJsonVector<{ hash: string; size: number; merkleroot: string; tx: string[] }>(
        'zcashd-2019',
        `${height}.getblock.json`,
      );
      const block = decodeBlock(bytes);
      expect(block.hashHex).toBe(golden.hash);
      expect(block.size).toBe(golden.size);
      expect(block.transactions.map((t) => t.txidHex)).toEqual(golden.tx);
      expect(toHexReversed(block.computeMerkleRoot())).toBe(golden.merkleroot);
      const again = encodeBlock(
        block.header,
        block.transactions.map((t) => t.serialize()),
      );
      expect(again.length).toBe(bytes.length);
      expect(Buffer.compare(Buffer.from(again), Buffer.from(bytes))).toBe(0);
    });
  }
});

describe('merkle tree mutation (CVE-2012-2459), as zcashd ComputeMerkleRoot flags it', () => {
  const leaf = (n: number) => new Uint8Array(32).fill(n);
  const [a, b, c] = [leaf(1), leaf(2), leaf(3)];
  it('flags equal paired nodes on any level, never the duplicated last node of an odd level', () => {
    const check = (leaves: Uint8Array[]) => checkedMerkleRoot(leaves);
    expect(check([a, b, c]).mutated).toBe(false);
    expect(check([a, b, c, c])).toEqual({ root: check([a, b, c]).root, mutated: true });
    expect(check([a, a]).mutated).toBe(true);
    expect(check([a, b, a, b]).mutated).toBe(true); // equal on the second level
    expect(check([a, b, c, a]).mutated).toBe(false);
    expect(check([a]).mutated).toBe(false);
    expect(merkleRoot([a, b, c, c])).toEqual(merkleRoot([a, b, c]));
  });

  it('finds no mutation in any real block', () => {
    for (const f of realBlockFiles()) expect(decodeBlock(readHexVector(f.file)).checkMerkleRoot().mutated).toBe(false);
  });
});
