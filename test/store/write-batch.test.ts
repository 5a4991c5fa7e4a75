// The store's direct LevelDB batch: the same bytes as abstract-level's batch would write, plain
// Uint8Arrays never stringified, and the open/operation checks abstract-level would make.
import { ClassicLevel } from 'classic-level';
import { afterAll, describe, expect, it } from 'vitest';
import type { BatchOp } from '../../src/store/block-data.js';
import { writeBatch } from '../../src/store/write-batch.js';
import { tempDir } from '../support/store.js';

describe('writeBatch', () => {
  const dir = tempDir('write-batch');
  afterAll(() => dir.remove());

  it('writes puts and deletes, Buffers and plain Uint8Arrays alike', async () => {
    const db = new ClassicLevel<Buffer, Buffer>(dir.path, { keyEncoding: 'buffer', valueEncoding: 'buffer' });
    await db.open();
    await db.put(Buffer.from('gone'), Buffer.from('x'));
    // A plain Uint8Array view into a larger buffer: only its own bytes may be written.
    const backing = Uint8Array.from([9, 9, 1, 2, 3, 9]);
    const ops: BatchOp[] = [
      { type: 'put', key: Buffer.from('a'), value: Buffer.from([0xde, 0xad]) },
      { type: 'put', key: Buffer.from('b'), value: backing.subarray(2, 5) },
      { type: 'put', key: Buffer.from('empty'), value: new Uint8Array(0) },
      { type: 'del', key: Buffer.from('gone') },
    ];
    await writeBatch(db, ops, { sync: false });
    expect(db.getSync(Buffer.from('a'))?.toString('hex')).toBe('dead');
    expect(db.getSync(Buffer.from('b'))?.toString('hex')).toBe('010203');
    expect(db.getSync(Buffer.from('empty'))?.length).toBe(0);
    expect(db.getSync(Buffer.from('gone'))).toBeUndefined();
    await expect(writeBatch(db, [{ type: 'merge', key: Buffer.from('a') } as unknown as BatchOp], { sync: false })).rejects.toThrow(
      "an operation must have a type property that is 'put' or 'del'",
    );
    await db.close();
    await expect(writeBatch(db, ops, { sync: true })).rejects.toMatchObject({ code: 'LEVEL_DATABASE_NOT_OPEN' });
  });
});
