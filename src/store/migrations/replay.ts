/**
 * A migration that builds an indexer's data for the blocks a store already holds, by replaying
 * its active chain through the indexer, as zcashd's `-reindex` would.
 *
 * A mainnet replay touches every block since 2016, far too much for the one final batch other
 * migrations use. So it writes progressively: every chunk of blocks is one batch holding the
 * chunk's index entries, their undo blobs and the resume height (`X` ‖ version). A crash leaves
 * the data complete up to that height and nothing past it; the next open goes on from there.
 * The final batch (returned to `migrate`, which adds the version) deletes the resume record.
 */
import { readSync, openSync, closeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ClassicLevel } from 'classic-level';
import { networkParams, type NetworkName, type NetworkParams } from '../../chain/network.js';
import { decodeBlock } from '../../codec/block.js';
import { STORED_BLOCK_ACCEPTANCE } from '../../codec/tx/acceptance.js';
import { blockFileName, type BatchOp } from '../block-data.js';
import type { ChainBlock, Indexer } from '../indexes/indexer.js';
import { WriteOverlay } from '../overlay.js';
import { storedValue } from '../record-checksums.js';
import { decodeVersionRecord } from './version-record.js';
import { decodeIndexRecord, decodeTip, keys, splitTxids, type IndexRecord } from '../layout.js';
import { decodeUndoRecord, encodeUndoRecord, MAX_REORG_DEPTH } from '../undo.js';
import type { Migration, MigrationContext } from './migration.js';
import { writeBatch } from '../write-batch.js';

/** Blocks per progress batch; also bounded by pending keys so a run of huge blocks stays small. */
const CHUNK_BLOCKS = 2_000;
const CHUNK_OPS = 200_000;

/** Reads a stored block wherever the store keeps it (LevelDB value or flat block file). */
function blockReader(db: ClassicLevel<Buffer, Buffer>): { read(hash: Uint8Array, rec: IndexRecord): Uint8Array; close(): void } {
  const blocksDir = join(dirname(db.location), 'blocks');
  const fds = new Map<number, number>();
  return {
    read(hash, rec) {
      const inDb = storedValue(db, db.getSync(keys.blockData(hash)), keys.blockData(hash));
      if (inDb) return inDb;
      let fd = fds.get(rec.file);
      if (fd === undefined) fds.set(rec.file, (fd = openSync(join(blocksDir, blockFileName(rec.file)), 'r')));
      const buf = Buffer.allocUnsafe(rec.size);
      const n = readSync(fd, buf, 0, rec.size, rec.offset);
      if (n !== rec.size) throw new Error(`block file ${blockFileName(rec.file)} ends before offset ${rec.offset + rec.size}`);
      return buf;
    },
    close() {
      for (const fd of fds.values()) closeSync(fd);
      fds.clear();
    },
  };
}

function progressValue(height: number): Buffer {
  const v = Buffer.allocUnsafe(4);
  v.writeUInt32LE(height, 0);
  return v;
}

export interface ReplayMigrationSpec {
  version: number;
  description: string;
  /** How progress lines name the work ("address index", "chain state"). */
  label: string;
  /** The indexer to replay on the store's network. */
  indexer(network: NetworkParams): Indexer;
  /** Set when that indexer is the address index (skipped for a store without one). */
  buildsAddressIndex?: true;
}

/** The network name a store records beside its schema version. */
function storeNetwork(db: ClassicLevel<Buffer, Buffer>): string {
  const v = db.getSync(keys.version());
  if (!v) throw new Error('chain store has no version record');
  return decodeVersionRecord(v).network;
}

/**
 * The height of the lowest best-chain block record: 0 for a store built from genesis, the first
 * header's for one started from a checkpoint (which holds nothing below it).
 */
async function lowestActiveHeight(db: ClassicLevel<Buffer, Buffer>): Promise<number> {
  const first = await db.keys({ gte: keys.height(0), lte: keys.height(0xffffffff), limit: 1 }).all();
  return first.length === 0 ? 0 : first[0]!.readUInt32BE(1);
}

