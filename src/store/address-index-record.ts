/**
 * Whether a store on disk keeps the address index (layout.ts `O`), read without opening it as
 * a store: `zecrpc verify -repair` rebuilds a damaged store as what it was, and reads this from
 * it before moving it aside. The index is read through a private copy of its LevelDB logs
 * (reading-copy.ts), so the store is left exactly as it was.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { keys } from './layout.js';
import { readingCopy } from './reading-copy.js';

/**
 * True or false as the store in `storeDir` (`<datadir>/zecrpc`) records it; null when its index
 * cannot be read, or when the store has no record yet its tip block past genesis has no
 * address-index entry (the record may be lost: chain-db.ts refuses to open such a store; a
 * checkpoint start's tip, which has none either, is then unknown too).
 */
export async function storedAddressIndexChoice(storeDir: string): Promise<boolean | null> {
  const indexDir = join(storeDir, 'index');
  if (!existsSync(indexDir)) return null;
  const copy = readingCopy(indexDir);
  const db = new ClassicLevel<Buffer, Buffer>(copy, { keyEncoding: 'buffer', valueEncoding: 'buffer', createIfMissing: false });
  try {
    await db.open();
    // Its presence is the record: a damaged value still says the store was created without the index.
    if ((await db.get(keys.noAddressIndex())) !== undefined) return false;
    const tip = await db.get(keys.tip());
    // The tip's hash and height lead the value (a checksum may follow: record-checksums.ts).
    if (!tip || tip.length < 36 || tip.readUInt32LE(32) === 0) return true;
    return (await db.get(keys.blockTimestamp(tip.subarray(0, 32)))) === undefined ? null : true;
  } catch {
    return null;
  } finally {
    await db.close().catch(() => undefined);
    rmSync(copy, { recursive: true, force: true });
  }
}
