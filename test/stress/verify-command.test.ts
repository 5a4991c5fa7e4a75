// `zecrpc verify`: every damaged record of a store is listed, nothing is changed, and a sound
// store passes. The damage is the same as in corruption.test.ts, made on a closed store.
import { closeSync, openSync, readdirSync, readFileSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHexReversed } from '../../src/codec/hex.js';
import { runVerify } from '../../src/cli/verify.js';
import { keys } from '../../src/store/layout.js';
import { openChainStore } from '../../src/store/index.js';
import { mainnetGenesisRun } from '../support/memory-store.js';
import { tempDir } from '../support/store.js';

const dir = tempDir('stress-verify');
const blocks = mainnetGenesisRun();
const hashes = blocks.map((b) => toHexReversed(decodeBlock(b).hash));
const blockFile = join(dir.path, 'zecrpc', 'blocks', 'blk00000.dat');

function flipBit(offset: number, mask: number): void {
  const fd = openSync(blockFile, 'r+');
  const b = Buffer.alloc(1);
  readSync(fd, b, 0, 1, offset);
  b[0]! ^= mask;
  writeSync(fd, b, 0, 1, offset);
  closeSync(fd);
}

async function verify(): Promise<{ status: number; text: string }> {
  let text = '';
  const status = await runVerify([`-datadir=${dir.path}`], (s) => (text += s));
  return { status, text };
}

beforeAll(async () => {
  const store = await openChainStore({ datadir: dir.path, network: MAINNET });
  for (const b of blocks) await store.addBlock(b);
  await store.close();
});
afterAll(() => dir.remove());

describe('zecrpc verify', () => {
  it('passes a sound store', async () => {
    const r = await verify();
    expect(r.text).toMatch(
      /^checked 21 index records, 21 stored blocks, 21 best-chain entries, [1-9]\d* LevelDB checksums: no damage found\n$/,
    );
    expect(r.status).toBe(0);
  });

  it("refuses a store another process holds with zcashd's lock message", async () => {
    const store = await openChainStore({ datadir: dir.path, network: MAINNET });
    try {
      await expect(verify()).rejects.toThrow(
        `Error: Cannot obtain a lock on data directory ${dir.path}. zecrpc is probably already running.`,
      );
    } finally {
      await store.close();
    }
  });

  it('lists every damaged record and changes nothing', async () => {
    const file = readFileSync(blockFile);
    const at = (h: number) => file.indexOf(Buffer.from(blocks[h]!));
    const header = decodeBlock(blocks[6]!).header.bytes.length;
    flipBit(at(5) + 110, 0x01); // header bit
    flipBit(at(6) + header + 1 + 4 + 1 + 36 + 1 + 1, 0x10); // transaction bit
    const store = await openChainStore({ datadir: dir.path, network: MAINNET });
    const key = keys.height(10);
    const value = Buffer.from((await store.database.get(key))!);
    value[0]! ^= 0x01;
    await store.database.put(key, value);
    // The highest-record mark below the top five records: they would be taken for new blocks.
    await store.database.put(keys.highestRecord(), Buffer.from([15, 0, 0, 0]));
    await store.close();
    const damaged = readFileSync(blockFile);

    const r = await verify();
    expect(r.status).toBe(1);
    const lines = r.text.trim().split('\n');
    // Block problems come in index-key (hash) order, then the best-chain entries by height.
    expect(lines.filter((l) => l.startsWith('DAMAGED '))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^DAMAGED block ${hashes[5]} at ${blockFile.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} offset ${at(5)}: the header hashes to `,
        ),
      ),
      `DAMAGED block ${hashes[6]}: the transactions do not match the header merkle root`,
      'DAMAGED highest-record mark (M): 5 block records lie above its height 15 (the highest at 20)',
      expect.stringMatching(/^DAMAGED best-chain entry at height 10: names block [0-9a-f]{64}, which has no sound index record$/),
      'DAMAGED best-chain entry at height 11: its block does not build on the entry below',
    ]);
    expect(lines.at(-1)).toMatch(/^checked 21 index records, 21 stored blocks, 21 best-chain entries, \d+ LevelDB checksums: 5 damaged$/);
    expect(readFileSync(blockFile).equals(damaged)).toBe(true);
  });

  it("finds a flipped bit in LevelDB's own tables, where values nothing else can check are kept", async () => {
    const own = tempDir('stress-verify-leveldb');
    try {
      const store = await openChainStore({ datadir: own.path, network: MAINNET });
      for (const b of blocks) await store.addBlock(b);
      await store.close();
      // Opening again turns LevelDB's log into a table.
      await (await openChainStore({ datadir: own.path, network: MAINNET })).close();
      const indexDir = join(own.path, 'zecrpc', 'index');
      const table = readdirSync(indexDir).find((f) => f.endsWith('.ldb'))!;
      const path = join(indexDir, table);
      const sound = readFileSync(path);
      const damaged = Buffer.from(sound);
      damaged[100]! ^= 0x04; // inside the first data block, which starts at offset 0
      writeFileSync(path, damaged);
      let text = '';
      expect(await runVerify([`-datadir=${own.path}`], (s) => (text += s))).toBe(1);
      expect(text).toContain(`DAMAGED LevelDB table ${table} at offset 0: block: checksum mismatch\n`);
      expect(readFileSync(path).equals(damaged)).toBe(true);
      writeFileSync(path, sound);
      text = '';
      expect(await runVerify([`-datadir=${own.path}`], (s) => (text += s))).toBe(0);
    } finally {
      own.remove();
    }
  });
});