export function replayMigration(spec: ReplayMigrationSpec): Migration {
  return {
    version: spec.version,
    description: spec.description,
    ...(spec.buildsAddressIndex ? { buildsAddressIndex: true as const } : {}),
    async run(db, ctx?: MigrationContext) {
      const log = ctx?.log ?? (() => undefined);
      const tipValue = storedValue(db, db.getSync(keys.tip()), keys.tip());
      const progressKey = keys.migrationProgress(spec.version);
      const done = (): BatchOp[] => [{ type: 'del', key: progressKey }];
      if (!tipValue) return done();
      const tip = decodeTip(tipValue);
      const resumeValue = storedValue(db, db.getSync(progressKey), progressKey);
      let next = resumeValue ? resumeValue.readUInt32LE(0) : await lowestActiveHeight(db);
      if (resumeValue) log(`${spec.label}: resuming at height ${next} of ${tip.height}`);

      const indexer = spec.indexer(ctx?.network ?? networkParams(storeNetwork(db) as NetworkName));
      const overlay = new WriteOverlay(db);
      const reader = blockReader(db);
      const started = Date.now();
      let lastLog = started;
      const chunkLimit = ctx?.chunkBlocks ?? CHUNK_BLOCKS;
      let chunkBlocks = 0;
      try {
        for (; next <= tip.height; next++) {
          const hash = storedValue(db, db.getSync(keys.height(next)), keys.height(next));
          if (!hash) throw new Error(`chain store is inconsistent: no best-chain block at height ${next}`);
          const recValue = storedValue(db, db.getSync(keys.index(hash)), keys.index(hash));
          if (!recValue) throw new Error(`chain store is inconsistent: block at height ${next} has no index record`);
          const rec = decodeIndexRecord(recValue);
          // A store started from a checkpoint holds headers alone below it: no block to replay.
          if (!rec.haveData) continue;
          const txidList = storedValue(db, db.getSync(keys.txids(hash)), keys.txids(hash));
          if (!txidList) throw new Error(`chain store is inconsistent: block at height ${next} has no txid list`);
          const bytes = reader.read(hash, rec);
          const chainBlock: ChainBlock = {
            hash,
            height: next,
            header: rec.header,
            txids: splitTxids(txidList),
            block: async () => decodeBlock(bytes, STORED_BLOCK_ACCEPTANCE),
          };
          const result = await indexer.connect(chainBlock, overlay);
          overlay.apply(result.ops);
          // Undo is kept only as deep as a reorganization may reach (connecting a block deletes the
          // record MAX_REORG_DEPTH + 1 below it), so a replayed mainnet store does not keep GBs of it.
          if (result.undo && next >= tip.height - MAX_REORG_DEPTH) {
            // The block's undo record may already hold other indexers' blobs: add ours beside them.
            const existing = overlay.get(keys.undo(hash));
            const entries = existing ? decodeUndoRecord(existing) : new Map<number, Uint8Array>();
            entries.set(indexer.undoTag, result.undo);
            overlay.apply([{ type: 'put', key: keys.undo(hash), value: encodeUndoRecord(entries) }]);
          }
          chunkBlocks++;
          if (next < tip.height && (chunkBlocks >= chunkLimit || overlay.size >= CHUNK_OPS)) {
            await writeBatch(db, [...overlay.take(), { type: 'put', key: progressKey, value: progressValue(next + 1) }], { sync: false });
            chunkBlocks = 0;
            ctx?.afterChunk?.(next + 1);
            const now = Date.now();
            if (now - lastLog >= 5_000) {
              lastLog = now;
              const pct = ((100 * (next + 1)) / (tip.height + 1)).toFixed(1);
              log(`${spec.label}: ${next + 1} of ${tip.height + 1} blocks (${pct} %)`);
            }
          }
        }
      } finally {
        reader.close();
      }
      log(`${spec.label}: ${tip.height + 1} blocks replayed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return [...overlay.take(), ...done()];
    },
  };
}
