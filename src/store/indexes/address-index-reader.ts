/**
 * Reads of the insight explorer indexes (address-index.ts), cursor for cursor as zcashd's
 * CBlockTreeDB reads them (src/txdb.cpp ReadAddressIndex, ReadAddressUnspentIndex,
 * ReadSpentIndex, ReadTimestampIndex), so results come out in zcashd's order.
 */
import type { ClassicLevel } from 'classic-level';
import { keys } from '../layout.js';
import { decodeSpent, decodeUnspentValue, readAmount, type SpentInfo } from './address-index.js';

/** CAddressIndexKey with its value. */
export interface AddressDelta {
  type: number;
  hash: Uint8Array;
  height: number;
  txIndex: number;
  txid: Uint8Array;
  index: number;
  spending: boolean;
  value: number;
}

/** CAddressUnspentKey with its value. */
export interface AddressUnspent {
  type: number;
  hash: Uint8Array;
  txid: Uint8Array;
  index: number;
  value: number;
  height: number;
  script: Uint8Array;
}

export interface TimestampEntry {
  hash: Uint8Array;
  logicalTime: number;
}

/**
 * Bytes an index range read hands over per native call. classic-level stops a batch at 16 KiB by
 * default (≈ 240 address-delta keys), and each batch costs a thread-pool round trip plus its
 * own setup, so larger batches read an address's entries sooner (bench/address-index.ts). A range is read whole for one reply anyway,
 * so holding a batch of it in memory costs nothing extra.
 */
const RANGE_BATCH_BYTES = 1 << 20;

/** The exclusive upper bound of every key starting with `prefix`. */
function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]!++;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff]);
}

/** Where a delta's transaction is: its block height, its position in the block, its txid. */
export interface DeltaTransaction {
  height: number;
  txIndex: number;
  txid: Uint8Array;
}

/**
 * ReadAddressIndex's range: from `start` when both bounds are positive (else from the first
 * entry), up to height `end` when it is positive.
 */
function deltaRange(type: number, hash: Uint8Array, start: number, end: number): { gte: Buffer; lt: Buffer; highWaterMarkBytes: number } {
  const gte = start > 0 && end > 0 ? keys.addressDeltaPrefix(type, hash, start) : keys.addressDeltaPrefix(type, hash);
  const lt = end > 0 && end < 0xffffffff ? keys.addressDeltaPrefix(type, hash, end + 1) : prefixEnd(keys.addressDeltaPrefix(type, hash));
  return { gte, lt, highWaterMarkBytes: RANGE_BATCH_BYTES };
}

/** ReadAddressUnspentIndex's range: every unspent output of the address. */
function unspentRange(type: number, hash: Uint8Array): { gte: Buffer; lt: Buffer } {
  const gte = keys.addressUnspentPrefix(type, hash);
  return { gte, lt: prefixEnd(gte) };
}

/**
 * LevelDB's `limit` for a read of at most `limit` entries (none when undefined). classic-level
 * reads it as a 32-bit integer: a larger one would wrap (2^32 + 1 reads one entry, silently), so
 * it is held at 2^31 − 1, more entries than a process could hold anyway.
 */
const limitOption = (limit: number | undefined): { limit?: number } => (limit === undefined ? {} : { limit: Math.min(limit, 0x7fffffff) });

/**
 * Entries a batch read hands over at most. A method that writes its reply as it reads holds one
 * batch of parsed entries at a time, whatever the range's length.
 */
export const BATCH_ENTRIES = 1000;

/** What `batches` reads from: a classic-level iterator over keys or over entries. */
interface BatchSource<R> {
  nextv(size: number): Promise<R[]>;
  close(): Promise<void>;
}

/**
 * A range, `BATCH_ENTRIES` raw rows a native call (iterating entry by entry costs a thread-pool
 * round trip an entry), each batch parsed by `parse`. The iterator is opened when the first batch is asked for
 * and closed however the caller stops.
 */
async function* batches<R, T>(open: () => BatchSource<R>, parse: (row: R) => T): AsyncGenerator<T[]> {
  const source = open();
  try {
    for (;;) {
      const rows = await source.nextv(BATCH_ENTRIES);
      if (rows.length === 0) return;
      yield rows.map(parse);
    }
  } finally {
    await source.close();
  }
}

/** Every batch of `source`, gathered into one array. */
async function gather<T>(source: AsyncIterable<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const batch of source) for (const entry of batch) out.push(entry);
  return out;
}

