/**
 * What the store checks when it opens, before it serves anything: that LevelDB returned what the
 * store had committed. LevelDB drops a log record whose checksum fails when it replays its log
 * (and the rest of that 32 KiB log block), and opens anyway; a flipped bit in a table's key hides
 * the records it sorts among. Either way a range of committed writes is gone while the writes
 * after it survive: the tip says 750, heights 129–640 are missing. Served, that store answers
 * "Block height out of range" below its own tip and cannot be mended by importing again (every
 * block above is "already stored").
 *
 * Every batch that moves the tip writes the best-chain entry (`h`) of each height it connects in
 * the same batch, so a lost batch always leaves a hole in `h`. The check reads:
 * - the tip record `T`, its block's record `H` and the entry `h` at its height;
 * - the `h` keys (keys alone) of the last OPEN_CHECK_HEIGHTS heights: no gap, nothing above the
 *   tip, and the lowest entry is the genesis block or a checkpoint's first header (a record
 *   without block data);
 * - the block-file cursor `F` against the flat files: each file before it present, its own at
 *   least as long as it says, and the tip's block inside it.
 *
 * Before LevelDB opens the store at all, `damagedLogRecords` (leveldb-files.ts) reads the logs it
 * is about to replay: a damaged record followed by sound ones is data LevelDB would drop.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ClassicLevel } from 'classic-level';
import { bytesEqual, toHexReversed } from '../codec/hex.js';
import { blockFileName } from './block-data.js';
import { StoreOpenError } from './errors.js';
import { decodeFileCursor, decodeHighestRecord, decodeIndexRecord, decodeTip, indexRecordHasData, keys } from './layout.js';

/** The store lost data it had committed: it is not served until it is repaired. */
export class StoreDamagedError extends StoreOpenError {
  constructor(
    dir: string,
    readonly problems: readonly string[],
  ) {
    super(
      `The chain store at ${dir} lost data it had committed (LevelDB dropped damaged records when it opened): ` +
        `${problems.join('; ')}. It is not served. Run \`zecrpc verify -repair\` with the same -datadir and network, which rebuilds ` +
        "the store's index from its block files (they hold every block it stored), or move the store aside and import again.",
    );
    this.name = 'StoreDamagedError';
  }
}

