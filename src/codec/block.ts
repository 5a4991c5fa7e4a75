/**
 * Block headers and blocks: decoding, encoding, block hash, transaction merkle root and the
 * ZIP-244 auth data root.
 */
import { ByteReader, ByteWriter } from './bytes.js';
import { DecodeError, IOS_SUFFIX } from './errors.js';
import { blake2b256Of, personalization, sha256d, sha256dPair } from '../crypto/hash.js';
import { bytesEqual, hexToBytesStrict, toHexReversed } from './hex.js';
import { ZCASHD_6_12_2_ACCEPTANCE, type TxAcceptance } from './tx/acceptance.js';
import { readTransaction, type Transaction } from './tx/transaction.js';

/** Header size without the Equihash solution. */
export const HEADER_PREFIX_SIZE = 140;

/** A block header's fields, with the Equihash solution and the header's own bytes. */
export interface BlockHeader {
  version: number;
  /** 32 bytes, internal order. */
  prevHash: Uint8Array;
  merkleRoot: Uint8Array;
  /**
   * Bytes 68..100. Era-dependent meaning: hashReserved (pre-Sapling), hashFinalSaplingRoot
   * (Sapling..Heartwood), hashLightClientRoot (Heartwood..NU5), hashBlockCommitments (NU5+).
   */
  commitments: Uint8Array;
  time: number;
  bits: number;
  nonce: Uint8Array;
  solution: Uint8Array;
  /** The exact header bytes (prefix, CompactSize, solution). */
  bytes: Uint8Array;
}

/** A decoded block: its header, its transactions and the bytes they were decoded from. */
export class Block {
  readonly header: BlockHeader;
  readonly transactions: Transaction[];
  /** The exact block bytes. */
  readonly bytes: Uint8Array;
  private hashCache: Uint8Array | undefined;

  constructor(header: BlockHeader, transactions: Transaction[], bytes: Uint8Array) {
    this.header = header;
    this.transactions = transactions;
    this.bytes = bytes;
  }

  /** Block hash, internal order. */
  get hash(): Uint8Array {
    return (this.hashCache ??= sha256d(this.header.bytes));
  }

  get hashHex(): string {
    return toHexReversed(this.hash);
  }

  get size(): number {
    return this.bytes.length;
  }

  /** The merkle root recomputed from the transactions (internal order). */
  computeMerkleRoot(): Uint8Array {
    return merkleRoot(this.transactions.map((t) => t.txid));
  }

  /** The merkle root, and whether repeated transactions mutate the tree (`checkedMerkleRoot`). */
  checkMerkleRoot(): { root: Uint8Array; mutated: boolean } {
    return checkedMerkleRoot(this.transactions.map((t) => t.txid));
  }

  /** ZIP-244 auth data root over the transactions' auth digests (internal order). */
  computeAuthDataRoot(): Uint8Array {
    return authDataRoot(this.transactions.map((t) => t.authDigest));
  }
}

export function readBlockHeader(r: ByteReader): BlockHeader {
  const start = r.pos;
  const version = r.i32();
  const prevHash = r.bytes(32);
  const merkleRoot = r.bytes(32);
  const commitments = r.bytes(32);
  const time = r.u32();
  const bits = r.u32();
  const nonce = r.bytes(32);
  const solution = r.varBytes();
  return { version, prevHash, merkleRoot, commitments, time, bits, nonce, solution, bytes: r.view(start, r.pos) };
}

/** Decodes a block header (with its Equihash solution) from the start of `bytes`. */
export function decodeBlockHeader(bytes: Uint8Array): BlockHeader {
  return readBlockHeader(new ByteReader(bytes));
}

/** The block hash: SHA-256d of the header's bytes, in internal order (RPC prints it reversed). */
export function blockHeaderHash(header: BlockHeader): Uint8Array {
  return sha256d(header.bytes);
}

/**
 * Reads one block at `r.pos`: header, CompactSize count, transactions, each read under
 * `acceptance` (zcashd v6.12.2's formats and branch ids by default).
 */
