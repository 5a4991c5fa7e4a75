/**
 * The seam between the chain (fork choice, reorganizations) and everything derived from the
 * blocks of the active chain: transaction index, chain state, address index. The chain calls
 * `connect` when a block joins the active chain and `disconnect` when it leaves; each indexer
 * answers with LevelDB operations that the chain writes in the same atomic batch as the tip
 * move, so an index can never disagree with the chain it describes, even after a crash.
 *
 * An indexer owns its key prefixes (declared in store/layout.ts) and may hand the chain an undo
 * blob at connect time: the chain keeps it in the block's undo record and gives it back at
 * disconnect, for state that cannot be recomputed backwards (spent outputs, previous frontiers).
 */
import type { Block } from '../../codec/block.js';
import type { BatchOp } from '../block-data.js';

/** A block moving onto or off the active chain. */
export interface ChainBlock {
  readonly hash: Uint8Array;
  readonly height: number;
  /** The serialized header. */
  readonly header: Uint8Array;
  /** Txids in block order, internal byte order (from the block's stored txid list). */
  readonly txids: readonly Uint8Array[];
  /** The decoded block: decoded at most once per connect or disconnect and shared by every indexer. */
  block(): Promise<Block>;
}

/**
 * Reads of committed store state (everything before the block being connected or
 * disconnected). Synchronous: index values are small and LevelDB serves them from its caches.
 */
export interface IndexReadView {
  get(key: Buffer): Buffer | undefined;
}

export interface IndexerConnect {
  ops: BatchOp[];
  /** Kept in the block's undo record and handed back to `disconnect`. */
  undo?: Uint8Array;
}

export interface Indexer {
  /** Stable name, for logs and errors. */
  readonly name: string;
  /** One byte naming this indexer's entry in a block's undo record; never reused. */
  readonly undoTag: number;
  connect(block: ChainBlock, view: IndexReadView): IndexerConnect | Promise<IndexerConnect>;
  /**
   * `undo` is what `connect` returned for this block (null when it returned none); `record` is
   * the block's whole undo record, every indexer's blob by undo tag (the address index reads the
   * coins the chain state's blob keeps instead of keeping them twice).
   */
  disconnect(
    block: ChainBlock,
    undo: Uint8Array | null,
    view: IndexReadView,
    record: ReadonlyMap<number, Uint8Array>,
  ): BatchOp[] | Promise<BatchOp[]>;
}
