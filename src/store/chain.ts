/**
 * The LevelDB chain store: accepts raw blocks, keeps a block index of every block it has seen
 * (best chain and side chains) with cumulative work, follows the most-work chain (first seen wins
 * ties, as in zcashd) and reorganizes with each block's undo record (undo.ts).
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
import { ensureDirSync } from './dirs.js';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import type { NetworkParams } from '../chain/network.js';
import { blockWork } from '../chain/pow.js';
import { checkedMerkleRoot, decodeBlock, decodeBlockHeader, type Block, type BlockHeader } from '../codec/block.js';
import { sha256d } from '../crypto/hash.js';
import { bytesEqual, reversedHexToBytes, toHexReversed } from '../codec/hex.js';
import { BlockRejectedError, StoreNotWritableError, StoreOpenError, UnknownParentError, type DiskSpaceLowError } from './errors.js';
import { assertIndexOpenable } from './index-dir.js';
import { DiskReserve, freeBytes, isNoSpaceError, lowSpaceError, mib, openWithReserve, type DiskSpacePolicy } from './disk-reserve.js';
import { defaultPoolHashers } from '../state/hashers.js';
import type { ShieldedPoolId } from '../state/pools.js';
import { StateTransitionError } from '../state/apply-block.js';
import { lastCheckpointReached } from '../chain/checkpoints.js';
import { checkBlockHeader, equihashParams } from '../chain/header-rules.js';
import type { EquihashResult } from '../crypto/equihash.js';
import { EquihashPool } from '../crypto/equihash-pool.js';
import { validateBlockHeader } from './header-validation.js';
import {
  decodeBlockChainState,
  decodeChainStateTip,
  type BlockChainState,
  type ChainStateTip,
  type ShieldedPool,
} from '../state/chain-state.js';
import { AddressIndex } from './indexes/address-index.js';
import { ChainStateIndex, chainStateKeys, chainStateLookups, decodeSubtree, type CheckpointState } from './indexes/chain-state-index.js';
import type { ChainBlock, Indexer, IndexReadView } from './indexes/indexer.js';
import { TxIndex } from './indexes/tx-index.js';
import { WriteOverlay } from './overlay.js';
import { PendingWrites, type PendingFootprint } from './pending-writes.js';
import { encodeVersionRecord, migrate } from './migrations/index.js';
import { decodeUndoRecord, encodeUndoRecord, MAX_REORG_DEPTH } from './undo.js';
import { FlatFileBlockData, LevelBlockData, type BatchOp, type BlockDataBackend } from './block-data.js';
import {
  SCHEMA_VERSION,
  decodeChainTx,
  decodeIndexRecord,
  decodeHighestRecord,
  decodeTip,
  decodeTxLocation,
  encodeChainTx,
  encodeIndexRecord,
  encodeHighestRecord,
  encodeTip,
  keys,
  splitTxids,
  storeDirectory,
  type IndexRecord,
} from './layout.js';
import type { BlockIndexEntry, ChainStoreReader, ChainTip, CoinsView, TxLocation } from './types.js';
import { writeBatch } from './write-batch.js';

/** zcashd's MAX_BLOCK_SIZE (2 MB since Sapling; larger blocks never existed). */
export const MAX_BLOCK_SIZE = 2_000_000;
export { MAX_REORG_DEPTH };
const INDEX_CACHE_SIZE = 20_000;
/** Solution verdicts kept for blocks not yet added (an importer reads a few hundred ahead at most). */
const MAX_PREFETCHED = 4096;

/** A block hash as the key of the in-memory maps (record cache, invalid set): its bytes in hex. */
function hashKey(hash: Uint8Array): string {
  return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('hex');
}

export interface ChainStoreOptions {
  /** Network data directory (e.g. ~/.zcash/testnet3); the store lives in `<datadir>/zecrpc`. */
  datadir: string;
  network: NetworkParams;
  /** Where block bytes go; 'flat' (default) measured faster, see block-data.ts. */
  blockData?: 'flat' | 'leveldb';
  /** fsync block files and LevelDB writes before acknowledging (power-loss safety, slower). */
  durable?: boolean;
  /** What is derived from the active chain (default: the transaction index and the chain state). */
  indexers?: readonly Indexer[];
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
   * Threads that check Equihash solutions of blocks an importer has read ahead (`prefetch`),
   * while this thread validates and connects the current block (default 0: every solution is
   * checked when its block is added).
   */
  solutionThreads?: number;
  /**
   * Space kept so that a full disk leaves the store readable (disk-reserve.ts; `zecrpc serve`
   * and `import` use DISK_SPACE_POLICY). Default: no reserve is kept (one an earlier open left is
   * still used) and writes go on until the disk itself refuses them.
   */
  diskSpace?: DiskSpacePolicy;
}

export interface GroupCommitLimits {
  maxBlocks: number;
  maxBytes: number;
}

/**
 * Measured on bench/store-import.ts's regtest chain: most of the per-batch gain comes by 64
 * blocks. Past MAX_REORG_DEPTH blocks a group also never writes the undo records of the blocks it
 * buries that deep, nor the coins created and spent within it (see BatchOp's `fresh`): with 512
 * blocks that is 80 % of the undo records, which cut LevelDB's work for small blocks (the address
 * index's undo blobs most). The byte bound keeps a group of large blocks (LevelDB-stored bytes,
 * big address-index batches) within a few tens of megabytes.
 */
export const DEFAULT_GROUP_COMMIT: GroupCommitLimits = { maxBlocks: 512, maxBytes: 32 * 1024 * 1024 };

export type AddStatus = 'connected' | 'side-chain' | 'reorganized' | 'duplicate';

export interface AddResult {
  status: AddStatus;
  hash: Uint8Array;
  height: number;
  chainWork: bigint;
  /** Present when accepting the block switched the best chain. */
  reorg?: { forkHeight: number; disconnected: Uint8Array[]; connected: Uint8Array[] };
}

/** What a store started from a checkpoint is given (see ChainStore.startFromCheckpoint). */
export interface CheckpointStart {
  /** The checkpoint block's height. */
  height: number;
  /** Serialized headers ending with the checkpoint block's, oldest first (28 let difficulty checks run at once). */
  headers: Uint8Array[];
  /** Cumulative chain work up to and including the checkpoint block. */
  chainWork: bigint;
  /** nChainTx of the checkpoint block; null when unknown (then counted from 0, as zcashd does without bodies). */
  chainTx: number | null;
  state: CheckpointState;
}

