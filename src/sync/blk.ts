/**
 * Imports zcashd's `blocks/blk?????.dat` files: records of network magic ‖ u32 LE length ‖ block,
 * in download order (children may precede parents), zero-filled past the last record (zcashd
 * pre-allocates), and the newest file possibly cut mid-record while zcashd is writing it.
 *
 * Resumable: a checkpoint (file, offset) is saved after each file and every ~64 MiB, never past a
 * block still waiting for its parent nor into a file's zero tail (zcashd fills it later), so a
 * restart re-reads at most a little, skips stored blocks by hash, and reads what zcashd added.
 * Records are read through a sliding window so memory stays ~16 MiB per file.
 */
import type { Stats } from 'node:fs';
import { open, readdir, realpath, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { MAINNET, REGTEST, TESTNET } from '../chain/network.js';
import type { ChainStore } from '../store/chain.js';
import { MAX_BLOCK_SIZE } from '../store/chain.js';
import { BlockSink, ImportError } from './block-sink.js';
import type { ImportOptions, ImportResult } from './hex.js';
import { ImportProgress } from './progress.js';
import { specialKind, statSource } from './source-files.js';

const WINDOW = 16 * 1024 * 1024;
const CHECKPOINT_EVERY = 64 * 1024 * 1024;
/** Smallest possible block: a header without solution plus a tx count. */
const MIN_BLOCK_SIZE = 141;

interface BlkCheckpoint {
  file: string;
  offset: number;
  /**
   * Set by the versions that stop at a file's zero tail. Older ones saved a checkpoint past it,
   * where zcashd writes later blocks, so a checkpoint without it resumes at its file's start
   * (stored blocks are skipped by hash).
   */
  beforeZeroTail?: true;
}

/** What an import of blk files stored, and where the last file stops if zcashd is still writing it. */
export interface BlkImportResult extends ImportResult {
  /** Where the last file stops mid-record (zcashd still writing it), if it does. */
  truncated: { file: string; offset: number } | null;
}

/** zcashd's blk?????.dat files in a blocks or data directory, in order. */
export async function listBlkFiles(dir: string): Promise<string[]> {
  const st = await statSource(dir);
  // Accept the data dir itself (…/blocks inside it) as well as the blocks dir.
  if (st.isDirectory()) {
    const names = await readdir(dir);
    if (!names.some((n) => /^blk\d{5}\.dat$/.test(n)) && names.includes('blocks')) return listBlkFiles(join(dir, 'blocks'));
    const blk = names.filter((n) => /^blk\d{5}\.dat$/.test(n)).sort();
    if (blk.length === 0) throw new ImportError(`${dir}: no blk?????.dat files`);
    const files = blk.map((n) => join(dir, n));
    for (const f of files) await regularBlkFile(f);
    return files;
  }
  await regularBlkFile(dir, st);
  return [dir];
}

/** blk files are read by position and size: a pipe or device (`/dev/zero`) is refused, not read as empty or forever. */
async function regularBlkFile(path: string, st?: Stats): Promise<void> {
  const s = st ?? (await statSource(path));
  if (!s.isFile()) throw new ImportError(`${path}: ${specialKind(s)}, not a blk file (blk files are read by position)`);
}

const magicName = (m: Buffer): string | null => {
  for (const n of [MAINNET, TESTNET, REGTEST]) if (m.equals(Buffer.from(n.magic))) return n.name;
  return null;
};

/** Blocks whose solutions are handed to the solution threads ahead of the one being added. */
const READ_AHEAD_BLOCKS = 256;

/**
 * Whether `[from, size)` of the file is all zero bytes, read a window at a time (a pre-allocated
 * tail is up to 16 MiB, but a damaged or sparse file can hold gigabytes of zeros).
 */
async function zerosToEnd(handle: FileHandle, from: number, size: number): Promise<boolean> {
  const chunk = Buffer.allocUnsafe(Math.min(WINDOW, Math.max(0, size - from)));
  for (let at = from; at < size;) {
    const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, size - at), at);
    if (bytesRead === 0) return true; // the file shrank under us: nothing more to read now
    for (let i = 0; i < bytesRead; i++) if (chunk[i] !== 0) return false;
    at += bytesRead;
  }
  return true;
}