/** The address-range reads a method makes, one address after another. */
export interface AddressRanges {
  deltaBatches(type: number, hash: Uint8Array, start: number, end: number, limit?: number): AsyncGenerator<AddressDelta[]>;
  deltaTransactionBatches(type: number, hash: Uint8Array, start: number, end: number, limit?: number): AsyncGenerator<DeltaTransaction[]>;
  unspentBatches(type: number, hash: Uint8Array, limit?: number): AsyncGenerator<AddressUnspent[]>;
}

const parseDelta =
  (type: number, hash: Uint8Array) =>
  ([k, v]: [Buffer, Buffer]): AddressDelta => ({
    type,
    hash,
    height: k.readUInt32BE(22),
    txIndex: k.readUInt32BE(26),
    txid: k.subarray(30, 62),
    index: k.readUInt32LE(62),
    spending: k[66] === 1,
    value: readAmount(v, 0),
  });

const parseDeltaTransaction = (k: Buffer): DeltaTransaction => ({
  height: k.readUInt32BE(22),
  txIndex: k.readUInt32BE(26),
  txid: k.subarray(30, 62),
});

const parseUnspent =
  (type: number, hash: Uint8Array) =>
  ([k, v]: [Buffer, Buffer]): AddressUnspent => {
    const u = decodeUnspentValue(v, type, hash);
    return { type, hash, txid: k.subarray(22, 54), index: k.readUInt32LE(54), value: u.value, height: u.height, script: u.script };
  };

/** Every key of one table: the byte all its keys start with, and the next. */
function tableSpace(prefix: Buffer): { gte: Buffer; lt: Buffer } {
  return { gte: Buffer.of(prefix[0]!), lt: Buffer.of(prefix[0]! + 1) };
}
const DELTA_SPACE = tableSpace(keys.addressDeltaPrefix(0, new Uint8Array(20)));
const UNSPENT_SPACE = tableSpace(keys.addressUnspentPrefix(0, new Uint8Array(20)));

/** A request listing at most this many addresses reads each through its own bounded iterator. */
export const PER_ADDRESS_ITERATORS_UP_TO = 16;

/** Rows the first read after a seek asks for, then sixteen times more each read, up to BATCH_ENTRIES. */
const FIRST_SEEK_READ = 1;

/**
 * The address ranges of one request, read through one iterator per table, seeking from address
 * to address. An iterator per address cost a LevelDB iterator and snapshot each: eight requests
 * of 200,000 addresses at once (getaddressbalance, in one process) took 7.9 GB at their peak,
 * 6 GB of it native and still held after, and 35 s; through a cursor, 1.09 GB, 0.21 GB and 26 s
 * (and every address is read from one snapshot).
 * A read past an address's range goes on into the next address's keys: reads start at one row
 * and grow sixteenfold, so what is read past is at most one row for an address without entries,
 * and at most sixteen times what was read for one with some. Close it when done.
 */
export class AddressCursor implements AddressRanges {
  private deltaEntries: SeekSource<[Buffer, Buffer]> | null = null;
  private deltaKeys: SeekSource<Buffer> | null = null;
  private unspentEntries: SeekSource<[Buffer, Buffer]> | null = null;

  constructor(private readonly db: ClassicLevel<Buffer, Buffer>) {}

  deltaBatches(type: number, hash: Uint8Array, start: number, end: number, limit?: number): AsyncGenerator<AddressDelta[]> {
    this.deltaEntries ??= this.db.iterator({ ...DELTA_SPACE, highWaterMarkBytes: RANGE_BATCH_BYTES });
    return seekBatches(this.deltaEntries, deltaRange(type, hash, start, end), limit, (row) => row[0], parseDelta(type, hash));
  }

  deltaTransactionBatches(type: number, hash: Uint8Array, start: number, end: number, limit?: number): AsyncGenerator<DeltaTransaction[]> {
    this.deltaKeys ??= this.db.keys({ ...DELTA_SPACE, highWaterMarkBytes: RANGE_BATCH_BYTES });
    return seekBatches(this.deltaKeys, deltaRange(type, hash, start, end), limit, (k) => k, parseDeltaTransaction);
  }

  unspentBatches(type: number, hash: Uint8Array, limit?: number): AsyncGenerator<AddressUnspent[]> {
    this.unspentEntries ??= this.db.iterator({ ...UNSPENT_SPACE, highWaterMarkBytes: RANGE_BATCH_BYTES });
    return seekBatches(this.unspentEntries, unspentRange(type, hash), limit, (row) => row[0], parseUnspent(type, hash));
  }

  async close(): Promise<void> {
    const open = [this.deltaEntries, this.deltaKeys, this.unspentEntries];
    this.deltaEntries = this.deltaKeys = this.unspentEntries = null;
    await Promise.all(open.map((it) => it?.close()));
  }
}

