/**
 * The LevelDB chain store: accepts raw blocks, keeps a block index of every block it has seen
 * (best chain and side chains) with cumulative work, follows the most-work chain (first seen wins
 * ties, as in zcashd) and reorganizes with each block's undo record (undo.ts).
 *
 * This class composes the store's parts, each in its own module:
 * - persistence (chain-db.ts): LevelDB, schema and migrations, disk reserve, the writer queue,
 *   group commit, the record cache;
 * - block acceptance (block-acceptance.ts): every check a block passes before it is written;
 * - the indexers (indexer-set.ts): the chain state as the core step, then the secondary indexes;
 * - fork choice and reorganizations (fork-choice.ts), a checkpoint start (checkpoint-start.ts);
 * - readers beside the data they read (indexes/chain-state-reader.ts, indexes/address-index-reader.ts).
 *
 * Consistency model — every state LevelDB can hold after a crash is a valid store:
 * - accepting a block is one atomic batch (index record, txid list, block-file cursor, and when the
 *   block extends the tip also its height/txid entries and the new tip): "one batch per connected block";
 * - a reorganization is a series of batches, one per disconnected or connected block, each moving the
 *   tip by exactly one block; `W` (the most-work block) is written with the block that raised it, so a
 *   crash mid-reorganization leaves tip ≠ W and `open()` finishes the switch;
 * - whatever is derived from the active chain (the transaction index, chain state, …) is kept by
 *   indexers (indexes/), whose connect/disconnect operations go into the batch that moves the tip;
 * - block bytes are appended to flat files before the batch that references them (block-data.ts);
 * - with group commit (importers, `groupCommit`), the batches of consecutive connected blocks are
 *   folded into one (pending-writes.ts) and written while the next blocks are validated: a crash
 *   loses at most the group in flight, never leaves part of a block, and the importer's resume
 *   position is written in the same batch as the blocks before it.
 * Validation: every header is checked as zcashd checks it (Equihash, proof of work, difficulty,
 * time rules, checkpoints, coinbase height; header-validation.ts) before anything is written, and
 * the chain state (indexes/chain-state-index.ts) checks value pools, spent outputs and every root
 * the header commits to when the block is connected. A block that fails is not stored; a stored
 * side-branch block that fails when a reorganization reaches it is marked invalid (`x`), and the
 * store stays on the chain it had: every step of a reorganization is planned against an overlay
 * before the first batch is written.
 */
import type { ClassicLevel } from 'classic-level';
import type { NetworkParams } from '../chain/network.js';
import { decodeBlockHeader } from '../codec/block.js';
import { bytesEqual, reversedHexToBytes, toHexReversed } from '../codec/hex.js';
import { sha256d } from '../crypto/hash.js';
import type { ShieldedPoolId } from '../state/pools.js';
import type { PrecomputedTrees } from '../state/block-trees.js';
import { StateTransitionError } from '../state/apply-block.js';
import type { BlockChainState, ChainStateTip, ShieldedPool } from '../state/chain-state.js';
import { defaultPoolHashers } from '../state/hashers.js';
import { acceptBlock, MAX_BLOCK_SIZE, type AcceptanceRules, type SolutionVerdicts } from './block-acceptance.js';
import type { BatchOp } from './block-data.js';
import { ChainDb, DEFAULT_GROUP_COMMIT, type GroupCommitLimits } from './chain-db.js';
import type { CoinReadCounts } from './committed-coins.js';
import { startFromCheckpoint, type CheckpointStart } from './checkpoint-start.js';
import type { DiskSpacePolicy } from './disk-reserve.js';
import { BlockRejectedError, type DiskSpaceLowError, type StoreNotWritableError } from './errors.js';
import { chainTips, invalidateBlock, reconsiderBlock } from './block-tree.js';
import { activate, type Reorg, type ReorgStepHook } from './fork-choice.js';
import { IndexerSet } from './indexer-set.js';
import { AddressIndex } from './indexes/address-index.js';
import { AddressIndexReader } from './indexes/address-index-reader.js';
import { ChainStateIndex, type CheckpointState } from './indexes/chain-state-index.js';
import { ChainStateReader } from './indexes/chain-state-reader.js';
import type { ChainBlock, CoreIndexer, Indexer } from './indexes/indexer.js';
import { TxIndex } from './indexes/tx-index.js';
import { decodeChainTx, decodeTxLocation, encodeChainTx, encodeIndexRecord, keys, splitTxids, type IndexRecord } from './layout.js';
import { chainStateKeys, decodeCoin } from './indexes/chain-state-index.js';
import type { BlockIndexEntry, ChainOperator, ChainStoreReader, ChainTip, ChainTipInfo, CoinScan, CoinsView, TxLocation } from './types.js';
import { MAX_REORG_DEPTH } from './undo.js';

