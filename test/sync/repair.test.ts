// Issue 41, item 2: a store that lost committed data never opens silently, and `zecrpc verify
// -repair` rebuilds it from its block files. A bit flipped in LevelDB's write-ahead log makes
// LevelDB drop the batch it is in (and the rest of that 32 KiB log block) at the next open, while
// later batches survive; a flipped bit in a best-chain entry's key moves the entry away from its
// height. Both are refused, named, and repaired to a store where every height answers its block.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { afterEach, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHexReversed } from '../../src/codec/hex.js';
import { runVerify } from '../../src/cli/verify.js';
import { keys } from '../../src/store/layout.js';
import { StoreDamagedError } from '../../src/store/open-check.js';
import { AddressIndexRecordLostError, checkStoreIntegrity, openChainStore } from '../../src/store/index.js';
import { storedAddressIndexChoice } from '../../src/store/address-index-record.js';
import { damagedStoreDirectory } from '../../src/sync/repair.js';
import { mainnetGenesisRun } from '../support/memory-store.js';
import { damageLoggedBlock } from '../support/store-io.js';
import { tempDir } from '../support/store.js';

const blocks = mainnetGenesisRun();
const hashes = blocks.map((b) => toHexReversed(decodeBlock(b).hash));

const dirs: { remove(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

/** A store holding mainnet 0..20, one batch per block, closed: its batches are still in LevelDB's log. */
async function importedStore(label: string, addressIndex = true): Promise<string> {
  const dir = tempDir(label);
  dirs.push(dir);
  const store = await openChainStore({ datadir: dir.path, network: MAINNET, addressIndex });
  for (const b of blocks) await store.addBlock(b);
  await store.close();
  return dir.path;
}

async function expectEveryHeight(datadir: string, addressIndex = true): Promise<void> {
  const store = await openChainStore({ datadir, network: MAINNET, addressIndex });
  try {
    expect((await store.tip())?.height).toBe(20);
    for (let h = 0; h <= 20; h++) expect(toHexReversed((await store.hashAtHeight(h))!)).toBe(hashes[h]);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
  } finally {
    await store.close();
  }
}

async function repair(datadir: string, ...options: string[]): Promise<string> {
  let out = '';
  const status = await runVerify([`-datadir=${datadir}`, '-repair', ...options], (s) => void (out += s));
  expect(status).toBe(0);
  return out;
}

/** Moves the best-chain entry of height 15 to a key with one bit flipped (height 65551), as damage would. */
async function flipBitInHeightKey15(datadir: string): Promise<void> {
  const db = new ClassicLevel<Buffer, Buffer>(join(datadir, 'zecrpc', 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
  await db.open();
  const value = (await db.get(keys.height(15)))!;
  await db.batch([
    { type: 'del', key: keys.height(15) },
    { type: 'put', key: keys.height(15 | 0x10000), value },
  ]);
  await db.close();
}

describe('a store that lost committed data', () => {
  it("a flipped bit in LevelDB's log: refused with the missing heights, then repaired from the block files", async () => {
    const datadir = await importedStore('repair-log');
    const indexDir = join(datadir, 'zecrpc', 'index');
    // Block 3's header, inside the batch that stored it.
    const log = damageLoggedBlock(datadir, blocks[3]!);
    expect(log).not.toBeNull();

    // Refused before LevelDB opens the store (it would drop the record), on every attempt.
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(openChainStore({ datadir, network: MAINNET })).rejects.toThrow(
        new RegExp(
          `^The chain store at .* lost data it had committed \\(LevelDB dropped damaged records when it opened\\): LevelDB log ${log} at offset \\d+: ` +
            'record checksum mismatch \\(LevelDB would drop the committed writes from there to the end of its 32 KiB block\\)\\. It is not served\\. ' +
            'Run `zecrpc verify -repair` with the same -datadir and network',
        ),
      );
    }
    // Once something else has opened it (LevelDB replayed the log and dropped the batches), the
    // hole in the best chain is what is refused.
    const raw = new ClassicLevel<Buffer, Buffer>(indexDir, { keyEncoding: 'buffer', valueEncoding: 'buffer' });
    await raw.open();
    await raw.close();
    const refusal =
      /^The chain store at .* lost data it had committed \(LevelDB dropped damaged records when it opened\): best-chain heights 3–(\d+) under the tip 20 have no entry \(h\)\. It is not served\. Run `zecrpc verify -repair` with the same -datadir and network/;
    for (let attempt = 0; attempt < 2; attempt++) {
      const e = await openChainStore({ datadir, network: MAINNET }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(StoreDamagedError);
      expect((e as Error).message).toMatch(refusal);
      expect(Number(refusal.exec((e as Error).message)![1])).toBeLessThan(20);
    }

    const out = await repair(datadir);
    expect(out).toMatch(
      new RegExp(
        `^repaired: the store was rebuilt from its block files \\(21 blocks stored, tip 20 ${hashes[20]}\\); the damaged store is kept in .*zecrpc\\.damaged: delete it once the repaired store serves\\n` +
          'checked 21 index records, 21 stored blocks, 21 best-chain entries, \\d+ LevelDB checksums: no damage found\\n$',
      ),
    );
    expect(existsSync(damagedStoreDirectory(datadir))).toBe(true);
    await expectEveryHeight(datadir);
  });

  it('a flipped bit in a best-chain key: the height has no entry and another lies above the tip; repaired', async () => {
    const datadir = await importedStore('repair-height-key');
    await flipBitInHeightKey15(datadir);

    await expect(openChainStore({ datadir, network: MAINNET })).rejects.toThrow(
      'best-chain heights 15 under the tip 20 have no entry (h); best-chain entries at heights 65551 lie above the tip 20.',
    );
    await repair(datadir);
    await expectEveryHeight(datadir);
  });
  it('a store without the address index is rebuilt without it, and only with -addressindex=0', async () => {
    const datadir = await importedStore('repair-no-address-index', false);
    await flipBitInHeightKey15(datadir);
    await expect(runVerify([`-datadir=${datadir}`, '-repair'], () => undefined)).rejects.toThrow(
      `the chain store at ${join(datadir, 'zecrpc')} keeps no address index (it was created with -addressindex=0), and ` +
        '-addressindex=1 would rebuild it with one. Nothing was moved or changed: run zecrpc verify -repair again with -addressindex=0.',
    );
    expect(existsSync(damagedStoreDirectory(datadir))).toBe(false);
    await repair(datadir, '-addressindex=0');
    await expectEveryHeight(datadir, false);
    const rebuilt = new ClassicLevel<Buffer, Buffer>(join(datadir, 'zecrpc', 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
    await rebuilt.open();
    expect(await rebuilt.get(keys.noAddressIndex())).toBeDefined();
    for (const prefix of keys.addressIndexPrefixes) {
      expect(await rebuilt.keys({ gte: Buffer.of(prefix), lt: Buffer.of(prefix + 1) }).all()).toEqual([]);
    }
    await rebuilt.close();
  });

  it('a store holding blocks whose block-file cursor is lost is refused, and repaired', async () => {
    const datadir = await importedStore('repair-lost-cursor');
    const raw = new ClassicLevel<Buffer, Buffer>(join(datadir, 'zecrpc', 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
    await raw.del(keys.fileCursor());
    await raw.close();
    await expect(openChainStore({ datadir, network: MAINNET })).rejects.toThrow('the block-file cursor (F) is missing');
    await repair(datadir);
    await expectEveryHeight(datadir);
  });

  it('a store without the address index whose record of it is lost is refused, not served as one with an empty index; repaired as asked', async () => {
    const datadir = await importedStore('repair-lost-no-address-index-record', false);
    const raw = new ClassicLevel<Buffer, Buffer>(join(datadir, 'zecrpc', 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
    await raw.del(keys.noAddressIndex());
    await raw.close();
    const tip = toHexReversed(decodeBlock(blocks[20]!).hash);
    // Refused alike whichever -addressindex is asked: with =0, what the store's owner always gave, too.
    const refusedWithout = await openChainStore({ datadir, network: MAINNET, addressIndex: false }).catch((e: unknown) => e);
    expect(refusedWithout).toBeInstanceOf(AddressIndexRecordLostError);
    const refusal = await openChainStore({ datadir, network: MAINNET }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(AddressIndexRecordLostError);
    expect((refusedWithout as Error).message).toBe((refusal as Error).message);
    expect((refusal as Error).message).toBe(
      `the chain store at ${join(datadir, 'zecrpc')} has no record of being created without the address index, yet its tip block ` +
        `${tip} (height 20) has no address-index entry: the record that says the store keeps no index (written when it was ` +
        'created with -addressindex=0) is probably lost, and serving the store as one with the index would answer the address ' +
        'calls from an empty index. Rebuild it with zecrpc verify -repair -addressindex=0 (or -addressindex=1 if it was created ' +
        'with the index).',
    );
    // What it was created with cannot be told: the repair rebuilds it with the -addressindex given.
    expect(await storedAddressIndexChoice(join(datadir, 'zecrpc'))).toBeNull();
    await repair(datadir, '-addressindex=0');
    await expectEveryHeight(datadir, false);
  });

  it('a store that keeps the address index opens and is recorded so, its tip having its index entry', async () => {
    const datadir = await importedStore('repair-keeps-index-record');
    expect(await storedAddressIndexChoice(join(datadir, 'zecrpc'))).toBe(true);
    await expectEveryHeight(datadir);
  });

  it("a repair resumed with the other -addressindex is refused and moves nothing, then resumes with the store's own", async () => {
    const datadir = await importedStore('repair-resume-no-address-index', false);
    // A first `verify -repair -addressindex=0` that stopped right after moving the store aside.
    renameSync(join(datadir, 'zecrpc'), damagedStoreDirectory(datadir));
    const refused = await runVerify([`-datadir=${datadir}`, '-repair'], () => undefined).catch((e: unknown) => e);
    expect((refused as Error).message).toBe(
      `the chain store at ${damagedStoreDirectory(datadir)} keeps no address index (it was created with -addressindex=0), and ` +
        '-addressindex=1 would rebuild it with one. Nothing was moved or changed: run zecrpc verify -repair again with -addressindex=0.',
    );
    expect(existsSync(join(datadir, 'zecrpc'))).toBe(false);
    expect(existsSync(join(damagedStoreDirectory(datadir), 'index'))).toBe(true);
    await repair(datadir, '-addressindex=0');
    await expectEveryHeight(datadir, false);
  });

  it('a resumed repair whose rebuilt store was created with the other -addressindex says to rerun the repair with that one', async () => {
    const datadir = await importedStore('repair-resume-rebuilt-mismatch');
    renameSync(join(datadir, 'zecrpc'), damagedStoreDirectory(datadir));
    // The damaged store's own record unreadable; the store being rebuilt was created without the index.
    rmSync(join(damagedStoreDirectory(datadir), 'index'), { recursive: true });
    await (await openChainStore({ datadir, network: MAINNET, addressIndex: false })).close();
    await expect(runVerify([`-datadir=${datadir}`, '-repair'], () => undefined)).rejects.toThrow(
      `the chain store being rebuilt at ${join(datadir, 'zecrpc')} keeps no address index (it was created with -addressindex=0), ` +
        'and -addressindex=1 asks for one. Nothing was moved or changed: run zecrpc verify -repair again with -addressindex=0.',
    );
    expect(existsSync(damagedStoreDirectory(datadir))).toBe(true);
  });

  it('a store that keeps the address index is not rebuilt with -addressindex=0', async () => {
    const datadir = await importedStore('repair-keeps-address-index');
    await expect(runVerify([`-datadir=${datadir}`, '-repair', '-addressindex=0'], () => undefined)).rejects.toThrow(
      `the chain store at ${join(datadir, 'zecrpc')} was created to keep the address index (with -addressindex=1, the default, ` +
        'or by a zecrpc that always builds it), and -addressindex=0 would rebuild it without one. ' +
        'Nothing was moved or changed: run zecrpc verify -repair again with -addressindex=1.',
    );
    expect(existsSync(damagedStoreDirectory(datadir))).toBe(false);
    await expectEveryHeight(datadir);
  });

  it('refuses to set aside a store another process has open, and leaves it in place', async () => {
    const datadir = await importedStore('repair-held');
    const serving = await openChainStore({ datadir, network: MAINNET });
    try {
      await expect(runVerify([`-datadir=${datadir}`, '-repair'], () => undefined)).rejects.toThrow(
        /is open in another process: stop the server \(or the import\) holding it/,
      );
      expect(existsSync(damagedStoreDirectory(datadir))).toBe(false);
      expect((await serving.tip())?.height).toBe(20);
    } finally {
      await serving.close();
    }
  });
});
