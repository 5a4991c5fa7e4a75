/**
 * The store's LevelDB directory, checked before LevelDB is given it. classic-level opens a
 * database as soon as it is constructed, creating it if missing: a directory whose CURRENT file
 * is gone (deleted by hand, overwritten by a mistaken path) would be started empty, and the
 * tables and manifest already there deleted as obsolete, every block's index with them.
 */
import { readdirSync } from 'node:fs';
import { ClassicLevel } from 'classic-level';
import { StoreOpenError } from './errors.js';

/** LevelDB's table, log and manifest files in `indexDir` when its CURRENT file is missing. */
function filesWithoutCurrent(indexDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(indexDir);
  } catch {
    return []; // a new store
  }
  if (names.includes('CURRENT')) return [];
  return names.filter((n) => /^(\d+\.(ldb|sst|log)|MANIFEST-\d+)$/.test(n));
}

/** Refuses an index LevelDB would start empty over files it already holds. */
export function assertIndexOpenable(indexDir: string, storeDir: string): void {
  const orphaned = filesWithoutCurrent(indexDir);
  if (orphaned.length === 0) return;
  const newestManifest =
    orphaned
      .filter((n) => n.startsWith('MANIFEST-'))
      .sort()
      .at(-1) ?? 'MANIFEST-000001';
  throw new StoreOpenError(
    `cannot open the chain store at ${storeDir}: its index ${indexDir} has no CURRENT file but holds ${orphaned.length} ` +
      `LevelDB files (${orphaned.slice(0, 3).join(', ')}${orphaned.length > 3 ? ', …' : ''}); opening it would start it empty ` +
      `and delete them. Restore CURRENT (one line naming the newest MANIFEST file and ending in a newline, e.g. "${newestManifest}") or move the directory away.`,
  );
}

/**
 * Whether a process (this one or another) has the LevelDB in `indexDir` open: LevelDB refuses a
 * second open at once, on its LOCK file, before it reads anything. Opened otherwise, LevelDB
 * replays its log as at any open; the caller is about to set the store aside (verify -repair).
 */
export async function indexIsHeld(indexDir: string): Promise<boolean> {
  const db = new ClassicLevel(indexDir, { createIfMissing: false });
  try {
    await db.open();
  } catch (e) {
    return (e as { cause?: { code?: unknown } }).cause?.code === 'LEVEL_LOCKED';
  }
  await db.close();
  return false;
}
