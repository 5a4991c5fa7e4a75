/**
 * zcashd's CMerkleBlock (v6.12.2 src/merkleblock.{h,cpp}): a block header and a partial merkle
 * tree (CPartialMerkleTree) proving that some of the block's transactions are in it. Built by
 * gettxoutproof, read and checked by verifytxoutproof. The tree is walked depth first: one flag
 * bit per visited node (1 = an ancestor of a matched txid), one hash per node not descended into
 * (and per matched leaf). All hashes are 32 bytes in internal order.
 */
import { sha256dPair } from '../crypto/hash.js';
import { ByteReader, ByteWriter } from './bytes.js';
import { readBlockHeader, type BlockHeader } from './block.js';
import { bytesEqual } from './hex.js';

/** MAX_BLOCK_SIZE / 60: more transactions than a block can hold (60 bytes is a transaction's minimum). */
const MAX_PROOF_TRANSACTIONS = Math.floor(2_000_000 / 60);

export interface PartialMerkleTree {
  transactions: number;
  hashes: Uint8Array[];
  bits: boolean[];
}

function treeWidth(transactions: number, height: number): number {
  return Math.floor((transactions + 2 ** height - 1) / 2 ** height);
}

function treeHeight(transactions: number): number {
  let height = 0;
  while (treeWidth(transactions, height) > 1) height++;
  return height;
}

/** CPartialMerkleTree(vTxid, vMatch). */
export function buildPartialMerkleTree(txids: readonly Uint8Array[], matched: readonly boolean[]): PartialMerkleTree {
  const n = txids.length;
  const tree: PartialMerkleTree = { transactions: n, hashes: [], bits: [] };
  const calcHash = (height: number, pos: number): Uint8Array => {
    if (height === 0) return txids[pos]!;
    const left = calcHash(height - 1, pos * 2);
    const right = pos * 2 + 1 < treeWidth(n, height - 1) ? calcHash(height - 1, pos * 2 + 1) : left;
    return sha256dPair(left, right);
  };
  const build = (height: number, pos: number): void => {
    let parentOfMatch = false;
    for (let p = pos * 2 ** height; p < (pos + 1) * 2 ** height && p < n; p++) parentOfMatch ||= matched[p]!;
    tree.bits.push(parentOfMatch);
    if (height === 0 || !parentOfMatch) {
      tree.hashes.push(calcHash(height, pos));
      return;
    }
    build(height - 1, pos * 2);
    if (pos * 2 + 1 < treeWidth(n, height - 1)) build(height - 1, pos * 2 + 1);
  };
  build(treeHeight(n), 0);
  return tree;
}

/**
 * CPartialMerkleTree::ExtractMatches: the root the tree commits to and the matched txids in tree
 * order, or null for any malformed tree (zcashd's zero root, which matches no header).
 */
export function extractMatches(tree: PartialMerkleTree): { root: Uint8Array; matches: Uint8Array[] } | null {
  const { transactions: n, hashes, bits } = tree;
  if (n === 0 || n > MAX_PROOF_TRANSACTIONS || hashes.length > n || bits.length < hashes.length) return null;
  let bitsUsed = 0;
  let hashesUsed = 0;
  let bad = false;
  const matches: Uint8Array[] = [];
  const zero = new Uint8Array(32);
  const extract = (height: number, pos: number): Uint8Array => {
    if (bitsUsed >= bits.length) {
      bad = true;
      return zero;
    }
    const parentOfMatch = bits[bitsUsed++]!;
    if (height === 0 || !parentOfMatch) {
      if (hashesUsed >= hashes.length) {
        bad = true;
        return zero;
      }
      const hash = hashes[hashesUsed++]!;
      if (height === 0 && parentOfMatch) matches.push(hash);
      return hash;
    }
    const left = extract(height - 1, pos * 2);
    let right = left;
    if (pos * 2 + 1 < treeWidth(n, height - 1)) {
      right = extract(height - 1, pos * 2 + 1);
      // Two equal subtrees would cover the same transactions twice.
      if (bytesEqual(right, left)) bad = true;
    }
    return sha256dPair(left, right);
  };
  const root = extract(treeHeight(n), 0);
  if (bad) return null;
  // Every bit used, but for the padding of the last byte, and every hash.
  if (Math.floor((bitsUsed + 7) / 8) !== Math.floor((bits.length + 7) / 8) || hashesUsed !== hashes.length) return null;
  return { root, matches };
}

/** CMerkleBlock's serialization: the header bytes, nTransactions, vHash, then the bits packed LSB first. */
export function encodeMerkleBlock(header: Uint8Array, tree: PartialMerkleTree): Uint8Array {
  const w = new ByteWriter();
  w.bytes(header);
  w.u32(tree.transactions);
  w.compactSize(tree.hashes.length);
  for (const h of tree.hashes) w.bytes(h);
  const packed = new Uint8Array(Math.ceil(tree.bits.length / 8));
  tree.bits.forEach((bit, p) => {
    if (bit) packed[p >> 3]! |= 1 << (p & 7);
  });
  w.compactSize(packed.length);
  w.bytes(packed);
  return w.finish();
}

/** Reads a CMerkleBlock (bytes after it are ignored, as zcashd's stream does); throws DecodeError. */
export function decodeMerkleBlock(bytes: Uint8Array): { header: BlockHeader; tree: PartialMerkleTree } {
  const r = new ByteReader(bytes);
  const header = readBlockHeader(r);
  const transactions = r.u32();
  const count = r.compactSize();
  const all = r.bytes(count * 32);
  const hashes: Uint8Array[] = [];
  for (let i = 0; i < count; i++) hashes.push(all.subarray(i * 32, i * 32 + 32));
  const packed = r.varBytes();
  const bits: boolean[] = [];
  for (let p = 0; p < packed.length * 8; p++) bits.push((packed[p >> 3]! & (1 << (p & 7))) !== 0);
  return { header, tree: { transactions, hashes, bits } };
}
