/**
 * Version 5: the height of the highest block record (`M`), which tells the store that a block
 * above it is new without a LevelDB read of a key that does not exist (why that read is costly:
 * chain-db.ts, `highestRecord`). New records raise it as they are written; this finds it among the
 * records a version-4 store holds, side chains and header-only records included.
 */
import type { ClassicLevel } from 'classic-level';
import { decodeIndexRecord, encodeHighestRecord, keys } from '../layout.js';
import { storedValue } from '../record-checksums.js';
import type { Migration } from './migration.js';

/**
 * Records read per native call: per-entry async iteration costs microseconds an entry. A record
 * holds its block's header (≈ 1.5 kB on mainnet), so the byte limit must allow the whole batch
 * (classic-level stops a call at 16 KiB by default, ≈ 11 records).
 */
const SCAN_BATCH = 1000;
const SCAN_BATCH_BYTES = 4 << 20;

export const highestRecordMigration: Migration = {
  version: 5,
  description: 'record the height of the highest block record',
  async run(db: ClassicLevel<Buffer, Buffer>) {
    let highest = -1;
    const it = db.iterator({ gte: Buffer.of(keys.indexPrefix), lt: Buffer.of(keys.indexPrefix + 1), highWaterMarkBytes: SCAN_BATCH_BYTES });
    try {
      for (let batch = await it.nextv(SCAN_BATCH); batch.length > 0; batch = await it.nextv(SCAN_BATCH)) {
        for (const [key, value] of batch) highest = Math.max(highest, decodeIndexRecord(storedValue(db, value, key)).height);
      }
    } finally {
      await it.close();
    }
    return highest < 0 ? [] : [{ type: 'put', key: keys.highestRecord(), value: encodeHighestRecord(highest) }];
  },
};
