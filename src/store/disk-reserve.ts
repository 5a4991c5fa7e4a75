/**
 * Space the chain store sets aside so that a full disk never stops it from serving what it holds.
 *
 * LevelDB writes at every open, even when only reads follow: it replays its write-ahead log into
 * new table files, starts a new log and writes a new MANIFEST. On a full file system that fails
 * with ENOSPC, and a store that cannot open cannot answer a single getblock. So a store opened
 * with space to spare keeps a reserve file of real, allocated blocks next to its index; when an
 * open fails for lack of space the reserve is deleted, the open retried, and the store runs
 * read-only until a later open finds the space to set the reserve aside again.
 *
 * Like zcashd, which stops with "Disk space is low!" below 50 MiB free (nMinDiskSpace), a store
 * with a space policy also refuses each write while less than that is free beyond its reserve,
 * before LevelDB meets the full disk: nothing is written, and writing resumes once space is freed.
 */
import { closeSync, fstatSync, fsyncSync, openSync, statfsSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { randomFillSync } from 'node:crypto';
import { join } from 'node:path';
import type { ClassicLevel } from 'classic-level';
import { DiskSpaceLowError, StoreNotWritableError, StoreOpenError } from './errors.js';

/**
 * What one open can need, on a mainnet-sized store:
 * - replaying the log into tables: the log holds at most LevelDB's write buffer (16 MiB,
 *   chain-db.ts WRITE_BUFFER_BYTES) plus the one batch that overflowed it, and the store's largest
 *   batch is a group commit's 32 MiB (DEFAULT_GROUP_COMMIT.maxBytes), so ≤ 48 MiB of tables
 *   (tables, prefix-compressed, are no larger than the log records they come from);
 * - the new MANIFEST: one entry (number, size, first and last key, ≈ 160 bytes) per 2 MiB table,
 *   ≈ 5 MiB for an index of a few tens of GB;
 * - the new log, empty until the first write.
 * 53 MiB, rounded up to 64 MiB.
 */
export const DISK_RESERVE_BYTES = 64 * 1024 * 1024;

/** zcashd's nMinDiskSpace: the free space below which it writes nothing more. */
export const MIN_FREE_BYTES = 50 * 1024 * 1024;

/** How much disk the store keeps free (writes are refused below it) and in reserve (so it opens read-only on a full disk). */
export interface DiskSpacePolicy {
  /** Kept in a reserve file so that the store still opens, read-only, on a full disk. */
  reserveBytes: number;
  /** Writes are refused while less than this is free on the store's file system. */
  minFreeBytes: number;
}

/** What `zecrpc serve` and `zecrpc import` keep. */
export const DISK_SPACE_POLICY: DiskSpacePolicy = { reserveBytes: DISK_RESERVE_BYTES, minFreeBytes: MIN_FREE_BYTES };

/** The reserve's name in the store directory (`<datadir>/zecrpc/`). */
export const DISK_RESERVE_FILE = 'disk-space.reserve';

const CHUNK_BYTES = 1024 * 1024;

const NO_SPACE_TEXT = /No space left on device|Disk quota exceeded/;

/** ENOSPC or EDQUOT, from Node's fs (`code`) or from LevelDB (strerror text, often in `cause`). */
export function isNoSpaceError(e: unknown): boolean {
  for (let cur = e, depth = 0; cur instanceof Object && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    const { code, message } = cur as { code?: unknown; message?: unknown };
    if (code === 'ENOSPC' || code === 'EDQUOT') return true;
    if (typeof message === 'string' && NO_SPACE_TEXT.test(message)) return true;
  }
  return false;
}

/** LevelDB's own words for a failure (the cause of classic-level's "Database failed to open"). */
export function levelMessage(e: unknown): string {
  return (e as { cause?: Error }).cause?.message ?? (e as Error).message;
}

/** Whole mebibytes, for messages. */
export const mib = (bytes: number): string => `${Math.floor(bytes / (1024 * 1024))} MiB`;

/** Bytes an unprivileged writer can still use on the file system holding `path`. */
export function freeBytes(path: string): number {
  const s = statfsSync(path);
  return s.bavail * s.bsize;
}

/** Null while `minFreeBytes` is free on the file system of `storeDir`, else the refusal to throw. */
export function lowSpaceError(storeDir: string, minFreeBytes: number): DiskSpaceLowError | null {
  if (minFreeBytes === 0) return null;
  const free = freeBytes(storeDir);
  if (free >= minFreeBytes) return null;
  return new DiskSpaceLowError(
    `Disk space is low! ${mib(free)} free on the file system of the chain store at ${storeDir}, which writes only with ` +
      `at least ${mib(minFreeBytes)} free (as zcashd): nothing is stored until space is freed`,
  );
}

export class DiskReserve {
  readonly path: string;

  constructor(
    storeDir: string,
    /** The size kept aside; 0 keeps none (and still releases a reserve an earlier open left). */
    readonly bytes: number,
  ) {
    this.path = join(storeDir, DISK_RESERVE_FILE);
  }

  /** Allocated bytes the reserve holds now: a sparse stretch reserves nothing, so it does not count. */
  held(): number {
    try {
      const st = statSync(this.path);
      return Math.min(st.size, st.blocks * 512);
    } catch {
      return 0;
    }
  }

  /** Deletes the reserve; returns the bytes it held. */
  release(): number {
    const held = this.held();
    try {
      unlinkSync(this.path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    return held;
  }

  /**
   * Grows the reserve to `bytes` by writing data (not zeros, which a compressing file system
   * would store as nothing). On ENOSPC what was written stays: part of a reserve still helps the
   * next open. Returns null when the reserve is whole, else the error that stopped it.
   */
  restore(): Error | null {
    if (this.bytes === 0 || this.held() >= this.bytes) return null;
    // Holes (a copy, a truncation) would stay in an appended file: a sparse one starts over.
    const sparse = this.held() < (statSync(this.path, { throwIfNoEntry: false })?.size ?? 0);
    let fd: number | null = null;
    try {
      fd = openSync(this.path, sparse ? 'w' : 'a');
      const chunk = randomFillSync(Buffer.allocUnsafe(CHUNK_BYTES));
      for (let size = fstatSync(fd).size; size < this.bytes;) {
        size += writeSync(fd, chunk, 0, Math.min(CHUNK_BYTES, this.bytes - size));
      }
      fsyncSync(fd);
      return null;
    } catch (e) {
      if (!isNoSpaceError(e)) throw e;
      return e as Error;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }
}

function readOnlyError(storeDir: string, detail: string): StoreNotWritableError {
  return new StoreNotWritableError(
    `Disk space is low! The chain store at ${storeDir} is open read-only: ${detail}. ` +
      'It serves the blocks it holds but stores none (no import, no -upstream following, no schema upgrade) ' +
      'until space is freed on that file system and zecrpc is started again.',
  );
}

/**
 * Opens the index database. On a full disk the reserve is released and the open retried; the
 * result then says why the store is read-only. With the database open, the reserve is set aside
 * again: only a store that holds all of it is writable, so the next full disk finds it there.
 */
export async function openWithReserve(
  db: ClassicLevel<Buffer, Buffer>,
  storeDir: string,
  reserve: DiskReserve,
): Promise<StoreNotWritableError | null> {
  try {
    await db.open();
  } catch (e) {
    if (!isNoSpaceError(e)) throw new StoreOpenError(`cannot open the chain store at ${storeDir}: ${levelMessage(e)}`);
    const released = reserve.release();
    if (released === 0) {
      throw new StoreOpenError(
        `Disk space is low! Cannot open the chain store at ${storeDir}: LevelDB writes when it opens (${levelMessage(e)}) ` +
          `and no space was set aside in ${reserve.path}. Free space on that file system and start again.`,
      );
    }
    try {
      await db.open();
    } catch (again) {
      throw new StoreOpenError(
        `Disk space is low! Cannot open the chain store at ${storeDir}, even read-only: ${levelMessage(again)} ` +
          `after the ${mib(released)} set aside in ${reserve.path} was released. Free space on that file system and start again.`,
      );
    }
    return readOnlyError(
      storeDir,
      `LevelDB could open it only with the ${mib(released)} set aside for that in ${reserve.path} (${levelMessage(e)})`,
    );
  }
  let failure: Error | null;
  try {
    failure = reserve.restore();
  } catch (e) {
    await db.close();
    throw e;
  }
  if (!failure) return null;
  return readOnlyError(
    storeDir,
    `its file system has room for only ${mib(reserve.held())} of the ${mib(reserve.bytes)} it keeps in ${reserve.path} ` +
      `so that it can open on a full disk (${failure.message})`,
  );
}
