/**
 * The chain store's persistence (bcoin's chaindb to chain.ts's chain): LevelDB's lifecycle, the
 * schema and its migrations, the disk reserve, the writer queue, group commit, and the block
 * index as the rest of the store reads it (the record cache, the invalid set, the highest record,
 * the tip and the most-work block). It validates nothing and chooses no chain: block acceptance
 * (block-acceptance.ts), fork choice (fork-choice.ts) and the indexers (indexer-set.ts) decide
 * what it writes.
 */
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import type { NetworkParams } from '../chain/network.js';
import type { BlockHeader } from '../codec/block.js';
import { bytesEqual, toHexReversed } from '../codec/hex.js';
import { FlatFileBlockData, LevelBlockData, type BatchOp, type BlockDataBackend } from './block-data.js';
import { addressIndexChoice } from './address-index-record.js';
import { ChainTipSet } from './chain-tips.js';
import { ensureDirSync } from './dirs.js';
import { DiskReserve, freeBytes, isNoSpaceError, lowSpaceError, mib, openWithReserve, type DiskSpacePolicy } from './disk-reserve.js';
import {
  AddressIndexMismatchError,
  AddressIndexRecordLostError,
  StoreNotWritableError,
  StoreOpenError,
  StoreReadError,
  type DiskSpaceLowError,
} from './errors.js';
import { assertIndexOpenable } from './index-dir.js';
import type { IndexReadView } from './indexes/indexer.js';
import {
  SCHEMA_VERSION,
  decodeChainTx,
  decodeHighestRecord,
  decodeIndexRecord,
  decodeTip,
  encodeHighestRecord,
  keys,
  storeDirectory,
  type IndexRecord,
} from './layout.js';
import { decodeVersionRecord, encodeVersionRecord, migrate } from './migrations/index.js';
import { attachChecksums, recordChecksumCause, RecordChecksumError, RecordChecksums } from './record-checksums.js';
import { damagedLogRecords } from './leveldb-files.js';
import { lostCommittedData, StoreDamagedError } from './open-check.js';
import { chainStateKeys } from './indexes/chain-state-index.js';
import { CommittedCoins, type CoinReadCounts } from './committed-coins.js';
import { DEFAULT_DBCACHE_MIB } from './dbcache.js';
import { hashKey as tableHash, PendingWrites, type PendingFootprint } from './pending-writes.js';
import { writeBatch } from './write-batch.js';

const INDEX_CACHE_SIZE = 20_000;

/**
 * LevelDB's block cache. Its LRU is split into 16 shards, and a data block larger than a shard's
 * share is never kept: with the 8 MB default, a block holding one large undo record (those of
 * 2 MB blocks reach megabytes) was read from the file and decompressed again on every lookup of
 * any key beside it.
 */
const BLOCK_CACHE_BYTES = 64 * 1024 * 1024;
/**
 * LevelDB's memtable size (two may be held at once). With classic-level's 4 MiB an import with
 * the address index flushed a level-0 table every few hundred blocks, each one compacted again
 * and probed by every coin lookup until then; 16 MiB keeps the address index's cost on imports
 * markedly lower (bench/address-index.ts). zcashd's block-tree database, which holds its insight indexes, gets -dbcache / 8 with -txindex
 * and write buffers of a quarter of that: 14 MiB at the default -dbcache=450.
 */
const WRITE_BUFFER_BYTES = 16 * 1024 * 1024;

/** LevelDB's tuning for the chain index (bench/leveldb-growth.ts measures growth with the same). */
export const CHAIN_INDEX_LEVEL_OPTIONS = { cacheSize: BLOCK_CACHE_BYTES, writeBufferSize: WRITE_BUFFER_BYTES } as const;

export interface GroupCommitLimits {
  maxBlocks: number;
  maxBytes: number;
}

