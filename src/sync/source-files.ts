/**
 * The files an import is named: their status with a message that says what is wrong (a missing
 * path, a symbolic link loop, no permission), and what kind of non-regular file one is.
 */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { ImportError } from './block-sink.js';

const STAT_FAILURES: Record<string, string> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'no such file or directory (a part of the path is not a directory)',
  ELOOP: 'a symbolic link loop (too many levels of symbolic links)',
  EACCES: 'permission denied',
};

/** `stat(path)`, its failure an ImportError naming the path and the reason. */
export async function statSource(path: string): Promise<Stats> {
  try {
    return await stat(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    throw new ImportError(`${path}: ${STAT_FAILURES[code] ?? `cannot be read (${code || (e as Error).message})`}`);
  }
}

/** What a file that is not a regular file is, for messages. */
export function specialKind(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}