/** Test hook: called after each batch of a reorganization (throwing simulates a crash there). */
export type ReorgStepHook = (step: { kind: 'disconnect' | 'connect'; hash: Uint8Array; height: number }) => void;

interface TipState {
  hash: Uint8Array;
  height: number;
  chainWork: bigint;
}

/**
 * LevelDB's block cache. Its LRU is split into 16 shards, and a data block larger than a shard's
 * share is never kept: with the 8 MB default, a block holding one large undo record (those of
 * 2 MB blocks reach 1.5–2 MB) was read from the file and decompressed again on every lookup of any
 * key beside it, 280 µs instead of 10 (measured on bench/getblock-connected.ts's store).
 */
const BLOCK_CACHE_BYTES = 64 * 1024 * 1024;
/**
 * LevelDB's memtable size (two may be held at once). With classic-level's 4 MiB an import with
 * the address index flushed a level-0 table every few hundred blocks, each one compacted again
 * and probed by every coin lookup until then; 16 MiB moved the import rate with the index on
 * against off from 0.63× to 0.71–0.74× on a 6,000-block chain (bench/address-index.ts, same load).
 * zcashd's block-tree database, which holds its insight indexes, gets -dbcache / 8 with -txindex
 * and write buffers of a quarter of that: 14 MiB at the default -dbcache=450.
 */
const WRITE_BUFFER_BYTES = 16 * 1024 * 1024;

export class ChainStore implements ChainStoreReader {
  readonly network: NetworkParams;
  readonly dir: string;
  /** Set by tests only. */
  reorgStepHook: ReorgStepHook | null = null;
  private readonly db: ClassicLevel<Buffer, Buffer>;
  private readonly data: BlockDataBackend;
  private readonly durable: boolean;
  private readonly genesisHash: Uint8Array;
  private readonly indexers: readonly Indexer[];
  private readonly log: (line: string) => void;
  private readonly verifySolutions: boolean;
  private readonly now: () => number;
  /** Committed state, as indexers read it while they prepare a batch. */
  private readonly view: IndexReadView = { get: (key) => this.indexValue(key) };
  private tipState: TipState | null = null;
  private best: TipState | null = null;
  private readonly cache = new Map<string, IndexRecord>();
  /**
   * The height of the highest block record (`M`; -1 when there is none): a block above it cannot
   * be stored yet, so an import asks LevelDB "already stored?" only for blocks at or below it.
   * That read would look for a key that does not exist, and LevelDB charges a read that consults
   * more than one table to the first one, compacting it into the next level after about one
   * charge per 16 KiB of table ("seek compaction"). Every table of this store spans all key
   * prefixes, so one such read per block kept LevelDB compacting: with the address index on, 6 of
   * the 7 compactions of a 20,000-block import came from them and the `x` reads below.
   * zcashd holds every block index entry in memory (mapBlockIndex) and never asks its database.
   */
  private highestRecord = -1;
  /** Blocks marked invalid (`x`, hex of the internal-order hash): few, so all kept in memory, for the reason above. */
  private readonly invalidBlocks = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly groupLimits: GroupCommitLimits | null;
  /** Connected blocks not yet handed to LevelDB (group commit). */
  private group: PendingWrites | null = null;
  /** The size of the last group handed to LevelDB: the next one starts with room for as much. */
  private groupFootprint: PendingFootprint | undefined;
  /** The group LevelDB is writing: still read from here until the write completes. */
  private writing: { writes: PendingWrites; done: Promise<void> } | null = null;
  /**
   * Set when a LevelDB write failed: the store writes no more until it is reopened (after a
   * failed group write memory is ahead of the disk; after any failed write LevelDB's log may
   * end in a torn record, past which later records would be lost when it is replayed).
   */
  private writeFailure: StoreNotWritableError | null = null;
  /** Set when the store was opened read-only on a full disk. */
  private fullDisk: StoreNotWritableError | null = null;
  private readonly reserve: DiskReserve;
  private readonly minFreeBytes: number;
  private readonly solutionPool: EquihashPool | null;
  /** Verdicts on the solutions of prefetched blocks, by block hash (latin1), oldest first. */
  private readonly prefetched = new Map<string, Promise<EquihashResult | null>>();

  private constructor(opts: ChainStoreOptions) {
    this.network = opts.network;
    this.dir = storeDirectory(opts.datadir);
    this.durable = opts.durable ?? false;
    this.genesisHash = reversedHexToBytes(opts.network.genesisHash);
    this.log = opts.log ?? (() => undefined);
    this.indexers = opts.indexers ?? [
      new TxIndex(),
      new ChainStateIndex({ network: opts.network, hashers: defaultPoolHashers(), log: this.log }),
      new AddressIndex(),
    ];
    this.verifySolutions = opts.verifySolutions ?? true;
    this.solutionPool = this.verifySolutions && (opts.solutionThreads ?? 0) > 0 ? new EquihashPool(opts.solutionThreads!) : null;
    this.groupLimits = !opts.groupCommit || this.durable ? null : opts.groupCommit === true ? DEFAULT_GROUP_COMMIT : opts.groupCommit;
    this.now = opts.now ?? (() => Math.floor(Date.now() / 1000));
    const tags = new Set(this.indexers.map((i) => i.undoTag));
    if (tags.size !== this.indexers.length) throw new Error('two indexers share an undo tag');
    // The address index learns what an input spends from the chain state, which resolves every
    // input when it connects a block (indexes/input-coins.ts): it must connect first.
    const addressIndexAt = this.indexers.findIndex((i) => i instanceof AddressIndex);
    const chainStateAt = this.indexers.findIndex((i) => i instanceof ChainStateIndex);
    if (addressIndexAt >= 0 && chainStateAt < 0) {
      throw new Error('the address index needs the chain-state indexer (its coins view) in the same store');
    }
    if (addressIndexAt >= 0 && addressIndexAt < chainStateAt) {
      throw new Error('the address index must come after the chain-state indexer, whose resolved inputs it reads');
    }
    this.reserve = new DiskReserve(this.dir, opts.diskSpace?.reserveBytes ?? 0);
    this.minFreeBytes = opts.diskSpace?.minFreeBytes ?? 0;
    assertIndexOpenable(join(this.dir, 'index'), this.dir); // before classic-level opens it
    this.db = new ClassicLevel<Buffer, Buffer>(join(this.dir, 'index'), {
      keyEncoding: 'buffer',
      valueEncoding: 'buffer',
      cacheSize: BLOCK_CACHE_BYTES,
      writeBufferSize: WRITE_BUFFER_BYTES,
    });
    this.data =
      (opts.blockData ?? 'flat') === 'flat'
        ? new FlatFileBlockData(join(this.dir, 'blocks'), opts.network.magic, this.db, this.durable)
        : new LevelBlockData(this.db);
  }