export { MAX_BLOCK_SIZE, MAX_REORG_DEPTH, DEFAULT_GROUP_COMMIT };
export type { CheckpointStart, GroupCommitLimits, ReorgStepHook, SolutionVerdicts };

/**
 * Equihash verdicts an opener attaches to the store (sync/solution-prefetch.ts, with
 * `openChainStore`'s `solutionThreads`), for callers that prefetch through the store itself;
 * the store closes it with itself.
 */
export interface AttachedSolutions extends SolutionVerdicts {
  prefetch(bytes: Uint8Array): void;
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface ChainStoreOptions {
  /** Network data directory (e.g. ~/.zcash/testnet3); the store lives in `<datadir>/zecrpc`. */
  datadir: string;
  network: NetworkParams;
  /** Where block bytes go; 'flat' (default) measured faster, see block-data.ts. */
  blockData?: 'flat' | 'leveldb';
  /** fsync block files and LevelDB writes before acknowledging (power-loss safety, slower). */
  durable?: boolean;
  /**
   * What is derived from the active chain (default: the transaction index, the chain state and, with
   * `addressIndex`, the address index). A list with the AddressIndex needs `addressIndex` true, one
   * without it `addressIndex: false`: the store records which it keeps.
   */
  indexers?: readonly Indexer[];
  /**
   * Keep the insight explorer indexes (indexes/address-index.ts; default true). A new store
   * opened with false keeps none, and records so (layout.ts `O`); only -insightexplorer and
   * -lightwalletd read them. A store is opened only with the value it was created with
   * (AddressIndexMismatchError otherwise): the index covers every block the store holds, from
   * genesis or from its checkpoint, so it is neither added nor dropped later.
   */
  addressIndex?: boolean;
  /** Verify Equihash solutions (default true; skip only for a source you trust, e.g. your own zcashd's blk files). */
  verifySolutions?: boolean;
  /** Local clock, Unix seconds (headers more than 2 h ahead are refused); injectable for tests. */
  now?: () => number;
  /** Hears schema upgrades (they can take a while on a large store). */
  log?: (line: string) => void;
  /**
   * Group commit, for a process that owns the store to import (not for a serving one: reads
   * then see blocks not yet written). Consecutive blocks that extend the tip are written as one
   * batch of at most `maxBlocks` blocks or `maxBytes` of operations, while the next ones are
   * validated; `flush()` and `close()` write what is pending. Ignored with `durable`, which
   * syncs every block.
   */
  groupCommit?: boolean | GroupCommitLimits;
  /**
   * With group commit: memory, in bytes, for the coins of the groups written last, which spends
   * read before LevelDB (committed-coins.ts; `zecrpc import -dbcache`). Default 450 MiB; 0 keeps none.
   */
  coinCacheBytes?: number;
  /** Verdicts `prefetch` starts and `addBlock` takes when its caller hands in none (see AttachedSolutions). */
  solutions?: AttachedSolutions;
  /**
   * Space kept so that a full disk leaves the store readable (disk-reserve.ts; `zecrpc serve`
   * and `import` use DISK_SPACE_POLICY). Default: no reserve is kept (one an earlier open left is
   * still used) and writes go on until the disk itself refuses them.
   */
  diskSpace?: DiskSpacePolicy;
}

/** How an added block was taken: onto the best chain, onto a side chain, by a reorganization, or already held. */
export type AddStatus = 'connected' | 'side-chain' | 'reorganized' | 'duplicate';

/** What adding a block did. */
export interface AddResult {
  status: AddStatus;
  hash: Uint8Array;
  height: number;
  chainWork: bigint;
  /** Present when accepting the block switched the best chain. */
  reorg?: Reorg;
}

export interface AddBlockOptions {
  /** Equihash verdicts the importer computed ahead (sync/solution-prefetch.ts); else the solution is checked here. */
  solutions?: SolutionVerdicts;
  /** Tree steps a tree thread computed ahead (sync/tree-prefetch.ts); else the trees are hashed here. */
  trees?: TreeSteps;
}

/**
 * Note-commitment tree steps an importer computed ahead on a thread (sync/tree-prefetch.ts): a
 * block's, taken once, or null when none was started for it.
 */
export interface TreeSteps {
  take(hash: Uint8Array): Promise<PrecomputedTrees | null> | null;
  /** How many of a block's steps the state transition adopted and refused (hashed itself instead). */
  used?(hash: Uint8Array, outcome: { adopted: number; refused: number }): void;
}

/** The indexers a store keeps unless told otherwise. */
function defaultIndexers(network: NetworkParams, log: (line: string) => void, addressIndex: boolean): Indexer[] {
  const indexers: Indexer[] = [new TxIndex(), new ChainStateIndex({ network, hashers: defaultPoolHashers(), log })];
  if (addressIndex) indexers.push(new AddressIndex());
  return indexers;
}

/** The LevelDB chain store: adds blocks (validating and connecting them, reorganizing when a side chain gets more work) and reads blocks, transactions and chain state. */
export class ChainStore implements ChainStoreReader, ChainOperator {
  readonly network: NetworkParams;
  readonly dir: string;
  /** Set by tests only. */
  reorgStepHook: ReorgStepHook | null = null;
  private readonly db: ChainDb;
  private readonly indexers: IndexerSet;
  private readonly rules: AcceptanceRules;
  private readonly solutions: AttachedSolutions | null;
  private readonly chainState: ChainStateReader;
  private readonly addressIndex: AddressIndexReader;

