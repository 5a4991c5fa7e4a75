/**
 * The checksums LevelDB keeps in its own files, checked file by file for `zecrpc verify`.
 *
 * LevelDB stores a masked CRC-32C after every block of its tables and in front of every record
 * of its logs (the write-ahead log and the MANIFEST), but it only checks them on a read when
 * asked to (`ReadOptions::verify_checksums`), and classic-level never asks: a flipped bit in a
 * table is served as data. The store verifies what it serves where it can (headers hash to their
 * keys, txid lists to their merkle roots, blocks decode), but values such as a block's chain-state
 * amounts or the address index's have nothing to be checked against; this scan covers them at
 * rest. Formats: LevelDB's doc/table_format.md and doc/log_format.md (v1.20, the version
 * classic-level builds).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import snappy from 'snappyjs';
import type { StoreProblem } from './store-problem.js';

/**
 * CRC-32C (Castagnoli), reflected, as LevelDB computes it. A byte-wise table: the few libraries
 * that offer it bring several dependencies of their own, and this only runs in `zecrpc verify`.
 */
const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32c(bytes: Uint8Array, start = 0, end = bytes.length, initial = 0): number {
  let c = ~initial >>> 0;
  for (let i = start; i < end; i++) c = CRC32C_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** LevelDB's masking of stored CRCs (crc32c.h `Mask`). */
export function maskedCrc(crc: number): number {
  return ((((crc >>> 15) | (crc << 17)) >>> 0) + 0xa282ead8) >>> 0;
}

const TABLE_MAGIC = 0xdb4775248b80fb57n;
const FOOTER_BYTES = 48;
const BLOCK_TRAILER_BYTES = 5;
const NO_COMPRESSION = 0;
const SNAPPY_COMPRESSION = 1;
const LOG_BLOCK_BYTES = 32768;
const LOG_HEADER_BYTES = 7;

export interface LevelDbCheck {
  /** Table blocks and log records whose checksum was checked. */
  checked: number;
  /**
   * Files LevelDB itself no longer reads and deletes at its next open (tables a compaction or a
   * crash left half-written, logs and MANIFESTs already folded into newer ones): not checked,
   * since whatever they hold is never served.
   */
  obsolete: string[];
  problems: StoreProblem[];
}

interface Handle {
  offset: number;
  size: number;
}

/** A varint64 (LevelDB's coding.h) that fits in a double; throws past `end`. */
function readVarint(b: Uint8Array, at: { pos: number }, end: number): number {
  let value = 0;
  for (let shift = 0; shift < 64; shift += 7) {
    if (at.pos >= end) throw new Error('truncated varint');
    const byte = b[at.pos++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return value;
  }
  throw new Error('varint longer than 64 bits');
}

function readHandle(b: Uint8Array, at: { pos: number }, end: number): Handle {
  return { offset: readVarint(b, at, end), size: readVarint(b, at, end) };
}

/**
 * Checks the CRC in the trailer of the block at `h`; with `decode`, returns its contents,
 * uncompressed. Throws with what is wrong (the caller reports it with the file and offset).
 */
function checkedBlock(file: Buffer, h: Handle, decode: boolean, checkCrc = true): Buffer | null {
  const end = h.offset + h.size;
  if (end + BLOCK_TRAILER_BYTES > file.length) throw new Error(`block of ${h.size} bytes runs past the end of the file`);
  const type = file[end]!;
  const stored = file.readUInt32LE(end + 1);
  if (checkCrc && maskedCrc(crc32c(file, h.offset, end + 1)) !== stored) throw new Error('checksum mismatch');
  if (!decode) return null;
  const contents = file.subarray(h.offset, end);
  if (type === NO_COMPRESSION) return contents;
  if (type === SNAPPY_COMPRESSION) return snappy.uncompress(contents);
  throw new Error(`unknown compression type ${type}`);
}

/** The values of a block's entries (the handles an index or metaindex block holds). */
function blockValues(block: Buffer): Uint8Array[] {
  if (block.length < 4) throw new Error('block too short for its restart count');
  const restarts = block.readUInt32LE(block.length - 4);
  const entriesEnd = block.length - 4 - 4 * restarts;
  if (entriesEnd < 0) throw new Error('restart array larger than the block');
  const values: Uint8Array[] = [];
  const at = { pos: 0 };
  while (at.pos < entriesEnd) {
    readVarint(block, at, entriesEnd); // bytes shared with the previous key
    const unshared = readVarint(block, at, entriesEnd);
    const valueLength = readVarint(block, at, entriesEnd);
    at.pos += unshared;
    if (at.pos + valueLength > entriesEnd) throw new Error('entry runs past the block');
    values.push(block.subarray(at.pos, at.pos + valueLength));
    at.pos += valueLength;
  }
  return values;
}

/** Every block of one table: footer, index, metaindex, and each block they point to. */
function checkTable(name: string, file: Buffer, report: LevelDbCheck): void {
  const problem = (offset: number, what: string): void => {
    report.problems.push({ where: `LevelDB table ${name} at offset ${offset}`, problem: what });
  };
  if (file.length < FOOTER_BYTES) return problem(0, `${file.length} bytes, shorter than a table footer`);
  const footerAt = file.length - FOOTER_BYTES;
  const footer = file.subarray(footerAt);
  if (footer.readBigUInt64LE(40) !== TABLE_MAGIC) return problem(footerAt, 'footer magic number is wrong');
  let metaindex: Handle;
  let index: Handle;
  try {
    const at = { pos: 0 };
    metaindex = readHandle(footer, at, 40);
    index = readHandle(footer, at, 40);
  } catch (e) {
    return problem(footerAt, `footer does not decode (${(e as Error).message})`);
  }
  const blocks: Handle[] = [];
  for (const [what, top] of [
    ['index block', index],
    ['metaindex block', metaindex],
  ] as const) {
    let contents: Buffer;
    try {
      contents = checkedBlock(file, top, true)!;
      report.checked++;
    } catch (e) {
      problem(top.offset, `${what}: ${(e as Error).message}`);
      // Still look for the blocks it lists: the damage may have spared their handles.
      try {
        contents = checkedBlock(file, top, true, false)!;
      } catch {
        continue;
      }
    }
    try {
      for (const value of blockValues(contents)) blocks.push(readHandle(value, { pos: 0 }, value.length));
    } catch (e) {
      problem(top.offset, `${what} does not decode (${(e as Error).message})`);
    }
  }
  for (const h of blocks) {
    try {
      checkedBlock(file, h, false);
      report.checked++;
    } catch (e) {
      problem(h.offset, `block: ${(e as Error).message}`);
    }
  }
}

/**
 * Every complete record of a log (write-ahead log or MANIFEST). A record cut off at the end of
 * the file is what a crash leaves; LevelDB drops it when it opens, so it is not damage.
 */
function checkLog(name: string, file: Buffer, report: LevelDbCheck): void {
  forEachLogRecord(name, file, report, () => undefined);
}

/** Log record types (log_format.h): a record whole in one block, or its first, middle and last fragments. */
const FULL = 1;
const FIRST = 2;
const LAST = 4;

/**
 * Walks a log's physical records, checking each one's CRC, and hands `onFragment` each sound
 * fragment with its type. A record cut off at the end of the file is what a crash leaves;
 * LevelDB drops it when it opens, so it is not damage.
 */
function forEachLogRecord(name: string, file: Buffer, report: LevelDbCheck, onFragment: (type: number, data: Buffer) => void): void {
  for (let block = 0; block < file.length; block += LOG_BLOCK_BYTES) {
    const blockEnd = Math.min(block + LOG_BLOCK_BYTES, file.length);
    let at = block;
    while (at + LOG_HEADER_BYTES <= blockEnd) {
      const stored = file.readUInt32LE(at);
      const length = file.readUInt16LE(at + 4);
      const type = file[at + 6]!;
      // Zeros: the rest of a block LevelDB preallocated or padded.
      if (stored === 0 && length === 0 && type === 0) break;
      const end = at + LOG_HEADER_BYTES + length;
      if (end > blockEnd) {
        if (blockEnd === file.length) break;
        report.problems.push({
          where: `LevelDB log ${name} at offset ${at}`,
          problem: `record of ${length} bytes runs past its 32 KiB block`,
        });
        break;
      }
      if (maskedCrc(crc32c(file, at + 6, end)) !== stored) {
        report.problems.push({ where: `LevelDB log ${name} at offset ${at}`, problem: 'record checksum mismatch' });
      } else {
        onFragment(type, file.subarray(at + LOG_HEADER_BYTES, end));
      }
      report.checked++;
      at = end;
    }
  }
}

/** VersionEdit tags (version_edit.cc). */
const TAG = { comparator: 1, logNumber: 2, nextFile: 3, lastSequence: 4, compactPointer: 5, deletedFile: 6, newFile: 7, prevLogNumber: 9 };

/** What the current MANIFEST says LevelDB reads: its live tables, and the oldest logs it replays. */
interface LiveFiles {
  manifest: string;
  tables: Set<number>;
  logNumber: number;
  prevLogNumber: number;
}

/** Applies one VersionEdit record to `live`; throws with what does not decode. */
function applyVersionEdit(edit: Buffer, live: LiveFiles): void {
  const at = { pos: 0 };
  const skipSlice = () => {
    const length = readVarint(edit, at, edit.length);
    if (at.pos + length > edit.length) throw new Error('a length runs past the record');
    at.pos += length;
  };
  while (at.pos < edit.length) {
    const tag = readVarint(edit, at, edit.length);
    switch (tag) {
      case TAG.comparator:
        skipSlice();
        break;
      case TAG.logNumber:
        live.logNumber = readVarint(edit, at, edit.length);
        break;
      case TAG.prevLogNumber:
        live.prevLogNumber = readVarint(edit, at, edit.length);
        break;
      case TAG.nextFile:
      case TAG.lastSequence:
        readVarint(edit, at, edit.length);
        break;
      case TAG.compactPointer:
        readVarint(edit, at, edit.length);
        skipSlice();
        break;
      case TAG.deletedFile:
        readVarint(edit, at, edit.length);
        live.tables.delete(readVarint(edit, at, edit.length));
        break;
      case TAG.newFile:
        readVarint(edit, at, edit.length);
        live.tables.add(readVarint(edit, at, edit.length));
        readVarint(edit, at, edit.length); // file size
        skipSlice(); // smallest key
        skipSlice(); // largest key
        break;
      default:
        throw new Error(`unknown VersionEdit tag ${tag}`);
    }
  }
}

/** The MANIFEST CURRENT names, or null (with the problem reported) when LevelDB could not find one. */
function currentManifest(dir: string, report: LevelDbCheck): string | null {
  const currentPath = join(dir, 'CURRENT');
  if (!existsSync(currentPath)) {
    report.problems.push({ where: 'LevelDB CURRENT', problem: 'missing: LevelDB cannot find its MANIFEST' });
    return null;
  }
  const manifest = readFileSync(currentPath, 'latin1').replace(/\n$/, '');
  if (!/^MANIFEST-\d+$/.test(manifest) || !existsSync(join(dir, manifest))) {
    report.problems.push({
      where: 'LevelDB CURRENT',
      problem: `names ${JSON.stringify(manifest)}, which is not a MANIFEST of this directory`,
    });
    return null;
  }
  return manifest;
}

/**
 * Replays the current MANIFEST's edits, checking its records into `report`. Null when a record is
 * damaged or does not decode: it may have been an edit that added or deleted a table, so nothing
 * then tells which files are live.
 */
function liveFiles(dir: string, manifest: string, report: LevelDbCheck): LiveFiles | null {
  const live: LiveFiles = { manifest, tables: new Set(), logNumber: 0, prevLogNumber: 0 };
  let pending: Buffer[] = [];
  const problemsBefore = report.problems.length;
  let broken = false;
  forEachLogRecord(manifest, readFileSync(join(dir, manifest)), report, (type, data) => {
    if (broken) return;
    pending = type === FULL || type === FIRST ? [data] : [...pending, data];
    if (type !== FULL && type !== LAST) return;
    try {
      applyVersionEdit(Buffer.concat(pending), live);
    } catch (e) {
      broken = true;
      report.problems.push({ where: `LevelDB MANIFEST ${manifest}`, problem: `a record does not decode (${(e as Error).message})` });
    }
  });
  if (broken || report.problems.length > problemsBefore) return null;
  return live;
}

function fileNumber(name: string): number {
  return Number(/\d+/.exec(name)![0]);
}

/**
 * Checks every table, log and MANIFEST LevelDB reads in a directory, changing nothing. Files the
 * current MANIFEST no longer counts (LevelDB deletes them when it next opens) are listed as
 * obsolete instead: a table a compaction was writing when the process died is not damage.
 */
export function checkLevelDbFiles(dir: string): LevelDbCheck {
  const report: LevelDbCheck = { checked: 0, obsolete: [], problems: [] };
  const manifest = currentManifest(dir, report);
  // Its records are checked first, to know the live files, and reported in the file order.
  const manifestReport: LevelDbCheck = { checked: 0, obsolete: [], problems: [] };
  const live = manifest ? liveFiles(dir, manifest, manifestReport) : null;
  const names = readdirSync(dir).sort();
  for (const name of names) {
    if (name === manifest) {
      report.checked += manifestReport.checked;
      report.problems.push(...manifestReport.problems);
      continue;
    }
    const isTable = /^\d+\.(ldb|sst)$/.test(name);
    const isLog = /^\d+\.log$/.test(name) || /^MANIFEST-\d+$/.test(name);
    if (!isTable && !isLog) continue;
    if (live) {
      const n = fileNumber(name);
      const read = isTable ? live.tables.has(n) : name.endsWith('.log') && (n >= live.logNumber || n === live.prevLogNumber);
      if (!read) {
        report.obsolete.push(name);
        continue;
      }
    }
    const file = readFileSync(join(dir, name));
    if (isTable) checkTable(name, file, report);
    else checkLog(name, file, report);
  }
  for (const n of live?.tables ?? []) {
    const stem = String(n).padStart(6, '0');
    if (!names.includes(`${stem}.ldb`) && !names.includes(`${stem}.sst`)) {
      report.problems.push({ where: `LevelDB table ${stem}.ldb`, problem: `missing, though MANIFEST ${manifest} lists it` });
    }
  }
  return report;
}

/**
 * Damaged records in the logs LevelDB replays when it next opens `dir`, which it would drop
 * without a word, and with them the rest of their 32 KiB block: data the store had committed.
 * Only damage followed by a sound record counts: a record cut off or garbled at the very end of a
 * log is the last write of a process that died writing it, never acknowledged as a whole. Reads
 * CURRENT, the MANIFEST and the live logs only (megabytes), not the tables.
 */
export function damagedLogRecords(dir: string): StoreProblem[] {
  const scratch: LevelDbCheck = { checked: 0, obsolete: [], problems: [] };
  const manifest = existsSync(join(dir, 'CURRENT')) ? currentManifest(dir, scratch) : null;
  const live = manifest ? liveFiles(dir, manifest, scratch) : null;
  if (!live) return [];
  const lost: StoreProblem[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (!/^\d+\.log$/.test(name)) continue;
    const n = fileNumber(name);
    if (n < live.logNumber && n !== live.prevLogNumber) continue;
    const report: LevelDbCheck = { checked: 0, obsolete: [], problems: [] };
    let confirmed = 0;
    forEachLogRecord(name, readFileSync(join(dir, name)), report, () => {
      confirmed = report.problems.length;
    });
    lost.push(...report.problems.slice(0, confirmed));
  }
  return lost;
}