  static async open(opts: ChainStoreOptions): Promise<ChainStore> {
    const store = new ChainStore(opts);
    await store.init();
    return store;
  }

  private async init(): Promise<void> {
    ensureDirSync(this.dir);
    this.fullDisk = await openWithReserve(this.db, this.dir, this.reserve);
    try {
      await this.checkSchema();
      await this.data.open({ readOnly: this.fullDisk !== null });
      for await (const key of this.db.keys({ gte: Buffer.of(keys.invalidPrefix), lt: Buffer.of(keys.invalidPrefix + 1) })) {
        this.invalidBlocks.add(hashKey(key.subarray(1)));
      }
      this.highestRecord = decodeHighestRecord(await this.db.get(keys.highestRecord()));
      const tip = await this.db.get(keys.tip());
      if (tip) {
        const t = decodeTip(tip);
        this.tipState = { ...t, chainWork: (await this.requireRecord(t.hash)).chainWork };
      }
      const best = await this.db.get(keys.best());
      if (best) {
        const rec = await this.requireRecord(best);
        this.best = { hash: new Uint8Array(best), height: rec.height, chainWork: rec.chainWork };
      }
      // A crash in the middle of a reorganization leaves the tip behind the most-work block: finish it.
      if (this.best && (!this.tipState || !bytesEqual(this.best.hash, this.tipState.hash))) {
        if (this.fullDisk) {
          // Every step of a switch is a consistent store: the current tip is served until space is freed.
          this.log(`a switch to block ${toHexReversed(this.best.hash)} is unfinished and resumes once the store is writable`);
        } else if (!this.tipState || this.best.chainWork > this.tipState.chainWork) {
          try {
            await this.activate(this.best.hash);
          } catch (e) {
            if (!(e instanceof BlockRejectedError)) throw e;
            this.log(`stayed on the current chain: ${e.message}`);
          }
        }
      }
    } catch (e) {
      await this.closeResources();
      throw e;
    }
  }

  private async checkSchema(): Promise<void> {
    const v = await this.db.get(keys.version());
    if (!v) {
      if (this.fullDisk) {
        throw new StoreOpenError(
          `Disk space is low! Cannot create a chain store at ${this.dir}: its file system is full. Free space on it and start again.`,
        );
      }
      await this.write([{ type: 'put', key: keys.version(), value: encodeVersionRecord(SCHEMA_VERSION, this.network.name) }], true);
      return;
    }
    const version = v.readUInt32LE(0);
    const network = v.subarray(4).toString('utf8');
    if (network !== this.network.name) {
      throw new StoreOpenError(`chain store at ${this.dir} holds ${network} blocks, not ${this.network.name}`);
    }
    if (version > SCHEMA_VERSION) {
      throw new StoreOpenError(
        `chain store at ${this.dir} has schema version ${version}, written by a newer zecrpc; this one reads up to version ${SCHEMA_VERSION}`,
      );
    }
    if (version < SCHEMA_VERSION) {
      const space = this.upgradeSpaceProblem();
      // What the upgrade adds is what this version reads: the store cannot be served without it.
      if (space) {
        throw new StoreOpenError(
          `Disk space is low! The chain store at ${this.dir} needs an upgrade from schema version ${version} to ${SCHEMA_VERSION}, ` +
            `which writes to it, and its file system ${space}; this zecrpc cannot serve it un-upgraded, not even read-only. ` +
            'Free space on that file system and start again.',
        );
      }
      await migrate(this.db, version, this.network.name, this.log, { network: this.network }).catch((e: unknown) => {
        if (!isNoSpaceError(e)) throw e;
        throw new StoreOpenError(
          `Disk space is low! Upgrading the chain store at ${this.dir} to schema version ${SCHEMA_VERSION} failed (${(e as Error).message}); ` +
            'what is on disk is consistent and the upgrade resumes: free space on that file system and start again.',
        );
      });
    }
  }

  /** Null while the free space a write needs is there (see ChainStoreOptions.diskSpace), else why not. */
  lowSpace(): DiskSpaceLowError | null {
    return lowSpaceError(this.dir, this.minFreeBytes);
  }

  /** Why a schema upgrade cannot run now (the end of "its file system …"), or null. */
  private upgradeSpaceProblem(): string | null {
    if (this.fullDisk) return 'is full (the store opened only with the space set aside for that)';
    if (!this.lowSpace()) return null;
    return `has only ${mib(freeBytes(this.dir))} free (the store writes with at least ${mib(this.minFreeBytes)})`;
  }

  /**
   * Why the store takes no writes (opened on a full disk, or stopped by a failed write), or null.
   * Writers throw this error; reads are served either way.
   */
  get notWritable(): StoreNotWritableError | null {
    return this.fullDisk ?? this.writeFailure;
  }