/** A classic-level iterator (of entries or of keys) that is moved from range to range. */
interface SeekSource<R> {
  seek(target: Buffer): void;
  nextv(size: number, options: object): Promise<R[]>;
  close(): Promise<void>;
}

/** One range `[gte, lt)` of a shared iterator, at most `limit` rows, in batches parsed by `parse`. */
async function* seekBatches<R, T>(
  it: SeekSource<R>,
  range: { gte: Buffer; lt: Buffer },
  limit: number | undefined,
  keyOf: (row: R) => Buffer,
  parse: (row: R) => T,
): AsyncGenerator<T[]> {
  it.seek(range.gte);
  let left = limit ?? Infinity;
  let size = FIRST_SEEK_READ;
  while (left > 0) {
    const rows = await it.nextv(Math.min(size, left), {});
    if (rows.length === 0) return;
    let inRange = rows.length;
    while (inRange > 0 && keyOf(rows[inRange - 1]!).compare(range.lt) >= 0) inRange--;
    if (inRange > 0) yield (inRange === rows.length ? rows : rows.slice(0, inRange)).map(parse);
    if (inRange < rows.length) return;
    left -= inRange;
    size = Math.min(size * 16, BATCH_ENTRIES);
  }
}

/** Spent-index keys read in one native call by `spentResolved`. */
const SPENT_READ_BATCH = 16_384;
/** Block txid lists `spentResolved` holds at once: 64 of 2 MB blocks' are ≈ 20 MB at most. */
const SPENDER_LISTS_BATCH = 64;

export class AddressIndexReader {
  constructor(private readonly db: ClassicLevel<Buffer, Buffer>) {}

  /** A cursor for one request's address ranges (AddressCursor); the caller closes it. */
  cursor(): AddressCursor {
    return new AddressCursor(this.db);
  }

  /**
   * The range reads of one request listing `addresses` addresses; the caller closes it. Up to
   * PER_ADDRESS_ITERATORS_UP_TO addresses, an iterator bounded to each range, which reads a
   * range of up to BATCH_ENTRIES rows in one native call (with a cursor's growing reads,
   * getaddressutxos of bench/address-index.ts's address, 132 outputs among 2,594 entries, went
   * from 3,879 to 1,832 requests a second, 10 in flight, between two full bench runs); beyond,
   * an AddressCursor, whose iterators do not grow with the list.
   */
  ranges(addresses: number): AddressRanges & { close(): Promise<void> } {
    if (addresses > PER_ADDRESS_ITERATORS_UP_TO) return this.cursor();
    return {
      deltaBatches: this.deltaBatches.bind(this),
      deltaTransactionBatches: this.deltaTransactionBatches.bind(this),
      unspentBatches: this.unspentBatches.bind(this),
      close: async () => undefined,
    };
  }

  /**
   * ReadAddressIndex: from `start` when both bounds are positive (else from the first entry),
   * up to height `end` when it is positive; at most `limit` entries.
   */
  deltaBatches(type: number, hash: Uint8Array, start: number, end: number, limit?: number): AsyncGenerator<AddressDelta[]> {
    const range = { ...deltaRange(type, hash, start, end), ...limitOption(limit) };
    return batches(() => this.db.iterator(range), parseDelta(type, hash));
  }

  /** `deltaBatches`, gathered. */
  deltas(type: number, hash: Uint8Array, start: number, end: number, limit?: number): Promise<AddressDelta[]> {
    return gather(this.deltaBatches(type, hash, start, end, limit));
  }

  /**
   * The transactions of `deltaBatches` (same range), as block positions, without the amounts:
   * reading keys alone hands over one Buffer an entry instead of two (getaddresstxids).
   */
  deltaTransactionBatches(type: number, hash: Uint8Array, start: number, end: number, limit?: number): AsyncGenerator<DeltaTransaction[]> {
    const range = { ...deltaRange(type, hash, start, end), ...limitOption(limit) };
    return batches(() => this.db.keys(range), parseDeltaTransaction);
  }

  /** `deltaTransactionBatches`, gathered. */
  deltaTransactions(type: number, hash: Uint8Array, start: number, end: number, limit?: number): Promise<DeltaTransaction[]> {
    return gather(this.deltaTransactionBatches(type, hash, start, end, limit));
  }

  /** ReadAddressUnspentIndex, at most `limit` entries. */
  unspentBatches(type: number, hash: Uint8Array, limit?: number): AsyncGenerator<AddressUnspent[]> {
    const range = { ...unspentRange(type, hash), highWaterMarkBytes: RANGE_BATCH_BYTES, ...limitOption(limit) };
    return batches(() => this.db.iterator(range), parseUnspent(type, hash));
  }

