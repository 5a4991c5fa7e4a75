/**
 * Reading a chain store's LevelDB without changing it: opening LevelDB in place replays its logs
 * (dropping a damaged record for good) and writes a new table and MANIFEST. `zecrpc verify` and
 * `zecrpc verify -repair` read a store they must leave as it was through a private directory.
 */
import { copyFileSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A directory LevelDB can open in place of a store it must not write to: the live tables linked
 * (LevelDB only reads a table), CURRENT, the MANIFEST and the logs copied (opening replays the
 * logs into a new table and writes a new MANIFEST, here, not in the store). Removing it later
 * removes links and copies only. `obsolete` names files LevelDB no longer reads, left out.
 */
export function readingCopy(indexDir: string, obsolete: readonly string[] = []): string {
  const copy = mkdtempSync(join(tmpdir(), 'zecrpc-verify-'));
  const skipped = new Set(obsolete);
  for (const name of readdirSync(indexDir)) {
    if (skipped.has(name)) continue;
    if (/^\d+\.(ldb|sst)$/.test(name)) symlinkSync(join(indexDir, name), join(copy, name));
    else if (name === 'CURRENT' || /^MANIFEST-\d+$/.test(name) || /^\d+\.log$/.test(name))
      copyFileSync(join(indexDir, name), join(copy, name));
  }
  return copy;
}
