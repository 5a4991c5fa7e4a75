/**
 * Creates a directory and its missing parents one level at a time. Node's own recursive mkdir
 * never returns on some special file systems (`-datadir=/proc/self` spun at 100 % CPU: procfs
 * answers ENOENT for a child of an existing directory and the recursive walk retries forever);
 * creating each missing level with a plain mkdir turns that into a clear error.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export class DirectoryError extends Error {
  constructor(path: string, code: string | undefined, detail: string) {
    super(`cannot create the directory ${path}: ${detail}${code ? ` (${code})` : ''}`);
    this.name = 'DirectoryError';
  }
}

export function ensureDirSync(path: string, mode?: number): void {
  const target = resolve(path);
  const missing: string[] = [];
  let cursor = target;
  for (;;) {
    try {
      const st = statSync(cursor);
      if (!st.isDirectory()) throw new DirectoryError(target, 'ENOTDIR', `${cursor} is not a directory`);
      break;
    } catch (e) {
      if (e instanceof DirectoryError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') throw new DirectoryError(target, code, `a parent of ${cursor} is not a directory`);
      if (code !== 'ENOENT') throw new DirectoryError(target, code, (e as Error).message);
      missing.push(cursor);
      const parent = dirname(cursor);
      if (parent === cursor) break;
      cursor = parent;
    }
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir, mode === undefined ? undefined : { mode });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      throw new DirectoryError(target, code, code === 'ENOENT' ? `${dirname(dir)} does not accept new directories` : (e as Error).message);
    }
  }
}