export function readBlock(r: ByteReader, acceptance: TxAcceptance = ZCASHD_6_12_2_ACCEPTANCE): Block {
  const start = r.pos;
  const header = readBlockHeader(r);
  const n = r.compactSize();
  const txs: Transaction[] = [];
  for (let i = 0; i < n; i++) txs.push(readTransaction(r, acceptance));
  return new Block(header, txs, r.view(start, r.pos));
}

/** Decodes a block; bytes after it are ignored (as zcashd's stream reader does). */
export function decodeBlock(bytes: Uint8Array, acceptance: TxAcceptance = ZCASHD_6_12_2_ACCEPTANCE): Block {
  return readBlock(new ByteReader(bytes), acceptance);
}

/** Decodes a block from hex, as `decodeBlock` does from bytes; throws a DecodeError for text that is not hex. */
export function decodeBlockHex(hex: string, acceptance: TxAcceptance = ZCASHD_6_12_2_ACCEPTANCE): Block {
  const bytes = hexToBytesStrict(hex);
  if (!bytes) throw new DecodeError('invalid-hex', 0, `not a valid hex string${IOS_SUFFIX}`);
  return decodeBlock(bytes, acceptance);
}

/** A block header's wire bytes, from its fields. */
export function encodeBlockHeader(h: Omit<BlockHeader, 'bytes'>): Uint8Array {
  const w = new ByteWriter(1500);
  w.i32(h.version).bytes(h.prevHash).bytes(h.merkleRoot).bytes(h.commitments).u32(h.time).u32(h.bits).bytes(h.nonce);
  w.varBytes(h.solution);
  return w.finish();
}

/** Serializes header + transactions (each transaction's exact bytes). */
export function encodeBlock(header: Omit<BlockHeader, 'bytes'>, txBytes: readonly Uint8Array[]): Uint8Array {
  const w = new ByteWriter(2048);
  w.bytes(encodeBlockHeader(header));
  w.compactSize(txBytes.length);
  for (const t of txBytes) w.bytes(t);
  return w.finish();
}

/**
 * Bitcoin's transaction merkle root: SHA-256d pairs, duplicating the last node of odd levels.
 * The empty list gives 32 zero bytes (zcashd's ComputeMerkleRoot of no leaves).
 */
export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  return checkedMerkleRoot(leaves).root;
}

/**
 * The merkle root, and whether the tree is mutated (CVE-2012-2459): two equal nodes paired on some
 * level. Repeating transactions that way keeps the root, so such a list shares the header, and the
 * hash, of the block without the repeats; zcashd's ComputeMerkleRoot flags it and CheckBlock
 * refuses the block ("bad-txns-duplicate") without marking that hash invalid.
 */
export function checkedMerkleRoot(leaves: readonly Uint8Array[]): { root: Uint8Array; mutated: boolean } {
  if (leaves.length === 0) return { root: new Uint8Array(32), mutated: false };
  let mutated = false;
  let level = leaves.slice();
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i]!;
      const right = i + 1 < level.length ? level[i + 1]! : left;
      if (i + 1 < level.length && bytesEqual(left, right)) mutated = true;
      next.push(sha256dPair(left, right));
    }
    level = next;
  }
  return { root: level[0]!, mutated };
}

const AUTH_DATA_PERSONAL = personalization('ZcashAuthDatHash');

/** ZIP-244 block auth data root: BLAKE2b tree over leaves padded with zeros to a power of two. */
export function authDataRoot(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return new Uint8Array(32);
  let width = 1;
  while (width < leaves.length) width *= 2;
  let level: Uint8Array[] = [];
  for (let i = 0; i < width; i++) level.push(leaves[i] ?? new Uint8Array(32));
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(blake2b256Of(AUTH_DATA_PERSONAL, level[i]!, level[i + 1]!));
    level = next;
  }
  return level[0]!;
}
