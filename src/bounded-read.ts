/**
 * Reading the files and streams an operator names (zcash.conf, cookie files, `@file` and `-` hex,
 * checkpoint files, zecrpc-cli's -stdin) with a ceiling on their size.
 *
 * `readFileSync` reads a source whose size it cannot know beforehand (`/dev/zero`, a pipe, a
 * character device, a multi-gigabyte dump named by mistake) until memory runs out or V8's string
 * limit throws after minutes. These stop one byte past the ceiling, with an error naming the
 * source and the limit. Errors from the file system (ENOENT, EISDIR, EACCES…) pass through
 * unchanged, `code` included, so callers word them as before.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** A source larger than its ceiling. */
export class TooLargeError extends Error {
  constructor(
    readonly source: string,
    readonly maxBytes: number,
    why?: string,
  ) {
    super(`${source} is larger than ${maxBytes} bytes${why ? `, ${why}` : ''}`);
  }
}

export interface BoundedReadOptions {
  /** The most bytes the source may hold (with `firstLine`, its first line). */
  maxBytes: number;
  /** Stop at the first `\n` and return the text before it (nothing past the chunk holding it is read). */
  firstLine?: boolean;
  /** Why the ceiling is where it is, appended to the error ("the most a JSON-RPC request can carry"). */
  why?: string;
}

const CHUNK_BYTES = 1 << 16;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * readSync, waiting out EAGAIN: standard input may be a non-blocking pipe (one a parent process
 * set so), whose read fails while its writer has nothing ready yet.
 */
function readWaiting(fd: number, into: Buffer): number {
  for (;;) {
    try {
      return readSync(fd, into, 0, into.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(pause, 0, 0, 10);
    }
  }
}

/**
 * The UTF-8 text of a file (by path) or of an open descriptor (0 for standard input), refused
 * with `TooLargeError` once it passes `maxBytes` (with `firstLine`, once the first line does).
 * A descriptor passed in is left open.
 */
export function readTextBounded(source: string | number, options: BoundedReadOptions): string {
  const { maxBytes } = options;
  const fd = typeof source === 'number' ? source : openSync(source, 'r');
  const name = typeof source === 'number' ? (source === 0 ? 'standard input' : `file descriptor ${source}`) : source;
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
      const n = readWaiting(fd, chunk);
      if (n === 0) break;
      const got = chunk.subarray(0, n);
      const newline = options.firstLine ? got.indexOf(10) : -1;
      if (newline >= 0) {
        chunks.push(got.subarray(0, newline));
        total += newline;
        break;
      }
      chunks.push(got);
      total += n;
      if (total > maxBytes) throw new TooLargeError(name, maxBytes, options.why);
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    if (typeof source !== 'number') closeSync(fd);
  }
}

/**
 * RPC cookie files: zcashd writes `__cookie__:` and 64 hex digits. 64 KiB leaves room for any
 * hand-written user:password line.
 */
export const COOKIE_FILE_LIMIT: BoundedReadOptions = { maxBytes: 64 * 1024, why: 'too large for an RPC cookie file' };
