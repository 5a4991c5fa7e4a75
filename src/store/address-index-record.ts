/**
 * Whether a store on disk keeps the address index (layout.ts `O`), read without opening it as
 * a store: `zecrpc verify -repair` rebuilds a damaged store as what it was, and reads this from
 * it before moving it aside. The index is read through a private copy of its LevelDB logs
 * (reading-copy.ts), so the store is left exactly as it was.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { indexRecordHasData, keys } from './layout.js';
import { ADDRESS_INDEX_VERSION } from './migrations/v4-address-index.js';
import { decodeVersionRecord } from './migrations/version-record.js';
import { readingCopy } from './reading-copy.js';

/**
 * True or false as the store in `storeDir` (`<datadir>/zecrpc`) records it; null when its index
 * cannot be read, or when the record may be lost (addressIndexChoice).
 */
export async function storedAddressIndexChoice(storeDir: string): Promise<boolean | null> {
  const indexDir = join(storeDir, 'index');
  if (!existsSync(indexDir)) return null;
  const copy = readingCopy(indexDir);
  const db = new ClassicLevel<Buffer, Buffer>(copy, { keyEncoding: 'buffer', valueEncoding: 'buffer', createIfMissing: false });
  try {
    await db.open();
    const version = await db.get(keys.version());
    // Without its version record a store cannot say more than its `O` record does.
    if (!version) return (await db.get(keys.noAddressIndex())) !== undefined ? false : null;
    const choice = await addressIndexChoice(db, decodeVersionRecord(version).version);
    return typeof choice === 'boolean' ? choice : null;
  } catch {
    return null;
  } finally {
    await db.close().catch(() => undefined);
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * What a store's records say of the address index: false with the `O` record (its presence is the
 * record: a damaged value still says the store was created without the index); true without it;
 * and `lostAt`, the tip, when there is no record yet the tip block has no address-index entry
 * (`S`, which every block connected past genesis gets): the record saying the store keeps no
 * index is then more likely lost than the index, and the store must not be taken for one with an
 * empty index. A store cannot tell, and counts as keeping it: before schema version 4 (whose
 * upgrade builds the index), at genesis, or at a checkpoint start's tip (a header without data,
 * which no indexer connected).
 *
 * Values are read raw, as they are before a store's checksums are checked: from schema version
 * 7 they end with a checksum (record-checksums.ts), and only their leading bytes are read here.
 * The `S` row is looked for by its key alone: a damaged value is the scan's to report.
 */
export async function addressIndexChoice(
  db: ClassicLevel<Buffer, Buffer>,
  version: number,
): Promise<boolean | { lostAt: { hash: Uint8Array; height: number } }> {
  if ((await db.get(keys.noAddressIndex())) !== undefined) return false;
  if (version < ADDRESS_INDEX_VERSION) return true;
  const tip = await db.get(keys.tip());
  if (!tip || tip.length < 36) return true;
  const height = tip.readUInt32LE(32);
  const hash = new Uint8Array(tip.subarray(0, 32));
  const record = await db.get(keys.index(hash));
  if (height === 0 || !record || !indexRecordHasData(record)) return true;
  const entry = keys.blockTimestamp(hash);
  const found = await db.keys({ gte: entry, lte: entry, limit: 1 }).all();
  return found.length === 0 ? { lostAt: { hash, height } } : true;
}
