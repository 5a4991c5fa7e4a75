// Directory creation one level at a time: nested directories appear, an existing file in the
// way and a file system that refuses new directories (procfs, which made Node's recursive
// mkdir spin forever) give a clear error naming the path.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DirectoryError, ensureDirSync } from '../../src/store/dirs.js';
import { tempDir } from '../support/store.js';

describe('ensureDirSync', () => {
  it('creates missing parents and accepts an existing directory', () => {
    const dir = tempDir('dirs');
    const nested = join(dir.path, 'a', 'b', 'c');
    ensureDirSync(nested);
    expect(existsSync(nested)).toBe(true);
    ensureDirSync(nested);
    writeFileSync(join(dir.path, 'file'), 'x');
    expect(() => ensureDirSync(join(dir.path, 'file', 'sub'))).toThrow(
      `a parent of ${join(dir.path, 'file', 'sub')} is not a directory (ENOTDIR)`,
    );
    expect(() => ensureDirSync(join(dir.path, 'file'))).toThrow(`${join(dir.path, 'file')} is not a directory (ENOTDIR)`);
    dir.remove();
  });

  it.runIf(existsSync('/proc/self'))('refuses /proc/self with an error instead of looping', () => {
    expect(() => ensureDirSync('/proc/self/zecrpc')).toThrow(DirectoryError);
    expect(() => ensureDirSync('/proc/self/zecrpc')).toThrow(
      'cannot create the directory /proc/self/zecrpc: /proc/self does not accept new directories (ENOENT)',
    );
  });
});