  private constructor(opts: ChainStoreOptions) {
    const log = opts.log ?? (() => undefined);
    const addressIndex = opts.addressIndex ?? true;
    if (!addressIndex && opts.indexers?.some((i) => i instanceof AddressIndex)) {
      throw new Error('the address index indexer was given to a store opened without the address index (addressIndex: false)');
    }
    // Checked before LevelDB is opened: a store with clashing indexers never opens.
    this.indexers = new IndexerSet(opts.indexers ?? defaultIndexers(opts.network, log, addressIndex));
    // A store created so would record that it keeps the index and hold none of its rows, which
    // -insightexplorer would then serve as empty results.
    if (addressIndex && opts.indexers && !opts.indexers.some((i) => i instanceof AddressIndex)) {
      throw new Error(
        'indexers without the address index were given to a store opened with it (addressIndex true, the default): pass addressIndex: false',
      );
    }
    this.db = new ChainDb({ ...opts, log });
    this.network = opts.network;
    this.dir = this.db.dir;
    this.rules = {
      network: opts.network,
      genesisHash: reversedHexToBytes(opts.network.genesisHash),
      verifySolutions: opts.verifySolutions ?? true,
      now: opts.now ?? (() => Math.floor(Date.now() / 1000)),
      log,
    };
    this.solutions = opts.solutions ?? null;
    this.chainState = new ChainStateReader((key) => this.db.indexValue(key), this.db.db, defaultPoolHashers());
    this.addressIndex = new AddressIndexReader(this.db.db);
  }

  static async open(opts: ChainStoreOptions): Promise<ChainStore> {
    let store: ChainStore;
    try {
      store = new ChainStore(opts);
    } catch (e) {
      await opts.solutions?.close();
      throw e;
    }
    await store.init();
    return store;
  }