/**
 * Most of the per-batch gain comes within the first tens of blocks (bench/store-import.ts). Past
 * MAX_REORG_DEPTH blocks a group also never writes the undo records of the blocks it buries that
 * deep, nor the coins created and spent within it (see BatchOp's `fresh`): with 512 blocks that
 * is most of the undo records, which cut LevelDB's work for small blocks (the address
 * index's undo blobs most). The byte bound keeps a group of large blocks (LevelDB-stored bytes,
 * big address-index batches) within a few tens of megabytes.
 */
export const DEFAULT_GROUP_COMMIT: GroupCommitLimits = { maxBlocks: 512, maxBytes: 32 * 1024 * 1024 };

/** A block at the end of a chain: the active tip, or the most-work block. */
export interface TipState {
  hash: Uint8Array;
  height: number;
  chainWork: bigint;
}

/** A block hash as the key of the in-memory maps (record cache, invalid set): its bytes in hex. */
function hashKey(hash: Uint8Array): string {
  return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('hex');
}

export interface ChainDbOptions {
  datadir: string;
  network: NetworkParams;
  blockData?: 'flat' | 'leveldb';
  durable?: boolean;
  log?: (line: string) => void;
  groupCommit?: boolean | GroupCommitLimits;
  /**
   * With group commit: memory for the coins of the last groups written (committed-coins.ts),
   * bytes; 0 keeps none. Default: zcashd's default `-dbcache`, 450 MiB.
   */
  coinCacheBytes?: number;
  diskSpace?: DiskSpacePolicy;
  /**
   * Whether the store keeps the address index (default true). A new store records `false`
   * (`O`, layout.ts); an existing store opened with the other value is refused.
   */
  addressIndex?: boolean;
}

export class ChainDb {
  readonly network: NetworkParams;
  readonly dir: string;
  readonly db: ClassicLevel<Buffer, Buffer>;
  readonly data: BlockDataBackend;
  readonly durable: boolean;
  readonly log: (line: string) => void;
  /** Whether the store keeps the address index (what it was created with; `open` refuses a mismatch). */
  readonly keepsAddressIndex: boolean;
  /** Set with group commit (ignored with `durable`, which syncs every block). */
  readonly groupLimits: GroupCommitLimits | null;
  /** Committed state, as indexers read it while they prepare a batch. */
  readonly view: IndexReadView = { get: (key) => this.indexValue(key) };
  private activeTip: TipState | null = null;
  /**
   * How many times the tip has been set since the store opened. A tip that moves away and back
   * (T1 → T2 → T1) during one read has the same hash before and after it, but not the same
   * count: caches scoped to the tip (rpc/methods/blockchain/reply-cache.ts) tell them apart.
   */
  tipChanges = 0;
  /** The active chain's tip, null for an empty store. */
  get tip(): TipState | null {
    return this.activeTip;
  }
  set tip(tip: TipState | null) {
    this.activeTip = tip;
    this.tipChanges++;
  }
  /** The most-work block (`W`); differs from the tip only in the middle of a switch. */
  best: TipState | null = null;
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
  highestRecord = -1;
  /** The childless blocks (getchaintips), maintained with every record written. */
  readonly chainTips = new ChainTipSet();
  private readonly cache = new Map<string, IndexRecord>();
  /** Blocks marked invalid (`x`, hex of the internal-order hash): few, so all kept in memory, for the reason above. */
  private readonly invalidBlocks = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Connected blocks not yet handed to LevelDB (group commit). */
  private group: PendingWrites | null = null;
  /** The size of the last group handed to LevelDB: the next one starts with room for as much. */
  private groupFootprint: PendingFootprint | undefined;
  /** The group LevelDB is writing: still read from here until the write completes. */
  private writing: { writes: PendingWrites; done: Promise<void> } | null = null;
  /** The coins of the groups written last, read before LevelDB (group commit only). */
  private readonly committedCoins: CommittedCoins;
  /**
   * Counts the writes of coins that bypass the groups: a group write that completes after one of them
   * started is not kept in `committedCoins`, whose rows would then be older than LevelDB's.
   */
  private directWrites = 0;
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
  /** Whether values carry checksums and are checked as they are read (record-checksums.ts). */
  readonly checksums = new RecordChecksums();
  /** Keys whose damaged value was logged already: each is logged once, however often it is asked for. */
  private readonly loggedDamage = new Set<string>();