  /** `unspentBatches`, gathered. */
  unspent(type: number, hash: Uint8Array, limit?: number): Promise<AddressUnspent[]> {
    return gather(this.unspentBatches(type, hash, limit));
  }

  /** ReadSpentIndex: the input that spent an outpoint on the active chain, or null. */
  spent(txid: Uint8Array, index: number): SpentInfo | null {
    const v = this.db.getSync(keys.spent(txid, index));
    return v ? decodeSpent(v) : null;
  }

  /**
   * `spent` of many outpoints, all read from one snapshot so that a reorganization in between
   * cannot pair a spend with another block's txid; SPENT_READ_BATCH keys a native call, off the
   * event loop. Where `spender[i]` is set, entry i's spending txid (`SpentInfo.txid`) is resolved
   * for values that name it by block position (left null where it cannot be): each such block's
   * txid list is read once, SPENDER_LISTS_BATCH lists at a time, and the txid copied out of it.
   */
  async spentResolved(outpoints: readonly { hash: Uint8Array; index: number }[], spender: Uint8Array): Promise<(SpentInfo | null)[]> {
    if (outpoints.length === 0) return [];
    const snapshot = this.db.snapshot();
    try {
      const found: (SpentInfo | null)[] = [];
      for (let from = 0; from < outpoints.length; from += SPENT_READ_BATCH) {
        const slice = outpoints.slice(from, from + SPENT_READ_BATCH);
        const values = await this.db.getMany(
          slice.map((o) => keys.spent(o.hash, o.index)),
          { snapshot },
        );
        for (const v of values) found.push(v ? decodeSpent(v) : null);
      }
      const byHeight = new Map<number, SpentInfo[]>();
      found.forEach((info, i) => {
        if (info === null || info.txid !== null || spender[i] !== 1) return;
        const same = byHeight.get(info.height);
        if (same) same.push(info);
        else byHeight.set(info.height, [info]);
      });
      const heights = [...byHeight.keys()];
      for (let from = 0; from < heights.length; from += SPENDER_LISTS_BATCH) {
        const some = heights.slice(from, from + SPENDER_LISTS_BATCH);
        const hashes = await this.db.getMany(
          some.map((h) => keys.height(h)),
          { snapshot },
        );
        // Heights the active chain no longer reaches (an inconsistent index) have no list to read.
        const reached = some.filter((_, i) => hashes[i] !== undefined);
        const lists = await this.db.getMany(
          hashes.filter((h) => h !== undefined).map((h) => keys.txids(h!)),
          { snapshot },
        );
        reached.forEach((height, i) => {
          const list = lists[i];
          if (!list) return;
          for (const info of byHeight.get(height)!) {
            const at = info.txIndex * 32;
            // Copied, so that the list is not kept alive by the txids taken from it.
            if (at + 32 <= list.length) info.txid = new Uint8Array(list.subarray(at, at + 32));
          }
        });
      }
      return found;
    } finally {
      await snapshot.close();
    }
  }

  /**
   * The txid of the transaction that made a spend: kept in version-4 values, otherwise the entry at
   * `txIndex` of the txid list of the best-chain block at `height` (null if a reorganization has
   * just taken that block away), as a transaction-index lookup resolves its block.
   */
  spendingTxid(info: SpentInfo): Uint8Array | null {
    if (info.txid) return info.txid;
    const hash = this.db.getSync(keys.height(info.height));
    const txids = hash ? this.db.getSync(keys.txids(hash)) : undefined;
    const at = info.txIndex * 32;
    return txids && at + 32 <= txids.length ? txids.subarray(at, at + 32) : null;
  }

  /** ReadTimestampIndex: blocks with low ≤ logical time < high, in (time, hash) order; at most `limit`. */
  async *timestampBatches(high: number, low: number, limit?: number): AsyncGenerator<TimestampEntry[]> {
    if (high <= low) return;
    const upper = high > 0xffffffff ? prefixEnd(Buffer.of(keys.timestamp(0)[0]!)) : keys.timestamp(high);
    const range = { gte: keys.timestamp(low), lt: upper, highWaterMarkBytes: RANGE_BATCH_BYTES, ...limitOption(limit) };
    yield* batches(
      () => this.db.keys(range),
      (k) => ({ logicalTime: k.readUInt32BE(1), hash: k.subarray(5, 37) }),
    );
  }

  /** `timestampBatches`, gathered. */
  timestamps(high: number, low: number, limit?: number): Promise<TimestampEntry[]> {
    return gather(this.timestampBatches(high, low, limit));
  }
}
