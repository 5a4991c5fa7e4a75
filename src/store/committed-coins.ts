/**
 * The coins of the last groups an import wrote (group commit, chain-db.ts), kept in memory so a
 * spend of a recent coin is answered without a LevelDB read: zcashd's coins cache (`-dbcache`),
 * for the reads `applyBlock` makes of the coins view `c` ‖ txid ‖ n. Most coins are spent soon
 * after they are created, and a LevelDB point read costs more as the store grows.
 *
 * Each written group's table (pending-writes.ts: bytes in one arena, no object per row) is kept
 * as it is, newest first, and asked only about coin keys. Copying out just its coin rows would
 * hold less memory, but costs about 0.3–0.7 µs a row on the main thread for every row of every
 * group, most of which are never read again (bench/results/import-floors.md). A table says what
 * LevelDB holds for its keys once its group was written: the coin, or its deletion (a spend; a
 * coin the group created and spent reads as spent, and LevelDB never had it), which hides an
 * older table's row. A key no table holds is read from LevelDB. The tables therefore hold only
 * what LevelDB holds: the owner drops them all before any other write of coins (`clear`), and
 * keeps only groups whose write succeeded. Tables are evicted oldest first, which leaves every
 * answer right: what an evicted table said is what LevelDB says.
 */
import type { BatchOp } from './block-data.js';
import { hashKey, type PendingWrites } from './pending-writes.js';

/** Coin reads since the store opened, by who answered them (the import bench reports the share). */
export interface CoinReadCounts {
  /** Answered by the group being filled or the one being written. */
  pending: number;
  /** Answered by the committed groups kept here. */
  cached: number;
  /** Read from LevelDB. */
  leveldb: number;
}

export class CommittedCoins {
  /** Newest first. */
  private tables: PendingWrites[] = [];
  private held = 0;
  readonly reads: CoinReadCounts = { pending: 0, cached: 0, leveldb: 0 };

  /**
   * `limitBytes` bounds the tables' memory (their arenas and index arrays); 0 keeps none.
   * `coinPrefix`: the first byte of a coin's key (chainStateKeys.coinPrefix).
   */
  constructor(
    readonly limitBytes: number,
    private readonly coinPrefix: number,
  ) {
    // NaN would compare false both ways: groups kept, none ever evicted.
    if (!(limitBytes >= 0) || !Number.isFinite(limitBytes)) {
      throw new RangeError(`coinCacheBytes must be a finite number of bytes, 0 or more (0: no coins cache), not ${limitBytes}`);
    }
  }

  /** Whether `key` is a coin's: the only keys the cache is asked about. */
  isCoinKey(key: Uint8Array): boolean {
    return key[0] === this.coinPrefix;
  }

  /**
   * Whether a batch written outside the groups may change a coin: one of its keys is a coin's,
   * or it carries packed rows (the address index's), which are not looked into.
   */
  touchedBy(ops: readonly BatchOp[]): boolean {
    return ops.some((op) => op.type === 'packed' || op.key[0] === this.coinPrefix);
  }

  /** Memory the tables hold now. */
  get bytes(): number {
    return this.held;
  }

  /** Groups whose coins are held. */
  get groups(): number {
    return this.tables.length;
  }

  /** Keeps `group`, which LevelDB has just written; evicts the oldest past the bound. */
  retain(group: PendingWrites): void {
    if (this.limitBytes <= 0) return;
    this.tables.unshift(group);
    this.held += group.memoryBytes;
    // A table larger than the bound alone is evicted with all the others: then none answers.
    while (this.held > this.limitBytes) this.held -= this.tables.pop()!.memoryBytes;
  }

  /**
   * The committed value of a coin key: a Buffer, null when spent (or never stored), undefined when
   * no table holds it. `hash` is `hashKey(key)`, for a caller that asked other tables first.
   */
  lookup(key: Uint8Array, hash?: number): Buffer | null | undefined {
    if (this.tables.length === 0) return undefined;
    hash ??= hashKey(key);
    for (const table of this.tables) {
      const v = table.lookup(key, hash);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /** Forgets every table: before a write that does not go through the groups, or after a failed one. */
  clear(): void {
    this.tables = [];
    this.held = 0;
  }
}