  private async init(): Promise<void> {
    const db = this.db;
    try {
      await db.open();
    } catch (e) {
      await this.solutions?.close();
      throw e;
    }
    try {
      // A crash in the middle of a reorganization leaves the tip behind the most-work block: finish it.
      if (db.best && (!db.tip || !bytesEqual(db.best.hash, db.tip.hash))) {
        if (db.readOnly) {
          // Every step of a switch is a consistent store: the current tip is served until space is freed.
          db.log(`a switch to block ${toHexReversed(db.best.hash)} is unfinished and resumes once the store is writable`);
        } else if (!db.tip || db.best.chainWork > db.tip.chainWork || db.isInvalid(db.tip.hash)) {
          try {
            await activate(db, this.indexers, db.best.hash, () => this.reorgStepHook);
          } catch (e) {
            if (!(e instanceof BlockRejectedError)) throw e;
            db.log(`stayed on the current chain: ${e.message}`);
          }
        }
      }
    } catch (e) {
      await this.closeResources();
      throw e;
    }
  }

  /** Null while the free space a write needs is there (see ChainStoreOptions.diskSpace), else why not. */
  lowSpace(): DiskSpaceLowError | null {
    return this.db.lowSpace();
  }

  /**
   * Why the store takes no writes (opened on a full disk, or stopped by a failed write), or null.
   * Writers throw this error; reads are served either way.
   */
  get notWritable(): StoreNotWritableError | null {
    return this.db.notWritable;
  }

  /** Values read since the store opened whose checksum did not match (record-checksums.ts). */
  get damagedReads(): number {
    return this.db.damagedReads;
  }

  /** Coin reads since the store opened by who answered them, and the coins cache's size (group commit). */
  get coinCache(): { reads: Readonly<CoinReadCounts>; groups: number; bytes: number; limitBytes: number } {
    return { reads: this.db.coinReads, ...this.db.coinCache };
  }

  /** Whether added blocks have their Equihash solutions checked (an importer then prefetches verdicts). */
  get verifiesSolutions(): boolean {
    return this.rules.verifySolutions;
  }

  // ---------------------------------------------------------------- writing

  /**
   * Validates cheaply and stores one raw block. Rejections throw BlockRejectedError (UnknownParentError
   * when the parent is missing); nothing is written for a rejected block.
   */
  addBlock(bytes: Uint8Array, opts: AddBlockOptions = {}): Promise<AddResult> {
    return this.db.exclusive(() => this.addBlockLocked(bytes, opts.solutions ?? this.solutions ?? undefined, opts.trees));
  }

  /** Whether the block was found invalid (connecting it, or a block it descends from, failed). */
  isMarkedInvalid(hash: Uint8Array): boolean {
    return this.db.isInvalid(hash);
  }

  /** Hash of a raw block without full decoding (cheap duplicate checks for importers). */
  static hashOf(bytes: Uint8Array): Uint8Array {
    return sha256d(decodeBlockHeader(bytes).bytes);
  }

