import { closeSync, existsSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTextBounded, TooLargeError } from '../src/bounded-read.js';

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-bounded-'));
function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('readTextBounded', () => {
  it('reads a file of exactly the ceiling, and refuses one byte more, naming the file and why', () => {
    expect(readTextBounded(file('at', 'x'.repeat(100)), { maxBytes: 100 })).toBe('x'.repeat(100));
    const over = file('over', 'x'.repeat(101));
    expect(() => readTextBounded(over, { maxBytes: 100, why: 'the reason' })).toThrow(new TooLargeError(over, 100, 'the reason'));
    expect(() => readTextBounded(over, { maxBytes: 100 })).toThrow(`${over} is larger than 100 bytes`);
  });

  it('reads files larger than one read chunk whole, multi-byte characters across the chunk edge intact', () => {
    const text = 'a' + 'é'.repeat(100_000) + '\n€ end'; // 'a' puts an é across each 64 KiB edge
    expect(readTextBounded(file('big', text), { maxBytes: 1 << 20 })).toBe(text);
    expect(readTextBounded(file('empty', ''), { maxBytes: 10 })).toBe('');
  });

  it('with firstLine, returns the first line and never reads past it; the ceiling applies to that line', () => {
    const path = file('cookie', 'user:pass\n' + 'y'.repeat(1 << 20));
    expect(readTextBounded(path, { maxBytes: 64, firstLine: true })).toBe('user:pass');
    expect(readTextBounded(file('no-newline', 'user:pass'), { maxBytes: 9, firstLine: true })).toBe('user:pass');
    expect(readTextBounded(file('line-at-ceiling', 'x'.repeat(64) + '\nrest'), { maxBytes: 64, firstLine: true })).toBe('x'.repeat(64));
    expect(() => readTextBounded(file('long-line', 'x'.repeat(65) + '\n'), { maxBytes: 64, firstLine: true })).toThrow(TooLargeError);
  });

  it.skipIf(!existsSync('/dev/zero'))('stops a source with no end one byte past the ceiling', () => {
    expect(() => readTextBounded('/dev/zero', { maxBytes: 1 << 20 })).toThrow('/dev/zero is larger than 1048576 bytes');
    expect(() => readTextBounded('/dev/zero', { maxBytes: 1 << 20, firstLine: true })).toThrow(TooLargeError);
  });

  it('reads from a descriptor it is given and leaves it open; file-system errors keep their code', () => {
    const fd = openSync(file('by-fd', 'abc'), 'r');
    expect(readTextBounded(fd, { maxBytes: 10 })).toBe('abc');
    expect(readTextBounded(fd, { maxBytes: 10 })).toBe(''); // still open, at its end
    closeSync(fd);
    expect(() => readTextBounded(join(dir, 'missing'), { maxBytes: 10 })).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(() => readTextBounded(dir, { maxBytes: 10 })).toThrow(expect.objectContaining({ code: 'EISDIR' }));
  });
});
