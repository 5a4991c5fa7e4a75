import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAINNET, REGTEST, TESTNET } from '../../src/chain/network.js';
import { ImportError, checkStoreIntegrity, importBlkFiles, importHex, openChainStore, type ChainStore } from '../../src/store/index.js';
import { vectorPath } from '../support/vectors.js';
import { REGTEST_REORG_DIR, blkRecords, hex, mainnetChain, regtestReorg, tempDir } from '../support/store.js';

const quiet = { progress: 'silent' as const };

describe('hex importer', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: ChainStore;
  beforeEach(async () => {
    dir = tempDir('hex');
    store = await openChainStore({ datadir: join(dir.path, 'data'), network: MAINNET });
  });
  afterEach(async () => {
    await store.close();
    dir.remove();
  });

  it('imports a one-block-per-line file (lightwalletd mainnet 0..20) and is idempotent', async () => {
    const r = await importHex(store, [vectorPath('lightwalletd', 'mainnet_genesis')], quiet);
    expect(r.added).toBe(21);
    expect(r.tipHeight).toBe(20);
    const again = await importHex(store, [vectorPath('lightwalletd', 'mainnet_genesis')], quiet);
    expect(again.added).toBe(0);
    expect(again.duplicates).toBe(21);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
  });

  it('imports a directory of one-block files out of order, buffering children until parents arrive', async () => {
    const chain = mainnetChain().slice(0, 11);
    const src = join(dir.path, 'blocks');
    mkdirSync(src);
    // Names sort so that heights 10..6 come before 0..5.
    chain.forEach((b, h) =>
      writeFileSync(join(src, `${h >= 6 ? 'a' : 'b'}-${String(10 - h).padStart(2, '0')}.hex`), Buffer.from(b).toString('hex') + '\n'),
    );
    const r = await importHex(store, [src], quiet);
    expect(r.added).toBe(11);
    expect(r.tipHeight).toBe(10);
    expect(hex(await store.hashAtHeight(10))).toBe(hex(mainnetChain()[10] && (await store.tip())!.hash));
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
  });

  it('refuses a FIFO inside a directory before reading anything, and names symbolic link loops and missing paths', async () => {
    const src = join(dir.path, 'with-fifo');
    mkdirSync(src);
    writeFileSync(join(src, 'a.hex'), Buffer.from(mainnetChain()[0]!).toString('hex') + '\n');
    execFileSync('mkfifo', [join(src, 'b.hex')]); // nothing ever writes it: opening it would wait for ever
    await expect(importHex(store, [src], quiet)).rejects.toThrow(
      new ImportError(`${join(src, 'b.hex')}: a FIFO in a directory being imported; name it on its own to read it`),
    );
    expect(await store.tip()).toBeNull();
    const loop = join(dir.path, 'loop');
    mkdirSync(loop);
    symlinkSync('.', join(loop, 'self'));
    await expect(importHex(store, [loop], quiet)).rejects.toThrow(
      new ImportError(`${join(loop, 'self')}: a symbolic link loop (it leads back to ${realpathSync(loop)})`),
    );
    symlinkSync('l2', join(dir.path, 'l1'));
    symlinkSync('l1', join(dir.path, 'l2'));
    await expect(importHex(store, [join(dir.path, 'l1')], quiet)).rejects.toThrow(
      new ImportError(`${join(dir.path, 'l1')}: a symbolic link loop (too many levels of symbolic links)`),
    );
    await expect(importHex(store, [join(dir.path, 'missing')], quiet)).rejects.toThrow(
      new ImportError(`${join(dir.path, 'missing')}: no such file or directory`),
    );
  });

  it('reads a pipe named on its own', async () => {
    const fifo = join(dir.path, 'named.fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', `cat > "${fifo}"`], { stdio: ['pipe', 'ignore', 'inherit'] });
    writer.stdin.end(
      mainnetChain()
        .slice(0, 3)
        .map((b) => Buffer.from(b).toString('hex') + '\n')
        .join(''),
    );
    const r = await importHex(store, [fifo], quiet);
    expect([r.added, r.tipHeight]).toEqual([3, 2]);
  });

  it('names the file and line of a non-hex line and keeps what was stored', async () => {
    const f = join(dir.path, 'mixed.hex');
    const chain = mainnetChain();
    writeFileSync(f, [chain[0], chain[1]].map((b) => Buffer.from(b!).toString('hex')).join('\n') + '\nnot-a-block\n');
    const err = await importHex(store, [f], quiet).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toBe(`${f} (line 3): not a block in hex (odd length)`);
    expect((await store.tip())?.height).toBe(1);
  });

  it('names the file and line of an undecodable block', async () => {
    const f = join(dir.path, 'bad.hex');
    const chain = mainnetChain();
    writeFileSync(f, Buffer.from(chain[0]!).toString('hex') + '\n' + Buffer.from(chain[1]!.subarray(0, 1550)).toString('hex') + '\n');
    const err = await importHex(store, [f], quiet).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      new RegExp(`^${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(line 2\\): block 0007bc22.* rejected: it does not decode`),
    );
    expect((await store.tip())?.height).toBe(0);
  });

  it('rejects the corrupted block 202 vector with its merkle root error', async () => {
    const err = await importHex(store, [vectorPath('blocks', 'invalid', 'mainnet-202-bad-coinbase-height.hex')], quiet).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toContain('mainnet-202-bad-coinbase-height.hex (line 1): block');
    expect((err as Error).message).toContain('does not match its transactions');
  });

  it('reports blocks whose parent never appears after storing everything else', async () => {
    const f = join(dir.path, 'gap.hex');
    const chain = mainnetChain();
    writeFileSync(f, [0, 1, 2, 4, 5].map((h) => Buffer.from(chain[h]!).toString('hex')).join('\n'));
    const err = await importHex(store, [f], quiet).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toMatch(/^2 block\(s\) could not be stored because their parent never appeared/);
    expect((err as Error).message).toContain(
      `${f} (line 4) needs parent ${hex(chain[3] && (await import('../../src/store/index.js')).ChainStore.hashOf(chain[3]))}`,
    );
    expect((await store.tip())?.height).toBe(2);
  });

  it('holds a block that waits for its parent once, however often it is read', async () => {
    const f = join(dir.path, 'repeats.hex');
    const chain = mainnetChain();
    writeFileSync(f, [0, 2, 2, 3, 2].map((h) => Buffer.from(chain[h]!).toString('hex')).join('\n'));
    const err = await importHex(store, [f], quiet).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/^2 block\(s\) could not be stored because their parent never appeared/);
  });

  it('refuses a line longer than any block in hex, without gathering it, and keeps the blocks before it', async () => {
    const f = join(dir.path, 'no-line-breaks.hex');
    const chain = mainnetChain();
    const before = [0, 1, 2].map((h) => Buffer.from(chain[h]!).toString('hex')).join('\n') + '\n';
    writeFileSync(f, before + 'ab'.repeat(2_100_000)); // 4.2 MB of hex without a line break
    const err = await importHex(store, [f], quiet).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toBe(`${f} (line 4): longer than any block in hex (more than 4004096 bytes without a line break)`);
    expect((await store.tip())?.height).toBe(2);
  });

  it('stops between blocks when its signal is aborted, and says nothing of blocks left waiting', async () => {
    const f = join(dir.path, 'stop.hex');
    const chain = mainnetChain();
    writeFileSync(f, [0, 1, 3, 2, 4].map((h) => Buffer.from(chain[h]!).toString('hex')).join('\n'));
    const stop = new AbortController();
    // The signal goes off once the second block is stored, as a Ctrl-C would between blocks.
    let stored = 0;
    const watched = new Proxy(store, {
      get(target, name) {
        if (name === 'addBlock')
          return async (bytes: Uint8Array) => {
            const r = await target.addBlock(bytes);
            if (++stored === 2) stop.abort();
            return r;
          };
        const value = Reflect.get(target, name) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const r = await importHex(watched, [f], { ...quiet, signal: stop.signal });
    expect([r.added, r.tipHeight]).toEqual([2, 1]);
  });

  it('imports the regtest reorg vectors (base then branch) into a regtest store', async () => {
    await store.close();
    store = await openChainStore({ datadir: join(dir.path, 'regtest'), network: REGTEST });
    // The directory: its two .hex files in name order (base, branch); manifest.json is skipped.
    const r = await importHex(store, [REGTEST_REORG_DIR], quiet);
    expect(r.added).toBe(66);
    expect(r.reorganizations).toBe(1);
    expect(r.sideChain).toBe(20);
    expect(hex((await store.tip())!.hash)).toBe(regtestReorg().manifest.branch.at(-1)!.hash);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
  });
});

describe('blk file importer', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: ChainStore;
  let blocksDir: string;
  beforeEach(async () => {
    dir = tempDir('blk');
    blocksDir = join(dir.path, 'blocks');
    mkdirSync(blocksDir);
    store = await openChainStore({ datadir: join(dir.path, 'data'), network: MAINNET });
  });
  afterEach(async () => {
    await store.close();
    dir.remove();
  });

  const chain = mainnetChain();
  // zcashd writes blocks in arrival order: shuffle a few so children precede parents.
  const order = [0, 1, 3, 2, 4, 5, 8, 6, 7, 9, 10, 14, 11, 12, 13, 15, 16, 20, 17, 18, 19];

  it('imports out-of-order records across files, with zero pre-allocation and a partial last file', async () => {
    writeFileSync(
      join(blocksDir, 'blk00000.dat'),
      Buffer.concat([
        blkRecords(
          MAINNET.magic,
          order.slice(0, 12).map((h) => chain[h]!),
        ),
        Buffer.alloc(4096),
      ]),
    );
    const last = blkRecords(
      MAINNET.magic,
      order.slice(12).map((h) => chain[h]!),
    );
    const partial = Buffer.concat([last, blkRecords(MAINNET.magic, [chain[19]!]).subarray(0, 500)]);
    writeFileSync(join(blocksDir, 'blk00001.dat'), partial);
    const warnings: string[] = [];
    const r = await importBlkFiles(store, dir.path, { ...quiet, logger: { info: () => undefined, warn: (m) => warnings.push(m) } });
    expect(r.added).toBe(21);
    expect(r.tipHeight).toBe(20);
    expect(r.truncated).toEqual({ file: join(blocksDir, 'blk00001.dat'), offset: last.length });
    expect(warnings[0]).toContain(`blk00001.dat (offset ${last.length}): last record is incomplete`);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);

    // Resume: the checkpoint sits at the partial record; once complete, only it is read again.
    writeFileSync(join(blocksDir, 'blk00001.dat'), Buffer.concat([last, blkRecords(MAINNET.magic, [chain[19]!])]));
    const again = await importBlkFiles(store, blocksDir, quiet);
    expect(again.duplicates + again.added).toBe(1);
    expect(again.truncated).toBeNull();
  });

  it('resumes where the zero tail started, so blocks zcashd later writes into its pre-allocated space are read', async () => {
    const file = join(blocksDir, 'blk00000.dat');
    const chunk = 1 << 20; // zcashd pre-allocates 1 MiB at a time, and writes on into it
    const filled = (blocks: Uint8Array[]) => {
      const records = blkRecords(MAINNET.magic, blocks);
      return Buffer.concat([records, Buffer.alloc(chunk - records.length)]);
    };
    writeFileSync(file, filled(chain.slice(0, 10)));
    expect((await importBlkFiles(store, blocksDir, quiet)).added).toBe(10);
    writeFileSync(file, filled(chain.slice(0, 16))); // same size, six more blocks
    const more = await importBlkFiles(store, blocksDir, quiet);
    expect([more.added, more.duplicates]).toEqual([6, 0]);
    writeFileSync(join(blocksDir, 'blk00001.dat'), blkRecords(MAINNET.magic, chain.slice(16)));
    expect((await importBlkFiles(store, blocksDir, quiet)).added).toBe(5);
    expect((await store.tip())?.height).toBe(20);
  });

  it('re-reads the file of a checkpoint older versions saved past a zero tail', async () => {
    const file = join(blocksDir, 'blk00000.dat');
    const records = blkRecords(MAINNET.magic, chain.slice(0, 12));
    writeFileSync(file, Buffer.concat([blkRecords(MAINNET.magic, chain.slice(0, 8)), Buffer.alloc(records.length)]));
    await importBlkFiles(store, blocksDir, quiet);
    // what an older version saved: the file's end, past the zeros, and no marker
    const source = `blk:${realpathSync(blocksDir)}`;
    await store.putImportCheckpoint(source, { file: 'blk00000.dat', offset: 2 * records.length });
    writeFileSync(file, Buffer.concat([records, Buffer.alloc(records.length)]));
    const r = await importBlkFiles(store, blocksDir, quiet);
    expect([r.added, r.duplicates]).toEqual([4, 8]);
  });

  it('refuses bytes after a long zero run, naming where the zeros start', async () => {
    const file = join(blocksDir, 'blk00000.dat');
    const good = blkRecords(MAINNET.magic, chain.slice(0, 3));
    const zeros = 40 << 20; // more than two 16 MiB windows
    writeFileSync(file, Buffer.concat([good, Buffer.alloc(zeros), Buffer.of(1)]));
    const err = await importBlkFiles(store, blocksDir, quiet).catch((e: unknown) => e);
    expect((err as Error).message).toBe(`${file} (offset ${good.length}): bad magic 00000000, expected 24e92764 for mainnet`);
    expect((await store.tip())?.height).toBe(2);
  });

  it('refuses what cannot be read by position (a FIFO, a device) and names a missing directory', async () => {
    writeFileSync(join(blocksDir, 'blk00000.dat'), blkRecords(MAINNET.magic, chain.slice(0, 2)));
    execFileSync('mkfifo', [join(blocksDir, 'blk00001.dat')]);
    await expect(importBlkFiles(store, blocksDir, quiet)).rejects.toThrow(
      new ImportError(`${join(blocksDir, 'blk00001.dat')}: a FIFO, not a blk file (blk files are read by position)`),
    );
    expect(await store.tip()).toBeNull();
    const withDir = join(dir.path, 'with-dir');
    mkdirSync(join(withDir, 'blk00000.dat'), { recursive: true });
    await expect(importBlkFiles(store, withDir, quiet)).rejects.toThrow(
      new ImportError(`${join(withDir, 'blk00000.dat')}: a directory, not a blk file (blk files are read by position)`),
    );
    await expect(importBlkFiles(store, '/dev/zero', quiet)).rejects.toThrow(
      new ImportError('/dev/zero: a character device, not a blk file (blk files are read by position)'),
    );
    await expect(importBlkFiles(store, join(dir.path, 'missing'), quiet)).rejects.toThrow(
      new ImportError(`${join(dir.path, 'missing')}: no such file or directory`),
    );
  });

  it('names file and offset on bad magic, and keeps the blocks before it', async () => {
    const good = blkRecords(MAINNET.magic, chain.slice(0, 3));
    writeFileSync(join(blocksDir, 'blk00000.dat'), Buffer.concat([good, blkRecords(TESTNET.magic, [chain[3]!])]));
    const err = await importBlkFiles(store, blocksDir, quiet).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toBe(
      `${join(blocksDir, 'blk00000.dat')} (offset ${good.length}): bad magic fa1af9bf, expected 24e92764 for mainnet (these are testnet blk files)`,
    );
    expect((await store.tip())?.height).toBe(2);
  });

  it('treats a record cut off inside an earlier file as corruption', async () => {
    const rec = blkRecords(MAINNET.magic, chain.slice(0, 2));
    writeFileSync(join(blocksDir, 'blk00000.dat'), rec.subarray(0, rec.length - 100));
    writeFileSync(join(blocksDir, 'blk00001.dat'), blkRecords(MAINNET.magic, chain.slice(2, 3)));
    const err = await importBlkFiles(store, blocksDir, quiet).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      `${join(blocksDir, 'blk00000.dat')} (offset ${8 + chain[0]!.length}): block record of ${chain[1]!.length} bytes is cut off at the end of the file (${rec.length - 100} bytes)`,
    );
    expect((await store.tip())?.height).toBe(0);
  });

  it('names file and offset of an undecodable block and of an implausible length', async () => {
    const bad = Buffer.from(chain[1]!);
    bad.fill(0xff, 1487, 1500); // wreck the coinbase right after the header
    const good = blkRecords(MAINNET.magic, [chain[0]!]);
    writeFileSync(join(blocksDir, 'blk00000.dat'), Buffer.concat([good, blkRecords(MAINNET.magic, [bad])]));
    const err = await importBlkFiles(store, blocksDir, quiet).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      new RegExp(`blk00000\\.dat \\(offset ${good.length}\\): block 0007bc22[0-9a-f]+ rejected: it does not decode`),
    );

    const huge = Buffer.alloc(8);
    huge.set(MAINNET.magic);
    huge.writeUInt32LE(50_000_000, 4);
    writeFileSync(join(blocksDir, 'blk00000.dat'), Buffer.concat([good, huge]));
    const err2 = await importBlkFiles(store, blocksDir, quiet).catch((e: unknown) => e);
    expect((err2 as Error).message).toContain(`(offset ${good.length}): implausible block length 50000000`);
    expect((await store.tip())?.height).toBe(0);
  });

  it("re-imports the store's own block files (same framing as zcashd's)", async () => {
    writeFileSync(join(blocksDir, 'blk00000.dat'), blkRecords(MAINNET.magic, chain));
    await importBlkFiles(store, blocksDir, quiet);
    const copy = await openChainStore({ datadir: join(dir.path, 'copy'), network: MAINNET });
    try {
      const r = await importBlkFiles(copy, join(dir.path, 'data', 'zecrpc', 'blocks'), quiet);
      expect(r.added).toBe(21);
      expect(hex((await copy.tip())!.hash)).toBe(hex((await store.tip())!.hash));
    } finally {
      await copy.close();
    }
  });

  it('gives up with a clear error when too many blocks wait for a missing parent', async () => {
    writeFileSync(join(blocksDir, 'blk00000.dat'), blkRecords(MAINNET.magic, chain.slice(1)));
    const err = await importBlkFiles(store, blocksDir, { ...quiet, maxBufferedBytes: 5000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toMatch(
      /blk00000\.dat \(offset \d+\): 2 blocks \(0 MB\) are waiting for parents that have not appeared; the input is not a chain from genesis \(first missing parent: 00040fe8/,
    );
    expect(await store.tip()).toBeNull();
  });
});