  private async addBlockLocked(bytes: Uint8Array, solutions: SolutionVerdicts | undefined, trees?: TreeSteps): Promise<AddResult> {
    const db = this.db;
    const acceptance = await acceptBlock(db, this.rules, bytes, solutions);
    if ('duplicate' in acceptance) {
      const { hash, record } = acceptance.duplicate;
      return { status: 'duplicate', hash, height: record.height, chainWork: record.chainWork };
    }
    const { hash, hashHex, header, block, txids, height, parentChainTx, chainWork } = acceptance.accepted;
    const raisesBest = !db.best || chainWork > db.best.chainWork;
    const extendsTip = db.tip ? bytesEqual(header.prevHash, db.tip.hash) : height === 0;
    const connectNow = extendsTip && raisesBest;
    const grouped = connectNow && db.groupLimits !== null;
    // Anything but a grouped connect reads and writes LevelDB directly: pending blocks go first.
    if (!grouped) await db.flushGroup();

    const prepared = await db.data.prepare(hash, bytes);
    const rec: IndexRecord = {
      haveData: true,
      height,
      chainWork,
      size: bytes.length,
      txCount: txids.length,
      file: prepared.location.file,
      offset: prepared.location.offset,
      header: header.bytes,
    };
    const ops: BatchOp[] = [
      ...prepared.ops,
      { type: 'put', key: keys.index(hash), value: encodeIndexRecord(rec) },
      { type: 'put', key: keys.txids(hash), value: Buffer.concat(txids) },
      { type: 'put', key: keys.chainTx(hash), value: encodeChainTx(parentChainTx + txids.length) },
    ];
    if (raisesBest) ops.push({ type: 'put', key: keys.best(), value: Buffer.from(hash) });
    ops.push(...db.highestRecordOps(height));
    ops.push(...db.chainTips.recordOps(hash, height === 0 ? null : header.prevHash));
    if (connectNow) {
      const chainBlock: ChainBlock = {
        hash,
        height,
        header: header.bytes,
        txids,
        block: async () => block,
        precomputedTrees: trees?.take(hash) ?? null,
        ...(trees?.used ? { treeStepsUsed: (outcome: { adopted: number; refused: number }) => trees.used!(hash, outcome) } : {}),
      };
      try {
        ops.push(...(await this.indexers.connectOps(chainBlock, db.view)));
      } catch (e) {
        // The bytes written to the block file stay unreferenced (past the committed length).
        prepared.abort();
        if (e instanceof StateTransitionError) throw new BlockRejectedError('state', e.message, hash, e.rule);
        throw e;
      }
    }

    if (grouped) {
      db.pendingGroup().apply(ops);
      // The cursor moves on in memory; on disk it moves with the group's batch (its `F` value).
      prepared.commit();
      if (db.groupIsFull()) await db.startGroupWrite();
    } else {
      try {
        await prepared.flush();
        await db.write(ops, db.durable, `block ${hashHex}`);
      } catch (e) {
        prepared.abort();
        throw e;
      }
      prepared.commit();
    }
    db.remember(hash, rec);
    db.chainTips.recorded(hash, height === 0 ? null : header.prevHash);
    db.highestRecord = Math.max(db.highestRecord, height);
    if (raisesBest) db.best = { hash, height, chainWork };
    if (connectNow) {
      db.tip = { hash, height, chainWork };
      return { status: 'connected', hash, height, chainWork };
    }
    if (raisesBest) {
      const reorg = await activate(db, this.indexers, hash, () => this.reorgStepHook);
      return { status: 'reorganized', hash, height, chainWork, reorg };
    }
    return { status: 'side-chain', hash, height, chainWork };
  }

  /**
   * invalidateblock: marks the block (and the active chain above it) invalid and moves the
   * active chain to the most-work block left (block-tree.ts). False when the store has no such
   * block; throws InvalidationRefusedError before changing anything when it cannot disconnect it,
   * and the store's StoreNotWritableError when it takes no writes.
   */
  invalidateBlock(hash: Uint8Array): Promise<boolean> {
    return this.db.exclusive(async () => {
      if (hash.length !== 32 || !(await this.db.record(hash))) return false;
      await invalidateBlock(this.db, this.indexers, hash, () => this.reorgStepHook);
      return true;
    });
  }

  /** reconsiderblock: clears the marks of the block, its descendants and ancestors, then activates the most-work chain. */
  reconsiderBlock(hash: Uint8Array): Promise<boolean> {
    return this.db.exclusive(async () => {
      if (hash.length !== 32 || !(await this.db.record(hash))) return false;
      await reconsiderBlock(this.db, this.indexers, hash, () => this.reorgStepHook);
      return true;
    });
  }

  /** Writes the blocks group commit still holds (a no-op without group commit). */
  flush(): Promise<void> {
    return this.db.exclusive(() => this.db.flushGroup(), { writes: false });
  }

  /**
   * Starts checking the Equihash solution of a block the caller will add soon, on the verdicts
   * attached at open (`solutions`); a no-op without them. Importers that own a prefetcher
   * (sync/solution-prefetch.ts) hand its verdicts to addBlock instead.
   */
  prefetch(bytes: Uint8Array): void {
    if (this.rules.verifySolutions) this.solutions?.prefetch(bytes);
  }

  /** Resolves once every prefetched solution has its verdict (for measurements and tests). */
  async prefetchSettled(): Promise<void> {
    await this.solutions?.settled();
  }

