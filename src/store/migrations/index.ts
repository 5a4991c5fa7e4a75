/**
 * Schema migrations, applied in order when a store opens (zebra-state's disk-format upgrades,
 * on a smaller scale). The schema version in `V` is the number of the last migration applied.
 *
 * Rules every migration keeps:
 * - it only adds data under a prefix it introduces (or deletes a prefix it owns), never changes
 *   the meaning of an existing record, so older records stay valid at every step;
 * - its last write is one batch holding its final data and the new version, so a crash leaves
 *   either the old version (the migration runs again from the start, overwriting its own
 *   prefix) or the new one;
 * - a migration too large for one batch (a replay of the chain) writes its data in batches that
 *   each also record where it got to, resumes from there, and still ends with the one batch
 *   that carries the version (replay.ts).
 */
import type { ClassicLevel } from 'classic-level';
import { SCHEMA_VERSION, keys } from '../layout.js';
import { writeBatch } from '../write-batch.js';
import { chainTxMigration } from './v2-chain-tx.js';
import { chainStateMigration } from './v3-chain-state.js';
import { addressIndexMigration } from './v4-address-index.js';
import { highestRecordMigration } from './v5-highest-record.js';
import { nullifierMigration } from './v6-nullifiers.js';
import { recordChecksumMigration } from './v7-record-checksums.js';
import { attachChecksums, checksumsOf, RecordChecksums } from '../record-checksums.js';

export { decodeVersionRecord } from './version-record.js';
import type { Migration, MigrationContext } from './migration.js';

export type { Migration, MigrationContext } from './migration.js';

/** Every migration, by the version it produces. Version 1 is the first layout (no migration). */
export const MIGRATIONS: readonly Migration[] = [
  chainTxMigration,
  chainStateMigration,
  addressIndexMigration,
  highestRecordMigration,
  nullifierMigration,
  recordChecksumMigration,
];

export function encodeVersionRecord(version: number, network: string): Buffer {
  const rec = Buffer.concat([Buffer.alloc(4), Buffer.from(network, 'utf8')]);
  rec.writeUInt32LE(version, 0);
  return rec;
}

/**
 * The checksum state of a database the store did not open itself (a test's or a tool's): its
 * values carry checksums when the store has the `R` mark. Its reads are raw (its own encoding).
 */
async function checksumsFor(db: ClassicLevel<Buffer, Buffer>): Promise<RecordChecksums> {
  const known = checksumsOf(db);
  if (known) return known;
  const state = new RecordChecksums();
  state.sealed = (await db.get(keys.recordChecksums())) !== undefined;
  return attachChecksums(db, state);
}

/**
 * Brings a store from `fromVersion` to SCHEMA_VERSION. `log` hears one line per migration
 * (an operator upgrading a mainnet store should know why opening takes a while).
 */
export async function migrate(
  db: ClassicLevel<Buffer, Buffer>,
  fromVersion: number,
  network: string,
  log: (line: string) => void,
  hooks: Pick<MigrationContext, 'afterChunk' | 'chunkBlocks' | 'chunkBytes' | 'network' | 'addressIndex'> = {},
): Promise<void> {
  const checksums = await checksumsFor(db);
  for (const m of MIGRATIONS) {
    if (m.version <= fromVersion) continue;
    const started = Date.now();
    // A guard, not a path real stores take: `O` is written only at creation, at a schema version
    // past every migration that builds the index, and a store older than the record keeps the
    // index (opened with addressIndex false it is refused first). It keeps a store recorded
    // without the index from ever being given one by a migration.
    const skipped = m.buildsAddressIndex && hooks.addressIndex === false;
    log(
      skipped
        ? `schema version ${m.version}: nothing to build, the store keeps no address index`
        : `upgrading the chain store to schema version ${m.version}: ${m.description}`,
    );
    const ops = skipped ? [] : await m.run(db, { log, ...hooks });
    // Its final batch (the `R` mark, the version) is written with checksums, as everything after it.
    if (m.sealsRecords) checksums.sealed = true;
    await writeBatch(db, [...ops, { type: 'put', key: keys.version(), value: encodeVersionRecord(m.version, network) }], {
      sync: true,
    });
    log(`schema version ${m.version} reached in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (MIGRATIONS.length && MIGRATIONS[MIGRATIONS.length - 1]!.version !== SCHEMA_VERSION) {
    throw new Error(`migration list ends at version ${MIGRATIONS[MIGRATIONS.length - 1]!.version}, schema is ${SCHEMA_VERSION}`);
  }
}