/** Imports zcashd's blk?????.dat files from its blocks directory (or data directory) into the store. */
export async function importBlkFiles(store: ChainStore, dir: string, opts: ImportOptions = {}): Promise<BlkImportResult> {
  const started = Date.now();
  const files = await listBlkFiles(dir);
  // Keyed by the real blocks directory, however it was named (data dir, blocks dir, symlink).
  const source = `blk:${await realpath(dirname(files[0]!))}`;
  const resume = await store.getImportCheckpoint<BlkCheckpoint>(source);
  let startIndex = 0;
  let startOffset = 0;
  if (resume) {
    const i = files.findIndex((f) => basename(f) === resume.file);
    if (i >= 0) {
      startIndex = i;
      startOffset = resume.beforeZeroTail ? resume.offset : 0;
    }
  }
  const sizes = await Promise.all(files.map(async (f) => (await stat(f)).size));
  const total = sizes.slice(startIndex).reduce((a, b) => a + b, 0) - startOffset;
  const progress = new ImportProgress({ label: 'import blk', unit: 'bytes', total, mode: opts.progress, logger: opts.logger });
  const sink = new BlockSink(store, { maxBufferedBytes: opts.maxBufferedBytes, solutions: opts.solutions, trees: opts.trees });
  const prefetch = (bytes: Uint8Array): void => {
    if (opts.solutions) opts.solutions.prefetch(bytes);
    else store.prefetch(bytes);
    opts.trees?.prefetch(bytes);
  };
  const magic = Buffer.from(store.network.magic);
  let truncated: BlkImportResult['truncated'] = null;
  const checkpoint = async (fileIndex: number, offset: number): Promise<void> => {
    // Never move past a block that is only in memory: it would be lost on a crash.
    let file = fileIndex;
    let off = offset;
    for (let i = 0; i <= fileIndex; i++) {
      const earliest = sink.earliestBuffered(files[i]!);
      if (earliest !== null) {
        file = i;
        off = earliest;
        break;
      }
    }
    const saved: BlkCheckpoint = { file: basename(files[file]!), offset: off, beforeZeroTail: true };
    await store.putImportCheckpoint(source, saved);
  };

  try {
    for (let fi = startIndex; fi < files.length && !opts.signal?.aborted; fi++) {
      const file = files[fi]!;
      const isLast = fi === files.length - 1;
      const handle = await open(file, 'r');
      try {
        const size = (await handle.stat()).size;
        let offset = fi === startIndex ? startOffset : 0;
        let window = Buffer.alloc(0);
        let windowStart = offset;
        let sinceCheckpoint = 0;
        const ensure = async (from: number, length: number): Promise<Buffer | null> => {
          if (from + length > size) return null;
          if (from < windowStart || from + length > windowStart + window.length) {
            const want = Math.min(Math.max(length, WINDOW), size - from);
            window = Buffer.allocUnsafe(want);
            const { bytesRead } = await handle.read(window, 0, want, from);
            window = window.subarray(0, bytesRead);
            windowStart = from;
            if (bytesRead < length) return null;
          }
          return window.subarray(from - windowStart, from - windowStart + length);
        };
        // Read-ahead for the solution threads: complete records after the current one, within
        // the window already read, are prefetched, READ_AHEAD_BLOCKS at most.
        // Records are only looked at here; addBlock decodes and checks each block itself.
        let prefetchedTo = offset;
        let ahead = 0;
        const topUpPrefetch = (): void => {
          if (prefetchedTo < offset) {
            prefetchedTo = offset;
            ahead = 0;
          }
          while (ahead < READ_AHEAD_BLOCKS) {
            const at = prefetchedTo - windowStart;
            if (at < 0 || at + 8 > window.length || !window.subarray(at, at + 4).equals(magic)) return;
            const length = window.readUInt32LE(at + 4);
            if (length < MIN_BLOCK_SIZE || length > MAX_BLOCK_SIZE || at + 8 + length > window.length) return;
            prefetch(window.subarray(at + 8, at + 8 + length));
            prefetchedTo += 8 + length;
            ahead++;
          }
        };
        while (offset < size && !opts.signal?.aborted) {
          const head = await ensure(offset, Math.min(8, size - offset));
          topUpPrefetch();
          const frame = head!;
          if (frame.length < 8 || frame.subarray(0, 4).equals(Buffer.alloc(4))) {
            // zcashd's zero pre-allocation after the last record (or a header cut short at the end).
            // The resume point stays where the zeros start: zcashd writes its next blocks there.
            if (await zerosToEnd(handle, offset, size)) {
              progress.advance(size - offset);
              break;
            }
            if (frame.length < 8) {
              if (isLast) {
                truncated = { file, offset };
                break;
              }
              throw new ImportError(`${file} (offset ${offset}): file ends inside a record header`, {
                source: file,
                position: `offset ${offset}`,
                offset,
              });
            }
          }
          const got = frame.subarray(0, 4);
          if (!got.equals(magic)) {
            const other = magicName(got);
            throw new ImportError(
              `${file} (offset ${offset}): bad magic ${got.toString('hex')}, expected ${magic.toString('hex')} for ${store.network.name}` +
                (other ? ` (these are ${other} blk files)` : ''),
              { source: file, position: `offset ${offset}`, offset },
            );
          }
          const length = frame.readUInt32LE(4);
          if (length < MIN_BLOCK_SIZE || length > MAX_BLOCK_SIZE) {
            throw new ImportError(`${file} (offset ${offset}): implausible block length ${length}`, {
              source: file,
              position: `offset ${offset}`,
              offset,
            });
          }
          const body = await ensure(offset + 8, length);
          if (!body) {
            if (isLast) {
              truncated = { file, offset };
              break;
            }
            throw new ImportError(
              `${file} (offset ${offset}): block record of ${length} bytes is cut off at the end of the file (${size} bytes)`,
              {
                source: file,
                position: `offset ${offset}`,
                offset,
              },
            );
          }
          // A record that did not fit the window it was first seen in is prefetched now: the tree
          // thread steps blocks in the order they are added, each on its parent's trees.
          if (prefetchedTo <= offset) {
            prefetch(body);
            prefetchedTo = offset + 8 + length;
            ahead++;
          }
          // Copy: the window buffer is reused, and buffered orphans must keep their bytes.
          await sink.add(new Uint8Array(body), { source: file, position: `offset ${offset}`, offset });
          if (ahead > 0) ahead--;
          offset += 8 + length;
          sinceCheckpoint += 8 + length;
          progress.tick(length, 8 + length);
          if (sinceCheckpoint >= CHECKPOINT_EVERY) {
            sinceCheckpoint = 0;
            await checkpoint(fi, offset);
          }
        }
        await checkpoint(fi, offset);
      } finally {
        await handle.close();
      }
    }
    if (truncated)
      (opts.logger ?? { warn: () => undefined }).warn(
        `${truncated.file} (offset ${truncated.offset}): last record is incomplete (file still being written?); stopped there`,
      );
    if (!opts.signal?.aborted) sink.assertNoneUnresolved();
  } finally {
    progress.stop();
  }
  return { ...sink.stats, tipHeight: (await store.tip())?.height ?? -1, seconds: (Date.now() - started) / 1000, truncated };
}
