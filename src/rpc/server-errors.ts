/**
 * What a client hears of a failure on the server's side (the store's database, its files) and
 * what the operator does. The client gets zcashd's code and text, never the data directory's
 * absolute path; the whole error, with the path and the key or file it concerns, goes to the log.
 */

/**
 * zcashd's dbwrapper_error text for a LevelDB failure (dbwrapper.cpp HandleError, which logs the
 * status itself and throws only these), or null when `e` is not one. classic-level codes the
 * status: LEVEL_CORRUPTION, LEVEL_IO_ERROR, and LEVEL_LOCKED (an I/O error on the lock file).
 */
export function databaseErrorText(e: unknown): string | null {
  const code = levelCode(e) ?? levelCode((e as { cause?: unknown } | null)?.cause);
  if (code === 'LEVEL_CORRUPTION') return 'Database corrupted';
  if (code === 'LEVEL_IO_ERROR' || code === 'LEVEL_LOCKED') return 'Database I/O error';
  return null;
}

function levelCode(e: unknown): string | null {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('LEVEL_') ? code : null;
}

/** What stands for the data directory in a client's copy of a message. */
export const DATADIR_PLACEHOLDER = '<datadir>';

/**
 * `message` with every mention of the directory `dir` (an absolute path) replaced by
 * DATADIR_PLACEHOLDER: the files under it stay named, relative to it. A longer name that merely
 * starts with `dir` (`/data2` for `/data`) is left alone.
 */
export function hideDirectory(message: string, dir: string): string {
  if (dir === '' || dir === '/' || !message.includes(dir)) return message;
  const escaped = dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return message.replace(new RegExp(`${escaped}(?=$|[/\\s'"(),:;])`, 'g'), DATADIR_PLACEHOLDER);
}
