// A full disk while blocks are written: the error names what could not be written and where
// (not a bare ENOSPC), nothing is half-committed, and the store keeps serving what it had.
// /dev/full answers every write with ENOSPC, so the block file is pointed at it.
import { existsSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REGTEST } from '../../src/chain/network.js';
import { DiskSpaceLowError, StoreNotWritableError } from '../../src/store/errors.js';
import { ChainStore, checkStoreIntegrity, openChainStore } from '../../src/store/index.js';
import { regtestReorg, tempDir } from '../support/store.js';
import { canMountTmpfs, fillDisk, withTmpfs } from '../support/tmpfs.js';

describe.runIf(existsSync('/dev/full'))('a full disk', () => {
  it('names the file it could not write and keeps the store consistent', async () => {
    const { base } = regtestReorg();
    const dir = tempDir('disk-full');
    let store = await openChainStore({ datadir: dir.path, network: REGTEST });
    await store.close();
    const file = join(dir.path, 'zecrpc', 'blocks', 'blk00000.dat');
    unlinkSync(file);
    symlinkSync('/dev/full', file);
    store = await openChainStore({ datadir: dir.path, network: REGTEST });
    await expect(store.addBlock(base[0]!)).rejects.toThrow(
      `Disk space is low! cannot write block blk00000.dat at offset 0 in ${join(dir.path, 'zecrpc', 'blocks')}`,
    );
    await expect(store.addBlock(base[0]!)).rejects.toThrow('ENOSPC');
    expect(await store.tip()).toBeNull();
    await store.close();
    dir.remove();
  });
});

// The disk fills while the store writes, on a real (tmpfs) file system filled by a file.
describe.runIf(canMountTmpfs)('a disk that fills while the store writes (needs to mount a tmpfs: root on Linux)', () => {
  const { base } = regtestReorg();

  /** Every block's bytes as the store returns them, by height, up to its tip. */
  async function storedChain(store: ChainStore): Promise<(string | null)[]> {
    const out: (string | null)[] = [];
    for (let h = 0; h <= (await store.tip())!.height; h++) {
      const bytes = await store.blockBytes((await store.hashAtHeight(h))!);
      out.push(bytes && Buffer.from(bytes).toString('hex'));
    }
    return out;
  }

  it('a failed LevelDB write stops writing, reads go on, and the reopened store is consistent', async () => {
    await withTmpfs('leveldb-full', 8 * 1024 * 1024, async (mnt) => {
      // Block bytes in LevelDB: its batch is the write that meets the full disk.
      const opts = { datadir: mnt, network: REGTEST, blockData: 'leveldb' as const };
      let store = await openChainStore(opts);
      for (const b of base.slice(0, 10)) await store.addBlock(b);
      const filler = join(mnt, 'filler');
      fillDisk(filler);
      let failure: unknown = null;
      let stored = 10;
      for (const b of base.slice(10)) {
        failure = await store.addBlock(b).then(
          () => null,
          (e: unknown) => e,
        );
        if (failure) break;
        stored++;
      }
      expect(failure).toBeInstanceOf(StoreNotWritableError);
      const failed = ChainStore.hashOf(base[stored]!);
      expect((failure as Error).message).toMatch(
        new RegExp(
          `^Disk space is low! The chain store at ${join(mnt, 'zecrpc')} could not write block ${Buffer.from(failed).reverse().toString('hex')} ` +
            `\\(IO error: ${join(mnt, 'zecrpc', 'index')}/\\d+\\.log: No space left on device\\) and stopped writing; ` +
            'it keeps serving what it holds, and what is on disk is consistent: free space on that file system, then reopen the store',
        ),
      );
      expect(store.notWritable).toBe(failure);
      // No more writes, even once space is freed: LevelDB's log may end in a torn record.
      unlinkSync(filler);
      await expect(store.addBlock(base[stored]!)).rejects.toBe(failure);
      expect((await store.tip())!.height).toBe(stored - 1);
      const served = await storedChain(store);
      expect(served).toEqual(base.slice(0, stored).map((b) => Buffer.from(b).toString('hex')));
      expect(await store.blockIndex(failed)).toBeNull();
      await store.close();

      store = await openChainStore(opts);
      expect(store.notWritable).toBeNull();
      expect(await storedChain(store)).toEqual(served);
      expect((await checkStoreIntegrity(store)).problems).toEqual([]);
      for (const b of base.slice(stored)) await store.addBlock(b);
      expect((await store.tip())!.height).toBe(base.length - 1);
      expect((await checkStoreIntegrity(store)).problems).toEqual([]);
      await store.close();
    });
  });

  it('with a space policy, writes are refused below the free-space minimum and resume once space is freed', async () => {
    await withTmpfs('low-space', 16 * 1024 * 1024, async (mnt) => {
      const store = await openChainStore({
        datadir: mnt,
        network: REGTEST,
        diskSpace: { reserveBytes: 1024 * 1024, minFreeBytes: 2 * 1024 * 1024 },
      });
      try {
        for (const b of base.slice(0, 10)) await store.addBlock(b);
        const filler = join(mnt, 'filler');
        fillDisk(filler);
        await expect(store.addBlock(base[10]!)).rejects.toThrow(
          new DiskSpaceLowError(
            `Disk space is low! 0 MiB free on the file system of the chain store at ${join(mnt, 'zecrpc')}, which writes only with ` +
              'at least 2 MiB free (as zcashd): nothing is stored until space is freed',
          ),
        );
        expect(store.notWritable).toBeNull();
        expect((await store.tip())!.height).toBe(9);
        unlinkSync(filler);
        for (const b of base.slice(10)) await store.addBlock(b);
        expect((await store.tip())!.height).toBe(base.length - 1);
        expect((await checkStoreIntegrity(store)).problems).toEqual([]);
      } finally {
        await store.close();
      }
    });
  });
});
