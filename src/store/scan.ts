/**
 * `zecrpc verify`: reads a whole chain store and lists every damaged record, changing nothing
 * (the store is opened directly, not through ChainStore, whose opening may repair). The same
 * checks as the verified read path (verify.ts), applied to everything:
 *
 * - each block index record decodes and its header hashes to its key;
 * - each stored block: frame magic and length, header hash, full decode, merkle root, and the
 *   recorded size and transaction count;
 * - each best-chain height entry names a block recorded at that height whose parent is the
 *   entry below, and the tip record names the top entry;
 * - every checksum LevelDB keeps in its files (leveldb-files.ts), which covers the values
 *   nothing else can check (chain-state amounts, address-index entries).
 */
import { closeSync, existsSync, openSync, rmSync, unlinkSync } from 'node:fs';
import { open as openFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import type { NetworkParams } from '../chain/network.js';
import { bytesEqual, toHexReversed } from '../codec/hex.js';
import { sha256d } from '../crypto/hash.js';
import { blockFileName } from './block-data.js';
import { DiskReserve, openWithReserve } from './disk-reserve.js';
import { assertIndexOpenable } from './index-dir.js';
import { decodeHighestRecord, decodeIndexRecord, decodeTip, keys, storeDirectory, type IndexRecord } from './layout.js';
import { decodeVerifiedBlock, storedBlockProblem } from './verify.js';
import { checkLevelDbFiles, type LevelDbCheck } from './leveldb-files.js';
import { highestRecordMigration } from './migrations/v5-highest-record.js';
import { hasValidChecksum, intactValue } from './record-checksums.js';
import { readingCopy } from './reading-copy.js';

import type { StoreProblem } from './store-problem.js';

export type { StoreProblem };

export interface ScanReport {
  /** Checksums of LevelDB's own files checked (table blocks, log and MANIFEST records; leveldb-files.ts). */
  levelDbChecksums: number;
  /** Files LevelDB no longer reads and deletes at its next open: not damage, not checked. */
  levelDbObsolete: string[];
  /** The store could not be written (a read-only copy or mount): it was read through a private copy of its logs. */
  readOnly: boolean;
  blocksChecked: number;
  recordsChecked: number;
  heightsChecked: number;
  /** Values whose record checksum was checked (every value of a store of schema version 7 on). */
  recordChecksums: number;
  problems: StoreProblem[];
}

export interface ScanOptions {
  /** Called every few hundred records, for progress output. */
  onProgress?: (records: number) => void;
  /** Read the store without opening it in place even where it could be written (found out otherwise). */
  readOnly?: boolean;
}

/** Whether a file can be created in `dir`: false on a read-only mount or without the permission. */
function writable(dir: string): boolean {
  const probe = join(dir, `.zecrpc-verify-${process.pid}`);
  try {
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return false;
    throw e;
  }
}

function prefixRange(prefix: number): { gte: Buffer; lt: Buffer } {
  return { gte: Buffer.of(prefix), lt: Buffer.of(prefix + 1) };
}

/** Scans the store in `<datadir>/zecrpc`; the store must not be open elsewhere (LevelDB's lock). */
export async function scanStore(datadir: string, network: NetworkParams, opts: ScanOptions = {}): Promise<ScanReport> {
  const dir = storeDirectory(datadir);
  // Before LevelDB opens the store: opening replays the log, and drops a damaged record unseen.
  const indexDir = join(dir, 'index');
  const levelDb: LevelDbCheck = existsSync(indexDir) ? checkLevelDbFiles(indexDir) : { checked: 0, obsolete: [], problems: [] };
  assertIndexOpenable(indexDir, dir);
  const readOnly = existsSync(indexDir) && (opts.readOnly === true || !writable(indexDir));
  const copy = readOnly ? readingCopy(indexDir, levelDb.obsolete) : null;
  const db = new ClassicLevel<Buffer, Buffer>(copy ?? indexDir, {
    keyEncoding: 'buffer',
    valueEncoding: 'buffer',
    createIfMissing: false,
  });
  try {
    // On a full disk LevelDB opens only with the store's reserve released (disk-reserve.ts).
    if (copy) await db.open();
    else await openWithReserve(db, dir, new DiskReserve(dir, 0));
  } catch (e) {
    if (copy) rmSync(copy, { recursive: true, force: true });
    throw e;
  }
  const blockFiles = new Map<number, FileHandle>();
  const report: ScanReport = {
    levelDbChecksums: levelDb.checked,
    levelDbObsolete: levelDb.obsolete,
    readOnly,
    blocksChecked: 0,
    recordsChecked: 0,
    heightsChecked: 0,
    recordChecksums: 0,
    problems: [...levelDb.problems],
  };
  const problem = (where: string, what: string) => report.problems.push({ where, problem: what });
  const records = new Map<string, IndexRecord>();
  try {
    const sealed = await checkRecordChecksums(db, report, problem);
    /** A value without its checksum, or null when it is damaged (reported by the pass above). */
    const opened = (value: Buffer): Buffer | null => (!sealed ? value : intactValue(value));
    try {
      for await (const [key, sealedValue] of db.iterator(prefixRange(keys.indexPrefix))) {
        const value = opened(sealedValue);
        if (!value) continue;
        const hash = key.subarray(1);
        const name = `block ${toHexReversed(hash)}`;
        report.recordsChecked++;
        if (report.recordsChecked % 500 === 0) opts.onProgress?.(report.recordsChecked);
        let rec: IndexRecord;
        try {
          rec = decodeIndexRecord(value);
        } catch (e) {
          problem(`${name} (index record)`, (e as Error).message);
          continue;
        }
        if (!bytesEqual(sha256d(rec.header), hash)) {
          problem(`${name} (index record)`, 'the recorded header hashes to another block');
          continue;
        }
        records.set(hash.toString('hex'), rec);
        if (!rec.haveData) continue;
        report.blocksChecked++;
        const read = await readStoredBlock(db, opened, dir, blockFiles, network, hash, rec);
        if (!(read instanceof Uint8Array)) {
          report.problems.push({ where: `${name} at ${read.where}`, problem: read.problem });
          continue;
        }
        const block = decodeVerifiedBlock(read);
        if (typeof block === 'string') problem(name, block);
        else if (block.transactions.length !== rec.txCount)
          problem(name, `${block.transactions.length} transactions where the index records ${rec.txCount}`);
      }
    } catch (e) {
      problem('LevelDB block index', `reading stopped: ${(e as Error).message}`);
    }
    await checkHighestRecord(db, opened, records, problem);

    let prev: Buffer | null = null;
    let top = -1;
    try {
      for await (const [key, sealedValue] of db.iterator(prefixRange(keys.heightPrefix))) {
        const value = opened(sealedValue);
        if (!value) continue;
        const height = key.readUInt32BE(1);
        report.heightsChecked++;
        const where = `best-chain entry at height ${height}`;
        const rec = records.get(value.toString('hex'));
        if (value.length !== 32) problem(where, `a ${value.length}-byte value where a block hash belongs`);
        else if (!rec) problem(where, `names block ${toHexReversed(value)}, which has no sound index record`);
        else if (rec.height !== height) problem(where, `names block ${toHexReversed(value)}, recorded at height ${rec.height}`);
        else if (height > 0 && prev && !bytesEqual(rec.header.subarray(4, 36), prev))
          problem(where, 'its block does not build on the entry below');
        // A store started from a checkpoint begins its best chain at the first checkpoint header,
        // a record without block data; any other store at the genesis block.
        const startsFromCheckpoint = top === -1 && rec !== undefined && !rec.haveData;
        if (height !== top + 1 && !startsFromCheckpoint) problem(where, `follows the entry at height ${top}`);
        top = height;
        prev = value;
      }
    } catch (e) {
      problem('LevelDB best-chain entries', `reading stopped: ${(e as Error).message}`);
    }
    const storedTip = await db.get(keys.tip()).catch((e: Error) => {
      problem('tip record', e.message);
      return undefined;
    });
    const tip = storedTip && opened(storedTip);
    if (tip) {
      const t = decodeTip(tip);
      if (t.height !== top || !prev || !bytesEqual(t.hash, prev))
        problem('tip record', `names height ${t.height}, the best chain ends at ${top}`);
    }
  } finally {
    for (const f of blockFiles.values()) await f.close();
    await db.close();
    if (copy) rmSync(copy, { recursive: true, force: true });
  }
  return report;
}

/**
 * Every value's checksum (record-checksums.ts), in a store whose values carry them (the `R`
 * mark): the one check that covers values nothing else can check (chain-state amounts, the
 * address index). Returns whether the store's values carry checksums.
 */
async function checkRecordChecksums(
  db: ClassicLevel<Buffer, Buffer>,
  report: ScanReport,
  problem: (where: string, what: string) => void,
): Promise<boolean> {
  if ((await db.get(keys.recordChecksums())) === undefined) return false;
  const version = keys.version();
  try {
    for await (const [key, value] of db.iterator({ highWaterMarkBytes: 4 << 20 })) {
      // `V` is read before anything says whether values carry checksums (decodeVersionRecord).
      if (key.equals(version)) continue;
      report.recordChecksums++;
      if (!hasValidChecksum(value)) problem(`LevelDB record ${key.toString('hex')}`, 'its checksum does not match');
    }
  } catch (e) {
    problem('LevelDB records', `reading stopped: ${(e as Error).message}`);
  }
  return true;
}

/**
 * `M` (schema version 5 on) must bound every record's height: the store takes a block above it
 * for a new one, and would store a block it holds a second time.
 */
async function checkHighestRecord(
  db: ClassicLevel<Buffer, Buffer>,
  opened: (value: Buffer) => Buffer | null,
  records: ReadonlyMap<string, IndexRecord>,
  problem: (where: string, what: string) => void,
): Promise<void> {
  const where = 'highest-record mark (M)';
  try {
    const version = await db.get(keys.version());
    if (!version || version.readUInt32LE(0) < highestRecordMigration.version) return;
    const stored = await db.get(keys.highestRecord());
    const value = stored && opened(stored);
    if (value === null) return;
    const highest = decodeHighestRecord(value);
    const above = [...records.values()].filter((r) => r.height > highest);
    if (above.length === 0) return;
    const top = Math.max(...above.map((r) => r.height));
    problem(where, `${above.length} block records lie above its height ${highest} (the highest at ${top})`);
  } catch (e) {
    problem(where, `unreadable: ${(e as Error).message}`);
  }
}

/** A stored block's bytes, or where and why they cannot be read. */
async function readStoredBlock(
  db: ClassicLevel<Buffer, Buffer>,
  opened: (value: Buffer) => Buffer | null,
  dir: string,
  files: Map<number, FileHandle>,
  network: NetworkParams,
  hash: Buffer,
  rec: IndexRecord,
): Promise<Uint8Array | StoreProblem> {
  const stored = rec.file === 0 && rec.offset === 0 ? await db.get(keys.blockData(hash)) : undefined;
  const inLevel = stored && opened(stored);
  if (inLevel === null) return { where: `LevelDB value b${hash.toString('hex')}`, problem: 'its checksum does not match' };
  if (inLevel) {
    const bad = storedBlockProblem(hash, inLevel, rec.size);
    return bad ? { where: `LevelDB value b${hash.toString('hex')}`, problem: bad } : inLevel;
  }
  const path = join(dir, 'blocks', blockFileName(rec.file));
  const fail = (problem: string): StoreProblem => ({ where: `${path} offset ${rec.offset}`, problem });
  let f = files.get(rec.file);
  if (!f) {
    try {
      f = await openFile(path, 'r');
    } catch (e) {
      return fail((e as Error).message);
    }
    files.set(rec.file, f);
  }
  if (rec.offset < 8) return fail('the index points inside the file header');
  const framed = Buffer.alloc(rec.size + 8);
  const { bytesRead } = await f.read(framed, 0, framed.length, rec.offset - 8);
  if (bytesRead !== framed.length) return fail(`the file ends before the block does (${bytesRead} of ${framed.length} bytes)`);
  if (!bytesEqual(framed.subarray(0, 4), network.magic)) return fail('the record frame does not start with the network magic');
  if (framed.readUInt32LE(4) !== rec.size) return fail(`the record frame says ${framed.readUInt32LE(4)} bytes, the index ${rec.size}`);
  const bytes = framed.subarray(8);
  const bad = storedBlockProblem(hash, bytes, rec.size);
  return bad ? fail(bad) : bytes;
}
