/** What a schema migration is (index.ts lists them in order and applies them). */
import type { ClassicLevel } from 'classic-level';
import type { NetworkParams } from '../../chain/network.js';
import type { BatchOp } from '../block-data.js';

export interface MigrationContext {
  /** Progress lines for the operator. */
  log(line: string): void;
  /** Test hook: called after each intermediate batch of a progressive migration (throw = crash there). */
  afterChunk?(position: number): void;
  /** Test hook: blocks per intermediate batch of a progressive migration. */
  chunkBlocks?: number;
  /** Test hook: bytes per intermediate batch of a migration that rewrites records (v7). */
  chunkBytes?: number;
  /**
   * The network the store is opened with, when it is more than its recorded name says (regtest
   * with `-nuparams`); otherwise the recorded name's parameters are used.
   */
  network?: NetworkParams;
  /** False for a store recorded without the address index (layout.ts `O`): migrations that build it are skipped. */
  addressIndex?: boolean;
}

export interface Migration {
  /** The schema version the store has once this migration is applied. */
  readonly version: number;
  readonly description: string;
  /** Once it has run, every value carries its checksum (record-checksums.ts), its final batch included. */
  readonly sealsRecords?: true;
  /**
   * It builds the address index: a store recorded without one (layout.ts `O`) takes only its
   * version. A guard: such a store is created past this version, and an older store keeps the index.
   */
  readonly buildsAddressIndex?: true;
  /** Builds the migration's data; returns its final batch (without the version record). */
  run(db: ClassicLevel<Buffer, Buffer>, ctx?: MigrationContext): Promise<BatchOp[]>;
}