  constructor(opts: ChainDbOptions) {
    this.network = opts.network;
    this.dir = storeDirectory(opts.datadir);
    this.durable = opts.durable ?? false;
    this.log = opts.log ?? (() => undefined);
    this.keepsAddressIndex = opts.addressIndex ?? true;
    this.groupLimits = !opts.groupCommit || this.durable ? null : opts.groupCommit === true ? DEFAULT_GROUP_COMMIT : opts.groupCommit;
    this.committedCoins = new CommittedCoins(
      this.groupLimits ? (opts.coinCacheBytes ?? DEFAULT_DBCACHE_MIB * 1024 * 1024) : 0,
      chainStateKeys.coinPrefix,
    );
    this.reserve = new DiskReserve(this.dir, opts.diskSpace?.reserveBytes ?? 0);
    this.minFreeBytes = opts.diskSpace?.minFreeBytes ?? 0;
    assertIndexOpenable(join(this.dir, 'index'), this.dir); // before classic-level opens it
    // Also before: LevelDB replays its log when it opens, and drops a damaged record silently.
    const damagedLog = damagedLogRecords(join(this.dir, 'index'));
    if (damagedLog.length > 0) {
      throw new StoreDamagedError(
        this.dir,
        damagedLog.map(
          (p) => `${p.where}: ${p.problem} (LevelDB would drop the committed writes from there to the end of its 32 KiB block)`,
        ),
      );
    }
    this.db = new ClassicLevel<Buffer, Buffer>(join(this.dir, 'index'), {
      keyEncoding: 'buffer',
      valueEncoding: this.checksums.encoding,
      ...CHAIN_INDEX_LEVEL_OPTIONS,
    });
    attachChecksums(this.db, this.checksums);
    this.data =
      (opts.blockData ?? 'flat') === 'flat'
        ? new FlatFileBlockData(join(this.dir, 'blocks'), opts.network.magic, this.db, this.durable)
        : new LevelBlockData(this.db);
  }

  /** Opens LevelDB and the block files, upgrades the schema and loads the chain's ends; closes everything on failure. */
  async open(): Promise<void> {
    ensureDirSync(this.dir);
    this.fullDisk = await openWithReserve(this.db, this.dir, this.reserve);
    try {
      await this.checkSchema();
      // From here on every value is read through its checksum.
      this.checksums.decoding = this.checksums.sealed;
      // Before the block files open: opening cuts their bytes past the committed cursor.
      const lost = await lostCommittedData(this.db, this.data.kind === 'flat' ? join(this.dir, 'blocks') : null);
      if (lost.length > 0) throw new StoreDamagedError(this.dir, lost);
      await this.data.open({ readOnly: this.fullDisk !== null });
      await this.chainTips.load(this.db);
      for await (const key of this.db.keys({ gte: Buffer.of(keys.invalidPrefix), lt: Buffer.of(keys.invalidPrefix + 1) })) {
        this.invalidBlocks.add(hashKey(key.subarray(1)));
      }
      this.highestRecord = decodeHighestRecord(await this.db.get(keys.highestRecord()));
      const tip = await this.db.get(keys.tip());
      if (tip) {
        const t = decodeTip(tip);
        this.tip = { ...t, chainWork: (await this.requireRecord(t.hash)).chainWork };
      }
      const best = await this.db.get(keys.best());
      if (best) {
        const rec = await this.requireRecord(best);
        this.best = { hash: new Uint8Array(best), height: rec.height, chainWork: rec.chainWork };
      }
    } catch (e) {
      await this.closeResources();
      throw e;
    }
  }

