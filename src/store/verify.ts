/**
 * Verified reads: stored data is checked before anything is served from it, so a flipped bit
 * on disk becomes zcashd's "Can't read block from disk" (and a log line naming the file and
 * offset) instead of a plausible wrong answer.
 *
 * - Block bytes (every read, block-data.ts): the file frame's magic and length must match the
 *   index record, and the header must hash to the requested block hash (zcashd's
 *   ReadBlockFromDisk checks the same hash).
 * - Block contents (whenever a block is decoded to be served, render path): the transactions
 *   must decode and their merkle root must equal the header's, which catches a flipped bit in
 *   any transaction.
 * - Stored txid lists (getblock verbosity 1 of a connected block, which reads no block bytes):
 *   the list's merkle root must equal the header's and its length the recorded count. Every
 *   member of that reply then comes from verified data (header, txids, chain state); damage in
 *   the block file itself shows at verbosity 0 and 2 and in `zecrpc verify`.
 * - Index values (verifiedStoreReader): classic-level does not expose LevelDB's
 *   `verify_checksums` read option, so index values are checked for what they claim instead:
 *   a block index record's header must hash to its key, and a best-chain height entry must
 *   point at a block recorded at that height.
 */
import { checkedMerkleRoot, decodeBlock, decodeBlockHeader, type Block, type BlockHeader } from '../codec/block.js';
import { STORED_BLOCK_ACCEPTANCE } from '../codec/tx/acceptance.js';
import { bytesEqual, toHexReversed } from '../codec/hex.js';
import { sha256d } from '../crypto/hash.js';
import type { BlockIndexEntry, ChainStoreReader } from './types.js';

/**
 * A stored block that cannot be served: where it is (a file and offset, or the block it should
 * be when only its decoded contents are wrong) and what is wrong with it.
 */
export class BlockReadError extends Error {
  constructor(
    readonly where: string,
    readonly reason: string,
  ) {
    super(`unreadable block at ${where}: ${reason}`);
    this.name = 'BlockReadError';
  }
}

/** An index value that contradicts what it indexes (zcashd's dbwrapper "Database corrupted"). */
export class IndexCorruptionError extends Error {
  constructor(readonly detail: string) {
    super('Database corrupted');
    this.name = 'IndexCorruptionError';
  }
}

/**
 * Why stored block bytes are not the block `hash` (size `expectedSize`), or null when they are.
 * Costs one double SHA-256 of the header (~1.5 KB), whatever the block's size.
 */
export function storedBlockProblem(hash: Uint8Array, bytes: Uint8Array, expectedSize: number): string | null {
  if (bytes.length !== expectedSize) return `${bytes.length} bytes where the index records ${expectedSize}`;
  let headerBytes: Uint8Array;
  try {
    headerBytes = decodeBlockHeader(bytes).bytes;
  } catch {
    return 'the block header does not decode';
  }
  const actual = sha256d(headerBytes);
  if (!bytesEqual(actual, hash)) return `the header hashes to ${toHexReversed(actual)}, not to the requested ${toHexReversed(hash)}`;
  return null;
}

/** Why a decoded block's transactions do not belong to its header, or null when they do. */
export function blockContentProblem(block: Block): string | null {
  const { root, mutated } = block.checkMerkleRoot();
  if (mutated) return 'the transactions repeat in a way that mutates the merkle tree (CVE-2012-2459)';
  if (!bytesEqual(root, block.header.merkleRoot)) return 'the transactions do not match the header merkle root';
  return null;
}

/**
 * Why a stored txid list is not the transactions of block `hash`, whose header comes from its
 * index record, or null when it is. Costs a header hash and a merkle root of the txids.
 */
export function storedTxidsProblem(hash: Uint8Array, header: BlockHeader, txids: readonly Uint8Array[], txCount: number): string | null {
  if (!bytesEqual(sha256d(header.bytes), hash)) return 'the index record holds the header of another block';
  if (txids.length !== txCount) return `the txid list has ${txids.length} entries where the index records ${txCount}`;
  const { root, mutated } = checkedMerkleRoot(txids);
  if (mutated) return 'the stored txids repeat in a way that mutates the merkle tree (CVE-2012-2459)';
  if (!bytesEqual(root, header.merkleRoot)) return 'the stored txids do not match the header merkle root';
  return null;
}

/** Decodes stored bytes for serving; a block that does not decode or match its merkle root is unreadable. */
export function decodeVerifiedBlock(bytes: Uint8Array): Block | string {
  let block: Block;
  try {
    block = decodeBlock(bytes, STORED_BLOCK_ACCEPTANCE);
  } catch (e) {
    return `the block does not decode (${(e as Error).message})`;
  }
  return blockContentProblem(block) ?? block;
}

/**
 * The chain store's reads with their index values cross-checked (see the module comment). Each
 * check is one more in-memory index lookup or a header hash, microseconds per read.
 */
export function verifiedStoreReader(store: ChainStoreReader, log: (line: string) => void = () => undefined): ChainStoreReader {
  const corrupt = (detail: string): never => {
    log(`index corruption: ${detail}`);
    throw new IndexCorruptionError(detail);
  };
  const checkEntry = (hash: Uint8Array, entry: BlockIndexEntry | null): BlockIndexEntry | null => {
    if (entry && !bytesEqual(sha256d(entry.header), hash)) {
      corrupt(`the index record of block ${toHexReversed(hash)} holds the header of another block`);
    }
    return entry;
  };
  const checked: Partial<ChainStoreReader> = {
    async hashAtHeight(height) {
      const hash = await store.hashAtHeight(height);
      if (hash === null) return null;
      const entry = checkEntry(hash, await store.blockIndex(hash));
      if (!entry || entry.height !== height) {
        corrupt(
          `the best-chain entry at height ${height} names block ${toHexReversed(hash)}, which is ${entry ? `at height ${entry.height}` : 'not in the index'}`,
        );
      }
      return hash;
    },
    async blockIndex(hash) {
      return checkEntry(hash, await store.blockIndex(hash));
    },
  };
  // Everything else (including methods added to the reader later) goes to the store itself.
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (Object.prototype.hasOwnProperty.call(checked, prop)) return checked[prop as keyof ChainStoreReader];
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
