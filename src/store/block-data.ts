/**
 * Where raw block bytes live. Two interchangeable backends exist so the choice could be measured
 * (bench/store-import.ts, section "block bytes: flat files vs LevelDB values"):
 *
 * - FlatFileBlockData (the default): bcoin/zcashd-style append-only files `blkNNNNN.dat` of at most
 *   128 MiB, each record framed as network magic ‖ u32 LE length ‖ block, and a (file, offset) pointer
 *   in the LevelDB index record. Against block bytes kept as LevelDB values it imports a little
 *   faster and serves random block reads much faster (small blocks are read in place, see `read`;
 *   bench/store-import.ts).
 *   Block bytes also never pass through LevelDB compaction, whose rewrites of ~300 GB of values
 *   would dominate a mainnet import. Same framing as zcashd's own blk files, so our files can be fed back
 *   to the blk importer.
 * - LevelBlockData: the bytes as a LevelDB value under `b` ‖ hash. Simpler, kept for the measurement
 *   and for tiny stores.
 *
 * Crash safety of the flat files: bytes are appended *before* the LevelDB batch that references them and
 * that batch also records the committed file length (`F`). Bytes past that length are, by construction,
 * unreferenced, and `open()` truncates them; nothing referenced is ever rewritten.
 */
import { readSync, writevSync } from 'node:fs';
import { open, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import { ensureDirSync } from './dirs.js';
import { isNoSpaceError } from './disk-reserve.js';
import { join } from 'node:path';
import type { ClassicLevel } from 'classic-level';
import { bytesEqual } from '../codec/hex.js';
import { decodeFileCursor, encodeFileCursor, keys } from './layout.js';
import { BlockReadError, storedBlockProblem } from './verify.js';
import type { PackedOps } from './packed-ops.js';

/** Largest block read synchronously (see FlatFileBlockData.read). */
const SYNC_READ_MAX_BYTES = 64 * 1024;

/**
 * One write of a LevelDB batch. `fresh` marks a put that creates a key the store cannot hold yet
 * (a new coin, an address-index row of a new output or spend: keyed by a txid, which never repeats
 * while it has unspent outputs, since BIP34's coinbase height holds from Zcash's genesis and any
 * other transaction commits to the outputs it spends); group commit then drops such a key
 * altogether when it is deleted again before the group is written.
 *
 * `packed` carries many rows in one buffer (packed-ops.ts), for indexers that write thousands.
 */
export type BatchOp =
  | { type: 'put'; key: Buffer; value: Buffer | Uint8Array; fresh?: true }
  | { type: 'del'; key: Buffer }
  | { type: 'packed'; rows: PackedOps };

/** A put or a deletion: what `expandOps` turns every operation into. */
export type PlainOp = Exclude<BatchOp, { type: 'packed' }>;

/** The operations with packed rows taken apart (views into their buffer), in order. */
export function expandOps(ops: Iterable<BatchOp>): PlainOp[] {
  const out: PlainOp[] = [];
  for (const op of ops) {
    if (op.type !== 'packed') out.push(op);
    else {
      op.rows.forEach((b, put, fresh, keyAt, keyLength, valueLength) => {
        const key = b.subarray(keyAt, keyAt + keyLength);
        if (!put) out.push({ type: 'del', key });
        else {
          const value = b.subarray(keyAt + keyLength, keyAt + keyLength + valueLength);
          out.push(fresh ? { type: 'put', key, value, fresh: true } : { type: 'put', key, value });
        }
      });
    }
  }
  return out;
}

export interface BlockLocation {
  file: number;
  offset: number;
}

/** One block's bytes, written but not yet referenced: commit after the batch succeeds, else abort. */
export interface PreparedBlockData {
  location: BlockLocation;
  ops: PlainOp[];
  /** Make bytes durable before the index batch (only meaningful with `durable`). */
  flush(): Promise<void>;
  commit(): void;
  abort(): void;
}

export interface BlockDataBackend {
  readonly kind: 'flat' | 'leveldb';
  /** `readOnly`: for a store opened on a full disk, which reads and never writes. */
  open(opts?: { readOnly?: boolean }): Promise<void>;
  prepare(hash: Uint8Array, bytes: Uint8Array): Promise<PreparedBlockData>;
  read(hash: Uint8Array, location: BlockLocation, size: number): Promise<Uint8Array>;
  /** Bytes of block data kept outside the index database (kept current, no disk access). */
  bytesOutsideIndex(): number;
  close(): Promise<void>;
}

/** zcashd's MAX_BLOCKFILE_SIZE. */
export const MAX_BLOCK_FILE_SIZE = 128 * 1024 * 1024;
const MAX_OPEN_READ_HANDLES = 32;

export function blockFileName(n: number): string {
  return `blk${String(n).padStart(5, '0')}.dat`;
}

/** writev until every byte is written (a single call may write less). */
function writeAll(fd: number, parts: Uint8Array[], position: number): void {
  let pos = position;
  let pending = parts.filter((p) => p.length > 0);
  while (pending.length) {
    let n = writevSync(fd, pending, pos);
    pos += n;
    const rest: Uint8Array[] = [];
    for (const p of pending) {
      if (n >= p.length) n -= p.length;
      else {
        rest.push(p.subarray(n));
        n = 0;
      }
    }
    pending = rest;
  }
}

export class FlatFileBlockData implements BlockDataBackend {
  readonly kind = 'flat' as const;
  private cursor = { file: 0, length: 0 };
  /** Total length of the files before the cursor's file (they are never written again). */
  private closedFilesBytes = 0;
  private writer: FileHandle | null = null;
  private readonly readers = new Map<number, Promise<FileHandle>>();
  private pending = false;

  constructor(
    private readonly dir: string,
    private readonly magic: Uint8Array,
    private readonly db: ClassicLevel<Buffer, Buffer>,
    private readonly durable: boolean,
  ) {}

  async open({ readOnly = false }: { readOnly?: boolean } = {}): Promise<void> {
    const stored = await this.db.get(keys.fileCursor());
    if (stored) this.cursor = decodeFileCursor(stored);
    for (let n = 0; n < this.cursor.file; n++) this.closedFilesBytes += await this.fileSize(n);
    // Unreferenced bytes are left for the next writable open to cut; reads never reach them.
    if (readOnly) return;
    ensureDirSync(this.dir);
    // Files after the committed one, and bytes past the committed length, were never referenced.
    for (const name of await readdir(this.dir)) {
      const m = /^blk(\d{5})\.dat$/.exec(name);
      if (m && Number(m[1]) > this.cursor.file) await rm(join(this.dir, name), { force: true });
    }
    const path = join(this.dir, blockFileName(this.cursor.file));
    await (await open(path, 'a')).close(); // create if missing, without touching existing bytes
    const writer = await open(path, 'r+');
    this.writer = writer;
    const { size } = await writer.stat();
    if (size > this.cursor.length) await writer.truncate(this.cursor.length);
    if (size < this.cursor.length) {
      throw new Error(
        `block file ${blockFileName(this.cursor.file)} is ${size} bytes but the index references ${this.cursor.length}; ` +
          'the store was damaged outside zecrpc (restore it or re-import)',
      );
    }
  }

  private async fileSize(n: number): Promise<number> {
    return (await stat(join(this.dir, blockFileName(n))).catch(() => ({ size: 0 }))).size;
  }

  async prepare(_hash: Uint8Array, bytes: Uint8Array): Promise<PreparedBlockData> {
    if (!this.writer) throw new Error('block files are not open for writing');
    if (this.pending) throw new Error('internal error: overlapping block writes');
    const recordSize = 8 + bytes.length;
    let { file, length } = this.cursor;
    if (length > 0 && length + recordSize > MAX_BLOCK_FILE_SIZE) {
      await this.writer.close();
      this.closedFilesBytes += length;
      file += 1;
      length = 0;
      this.writer = await open(join(this.dir, blockFileName(file)), 'w+');
      this.cursor = { file, length: 0 };
    }
    const frame = Buffer.allocUnsafe(8);
    frame.set(this.magic, 0);
    frame.writeUInt32LE(bytes.length, 4);
    const writer = this.writer;
    // A synchronous write into the page cache: measured faster than a thread-pool round trip for
    // the typical 2–30 kB block, and at most ~2 MB blocks the event loop only briefly.
    try {
      writeAll(writer.fd, [frame, bytes], length);
    } catch (e) {
      // A full disk (ENOSPC) or an I/O error: say which file, so the operator knows where.
      const full = isNoSpaceError(e) ? 'Disk space is low! ' : '';
      throw new Error(`${full}cannot write block ${blockFileName(file)} at offset ${length} in ${this.dir}: ${(e as Error).message}`, {
        cause: e,
      });
    }
    this.pending = true;
    const next = { file, length: length + recordSize };
    return {
      location: { file, offset: length + 8 },
      ops: [{ type: 'put', key: keys.fileCursor(), value: encodeFileCursor(next.file, next.length) }],
      flush: async () => {
        if (this.durable) await writer.datasync();
      },
      commit: () => {
        this.cursor = next;
        this.pending = false;
      },
      // The bytes stay in the file but past the committed length; the next write overwrites them.
      abort: () => {
        this.pending = false;
      },
    };
  }

  /**
   * Reads one block with its file frame and verifies it before returning (verify.ts): the frame's
   * magic and length must match, and the header must hash to `hash`. Anything else throws a
   * BlockReadError naming the file and offset.
   */
  async read(hash: Uint8Array, loc: BlockLocation, size: number): Promise<Uint8Array> {
    const path = join(this.dir, blockFileName(loc.file));
    const fail = (reason: string): never => {
      throw new BlockReadError(`${path} offset ${loc.offset}`, reason);
    };
    if (loc.offset < 8) fail('the index points inside the file header');
    const handle = await this.reader(loc.file).catch((e: Error) => fail(e.message));
    const framed = Buffer.allocUnsafe(size + 8);
    // Small blocks (most of the chain) are read in place: from the page cache that takes far less
    // than a thread-pool round trip, which dominated uncached getblock. Large blocks go through the pool so a cold read never stalls the event loop long.
    const start = loc.offset - 8;
    const bytesRead =
      size <= SYNC_READ_MAX_BYTES
        ? readSync(handle.fd, framed, 0, size + 8, start)
        : (await handle.read(framed, 0, size + 8, start)).bytesRead;
    if (bytesRead !== size + 8)
      fail(`${blockFileName(loc.file)} ends before offset ${loc.offset + size} (read ${Math.max(0, bytesRead - 8)} of ${size} bytes)`);
    if (!bytesEqual(framed.subarray(0, 4), this.magic)) fail('the record frame does not start with the network magic');
    const framedSize = framed.readUInt32LE(4);
    if (framedSize !== size) fail(`the record frame says ${framedSize} bytes, the index ${size}`);
    const bytes = framed.subarray(8);
    const problem = storedBlockProblem(hash, bytes, size);
    if (problem) fail(problem);
    return bytes;
  }

  bytesOutsideIndex(): number {
    return this.closedFilesBytes + this.cursor.length;
  }

  private reader(file: number): Promise<FileHandle> {
    let h = this.readers.get(file);
    if (!h) {
      if (this.readers.size >= MAX_OPEN_READ_HANDLES) {
        const [oldest, handle] = this.readers.entries().next().value as [number, Promise<FileHandle>];
        this.readers.delete(oldest);
        void handle.then((x) => x.close()).catch(() => undefined);
      }
      h = open(join(this.dir, blockFileName(file)), 'r');
      h.catch(() => this.readers.delete(file));
      this.readers.set(file, h);
    }
    return h;
  }

  async close(): Promise<void> {
    for (const h of this.readers.values()) await h.then((x) => x.close()).catch(() => undefined);
    this.readers.clear();
    await this.writer?.close();
    this.writer = null;
  }
}

export class LevelBlockData implements BlockDataBackend {
  readonly kind = 'leveldb' as const;
  constructor(private readonly db: ClassicLevel<Buffer, Buffer>) {}
  async open(): Promise<void> {}
  async prepare(hash: Uint8Array, bytes: Uint8Array): Promise<PreparedBlockData> {
    return {
      location: { file: 0, offset: 0 },
      ops: [{ type: 'put', key: keys.blockData(hash), value: bytes }],
      flush: async () => undefined,
      commit: () => undefined,
      abort: () => undefined,
    };
  }
  async read(hash: Uint8Array, _loc: BlockLocation, size: number): Promise<Uint8Array> {
    const v = await this.db.get(keys.blockData(hash));
    const where = `LevelDB value b${Buffer.from(hash).toString('hex')}`;
    if (!v) throw new BlockReadError(where, 'block bytes missing from the index database');
    const problem = storedBlockProblem(hash, v, size);
    if (problem) throw new BlockReadError(where, problem);
    return v;
  }
  bytesOutsideIndex(): number {
    return 0;
  }
  async close(): Promise<void> {}
}