  private async checkSchema(): Promise<void> {
    const v = await this.db.get(keys.version());
    if (!v) {
      this.checksums.sealed = true;
      if (this.fullDisk) {
        throw new StoreOpenError(
          `Disk space is low! Cannot create a chain store at ${this.dir}: its file system is full. Free space on it and start again.`,
        );
      }
      await this.write(
        [
          { type: 'put', key: keys.version(), value: encodeVersionRecord(SCHEMA_VERSION, this.network.name) },
          { type: 'put', key: keys.recordChecksums(), value: Buffer.of(1) },
          ...ChainTipSet.creationOps(),
          ...(this.keepsAddressIndex ? [] : [{ type: 'put' as const, key: keys.noAddressIndex(), value: Buffer.of(1) }]),
        ],
        true,
      );
      if (!this.keepsAddressIndex) {
        this.log(
          `created the chain store at ${this.dir} without the address index (-addressindex=0): it cannot serve -insightexplorer, ` +
            "-lightwalletd nor getrawtransaction's spent-index fields, and the index cannot be added to it later",
        );
      }
      return;
    }
    const { version, network } = decodeVersionRecord(v);
    this.checksums.sealed = (await this.db.get(keys.recordChecksums())) !== undefined;
    if (network !== this.network.name) {
      throw new StoreOpenError(`chain store at ${this.dir} holds ${network} blocks, not ${this.network.name}`);
    }
    if (version > SCHEMA_VERSION) {
      throw new StoreOpenError(
        `chain store at ${this.dir} has schema version ${version}, written by a newer zecrpc; this one reads up to version ${SCHEMA_VERSION}`,
      );
    }
    // Checked before any migration runs: a refused store is left exactly as it was. A lost record
    // first, whatever was asked: the mismatch message would name the wrong choice.
    const choice = await addressIndexChoice(this.db, version);
    if (typeof choice !== 'boolean') throw new AddressIndexRecordLostError(this.dir, choice.lostAt);
    if (choice !== this.keepsAddressIndex) throw new AddressIndexMismatchError(this.dir, choice);
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
      await migrate(this.db, version, this.network.name, this.log, { network: this.network, addressIndex: this.keepsAddressIndex }).catch(
        (e: unknown) => {
          if (!isNoSpaceError(e)) throw e;
          throw new StoreOpenError(
            `Disk space is low! Upgrading the chain store at ${this.dir} to schema version ${SCHEMA_VERSION} failed (${(e as Error).message}); ` +
              'what is on disk is consistent and the upgrade resumes: free space on that file system and start again.',
          );
        },
      );
    }
    if (!this.checksums.sealed) {
      throw new StoreOpenError(
        `chain store at ${this.dir} has schema version ${version} but lost its record-checksum mark (R): ` +
          'its LevelDB data is damaged; run `zecrpc verify -repair` to rebuild it from the block files',
      );
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

  /** Opened read-only on a full disk: the unfinished switch `open` found waits for space. */
  get readOnly(): boolean {
    return this.fullDisk !== null;
  }

  /**
   * Why the store takes no writes (opened on a full disk, or stopped by a failed write), or null.
   * Writers throw this error; reads are served either way.
   */
  get notWritable(): StoreNotWritableError | null {
    return this.fullDisk ?? this.writeFailure;
  }

  /** Runs writers one at a time: the index and the tip are single-writer state. */
  exclusive<T>(fn: () => Promise<T>, { writes }: { writes: boolean } = { writes: true }): Promise<T> {
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
  async write(ops: readonly BatchOp[], sync: boolean, what = 'a batch'): Promise<void> {
    // Reorganizations, invalidations, checkpoint starts... rewrite coins; a side block's record does not.
    if (this.committedCoins.touchedBy(ops)) {
      this.directWrites++;
      this.committedCoins.clear();
    }
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

  // ---------------------------------------------------------------- group commit

  /** The group being filled; a new one starts with room for as much as the last held (its footprint) and a quarter more. */
  pendingGroup(): PendingWrites {
    return (this.group ??= new PendingWrites(this.groupFootprint, { appendUnique: true }));
  }

  /** Whether the group holds as many blocks or bytes as a group may (then `startGroupWrite`). */
  groupIsFull(): boolean {
    const group = this.group;
    return group !== null && (group.blocks >= this.groupLimits!.maxBlocks || group.bytes >= this.groupLimits!.maxBytes);
  }

  /**
   * Hands the pending group to LevelDB and returns once the write has *started* (after the
   * previous one completed: one write in flight), so validation of the next blocks overlaps it.
   */
  async startGroupWrite(): Promise<void> {
    if (this.writing) await this.writing.done;
    const writes = this.group;
    if (!writes || this.writeFailure) return;
    this.group = null;
    this.groupFootprint = writes.footprint;
    const directWrites = this.directWrites;
    const done = writeBatch(this.db, writes, { sync: false }).then(
      () => {
        if (directWrites === this.directWrites) this.committedCoins.retain(writes);
        if (this.writing?.writes === writes) this.writing = null;
      },
      (e: Error) => {
        // What the kept groups say may be what this one changed; LevelDB holds neither now.
        this.committedCoins.clear();
        void this.stopWriting(e, `its last ${writes.blocks} blocks`);
      },
    );
    this.writing = { writes, done };
  }

  /** Writes every pending block and waits for it; throws if a group write failed. */
  async flushGroup(): Promise<void> {
    await this.startGroupWrite();
    await this.writing?.done;
    // A failed group stays in `writing`: its blocks are lost, which the caller must hear.
    if (this.writeFailure && this.writing) throw this.writeFailure;
  }

  // ---------------------------------------------------------------- the block index

  /**
   * One small index value, read synchronously. LevelDB answers these from its caches, while an
   * async get is a round trip through the thread pool that costs far more; getblock made three of
   * them per request, which was most of an uncached reply's time. zcashd likewise
   * reads its block index in place. Block bytes, which can be megabytes, stay asynchronous.
   */
  indexValue(key: Buffer): Buffer | undefined {
    const coin = this.groupLimits !== null && this.committedCoins.isCoinKey(key);
    // One hash of the key for every table asked: the groups pending and the committed ones.
    const hash = this.group || this.writing || (coin && this.committedCoins.groups > 0) ? tableHash(key) : 0;
    if (this.group || this.writing) {
      // A deletion (null) in the newer group hides whatever the older one holds.
      let pending = this.group?.lookup(key, hash);
      if (pending === undefined) pending = this.writing?.writes.lookup(key, hash);
      if (pending !== undefined) {
        if (coin) this.committedCoins.reads.pending++;
        return pending ?? undefined;
      }
    }
    // Only coin keys: nullifier checks and the other reads of absent keys pay no extra probe.
    if (coin) {
      const committed = this.committedCoins.lookup(key, hash);
      if (committed !== undefined) {
        this.committedCoins.reads.cached++;
        return committed ?? undefined;
      }
      this.committedCoins.reads.leveldb++;
    }
    try {
      return this.db.getSync(key);
    } catch (e) {
      const damaged = this.damagedRecord(e, key);
      throw damaged === e ? new StoreReadError(key, e) : damaged;
    }
  }

  /** Coin reads since the store opened, by who answered them (group commit only). */
  get coinReads(): Readonly<CoinReadCounts> {
    return this.committedCoins.reads;
  }

  /** The committed groups whose coins are in memory, and the memory their tables hold. */
  get coinCache(): { groups: number; bytes: number; limitBytes: number } {
    const c = this.committedCoins;
    return { groups: c.groups, bytes: c.bytes, limitBytes: c.limitBytes };
  }

  /** A read that failed on a damaged value: logged once per key, thrown with the key named. */
  damagedRecord(e: unknown, key: Uint8Array): unknown {
    if (!recordChecksumCause(e)) return e;
    const hex = Buffer.from(key).toString('hex');
    if (!this.loggedDamage.has(hex) && this.loggedDamage.size < 10_000) {
      this.loggedDamage.add(hex);
      this.log(`damaged record in the chain store: the value of LevelDB key ${hex} fails its checksum; run \`zecrpc verify\``);
    }
    return new RecordChecksumError(hex);
  }

  /** Values read whose checksum did not match, since the store opened. */
  get damagedReads(): number {
    return this.checksums.mismatches;
  }

  isInvalid(hash: Uint8Array): boolean {
    return this.invalidBlocks.size > 0 && this.invalidBlocks.has(hashKey(hash));
  }

  /** Remembers a block marked invalid once its `x` record is written. */
  markedInvalid(hash: Uint8Array): void {
    this.invalidBlocks.add(hashKey(hash));
  }

  /** Forgets a block's invalid mark once the deletion of its `x` record is written. */
  unmarkedInvalid(hash: Uint8Array): void {
    this.invalidBlocks.delete(hashKey(hash));
  }

  /** Every block marked invalid (internal order). */
  invalidHashes(): Uint8Array[] {
    return [...this.invalidBlocks].map((h) => new Uint8Array(Buffer.from(h, 'hex')));
  }

  /** Loads or rebuilds the chain-tips set (chain-tips.ts) if the store had none; call with the writer queue held. */
  async ensureChainTips(): Promise<void> {
    if (this.chainTips.known) return;
    await this.flushGroup();
    await this.chainTips.rebuild(this.db, this.tip, async (ops) => {
      if (!this.notWritable) await this.write(ops, true, 'the chain-tips set');
    });
  }

  /**
   * False when the block cannot have a record: the store holds none, or the block's parent's is
   * at the highest height stored. The parent's record is read anyway to connect the block, and
   * while importing it is the one just added (in the record cache). A block whose parent is
   * unknown (the first header of a checkpoint start) is looked up.
   */
  async mayBeStored(header: BlockHeader): Promise<boolean> {
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
  highestRecordOps(height: number): BatchOp[] {
    if (height <= this.highestRecord) return [];
    return [{ type: 'put', key: keys.highestRecord(), value: encodeHighestRecord(height) }];
  }

  async record(hash: Uint8Array): Promise<IndexRecord | null> {
    const k = hashKey(hash);
    const cached = this.cache.get(k);
    if (cached) return cached;
    const v = this.indexValue(keys.index(hash));
    if (!v) return null;
    const rec = decodeIndexRecord(v);
    this.remember(hash, rec);
    return rec;
  }

  remember(hash: Uint8Array, rec: IndexRecord): void {
    const k = hashKey(hash);
    if (this.cache.size >= INDEX_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(k, rec);
  }

  requireChainTx(hash: Uint8Array): number {
    const v = this.indexValue(keys.chainTx(hash));
    if (!v) throw new Error(`chain store is inconsistent: block ${toHexReversed(hash)} has no nChainTx record`);
    return decodeChainTx(v);
  }

  async requireRecord(hash: Uint8Array): Promise<IndexRecord> {
    const rec = await this.record(hash);
    if (!rec) throw new Error(`chain store is inconsistent: block ${toHexReversed(hash)} has no index record`);
    return rec;
  }

  async requireValue(key: Buffer, what: string): Promise<Buffer> {
    const v = await this.db.get(key);
    if (!v) throw new Error(`chain store is inconsistent: ${what} is missing`);
    return v;
  }

  async isOnBestChain(hash: Uint8Array, height: number): Promise<boolean> {
    if (!this.tip || height > this.tip.height) return false;
    const at = this.indexValue(keys.height(height));
    return !!at && bytesEqual(at, hash);
  }

  /** Up to `count` stored headers from `parentHash` backwards, for header validation. */
  async ancestorHeaders(parentHash: Uint8Array, count: number): Promise<{ height: number; header: Uint8Array }[]> {
    const out: { height: number; header: Uint8Array }[] = [];
    let rec = await this.record(parentHash);
    while (rec && out.length < count) {
      out.push({ height: rec.height, header: rec.header });
      if (rec.height === 0) break;
      rec = await this.record(rec.header.subarray(4, 36));
    }
    return out;
  }

  // ---------------------------------------------------------------- closing

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

  async closeResources(): Promise<void> {
    this.committedCoins.clear();
    await this.data.close().catch(() => undefined);
    if (this.db.status === 'open' || this.db.status === 'opening') await this.db.close();
  }
}
