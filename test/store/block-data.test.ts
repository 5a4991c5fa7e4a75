import { mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { afterEach, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlockHeader } from '../../src/codec/block.js';
import { sha256d } from '../../src/crypto/hash.js';
import { blockFileName, FlatFileBlockData } from '../../src/store/block-data.js';
import { readHexVector } from '../support/vectors.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function openData() {
  const dir = mkdtempSync(join(tmpdir(), 'zecrpc-blockdata-'));
  dirs.push(dir);
  const db = new ClassicLevel<Buffer, Buffer>(join(dir, 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
  await db.open();
  const data = new FlatFileBlockData(join(dir, 'blocks'), MAINNET.magic, db, false);
  await data.open();
  return { dir, db, data };
}

async function store(data: FlatFileBlockData, db: ClassicLevel<Buffer, Buffer>, bytes: Uint8Array) {
  const p = await data.prepare(new Uint8Array(32), bytes);
  // The store itself batches these ops with its index writes; here they are written alone.
  await db.batch(p.ops.map((o) => (o.type === 'put' ? { ...o, value: Buffer.from(o.value) } : o)));
  p.commit();
  return p.location;
}

describe('flat block files', () => {
  it('read back small blocks (in place) and large ones (thread pool) byte for byte', async () => {
    const { dir, db, data } = await openData();
    // Reads are verified (the header must hash to the requested block), so every test block
    // starts with a real header; the rest is filler of the size under test.
    const header = decodeBlockHeader(readHexVector('blocks', 'mainnet', '1687107.hex')).bytes;
    const hash = sha256d(header);
    const sizes = [header.length, header.length + 1_000, 64 * 1024, 64 * 1024 + 1, 1_500_000];
    const blocks = sizes.map((n) => {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 0xff);
      b.set(header);
      return b;
    });
    const locations = [];
    for (const b of blocks) locations.push(await store(data, db, b));
    for (let i = 0; i < blocks.length; i++) {
      const back = await data.read(hash, locations[i]!, blocks[i]!.length);
      expect(Buffer.from(back).equals(Buffer.from(blocks[i]!)), `size ${sizes[i]}`).toBe(true);
    }
    // A file cut short outside zecrpc: both paths name the file and the missing range.
    await data.close();
    truncateSync(join(dir, 'blocks', blockFileName(0)), locations[1]!.offset + 10);
    const reopened = new FlatFileBlockData(join(dir, 'blocks'), MAINNET.magic, db, false);
    await expect(reopened.read(hash, locations[1]!, sizes[1]!)).rejects.toThrow(/blk00000\.dat ends before offset/);
    await expect(reopened.read(hash, locations[4]!, sizes[4]!)).rejects.toThrow(/blk00000\.dat ends before offset/);
    await reopened.close();
    await db.close();
  });
});