/** Runs of consecutive integers, as "a–b" (or "a"). */
function ranges(values: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < values.length;) {
    let j = i;
    while (j + 1 < values.length && values[j + 1] === values[j]! + 1) j++;
    out.push(i === j ? `${values[i]}` : `${values[i]}–${values[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}

/**
 * Heights the store wrote in the batches LevelDB may still have been replaying: the last
 * OPEN_CHECK_HEIGHTS under the tip. A batch older than that has long been in a table (the logs
 * hold a write buffer or two: tens of megabytes, far fewer heights), where a damaged key or value
 * is the business of the record checksums and `zecrpc verify`, which walks every height.
 */
export const OPEN_CHECK_HEIGHTS = 100_000;

/** Missing heights from the window's start (or the lowest entry) to the tip, and entries above it. */
async function heightGaps(
  db: ClassicLevel<Buffer, Buffer>,
  tipHeight: number,
): Promise<{ missing: number[]; missingCount: number; above: number[] }> {
  const missing: number[] = [];
  let missingCount = 0;
  const above: number[] = [];
  const gap = (from: number, to: number) => {
    for (let h = from; h < to && h <= tipHeight; h++) {
      missingCount++;
      if (missing.length < LISTED_GAPS) missing.push(h);
    }
  };
  const [lowestKey] = await db.keys({ gte: keys.height(0), lte: keys.height(0xffffffff), limit: 1 }).all();
  const lowest = lowestKey ? lowestKey.readUInt32BE(1) : tipHeight + 1;
  if (lowest > 0) {
    // Below the lowest entry nothing is missing only when the store started from a checkpoint there.
    const hash = lowestKey && (await db.get(lowestKey));
    const rec = hash && (await db.get(keys.index(hash)));
    if (!rec || decodeIndexRecord(rec).haveData) gap(0, Math.min(lowest, OPEN_CHECK_HEIGHTS));
  }
  const from = Math.max(lowest, tipHeight - OPEN_CHECK_HEIGHTS);
  let expected = from;
  const it = db.keys({ gte: keys.height(from), lte: keys.height(0xffffffff), highWaterMarkBytes: 1 << 20 });
  try {
    for (let batch = await it.nextv(10_000); batch.length > 0; batch = await it.nextv(10_000)) {
      for (const key of batch) {
        const height = key.readUInt32BE(1);
        if (height > tipHeight) {
          if (above.length < LISTED_GAPS) above.push(height);
          continue;
        }
        if (height > expected) gap(expected, height);
        expected = height + 1;
      }
    }
  } finally {
    await it.close();
  }
  gap(expected, tipHeight);
  return { missing, missingCount, above };
}

/** At most this many missing heights are listed one by one (the rest as a count). */
const LISTED_GAPS = 64;

/** The problems found (empty: what was committed is there). `blocksDir` is null for the LevelDB block backend. */
export async function lostCommittedData(db: ClassicLevel<Buffer, Buffer>, blocksDir: string | null): Promise<string[]> {
  const problems: string[] = [];
  const tipValue = await db.get(keys.tip());
  const highest = decodeHighestRecord(await db.get(keys.highestRecord()));
  const [firstRecord] = await db.keys({ gte: Buffer.of(keys.indexPrefix), lt: Buffer.of(keys.indexPrefix + 1), limit: 1 }).all();
  if (!tipValue) {
    if (highest >= 0 || firstRecord) problems.push('the tip record (T) is missing though block records exist');
    return problems;
  }
  const tip = decodeTip(tipValue);
  const tipRecordValue = await db.get(keys.index(tip.hash));
  if (!tipRecordValue) problems.push(`the tip block ${toHexReversed(tip.hash)} (height ${tip.height}) has no index record (H)`);
  const atTip = await db.get(keys.height(tip.height));
  if (!atTip || !bytesEqual(atTip, tip.hash))
    problems.push(`the best-chain entry at the tip's height ${tip.height} (h) is missing or names another block`);

  const { missing, missingCount, above } = await heightGaps(db, tip.height);
  if (missingCount > 0) {
    const listed = missing.slice(0, LISTED_GAPS);
    const more = missingCount > listed.length ? ` and ${missingCount - listed.length} more` : '';
    problems.push(`best-chain heights ${ranges(listed)}${more} under the tip ${tip.height} have no entry (h)`);
  }
  if (above.length > 0) problems.push(`best-chain entries at heights ${ranges(above)} lie above the tip ${tip.height}`);

  if (blocksDir !== null) {
    const cursorValue = await db.get(keys.fileCursor());
    if (cursorValue) problems.push(...blockFileProblems(blocksDir, decodeFileCursor(cursorValue), tipRecordValue));
    // The first block stored writes the cursor: a store started from a checkpoint and stopped
    // before its next block has none, and nothing for one to guard.
    else if (!(tipRecordValue && !indexRecordHasData(tipRecordValue) && blockFileBytes(blocksDir) === 0))
      problems.push('the block-file cursor (F) is missing');
  }
  return problems;
}

/** Bytes in the flat block files (`blk*.dat`) of `blocksDir`. */
function blockFileBytes(blocksDir: string): number {
  if (!existsSync(blocksDir)) return 0;
  return readdirSync(blocksDir)
    .filter((name) => /^blk\d+\.dat$/.test(name))
    .reduce((sum, name) => sum + statSync(join(blocksDir, name)).size, 0);
}

/** The flat files against the cursor, and the tip's block inside the committed part. */
function blockFileProblems(blocksDir: string, cursor: { file: number; length: number }, tipRecordValue: Buffer | undefined): string[] {
  const problems: string[] = [];
  for (let n = 0; n <= cursor.file; n++) {
    const path = join(blocksDir, blockFileName(n));
    if (!existsSync(path)) {
      problems.push(`block file ${blockFileName(n)} is missing`);
      continue;
    }
    const size = statSync(path).size;
    if (n === cursor.file && size < cursor.length) {
      problems.push(`block file ${blockFileName(n)} is ${size} bytes, the store committed ${cursor.length}`);
    }
  }
  if (tipRecordValue) {
    const rec = decodeIndexRecord(tipRecordValue);
    const end = rec.offset + rec.size;
    if (rec.haveData && (rec.file > cursor.file || (rec.file === cursor.file && end > cursor.length))) {
      problems.push(`the tip's block lies past the committed end of the block files (cursor ${cursor.file}:${cursor.length})`);
    }
  }
  return problems;
}
