/**
 * The read side of the chain store: what RPC methods need. The LevelDB implementation
 * (src/store/) provides it; RPC read methods (src/rpc/methods/blockchain*.ts) consume it.
 * All hashes are 32 bytes in internal (wire) order.
 */
import type { NetworkParams } from '../chain/network.js';
import type { BlockChainState, ChainStateTip, ShieldedPool } from '../state/chain-state.js';
import type { ShieldedPoolId } from '../state/pools.js';
import type { Coin } from '../state/apply-block.js';

/** A block's record in the block index (CBlockIndex's fields). */
export interface BlockIndexEntry {
  hash: Uint8Array;
  height: number;
  /** All zeros for genesis. */
  prevHash: Uint8Array;
  /** The exact serialized header (140-byte prefix + CompactSize + solution). */
  header: Uint8Array;
  /** Cumulative chain work up to and including this block. */
  chainWork: bigint;
  /** Serialized block size in bytes (0 when only the header is known). */
  size: number;
  txCount: number;
  /** True iff the block's bytes are stored. */
  haveData: boolean;
  /** True iff the block is on the current best (active) chain. */
  onBestChain: boolean;
}

/** The best chain's last block. */
export interface ChainTip {
  hash: Uint8Array;
  height: number;
}

/** Where a transaction is: its block and its position in it. */
export interface TxLocation {
  blockHash: Uint8Array;
  height: number;
  /** Index of the transaction within its block. */
  index: number;
}

/** Reading a chain store: the tip, blocks, transactions and their positions. */
export interface ChainStoreReader {
  readonly network: NetworkParams;
  /** The best chain's tip, or null for an empty store. */
  tip(): Promise<ChainTip | null>;
  /**
   * How many times the tip has changed since the store opened, read synchronously; with the tip's
   * hash it names one stretch of time the tip stayed put, so a reply computed across a tip that
   * moved away and back is not taken for one computed at a single tip. A store whose tip never
   * changes while it serves need not count.
   */
  tipChanges?(): number;
  /** Hash of the best-chain block at `height`, or null. */
  hashAtHeight(height: number): Promise<Uint8Array | null>;
  /** Index entry of any known block (best chain or side chain). */
  blockIndex(hash: Uint8Array): Promise<BlockIndexEntry | null>;
  /** Raw block bytes, or null when not stored. */
  blockBytes(hash: Uint8Array): Promise<Uint8Array | null>;
  /** Txids (internal order) of a block whose data is stored, in block order, or null. */
  blockTxids(hash: Uint8Array): Promise<Uint8Array[] | null>;
  /** Where a best-chain transaction lives (txid in internal order), or null. */
  txLocation(txid: Uint8Array): Promise<TxLocation | null>;
  /** nChainTx of a stored block: transactions from genesis through it, or null if unknown. */
  chainTx(hash: Uint8Array): Promise<number | null>;
  /** Height of the best known header chain (≥ tip height), or -1. */
  bestHeaderHeight(): Promise<number>;
  /** Bytes the store occupies on disk (getblockchaininfo size_on_disk). */
  sizeOnDisk(): Promise<number>;
  /** What ConnectBlock stored for a block, or null if it was never connected. */
  blockState(hash: Uint8Array): Promise<BlockChainState | null>;
  /**
   * The tree frontier (zcashd's padded `finalState` bytes) the coins view holds for a root a
   * block of the active chain produced, or null. The empty tree's root is not stored.
   */
  treeStateAt(pool: ShieldedPool, root: Uint8Array): Promise<Uint8Array | null>;
  /** The state after the tip, or null for an empty store. */
  chainStateTip(): Promise<ChainStateTip | null>;
  /** Completed 2^16-leaf subtrees from index `start`, at most `limit` (z_getsubtreesbyindex). */
  subtrees(pool: ShieldedPoolId, start: number, limit: number): Promise<{ index: number; root: Uint8Array; endHeight: number }[]>;
  /**
   * The coins view and nullifier sets as zcashd's mempool reads them (sendrawtransaction); a
   * reader without a chain state has none.
   */
  coinsView?(): CoinsView;
  /**
   * The coins view as of one tip, for a full scan (gettxoutsetinfo): a snapshot taken between
   * two blocks, read in key order. A reader without a chain state has none.
   */
  coinScan?(): Promise<CoinScan | null>;
  /** Every chain tip the store knows (getchaintips), highest first; a reader without a block tree has none. */
  chainTips?(): Promise<ChainTipInfo[]>;
}

/** What AcceptToMemoryPool asks of the chain state before it runs scripts and proofs. */
export interface CoinsView {
  /** `HaveCoins(txid)`: some output of the transaction is unspent. */
  hasUnspentOutputs(txid: Uint8Array): Promise<boolean>;
  /** The output `n` of `txid` is unspent (`HaveInputs`, per input). */
  isUnspent(txid: Uint8Array, n: number): boolean;
  /** `GetCoins` for one output: the unspent coin, or null when it is spent or unknown (gettxout). */
  coin(txid: Uint8Array, n: number): Coin | null;
  /** `GetNullifier`: the active chain revealed it. */
  nullifierRevealed(pool: ShieldedPool, nullifier: Uint8Array): boolean;
  /** `GetSaplingAnchorAt` / `GetOrchardAnchorAt`: a root the chain had, the empty tree's included. */
  anchorKnown(pool: ShieldedPoolId, root: Uint8Array): boolean;
}

/** getchaintips' status of a branch (zcashd's words; "unknown" cannot arise from what zecrpc stores). */
export type ChainTipStatus = 'active' | 'valid-fork' | 'valid-headers' | 'headers-only' | 'invalid';

/** One childless block the store knows, or the active tip, as getchaintips reports it. */
export interface ChainTipInfo {
  hash: Uint8Array;
  height: number;
  /** Blocks between it and the active chain (0 for the active tip). */
  branchLength: number;
  status: ChainTipStatus;
}

/** The operator's reorganizations (invalidateblock / reconsiderblock) of a writable store. */
export interface ChainOperator {
  /** Marks the block invalid and moves the active chain off it; false when no block has that hash. */
  invalidateBlock(hash: Uint8Array): Promise<boolean>;
  /** Clears the marks of the block, its descendants and ancestors, and activates the most-work chain; false when unknown. */
  reconsiderBlock(hash: Uint8Array): Promise<boolean>;
}

/** A snapshot of the coins view being read in key order (txid, then output index as u32 LE). */
export interface CoinScan {
  /** The tip the snapshot belongs to (the coins view's best block). */
  readonly tip: ChainTip;
  /** The next up to `max` coins; empty at the end. */
  next(max: number): Promise<{ txid: Uint8Array; n: number; coin: Coin }[]>;
  close(): Promise<void>;
}