  /**
   * Starts an empty store at block `height` from a supplied state instead of from genesis (an
   * operator who does not want to process 3.4 M blocks): the headers up to that block, its chain
   * work and nChainTx, and the chain state after it (tree frontiers, history tree, pool totals;
   * what is not supplied stays unknown). Blocks after it then import as usual. The coins view
   * starts empty, so the transparent and supply totals are unknown from here on (zcashd shows
   * such pools as not monitored), and checks that need what came before are reported, not
   * failed (log lines "not verified: …"). Header-only blocks answer getblock with zcashd's
   * "Can't read block from disk".
   */
  startFromCheckpoint(cp: CheckpointStart): Promise<void> {
    const core = this.indexers.core as CoreIndexer<CheckpointState> | null;
    return this.db.exclusive(() => startFromCheckpoint(this.db, core, this.rules, cp));
  }

  /**
   * Saves an importer's resume position (any JSON value). Under group commit it joins the
   * pending group, so it reaches the disk in the same batch as the blocks before it.
   */
  async putImportCheckpoint(source: string, value: unknown): Promise<void> {
    const op: BatchOp = { type: 'put', key: keys.importCheckpoint(source), value: Buffer.from(JSON.stringify(value), 'utf8') };
    await this.db.exclusive(async () => {
      if (this.db.groupLimits) this.db.pendingGroup().apply([op], { block: false });
      else await this.db.write([op], this.db.durable, 'the import resume position');
    });
  }

  async getImportCheckpoint<T>(source: string): Promise<T | null> {
    const v = this.db.indexValue(keys.importCheckpoint(source));
    return v ? (JSON.parse(v.toString('utf8')) as T) : null;
  }

  // ---------------------------------------------------------------- reading (ChainStoreReader)

  async tip(): Promise<ChainTip | null> {
    const tip = this.db.tip;
    return tip ? { hash: tip.hash, height: tip.height } : null;
  }

  tipChanges(): number {
    return this.db.tipChanges;
  }

  /** Chain work of the best chain's tip (0 for an empty store). */
  tipChainWork(): bigint {
    return this.db.tip?.chainWork ?? 0n;
  }

  async hashAtHeight(height: number): Promise<Uint8Array | null> {
    if (!Number.isInteger(height) || height < 0 || height > 0xffffffff) return null;
    const v = this.db.indexValue(keys.height(height));
    return v ? new Uint8Array(v) : null;
  }

  async blockIndex(hash: Uint8Array): Promise<BlockIndexEntry | null> {
    if (hash.length !== 32) return null;
    const rec = await this.db.record(hash);
    if (!rec) return null;
    return {
      hash: new Uint8Array(hash),
      height: rec.height,
      prevHash: rec.header.slice(4, 36),
      header: rec.header.slice(), // callers get their own copy; the cached record stays intact
      chainWork: rec.chainWork,
      size: rec.size,
      txCount: rec.txCount,
      haveData: rec.haveData,
      onBestChain: await this.db.isOnBestChain(hash, rec.height),
    };
  }

  async blockBytes(hash: Uint8Array): Promise<Uint8Array | null> {
    if (hash.length !== 32) return null;
    const rec = await this.db.record(hash);
    if (!rec?.haveData) return null;
    return this.db.data.read(hash, { file: rec.file, offset: rec.offset }, rec.size);
  }

  async txLocation(txid: Uint8Array): Promise<TxLocation | null> {
    if (txid.length !== 32) return null;
    const v = this.db.indexValue(keys.tx(txid));
    if (!v) return null;
    const { height, index } = decodeTxLocation(v);
    const blockHash = await this.hashAtHeight(height);
    return blockHash ? { blockHash, height, index } : null;
  }

  async blockState(hash: Uint8Array): Promise<BlockChainState | null> {
    return this.chainState.blockState(hash);
  }

  async treeStateAt(pool: ShieldedPool, root: Uint8Array): Promise<Uint8Array | null> {
    return this.chainState.treeStateAt(pool, root);
  }

  coinsView(): CoinsView {
    return this.chainState.coinsView();
  }

