// LevelDB's own checksums, as `zecrpc verify` checks them: the CRC-32C LevelDB uses (its test
// vectors), and damage found in each kind of file a real classic-level database leaves.
import { readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { describe, expect, it } from 'vitest';
import { checkLevelDbFiles, crc32c, maskedCrc } from '../../src/store/leveldb-files.js';
import { tempDir } from '../support/store.js';

describe('CRC-32C', () => {
  it("gives LevelDB's test values (crc32c_test.cc, RFC 3720)", () => {
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => i))).toBe(0x46dd794e);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => 31 - i))).toBe(0x113fdb5c);
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(crc32c(Buffer.from('world'), 0, 5, crc32c(Buffer.from('hello ')))).toBe(crc32c(Buffer.from('hello world')));
    expect(maskedCrc(crc32c(Buffer.from('foo')))).not.toBe(crc32c(Buffer.from('foo')));
  });
});

/** A database of 3,000 entries: in its log, or (reopened) in a table. */
async function database(path: string, reopen: boolean): Promise<void> {
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' });
  await db.open();
  for (let i = 0; i < 3000; i += 100) {
    await db.batch(
      Array.from({ length: 100 }, (_, j) => ({ type: 'put' as const, key: Buffer.from(`key ${i + j}`), value: Buffer.alloc(40, i + j) })),
    );
  }
  await db.close();
  if (reopen) {
    await db.open();
    await db.close();
  }
}

describe('checkLevelDbFiles', () => {
  it('passes a sound database and finds a flipped bit in a table, the log or the MANIFEST', async () => {
    const dir = tempDir('leveldb-files');
    try {
      await database(join(dir.path, 'tables'), true);
      await database(join(dir.path, 'log'), false);
      for (const sub of ['tables', 'log']) {
        const sound = checkLevelDbFiles(join(dir.path, sub));
        expect(sound.problems).toEqual([]);
        expect(sound.checked).toBeGreaterThan(1);
      }
      const flip = (path: string, at: number) => {
        const b = readFileSync(path);
        b[at]! ^= 0x20;
        writeFileSync(path, b);
      };
      const table = readdirSync(join(dir.path, 'tables')).find((f) => f.endsWith('.ldb'))!;
      flip(join(dir.path, 'tables', table), 10);
      expect(checkLevelDbFiles(join(dir.path, 'tables')).problems).toEqual([
        { where: `LevelDB table ${table} at offset 0`, problem: 'block: checksum mismatch' },
      ]);
      const log = readdirSync(join(dir.path, 'log')).find((f) => f.endsWith('.log'))!;
      flip(join(dir.path, 'log', log), 40_000); // in the second 32 KiB block
      const manifest = readdirSync(join(dir.path, 'log')).find((f) => f.startsWith('MANIFEST-'))!;
      flip(join(dir.path, 'log', manifest), 12);
      const problems = checkLevelDbFiles(join(dir.path, 'log')).problems;
      expect(problems).toHaveLength(2);
      expect(problems[0]).toEqual({
        where: expect.stringMatching(new RegExp(`^LevelDB log ${log} at offset \\d+$`)),
        problem: 'record checksum mismatch',
      });
      expect(problems[1]).toEqual({ where: `LevelDB log ${manifest} at offset 0`, problem: 'record checksum mismatch' });
    } finally {
      dir.remove();
    }
  });

  it('does not count a record a crash cut off at the end of the log as damage', async () => {
    const dir = tempDir('leveldb-files-torn');
    try {
      await database(dir.path, false);
      const log = join(
        dir.path,
        readdirSync(dir.path).find((f) => f.endsWith('.log'))!,
      );
      truncateSync(log, readFileSync(log).length - 30);
      expect(checkLevelDbFiles(dir.path).problems).toEqual([]);
    } finally {
      dir.remove();
    }
  });
});
