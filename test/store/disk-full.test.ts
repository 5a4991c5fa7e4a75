// A full disk while a block is written: the import error names the block file and the
// directory (not a bare ENOSPC), nothing is committed, and the store keeps serving what it had.
// /dev/full answers every write with ENOSPC, so the block file is pointed at it.
import { existsSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REGTEST } from '../../src/chain/network.js';
import { openChainStore } from '../../src/store/index.js';
import { regtestReorg, tempDir } from '../support/store.js';

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
      `cannot write block blk00000.dat at offset 0 in ${join(dir.path, 'zecrpc', 'blocks')}`,
    );
    await expect(store.addBlock(base[0]!)).rejects.toThrow('ENOSPC');
    expect(await store.tip()).toBeNull();
    await store.close();
    dir.remove();
  });
});
