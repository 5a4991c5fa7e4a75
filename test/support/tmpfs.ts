// Small real file systems for full-disk tests: a tmpfs of a given size, filled to its last byte.
// Mounting needs root (or CAP_SYS_ADMIN); where it is impossible the tests that need it are skipped.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function mount(dir: string, bytes: number): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'ignore' });
}

function unmount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'ignore' });
  } catch {
    // Still busy (a failed test left a file open): detach it now, it goes when the last file closes.
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
  }
}

function probe(): boolean {
  if (process.platform !== 'linux') return false;
  const dir = mkdtempSync(join(tmpdir(), 'zecrpc-tmpfs-probe-'));
  try {
    mount(dir, 1024 * 1024);
    unmount(dir);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether this process may mount a tmpfs (root on Linux; not in unprivileged CI containers). */
export const canMountTmpfs = probe();

/** Runs `fn` on a fresh tmpfs of `bytes` bytes, unmounted afterwards whatever happens. */
export async function withTmpfs<T>(label: string, bytes: number, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), `zecrpc-${label}-`));
  mount(dir, bytes);
  try {
    return await fn(dir);
  } finally {
    unmount(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes a file at `path` until the file system is full to the last byte; returns its size. */
export function fillDisk(path: string): number {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(1024 * 1024, 0x5a);
  let size = 0;
  try {
    // Large writes first, then single bytes for the tail of the last page.
    for (const step of [chunk.length, 4096, 1]) {
      try {
        for (;;) size += writeSync(fd, chunk, 0, step);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      }
    }
  } finally {
    closeSync(fd);
  }
  return size;
}
