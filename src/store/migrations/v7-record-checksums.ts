/**
 * Version 7: every value gets its checksum (record-checksums.ts). The store is rewritten in key
 * order, in batches of a few megabytes, each of which also records the last key it rewrote
 * (`X` ‖ 7): after a kill the migration resumes past that key, and the keys up to it, already
 * rewritten, are never read again before it ends. Its final batch writes the `R` mark (and the
 * migration framework the version), after which the store reads every value with its checksum.
 *
 * A store that already has the mark (its values were written with checksums, and only its
 * version record says otherwise) has nothing to rewrite.
 */
import type { ClassicLevel } from 'classic-level';
import { keys } from '../layout.js';
import { checksumsOf, sealValue } from '../record-checksums.js';
import { writeBatch } from '../write-batch.js';
import type { BatchOp } from '../block-data.js';
import type { Migration, MigrationContext } from './migration.js';

const VERSION = 7;
/** Bytes of rewritten values per batch: one LevelDB write buffer's worth stays well under a memtable. */
const CHUNK_BYTES = 4 << 20;
/** Entries per native iterator call (values up to a block's bytes when they are kept in LevelDB). */
const SCAN_BATCH = 1000;
const SCAN_BATCH_BYTES = 4 << 20;

export const recordChecksumMigration: Migration = {
  version: VERSION,
  description: 'add a checksum to every record, checked whenever it is read',
  sealsRecords: true,
  async run(db: ClassicLevel<Buffer, Buffer>, ctx?: MigrationContext): Promise<BatchOp[]> {
    const mark: BatchOp = { type: 'put', key: keys.recordChecksums(), value: Buffer.of(1) };
    if (checksumsOf(db)?.sealed) return [mark];
    const progressKey = keys.migrationProgress(VERSION);
    const resumeAfter = await db.get(progressKey);
    const versionKey = keys.version();
    // Rewritten by the final batches, not here.
    const skipped = (key: Buffer) => key.length <= progressKey.length && (key.equals(progressKey) || key.equals(versionKey));
    const it = db.iterator({ ...(resumeAfter ? { gt: resumeAfter } : {}), highWaterMarkBytes: SCAN_BATCH_BYTES });
    const chunkBytes = ctx?.chunkBytes ?? CHUNK_BYTES;
    let rewritten = 0;
    let ops: BatchOp[] = [];
    let bytes = 0;
    let lastKey: Buffer | null = null;
    const flush = async (last: Buffer) => {
      await writeBatch(db, [...ops, { type: 'put', key: progressKey, value: last }], { sync: false });
      rewritten += ops.length;
      ops = [];
      bytes = 0;
      ctx?.afterChunk?.(rewritten);
    };
    try {
      for (let batch = await it.nextv(SCAN_BATCH); batch.length > 0; batch = await it.nextv(SCAN_BATCH)) {
        for (const [key, value] of batch) {
          if (skipped(key)) continue;
          ops.push({ type: 'put', key, value: sealValue(value) });
          bytes += key.length + value.length;
          lastKey = key;
          if (bytes >= chunkBytes) await flush(key);
        }
      }
    } finally {
      await it.close();
    }
    // The rest as one more batch of sealed values: the final batch is sealed by writeBatch itself.
    if (ops.length > 0) await flush(lastKey!);
    ctx?.log(`record checksums: ${rewritten} records rewritten`);
    return [{ type: 'del', key: progressKey }, mark];
  },
};
