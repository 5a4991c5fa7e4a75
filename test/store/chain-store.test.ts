import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAINNET, REGTEST, TESTNET } from '../../src/chain/network.js';
import { blockWork, chainWorkHex } from '../../src/chain/pow.js';
import { decodeBlockHeader } from '../../src/codec/block.js';
import { reversedHexToBytes } from '../../src/codec/hex.js';
import {
  BlockRejectedError,
  StoreOpenError,
  UnknownParentError,
  checkStoreIntegrity,
  openChainStore,
  type ChainStore,
} from '../../src/store/index.js';
import { readHexVector } from '../support/vectors.js';
import { hex, mainnetChain, tempDir, testnetChain } from '../support/store.js';

const BLOCK1 = '0007bc227e1c57a4a70e237cad00e7b7ce565155ab49166bc57397a26d339283';
const BLOCK1_COINBASE = '851bf6fbf7a976327817c738c489d7fa657752445430922d94c983c0b9ed4609';
const GENESIS_COINBASE = 'c4eaa58879081de3c24a7b117ed2b28300e7ec4c4c1dff1d3f1268b7857a4ddb';

describe.each(['flat', 'leveldb'] as const)('chain store with %s block data', (blockData) => {
  let dir: ReturnType<typeof tempDir>;
  let store: ChainStore;
  beforeEach(async () => {
    dir = tempDir('store');
    store = await openChainStore({ datadir: dir.path, network: MAINNET, blockData });
  });
  afterEach(async () => {
    await store.close();
    dir.remove();
  });

  it('starts empty', async () => {
    expect(await store.tip()).toBeNull();
    expect(await store.bestHeaderHeight()).toBe(-1);
    expect(await store.hashAtHeight(0)).toBeNull();
  });

  it('imports mainnet 0..20 and serves index, bytes, heights and txids', async () => {
    const chain = mainnetChain();
    expect(chain).toHaveLength(21);
    for (const [h, bytes] of chain.entries()) {
      const r = await store.addBlock(bytes);
      expect(r.status).toBe('connected');
      expect(r.height).toBe(h);
    }
    const tip = await store.tip();
    expect(tip?.height).toBe(20);
    expect(await store.bestHeaderHeight()).toBe(20);
    expect(hex(await store.hashAtHeight(0))).toBe(MAINNET.genesisHash);
    expect(hex(await store.hashAtHeight(1))).toBe(BLOCK1);
    expect(await store.hashAtHeight(21)).toBeNull();

    const e1 = await store.blockIndex(reversedHexToBytes(BLOCK1));
    expect(e1).not.toBeNull();
    expect(e1!.height).toBe(1);
    expect(hex(e1!.prevHash)).toBe(MAINNET.genesisHash);
    expect(chainWorkHex(e1!.chainWork)).toBe('0'.repeat(60) + '4000');
    expect(e1!.size).toBe(1617);
    expect(e1!.header.length).toBe(1487);
    expect(e1!.txCount).toBe(1);
    expect(e1!.haveData).toBe(true);
    expect(e1!.onBestChain).toBe(true);
    // Chain work is the running sum of each header's own work (difficulty rises after block 16 or so).
    const expectedWork = chain.reduce((w, b) => w + blockWork(decodeBlockHeader(b).bits), 0n);
    expect(expectedWork).toBeGreaterThan(21n * 0x2000n);
    expect((await store.blockIndex(tip!.hash))!.chainWork).toBe(expectedWork);
    expect((await store.blockIndex((await store.hashAtHeight(10))!))!.chainWork).toBe(11n * 0x2000n);

    for (const [h, bytes] of chain.entries()) {
      const stored = await store.blockBytes((await store.hashAtHeight(h))!);
      expect(Buffer.from(stored!).equals(Buffer.from(bytes))).toBe(true);
    }
    const loc = await store.txLocation(reversedHexToBytes(BLOCK1_COINBASE));
    expect(loc).toEqual({ blockHash: reversedHexToBytes(BLOCK1), height: 1, index: 0 });
    // zcashd never indexes the genesis coinbase.
    expect(await store.txLocation(reversedHexToBytes(GENESIS_COINBASE))).toBeNull();

    const report = await checkStoreIntegrity(store);
    expect(report.problems).toEqual([]);
    expect(report.blocks).toBe(21);
    expect(report.txEntries).toBe(20);
    // Block files exactly (8-byte frame per block), plus LevelDB's own estimate of its tables.
    const blockFiles = blockData === 'flat' ? statSync(join(dir.path, 'zecrpc', 'blocks', 'blk00000.dat')).size : 0;
    if (blockData === 'flat') expect(blockFiles).toBe(chain.reduce((n, b) => n + 8 + b.length, 0));
    const index = await store.database.approximateSize(Buffer.of(0), Buffer.of(0xff));
    expect(await store.sizeOnDisk()).toBe(blockFiles + index);
  });

  it('serializes concurrent addBlock calls in call order', async () => {
    const results = await Promise.all(mainnetChain().map((b) => store.addBlock(b)));
    expect(results.map((r) => r.status)).toEqual(Array(21).fill('connected'));
    expect((await store.tip())?.height).toBe(20);
  });

  it('treats a re-added block as a duplicate and keeps everything after reopening', async () => {
    const chain = mainnetChain().slice(0, 5);
    for (const b of chain) await store.addBlock(b);
    expect((await store.addBlock(chain[3]!)).status).toBe('duplicate');
    await store.close();
    store = await openChainStore({ datadir: dir.path, network: MAINNET, blockData });
    expect((await store.tip())?.height).toBe(4);
    expect((await store.addBlock(chain[4]!)).status).toBe('duplicate');
    const next = mainnetChain()[5]!;
    expect((await store.addBlock(next)).status).toBe('connected');
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
  });

  it('rejects bad blocks with specific errors and stores nothing for them', async () => {
    const chain = mainnetChain();
    for (const b of chain.slice(0, 3)) await store.addBlock(b);
    const before = await store.sizeOnDisk();

    const bad = readHexVector('blocks', 'invalid', 'mainnet-202-bad-coinbase-height.hex');
    const e1 = await store.addBlock(bad).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(BlockRejectedError);
    expect((e1 as BlockRejectedError).reason).toBe('merkle-root');
    expect((e1 as Error).message).toMatch(/merkle root .* does not match its transactions/);

    const orphan = readHexVector('blocks', 'mainnet', '202.hex');
    const e2 = await store.addBlock(orphan).catch((e: unknown) => e);
    expect(e2).toBeInstanceOf(UnknownParentError);
    expect((e2 as Error).message).toContain('is not in the store');
    expect(hex((e2 as UnknownParentError).prevHash)).toMatch(/^[0-9a-f]{64}$/);
    expect(await store.blockIndex((e2 as UnknownParentError).blockHash!)).toBeNull();

    const e3 = await store.addBlock(testnetChain()[0]!).catch((e: unknown) => e);
    expect((e3 as BlockRejectedError).reason).toBe('genesis');
    expect((e3 as Error).message).toContain(`not the mainnet genesis block ${MAINNET.genesisHash}`);

    const e4 = await store.addBlock(Uint8Array.of(4, 0, 0, 0, 1, 2, 3)).catch((e: unknown) => e);
    expect((e4 as BlockRejectedError).reason).toBe('decode');
    expect((e4 as Error).message).toContain('header does not decode');

    const truncated = chain[3]!.subarray(0, chain[3]!.length - 10);
    const e5 = await store.addBlock(truncated).catch((e: unknown) => e);
    expect((e5 as BlockRejectedError).reason).toBe('decode');
    expect((e5 as Error).message).toMatch(/^block 00[0-9a-f]{62} rejected: it does not decode \(.*end of data/);

    const trailing = Uint8Array.from([...chain[3]!, 0]);
    const e6 = await store.addBlock(trailing).catch((e: unknown) => e);
    expect((e6 as Error).message).toContain('1 unexpected bytes after the block');

    expect((await store.tip())?.height).toBe(2);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
    // Only LevelDB log growth at most: no block bytes were appended for rejected blocks.
    expect((await store.addBlock(chain[3]!)).status).toBe('connected');
    expect(await store.sizeOnDisk()).toBeGreaterThanOrEqual(before);
  });
});

describe('chain store networks', () => {
  it('imports testnet 0..10 with testnet chainwork', async () => {
    const dir = tempDir('testnet');
    const store = await openChainStore({ datadir: dir.path, network: TESTNET });
    try {
      for (const b of testnetChain()) expect((await store.addBlock(b)).status).toBe('connected');
      expect(hex(await store.hashAtHeight(0))).toBe(TESTNET.genesisHash);
      const tip = await store.tip();
      expect(tip?.height).toBe(10);
      expect((await store.blockIndex(tip!.hash))!.chainWork).toBe(11n * 32n);
    } finally {
      await store.close();
      dir.remove();
    }
  });

  it('rejects blocks of another network by their solution size', async () => {
    const dir = tempDir('regtest');
    const store = await openChainStore({ datadir: dir.path, network: REGTEST });
    try {
      const e = await store.addBlock(mainnetChain()[0]!).catch((x: unknown) => x);
      expect((e as BlockRejectedError).reason).toBe('network');
      expect((e as Error).message).toContain('Equihash solution is 1344 bytes, regtest blocks have 36');
    } finally {
      await store.close();
      dir.remove();
    }
  });

  it('refuses to open a store of another network', async () => {
    const dir = tempDir('mismatch');
    try {
      const store = await openChainStore({ datadir: dir.path, network: MAINNET });
      await store.addBlock(mainnetChain()[0]!);
      await store.close();
      const err = await openChainStore({ datadir: dir.path, network: TESTNET }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreOpenError);
      expect((err as Error).message).toContain('holds mainnet blocks, not testnet');
      // The failed open must not have damaged the store.
      const again = await openChainStore({ datadir: dir.path, network: MAINNET });
      expect((await again.tip())?.height).toBe(0);
      await again.close();
    } finally {
      dir.remove();
    }
  });

  it('refuses a second writer on the same store with a clear error', async () => {
    const dir = tempDir('locked');
    const store = await openChainStore({ datadir: dir.path, network: MAINNET });
    try {
      const err = await openChainStore({ datadir: dir.path, network: MAINNET }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreOpenError);
      expect((err as Error).message).toMatch(/cannot open the chain store at .*zecrpc/);
    } finally {
      await store.close();
      dir.remove();
    }
  });

  it('refuses an index whose CURRENT file is gone instead of starting it empty, which would delete its tables', async () => {
    const dir = tempDir('no-current');
    try {
      const store = await openChainStore({ datadir: dir.path, network: MAINNET });
      for (const b of mainnetChain().slice(0, 5)) await store.addBlock(b);
      await store.close();
      const index = join(dir.path, 'zecrpc', 'index');
      const current = readFileSync(join(index, 'CURRENT'), 'utf8');
      rmSync(join(index, 'CURRENT'));
      const before = readdirSync(index).sort();
      const err = await openChainStore({ datadir: dir.path, network: MAINNET }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreOpenError);
      expect((err as Error).message).toMatch(
        new RegExp(
          `^cannot open the chain store at .*zecrpc: its index .*index has no CURRENT file but holds \\d+ LevelDB files .*Restore CURRENT .*"${current.trim()}"`,
        ),
      );
      expect(readdirSync(index).sort()).toEqual(before); // nothing deleted
      writeFileSync(join(index, 'CURRENT'), current);
      const again = await openChainStore({ datadir: dir.path, network: MAINNET });
      expect((await again.tip())?.height).toBe(4);
      await again.close();
    } finally {
      dir.remove();
    }
  });
});