  /** Runs writers one at a time: the index and the tip are single-writer state. */
  private exclusive<T>(fn: () => Promise<T>, { writes }: { writes: boolean } = { writes: true }): Promise<T> {
    const run = this.queue.then(() => {
      if (this.closed) throw new Error('the chain store is closed');
      if (this.writeFailure) throw this.writeFailure;
      if (writes && this.fullDisk) throw this.fullDisk;
      const lowSpace = writes && this.lowSpace();
      if (lowSpace) throw lowSpace;
      return fn();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** One atomic LevelDB batch; a failure stops all further writes (see writeFailure). */
  private async write(ops: readonly BatchOp[], sync: boolean, what = 'a batch'): Promise<void> {
    try {
      await writeBatch(this.db, ops, { sync });
    } catch (e) {
      throw this.stopWriting(e, what);
    }
  }

  private stopWriting(e: unknown, what: string): StoreNotWritableError {
    const full = isNoSpaceError(e);
    this.writeFailure ??= new StoreNotWritableError(
      `${full ? 'Disk space is low! ' : ''}The chain store at ${this.dir} could not write ${what} (${(e as Error).message}) ` +
        'and stopped writing; it keeps serving what it holds, and what is on disk is consistent: ' +
        `${full ? 'free space on that file system, then ' : ''}reopen the store (an import resumes where the store stands)`,
      { cause: e },
    );
    return this.writeFailure;
  }

  // ---------------------------------------------------------------- writing

  /**
   * Validates cheaply and stores one raw block. Rejections throw BlockRejectedError (UnknownParentError
   * when the parent is missing); nothing is written for a rejected block.
   */
  addBlock(bytes: Uint8Array): Promise<AddResult> {
    return this.exclusive(() => this.addBlockLocked(bytes));
  }

  /** Hash of a raw block without full decoding (cheap duplicate checks for importers). */
  static hashOf(bytes: Uint8Array): Uint8Array {
    return sha256d(decodeBlockHeader(bytes).bytes);
  }

  private async addBlockLocked(bytes: Uint8Array): Promise<AddResult> {
    if (bytes.length > MAX_BLOCK_SIZE) {
      throw new BlockRejectedError('too-large', `block rejected: ${bytes.length} bytes exceeds the ${MAX_BLOCK_SIZE}-byte maximum`, null);
    }
    let header: BlockHeader;
    try {
      header = decodeBlockHeader(bytes);
    } catch (e) {
      throw new BlockRejectedError('decode', `block rejected: its header does not decode (${(e as Error).message})`, null);
    }
    const hash = sha256d(header.bytes);
    const hashHex = toHexReversed(hash);
    const existing = (await this.mayBeStored(header)) ? await this.record(hash) : null;
    // A header-only record (a checkpoint start's headers) keeps its checkpoint values: its body is not taken.
    if (existing) {
      return { status: 'duplicate', hash, height: existing.height, chainWork: existing.chainWork };
    }
    if (header.solution.length !== this.network.solutionSize) {
      throw new BlockRejectedError(
        'network',
        `block ${hashHex} rejected: its Equihash solution is ${header.solution.length} bytes, ${this.network.name} blocks have ${this.network.solutionSize}`,
        hash,
      );
    }
    let block: Block;
    try {
      block = decodeBlock(bytes);
    } catch (e) {
      throw new BlockRejectedError('decode', `block ${hashHex} rejected: it does not decode (${(e as Error).message})`, hash);
    }
    if (block.bytes.length !== bytes.length) {
      throw new BlockRejectedError(
        'decode',
        `block ${hashHex} rejected: ${bytes.length - block.bytes.length} unexpected bytes after the block`,
        hash,
      );
    }
    const txids = block.transactions.map((t) => t.txid);
    const { root: computedRoot, mutated } = checkedMerkleRoot(txids);
    // Refused before anything is stored, and the hash not marked invalid (zcashd's "corruption
    // possible"): the block without the repeats has this same hash and may still arrive.
    if (mutated) {
      throw new BlockRejectedError(
        'merkle-root',
        `block ${hashHex} rejected: bad-txns-duplicate: its transaction list repeats transactions in a way that keeps the merkle root of the list without them (CVE-2012-2459)`,
        hash,
      );
    }
    if (!bytesEqual(computedRoot, header.merkleRoot)) {
      throw new BlockRejectedError(
        'merkle-root',
        `block ${hashHex} rejected: header merkle root ${toHexReversed(header.merkleRoot)} does not match its transactions (${toHexReversed(computedRoot)})`,
        hash,
      );
    }

    let height: number;
    let parentWork: bigint;
    let parentChainTx: number;
    if (header.prevHash.every((b) => b === 0)) {
      if (!bytesEqual(hash, this.genesisHash)) {
        throw new BlockRejectedError(
          'genesis',
          `block ${hashHex} rejected: it has no parent but is not the ${this.network.name} genesis block ${this.network.genesisHash}`,
          hash,
        );
      }
      height = 0;
      parentWork = 0n;
      parentChainTx = 0;
    } else {
      const parent = await this.record(header.prevHash);
      if (!parent) throw new UnknownParentError(hash, header.prevHash);
      height = parent.height + 1;
      parentWork = parent.chainWork;
      parentChainTx = this.requireChainTx(header.prevHash);
      if (this.isInvalid(header.prevHash)) {
        throw new BlockRejectedError(
          'invalid-parent',
          `block ${hashHex} rejected: its parent ${toHexReversed(header.prevHash)} is invalid`,
          hash,
        );
      }
    }
    const solutionResult = await this.takePrefetched(hash);
    const headerProblem = await validateBlockHeader(block, height, this.network, (count) => this.ancestorHeaders(header.prevHash, count), {
      verifySolutions: this.verifySolutions,
      ...(solutionResult ? { solutionResult } : {}),
      now: this.now,
      unverified: (line) => this.log(`not verified: ${line}`),
      lastCheckpoint: this.best ? lastCheckpointReached(this.network.name, this.best.height) : undefined,
    });
    if (headerProblem && 'field' in headerProblem) {
      throw new BlockRejectedError(
        'header',
        `block ${hashHex} at height ${height} rejected (${headerProblem.rule}): ${headerProblem.message}; ${headerProblem.field}: expected ${headerProblem.expected}, found ${headerProblem.computed}`,
        hash,
      );
    }
    if (headerProblem) {
      const where = headerProblem.tx ? ` in transaction ${headerProblem.tx.txid} (position ${headerProblem.tx.index})` : '';
      throw new BlockRejectedError(
        'transactions',
        `block ${hashHex} at height ${height} rejected (${headerProblem.rule})${where}: ${headerProblem.message}`,
        hash,
      );
    }
    const chainWork = parentWork + blockWork(header.bits);
    const raisesBest = !this.best || chainWork > this.best.chainWork;
    const extendsTip = this.tipState ? bytesEqual(header.prevHash, this.tipState.hash) : height === 0;
    const connectNow = extendsTip && raisesBest;
    const grouped = connectNow && this.groupLimits !== null;
    // Anything but a grouped connect reads and writes LevelDB directly: pending blocks go first.
    if (!grouped) await this.flushGroup();

    const prepared = await this.data.prepare(hash, bytes);
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
    ops.push(...this.highestRecordOps(height));
    if (connectNow) {
      const decoded = block;
      const chainBlock: ChainBlock = { hash, height, header: header.bytes, txids, block: async () => decoded };
      try {
        ops.push(...(await this.connectOps(chainBlock, this.view)));
      } catch (e) {
        // The bytes written to the block file stay unreferenced (past the committed length).
        prepared.abort();
        if (e instanceof StateTransitionError) throw new BlockRejectedError('state', e.message, hash);
        throw e;
      }
    }

    if (grouped) {
      const group = this.pendingGroup();
      group.apply(ops);
      // The cursor moves on in memory; on disk it moves with the group's batch (its `F` value).
      prepared.commit();
      if (group.blocks >= this.groupLimits!.maxBlocks || group.bytes >= this.groupLimits!.maxBytes) await this.startGroupWrite();
    } else {
      try {
        await prepared.flush();
        await this.write(ops, this.durable, `block ${hashHex}`);
      } catch (e) {
        prepared.abort();
        throw e;
      }
      prepared.commit();
    }
    this.remember(hash, rec);
    this.highestRecord = Math.max(this.highestRecord, height);
    if (raisesBest) this.best = { hash, height, chainWork };
    if (connectNow) {
      this.tipState = { hash, height, chainWork };
      return { status: 'connected', hash, height, chainWork };
    }
    if (raisesBest) {
      const reorg = await this.activate(hash);
      return { status: 'reorganized', hash, height, chainWork, reorg };
    }
    return { status: 'side-chain', hash, height, chainWork };
  }

  /** The group being filled; a new one starts with room for as much as the last (its footprint). */
  private pendingGroup(): PendingWrites {
    return (this.group ??= new PendingWrites(this.groupFootprint, { appendUnique: true }));
  }

  /**
   * Hands the pending group to LevelDB and returns once the write has *started* (after the
   * previous one completed: one write in flight), so validation of the next blocks overlaps it.
   */
  private async startGroupWrite(): Promise<void> {
    if (this.writing) await this.writing.done;
    const writes = this.group;
    if (!writes || this.writeFailure) return;
    this.group = null;
    this.groupFootprint = writes.footprint;
    const done = writeBatch(this.db, writes, { sync: false }).then(
      () => {
        if (this.writing?.writes === writes) this.writing = null;
      },
      (e: Error) => void this.stopWriting(e, `its last ${writes.blocks} blocks`),
    );
    this.writing = { writes, done };
  }

  /** Writes every pending block and waits for it; throws if a group write failed. */
  private async flushGroup(): Promise<void> {
    await this.startGroupWrite();
    await this.writing?.done;
    // A failed group stays in `writing`: its blocks are lost, which the caller must hear.
    if (this.writeFailure && this.writing) throw this.writeFailure;
  }

  /** Writes the blocks group commit still holds (a no-op without group commit). */
  flush(): Promise<void> {
    return this.exclusive(() => this.flushGroup(), { writes: false });
  }

  /**
   * Starts checking the Equihash solution of a block the caller will add soon, on a solution
   * thread (`solutionThreads`); a no-op without them. Importers call it for the blocks they have
   * read ahead. Bytes that are not a header of this network are left to addBlock to refuse.
   */
  prefetch(bytes: Uint8Array): void {
    if (!this.solutionPool) return;
    let header: BlockHeader;
    try {
      header = decodeBlockHeader(bytes);
    } catch {
      return;
    }
    if (header.solution.length !== this.network.solutionSize) return;
    const key = Buffer.from(sha256d(header.bytes)).toString('latin1');
    if (this.prefetched.has(key)) return;
    if (this.prefetched.size >= MAX_PREFETCHED) this.prefetched.delete(this.prefetched.keys().next().value!);
    const { n, k } = equihashParams(this.network);
    // A failed thread is not a verdict: the block's solution is then checked inline.
    const verdict = this.solutionPool.verify(n, k, header.bytes.subarray(0, 140), header.solution).catch(() => null);
    this.prefetched.set(key, verdict);
  }

  /** Resolves once every prefetched solution has its verdict (for measurements and tests). */
  async prefetchSettled(): Promise<void> {
    await Promise.all(this.prefetched.values());
  }

  private async takePrefetched(hash: Uint8Array): Promise<EquihashResult | null> {
    if (this.prefetched.size === 0) return null;
    const key = Buffer.from(hash).toString('latin1');
    const verdict = this.prefetched.get(key);
    if (!verdict) return null;
    this.prefetched.delete(key);
    return verdict;
  }

  /** The batch that makes `block` the new tip: its height entry, every indexer's data, its undo record. */
  private async connectOps(block: ChainBlock, view: IndexReadView): Promise<BatchOp[]> {
    const ops: BatchOp[] = [{ type: 'put', key: keys.height(block.height), value: Buffer.from(block.hash) }];
    const undo = new Map<number, Uint8Array>();
    // Undo data deeper than any allowed reorganization is never read again.
    if (block.height > MAX_REORG_DEPTH) {
      const old = view.get(keys.height(block.height - MAX_REORG_DEPTH - 1));
      if (old) ops.push({ type: 'del', key: keys.undo(old) });
    }
    for (const indexer of this.indexers) {
      const result = await indexer.connect(block, view);
      ops.push(...result.ops);
      if (result.undo) undo.set(indexer.undoTag, result.undo);
    }
    // Fresh: a block's undo record exists only while it is connected (disconnecting deletes it),
    // so a group that connects a block and then buries it past the reorganization limit writes
    // neither the record nor its deletion (see BatchOp).
    if (undo.size) ops.push({ type: 'put', key: keys.undo(block.hash), value: encodeUndoRecord(undo), fresh: true });
    ops.push({ type: 'put', key: keys.tip(), value: encodeTip(block.hash, block.height) });
    return ops;
  }

  /** A stored block as indexers see it; the bytes are read and decoded only if an indexer asks. */
  private async storedChainBlock(hash: Uint8Array, rec: IndexRecord): Promise<ChainBlock> {
    const txids = splitTxids(await this.requireValue(keys.txids(hash), `txid list of block ${toHexReversed(hash)}`));
    let decoded: Promise<Block> | null = null;
    return {
      hash,
      height: rec.height,
      header: rec.header,
      txids,
      block: () => {
        decoded ??= this.data.read(hash, { file: rec.file, offset: rec.offset }, rec.size).then((bytes) => decodeBlock(bytes));
        return decoded;
      },
    };
  }

  /**
   * Switches the best chain to end at `targetHash`: disconnect to the fork point, connect the
   * branch. Every step is planned first against an overlay, so a branch block that cannot be
   * connected (or a switch deeper than MAX_REORG_DEPTH) changes nothing but marking it.
   */
  private async activate(targetHash: Uint8Array): Promise<AddResult['reorg']> {
    const branch: { hash: Uint8Array; rec: IndexRecord }[] = [];
    let hash = targetHash;
    for (;;) {
      const rec = await this.requireRecord(hash);
      if (await this.isOnBestChain(hash, rec.height)) break;
      branch.push({ hash, rec });
      if (rec.height === 0) break;
      hash = rec.header.subarray(4, 36);
    }
    branch.reverse();
    const forkHeight = branch.length ? branch[0]!.rec.height - 1 : (await this.requireRecord(targetHash)).height;
    const invalid = branch.find((b) => this.isInvalid(b.hash));
    if (invalid) {
      await this.stayOnTip();
      throw new BlockRejectedError(
        'invalid-parent',
        `block ${toHexReversed(targetHash)} descends from invalid block ${toHexReversed(invalid.hash)}`,
        targetHash,
      );
    }
    const depth = (this.tipState?.height ?? -1) - forkHeight;
    if (depth > MAX_REORG_DEPTH) {
      await this.stayOnTip();
      throw new BlockRejectedError(
        'reorg-too-deep',
        `block ${toHexReversed(targetHash)} would make the store disconnect ${depth} blocks; the limit is ${MAX_REORG_DEPTH} (zcashd shuts down here). Re-import from a source you trust if this chain is right.`,
        targetHash,
      );
    }

    const overlay = new WriteOverlay(this.db);
    const steps: {
      kind: 'disconnect' | 'connect';
      hash: Uint8Array;
      height: number;
      chainWork: bigint;
      ops: BatchOp[];
      tipAfter: TipState | null;
    }[] = [];
    let tip = this.tipState;
    let connecting: Uint8Array | null = null;
    try {
      while (tip && tip.height > forkHeight) {
        const ops = await this.disconnectOps(tip, overlay);
        overlay.apply(ops);
        const parent = tip.height === 0 ? null : await this.parentTip(tip);
        steps.push({ kind: 'disconnect', hash: tip.hash, height: tip.height, chainWork: tip.chainWork, ops, tipAfter: parent });
        tip = parent;
      }
      for (const { hash: h, rec } of branch) {
        connecting = h;
        const ops = await this.connectOps(await this.storedChainBlock(h, rec), overlay);
        overlay.apply(ops);
        const after = { hash: h, height: rec.height, chainWork: rec.chainWork };
        steps.push({ kind: 'connect', hash: h, height: rec.height, chainWork: rec.chainWork, ops, tipAfter: after });
      }
    } catch (e) {
      // Nothing was written: the store stays on its chain whatever went wrong (a most-work mark
      // it cannot reach would make every open retry the same switch and fail).
      const message = (e as Error).message;
      const invalid = e instanceof StateTransitionError && connecting ? connecting : null;
      await this.stayOnTip(invalid ? { hash: invalid, why: message } : null);
      if (invalid) throw new BlockRejectedError('state', message, invalid);
      throw new BlockRejectedError('reorg-failed', `cannot switch to block ${toHexReversed(targetHash)}: ${message}`, targetHash);
    }

    const disconnected: Uint8Array[] = [];
    const connected: Uint8Array[] = [];
    for (const step of steps) {
      await this.write(step.ops, this.durable, `the ${step.kind} of block ${toHexReversed(step.hash)} (a reorganization step)`);
      this.tipState = step.tipAfter;
      (step.kind === 'connect' ? connected : disconnected).push(step.hash);
      this.reorgStepHook?.({ kind: step.kind, hash: step.hash, height: step.height });
    }
    return { forkHeight, disconnected, connected };
  }

  /** The most-work block goes back to the current tip (the better branch was refused). */
  private async stayOnTip(invalid: { hash: Uint8Array; why: string } | null = null): Promise<void> {
    const tip = this.tipState;
    const ops: BatchOp[] = [];
    if (invalid) ops.push({ type: 'put', key: keys.invalid(invalid.hash), value: Buffer.from(invalid.why, 'utf8') });
    if (tip) ops.push({ type: 'put', key: keys.best(), value: Buffer.from(tip.hash) });
    if (ops.length) await this.write(ops, this.durable);
    if (invalid) this.invalidBlocks.add(hashKey(invalid.hash));
    if (tip) this.best = { ...tip };
  }

  private async parentTip(tip: TipState): Promise<TipState> {
    const prev = new Uint8Array((await this.requireRecord(tip.hash)).header.subarray(4, 36));
    return { hash: prev, height: tip.height - 1, chainWork: (await this.requireRecord(prev)).chainWork };
  }

  /** The batch that takes `tip` off the active chain. */
  private async disconnectOps(tip: TipState, view: IndexReadView): Promise<BatchOp[]> {
    const block = await this.storedChainBlock(tip.hash, await this.requireRecord(tip.hash));
    const ops: BatchOp[] = [{ type: 'del', key: keys.height(tip.height) }];
    const undoValue = view.get(keys.undo(tip.hash));
    const undo = undoValue ? decodeUndoRecord(undoValue) : new Map<number, Uint8Array>();
    // Last connected, first disconnected: an indexer may build on what an earlier one wrote.
    for (const indexer of [...this.indexers].reverse()) {
      ops.push(...(await indexer.disconnect(block, undo.get(indexer.undoTag) ?? null, view, undo)));
    }
    if (undoValue) ops.push({ type: 'del', key: keys.undo(tip.hash) });
    if (tip.height === 0) {
      ops.push({ type: 'del', key: keys.tip() });
    } else {
      const prev = (await this.requireRecord(tip.hash)).header.subarray(4, 36);
      ops.push({ type: 'put', key: keys.tip(), value: encodeTip(prev, tip.height - 1) });
    }
    return ops;
  }

  /** Up to `count` stored headers from `parentHash` backwards, for header validation. */
  private async ancestorHeaders(parentHash: Uint8Array, count: number): Promise<{ height: number; header: Uint8Array }[]> {
    const out: { height: number; header: Uint8Array }[] = [];
    let rec = await this.record(parentHash);
    while (rec && out.length < count) {
      out.push({ height: rec.height, header: rec.header });
      if (rec.height === 0) break;
      rec = await this.record(rec.header.subarray(4, 36));
    }
    return out;
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
    return this.exclusive(async () => {
      if (this.tipState || this.best) throw new Error('a checkpoint start needs an empty chain store');
      await this.flushGroup();
      if (cp.headers.length === 0) throw new Error('a checkpoint start needs at least the checkpoint block header');
      const firstHeight = cp.height - cp.headers.length + 1;
      if (!Number.isSafeInteger(cp.height) || firstHeight < 0)
        throw new Error(`checkpoint: ${cp.headers.length} headers cannot end at height ${cp.height}`);
      // Each header as a block's header is checked without its chain: it decodes, is of this
      // network, carries a valid Equihash solution and meets the target it states.
      const headers = cp.headers.map((bytes, i) => {
        let h: BlockHeader;
        try {
          h = decodeBlockHeader(bytes);
        } catch (e) {
          throw new Error(`checkpoint header ${i} does not decode (${(e as Error).message})`);
        }
        if (h.bytes.length !== bytes.length) throw new Error(`checkpoint header ${i} has ${bytes.length - h.bytes.length} bytes after it`);
        if (h.solution.length !== this.network.solutionSize) {
          throw new Error(
            `checkpoint header ${i} has a ${h.solution.length}-byte Equihash solution; ${this.network.name} headers have ${this.network.solutionSize}`,
          );
        }
        const problem = checkBlockHeader(h, this.network, firstHeight + i, { verifySolution: this.verifySolutions });
        if (problem) throw new Error(`checkpoint header ${i} (${problem.hash}) is refused (${problem.rule}): ${problem.message}`);
        return h;
      });
      if (firstHeight === 0 && !bytesEqual(sha256d(headers[0]!.bytes), this.genesisHash)) {
        throw new Error(`checkpoint header 0 is at height 0 but is not the ${this.network.name} genesis block ${this.network.genesisHash}`);
      }
      const ops: BatchOp[] = [];
      // Chain work of each earlier header: the checkpoint's minus the work of the ones after it.
      const works = headers.map((h) => blockWork(h.bits));
      let work = cp.chainWork;
      const records: { hash: Uint8Array; rec: IndexRecord }[] = [];
      for (let i = headers.length - 1; i >= 0; i--) {
        const h = headers[i]!;
        const hash = sha256d(h.bytes);
        if (i < headers.length - 1 && !bytesEqual(hash, headers[i + 1]!.prevHash)) {
          throw new Error(`checkpoint headers do not link: header ${i + 1} does not follow header ${i}`);
        }
        records.unshift({
          hash,
          rec: { haveData: false, height: firstHeight + i, chainWork: work, size: 0, txCount: 0, file: 0, offset: 0, header: h.bytes },
        });
        work -= works[i]!;
        if (work < 0n) throw new Error('checkpoint: its chain work is less than the work of its own headers');
      }
      for (const { hash, rec } of records) {
        ops.push({ type: 'put', key: keys.index(hash), value: encodeIndexRecord(rec) });
        ops.push({ type: 'put', key: keys.height(rec.height), value: Buffer.from(hash) });
        // nChainTx of header-only blocks before the checkpoint: zcashd keeps 0 for blocks whose bodies it lacks.
        ops.push({ type: 'put', key: keys.chainTx(hash), value: encodeChainTx(rec.height === cp.height ? (cp.chainTx ?? 0) : 0) });
      }
      const tip = records[records.length - 1]!;
      ops.push(...this.highestRecordOps(tip.rec.height));
      const state = this.indexers.find((i): i is ChainStateIndex => i instanceof ChainStateIndex);
      if (state) ops.push(...state.checkpointOps(tip.hash, cp.height, cp.state));
      ops.push({ type: 'put', key: keys.tip(), value: encodeTip(tip.hash, cp.height) });
      ops.push({ type: 'put', key: keys.best(), value: Buffer.from(tip.hash) });
      await this.write(ops, true, 'the checkpoint start');
      for (const { hash, rec } of records) this.remember(hash, rec);
      this.highestRecord = cp.height;
      this.tipState = { hash: tip.hash, height: cp.height, chainWork: cp.chainWork };
      this.best = { ...this.tipState };
    });
  }

  /**
   * Saves an importer's resume position (any JSON value). Under group commit it joins the
   * pending group, so it reaches the disk in the same batch as the blocks before it.
   */
  async putImportCheckpoint(source: string, value: unknown): Promise<void> {
    const op: BatchOp = { type: 'put', key: keys.importCheckpoint(source), value: Buffer.from(JSON.stringify(value), 'utf8') };
    await this.exclusive(async () => {
      if (this.groupLimits) this.pendingGroup().apply([op], { block: false });
      else await this.write([op], this.durable, 'the import resume position');
    });
  }

  async getImportCheckpoint<T>(source: string): Promise<T | null> {
    const v = this.indexValue(keys.importCheckpoint(source));
    return v ? (JSON.parse(v.toString('utf8')) as T) : null;
  }

  // ---------------------------------------------------------------- reading (ChainStoreReader)

  async tip(): Promise<ChainTip | null> {
    return this.tipState ? { hash: this.tipState.hash, height: this.tipState.height } : null;
  }

  /** Chain work of the best chain's tip (0 for an empty store). */
  tipChainWork(): bigint {
    return this.tipState?.chainWork ?? 0n;
  }

  async hashAtHeight(height: number): Promise<Uint8Array | null> {
    if (!Number.isInteger(height) || height < 0 || height > 0xffffffff) return null;
    const v = this.indexValue(keys.height(height));
    return v ? new Uint8Array(v) : null;
  }

  async blockIndex(hash: Uint8Array): Promise<BlockIndexEntry | null> {
    if (hash.length !== 32) return null;
    const rec = await this.record(hash);
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
      onBestChain: await this.isOnBestChain(hash, rec.height),
    };
  }

  async blockBytes(hash: Uint8Array): Promise<Uint8Array | null> {
    if (hash.length !== 32) return null;
    const rec = await this.record(hash);
    if (!rec?.haveData) return null;
    return this.data.read(hash, { file: rec.file, offset: rec.offset }, rec.size);
  }

  async txLocation(txid: Uint8Array): Promise<TxLocation | null> {
    if (txid.length !== 32) return null;
    const v = this.indexValue(keys.tx(txid));
    if (!v) return null;
    const { height, index } = decodeTxLocation(v);
    const blockHash = await this.hashAtHeight(height);
    return blockHash ? { blockHash, height, index } : null;
  }

  async blockState(hash: Uint8Array): Promise<BlockChainState | null> {
    const v = this.indexValue(chainStateKeys.blockState(hash));
    return v ? decodeBlockChainState(v) : null;
  }

  async treeStateAt(pool: ShieldedPool, root: Uint8Array): Promise<Uint8Array | null> {
    const v = this.indexValue(chainStateKeys.anchor(pool, root));
    return v ? new Uint8Array(v) : null;
  }

  coinsView(): CoinsView {
    return {
      ...chainStateLookups((key) => this.indexValue(key), defaultPoolHashers()),
      // A prefix read of LevelDB: a serving store writes every block at once (only an importer,
      // which owns the store, holds blocks back in a write group).
      hasUnspentOutputs: async (txid) => {
        const prefix = chainStateKeys.coin(txid, 0).subarray(0, 33);
        return (await this.db.keys({ gt: prefix, lte: chainStateKeys.coin(txid, 0xffffffff), limit: 1 }).all()).length > 0;
      },
    };
  }

  async chainStateTip(): Promise<ChainStateTip | null> {
    const v = this.indexValue(chainStateKeys.tip());
    return v ? decodeChainStateTip(v, defaultPoolHashers()) : null;
  }

  async subtrees(pool: ShieldedPoolId, start: number, limit: number): Promise<{ index: number; root: Uint8Array; endHeight: number }[]> {
    const out: { index: number; root: Uint8Array; endHeight: number }[] = [];
    if (limit <= 0 || start > 0xffffffff) return out;
    const prefix = chainStateKeys.subtreePrefix(pool);
    const end = Buffer.from(prefix);
    end[end.length - 1]! += 1;
    // LevelDB takes the limit as a 32-bit int (2^32 would read as 0); the tree has far fewer subtrees.
    for await (const [key, value] of this.db.iterator({
      gte: chainStateKeys.subtree(pool, start),
      lt: end,
      limit: Math.min(limit, 0x7fffffff),
    })) {
      out.push({ index: key.readUInt32BE(2), ...decodeSubtree(value) });
    }
    return out;
  }

  /** nChainTx of any stored block: transactions from genesis through it (null if unknown). */
  async chainTx(hash: Uint8Array): Promise<number | null> {
    const v = this.indexValue(keys.chainTx(hash));
    return v ? decodeChainTx(v) : null;
  }

  async bestHeaderHeight(): Promise<number> {
    return this.best?.height ?? -1;
  }

  /** Txids (internal order) of any stored block, in block order. */
  async blockTxids(hash: Uint8Array): Promise<Uint8Array[] | null> {
    const v = this.indexValue(keys.txids(hash));
    return v ? splitTxids(v) : null;
  }

  /**
   * Block files (their committed length, tracked as they grow) plus LevelDB's estimate of its
   * tables: constant time, where walking the directories would stat thousands of files per
   * getblockchaininfo on a mainnet store. Like zcashd's value it is an estimate (the index's
   * write-ahead log and the block-file bytes past the committed length are not counted).
   */
  async sizeOnDisk(): Promise<number> {
    const index = await this.db.approximateSize(Buffer.of(0x00), Buffer.of(0xff));
    return this.data.bytesOutsideIndex() + index;
  }

  // ---------------------------------------------------------------- internals

  private async isOnBestChain(hash: Uint8Array, height: number): Promise<boolean> {
    if (!this.tipState || height > this.tipState.height) return false;
    const at = this.indexValue(keys.height(height));
    return !!at && bytesEqual(at, hash);
  }

  /**
   * One small index value, read synchronously. LevelDB answers these from its caches in under
   * a microsecond, while an async get is a thread-pool round trip of ~25 µs; getblock made
   * three of them per request, which was most of an uncached reply's time. zcashd likewise
   * reads its block index in place. Block bytes, which can be megabytes, stay asynchronous.
   */
  private indexValue(key: Buffer): Buffer | undefined {
    if (this.group || this.writing) {
      // A deletion (null) in the newer group hides whatever the older one holds.
      let pending = this.group?.lookup(key);
      if (pending === undefined) pending = this.writing?.writes.lookup(key);
      if (pending !== undefined) return pending ?? undefined;
    }
    return this.db.getSync(key);
  }

  private isInvalid(hash: Uint8Array): boolean {
    return this.invalidBlocks.size > 0 && this.invalidBlocks.has(hashKey(hash));
  }

  /**
   * False when the block cannot have a record: the store holds none, or the block's parent's is
   * at the highest height stored. The parent's record is read anyway to connect the block, and
   * while importing it is the one just added (in the record cache). A block whose parent is
   * unknown (the first header of a checkpoint start) is looked up.
   */
  private async mayBeStored(header: BlockHeader): Promise<boolean> {
    if (this.highestRecord < 0) return false;
    if (header.prevHash.every((b) => b === 0)) return true;
    const parent = await this.record(header.prevHash);
    return !parent || parent.height + 1 <= this.highestRecord;
  }

  /**
   * The write that keeps `M` at or above a record put at `height`, for the same batch. The value
   * in memory rises once that batch is written or handed to the group: a block refused after
   * this call leaves it where it was, so the next record at that height writes `M` again.
   */
  private highestRecordOps(height: number): BatchOp[] {
    if (height <= this.highestRecord) return [];
    return [{ type: 'put', key: keys.highestRecord(), value: encodeHighestRecord(height) }];
  }

  private async record(hash: Uint8Array): Promise<IndexRecord | null> {
    const k = hashKey(hash);
    const cached = this.cache.get(k);
    if (cached) return cached;
    const v = this.indexValue(keys.index(hash));
    if (!v) return null;
    const rec = decodeIndexRecord(v);
    this.remember(hash, rec);
    return rec;
  }

  private remember(hash: Uint8Array, rec: IndexRecord): void {
    const k = hashKey(hash);
    if (this.cache.size >= INDEX_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(k, rec);
  }

  private requireChainTx(hash: Uint8Array): number {
    const v = this.indexValue(keys.chainTx(hash));
    if (!v) throw new Error(`chain store is inconsistent: block ${toHexReversed(hash)} has no nChainTx record`);
    return decodeChainTx(v);
  }

  private async requireRecord(hash: Uint8Array): Promise<IndexRecord> {
    const rec = await this.record(hash);
    if (!rec) throw new Error(`chain store is inconsistent: block ${toHexReversed(hash)} has no index record`);
    return rec;
  }

  private async requireValue(key: Buffer, what: string): Promise<Buffer> {
    const v = await this.db.get(key);
    if (!v) throw new Error(`chain store is inconsistent: ${what} is missing`);
    return v;
  }

  /** Raw LevelDB access for the integrity checker (read-only use). */
  get database(): ClassicLevel<Buffer, Buffer> {
    return this.db;
  }

  get blockDataKind(): 'flat' | 'leveldb' {
    return this.data.kind;
  }

  /** Writes what group commit still holds, then closes; a failed final write is thrown after closing. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.queue.catch(() => undefined);
    this.closed = true;
    let failure: unknown = null;
    await this.flushGroup().catch((e: unknown) => (failure = e));
    await this.closeResources();
    if (failure) throw failure;
  }

  private async closeResources(): Promise<void> {
    this.prefetched.clear();
    await this.solutionPool?.close();
    await this.data.close().catch(() => undefined);
    if (this.db.status === 'open' || this.db.status === 'opening') await this.db.close();
  }
}

export function openChainStore(opts: ChainStoreOptions): Promise<ChainStore> {
  return ChainStore.open(opts);
}