  /**
   * A snapshot of the coins view (`c` records) and the tip it belongs to, taken with the writer
   * queue held so that no block is half written; the scan itself runs outside the queue, on the
   * snapshot LevelDB's iterator keeps. Null for an empty store.
   */
  coinScan(): Promise<CoinScan | null> {
    return this.db.exclusive(
      async () => {
        await this.db.flushGroup();
        const tip = this.db.tip;
        if (!tip) return null;
        const prefix = chainStateKeys.coinPrefix;
        const iterator = this.db.db.iterator({ gt: Buffer.of(prefix), lt: Buffer.of(prefix + 1) });
        return {
          tip: { hash: tip.hash, height: tip.height },
          next: async (max: number) =>
            (await iterator.nextv(max)).map(([key, value]) => ({
              txid: key.subarray(1, 33),
              n: key.readUInt32LE(33),
              coin: decodeCoin(value),
            })),
          close: () => iterator.close(),
        };
      },
      { writes: false },
    );
  }

  async chainStateTip(): Promise<ChainStateTip | null> {
    return this.chainState.tip();
  }

  subtrees(pool: ShieldedPoolId, start: number, limit: number): Promise<{ index: number; root: Uint8Array; endHeight: number }[]> {
    return this.chainState.subtrees(pool, start, limit);
  }

  /** getchaintips: the childless blocks and the active tip with their statuses (block-tree.ts). */
  async chainTips(): Promise<ChainTipInfo[]> {
    // The set is built once for a store written before it existed, with the writer queue held.
    if (!this.db.chainTips.known) await this.db.exclusive(() => this.db.ensureChainTips(), { writes: false });
    return chainTips(this.db, (hash) => this.db.indexValue(chainStateKeys.blockState(hash)) !== undefined);
  }

  /** Whether the store keeps the address index (ChainStoreOptions.addressIndex, as the store records it). */
  get keepsAddressIndex(): boolean {
    return this.db.keepsAddressIndex;
  }

  /**
   * Reads of the insight explorer indexes (indexes/address-index.ts). A store that keeps none
   * (`keepsAddressIndex`) throws instead of answering from an index it does not have.
   */
  addressIndexReader(): AddressIndexReader {
    if (!this.keepsAddressIndex) throw new Error(`the chain store at ${this.dir} keeps no address index (-addressindex=0)`);
    return this.addressIndex;
  }

  /** nChainTx of any stored block: transactions from genesis through it (null if unknown). */
  async chainTx(hash: Uint8Array): Promise<number | null> {
    const v = this.db.indexValue(keys.chainTx(hash));
    return v ? decodeChainTx(v) : null;
  }

  async bestHeaderHeight(): Promise<number> {
    return this.db.best?.height ?? -1;
  }

  /** Txids (internal order) of any stored block, in block order. */
  async blockTxids(hash: Uint8Array): Promise<Uint8Array[] | null> {
    const v = this.db.indexValue(keys.txids(hash));
    return v ? splitTxids(v) : null;
  }

  /**
   * Block files (their committed length, tracked as they grow) plus LevelDB's estimate of its
   * tables: constant time, where walking the directories would stat thousands of files per
   * getblockchaininfo on a mainnet store. Like zcashd's value it is an estimate (the index's
   * write-ahead log and the block-file bytes past the committed length are not counted).
   */
  async sizeOnDisk(): Promise<number> {
    const index = await this.db.db.approximateSize(Buffer.of(0x00), Buffer.of(0xff));
    return this.db.data.bytesOutsideIndex() + index;
  }

  /** Raw LevelDB access for the integrity checker (read-only use). */
  get database(): ClassicLevel<Buffer, Buffer> {
    return this.db.db;
  }

  get blockDataKind(): 'flat' | 'leveldb' {
    return this.db.data.kind;
  }

  /** Writes what group commit still holds, then closes; a failed final write is thrown after closing. */
  async close(): Promise<void> {
    try {
      await this.db.close();
    } finally {
      await this.solutions?.close();
    }
  }

  private async closeResources(): Promise<void> {
    await this.solutions?.close();
    await this.db.closeResources();
  }
}

export function openChainStore(opts: ChainStoreOptions): Promise<ChainStore> {
  return ChainStore.open(opts);
}
