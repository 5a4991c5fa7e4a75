/**
 * The seam between the chain (fork choice, reorganizations) and everything derived from the
 * blocks of the active chain: transaction index, chain state, address index. The chain calls
 * `connect` when a block joins the active chain and `disconnect` when it leaves; each indexer
 * answers with LevelDB operations that the chain writes in the same atomic batch as the tip
 * move, so an index can never disagree with the chain it describes, even after a crash.
 *
 * One indexer may be the core step (`role: 'core'`, the chain state): it runs first and returns
 * what it connected (spent, created and input coins, nullifiers, new roots) or, at disconnect,
 * what the block had spent. The chain hands that to every other indexer explicitly, so a
 * secondary index (the address index) never reads the core's keys or undo blob, and needs no
 * side channel to learn what an input spends.
 *
 * An indexer owns its key prefixes (declared in `keyPrefixes` and listed in store/layout.ts's
 * table; the chain refuses to open with two owners of one prefix) and may hand the chain an undo
 * blob at connect time: the chain keeps it in the block's undo record and gives it back at
 * disconnect, for state that cannot be recomputed backwards (spent outputs, previous frontiers).
 */
import type { Block } from '../../codec/block.js';
import type { Coin, SpentCoin } from '../../state/apply-block.js';
import type { ShieldedPool } from '../../state/chain-state.js';
import type { PrecomputedTrees } from '../../state/block-trees.js';
import type { RevealedNullifier } from '../../state/nullifiers.js';
import type { OutPoint } from '../../codec/tx/types.js';
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
  /**
   * The block's tree steps a tree thread computed ahead (sync/tree-prefetch.ts), when the
   * importer ran one: the state transition adopts those that continue its own trees.
   */
  readonly precomputedTrees?: Promise<PrecomputedTrees | null> | null;
  /** Told how many of those steps the state transition adopted and refused, once it has run. */
  readonly treeStepsUsed?: (outcome: { adopted: number; refused: number }) => void;
}

/**
 * Reads of committed store state (everything before the block being connected or
 * disconnected). Synchronous: index values are small and LevelDB serves them from its caches.
 */
export interface IndexReadView {
  get(key: Buffer): Buffer | undefined;
}

/** What the core step connected for a block, handed to the secondary indexers. */
export interface ConnectedBlock {
  /** Outputs the block spent from the coins view, in input order. */
  readonly spent: readonly SpentCoin[];
  /** Outputs the block created that stay unspent after it. */
  readonly created: readonly { outpoint: OutPoint; coin: Coin }[];
  /**
   * What each input spends, per transaction in block order (none for a coinbase), the block's own
   * outputs included; null where a store started from a checkpoint does not know the output.
   */
  readonly inputCoins: readonly (readonly (Coin | null)[])[];
  readonly nullifiers: readonly RevealedNullifier[];
  readonly newRoots: readonly { pool: ShieldedPool; root: Uint8Array }[];
}

/** What the core step gives back when a block leaves the active chain. */
export interface DisconnectedBlock {
  /** The outputs the block had spent from the coins view, in input order (from the core's undo blob). */
  readonly spent: readonly { txid: Uint8Array; n: number; coin: Coin }[];
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
  /** The first bytes of every key this indexer writes (store/layout.ts lists them with their owner). */
  readonly keyPrefixes?: readonly number[];
  /** Set when `connect` needs what the core step connected (the store must then keep one). */
  readonly needsCore?: boolean;
  /** `core`: what the core step connected, when the store keeps one (absent in a replay without it). */
  connect(block: ChainBlock, view: IndexReadView, core?: ConnectedBlock): IndexerConnect | Promise<IndexerConnect>;
  /**
   * `undo` is what `connect` returned for this block (null when it returned none); `record` is
   * the block's whole undo record, every indexer's blob by undo tag; `core` is what the core step
   * gives back for the block.
   */
  disconnect(
    block: ChainBlock,
    undo: Uint8Array | null,
    view: IndexReadView,
    record: ReadonlyMap<number, Uint8Array>,
    core?: DisconnectedBlock,
  ): BatchOp[] | Promise<BatchOp[]>;
}

/** The core step's connect: its operations and undo blob, and what it connected. */
export interface CoreConnect extends IndexerConnect {
  connected: ConnectedBlock;
}

/** The core step (the chain state): connected first, its results handed to every other indexer. */
export interface CoreIndexer<CheckpointState = unknown> extends Indexer {
  readonly role: 'core';
  connect(block: ChainBlock, view: IndexReadView): Promise<CoreConnect>;
  /** What disconnecting the block gives back, from the undo blob its connect returned. */
  disconnected(undo: Uint8Array | null): DisconnectedBlock;
  /** The records a store started from a checkpoint begins with. */
  checkpointOps(hash: Uint8Array, height: number, state: CheckpointState): BatchOp[];
}

export function isCoreIndexer(indexer: Indexer): indexer is CoreIndexer {
  return (indexer as Partial<CoreIndexer>).role === 'core';
}
