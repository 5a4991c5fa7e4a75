// Group commit (ChainStoreOptions.groupCommit, as `zecrpc import` opens the store): blocks that
// extend the tip are folded into one LevelDB batch per group and written while the next ones are
// validated. Whatever the grouping, the store must end byte for byte as one written block by
// block — shielded blocks, a reorganization across them, side blocks — and a failed group write
// must stop the store without leaving anything half-written.
import { describe, expect, it } from 'vitest';
import { checkStoreIntegrity, openChainStore, type ChainStoreOptions } from '../../src/store/index.js';
import { keys } from '../../src/store/layout.js';
import { REGTEST } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { decodeTransaction } from '../../src/codec/tx/transaction.js';
import { BlockRejectedError } from '../../src/store/errors.js';
import { buildBlock, buildChain, regtestGenesis } from '../../test-vectors/regtest-builder.js';
import { encodeV1Transaction } from '../support/address-index-chain.js';
import { SHIELDED_REGTEST } from '../../test-vectors/regtest-shielded.js';
import { tempDir } from '../support/store.js';
import { shieldedArrivalOrder } from '../support/shielded-arrival.js';
import { suiteTempDirs } from '../support/suite-dirs.js';
import { dumpStoreIndex, interceptWrites } from '../support/store-io.js';

describe('group commit', () => {
  const fresh = suiteTempDirs();
  const { blocks, expectedTip } = shieldedArrivalOrder();

  async function importAll(datadir: string, groupCommit: ChainStoreOptions['groupCommit']) {
    const store = await openChainStore({ datadir, network: SHIELDED_REGTEST, groupCommit });
    const statuses: string[] = [];
    for (const b of blocks) statuses.push((await store.addBlock(b.bytes)).status);
    expect((await store.tip())?.hash).toEqual(expectedTip.hash);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
    await store.close();
    return statuses;
  }

  it('ends with exactly the LevelDB contents of block-by-block commits, reorganization included', async () => {
    const plainDir = fresh('group-plain');
    const plain = await importAll(plainDir, false);
    expect(plain.filter((s) => s === 'reorganized')).toHaveLength(2);
    const expected = await dumpStoreIndex(plainDir);
    for (const limits of [true, { maxBlocks: 7, maxBytes: 1 << 30 }, { maxBlocks: 1000, maxBytes: 20_000 }]) {
      const dir = fresh('group');
      expect(await importAll(dir, limits)).toEqual(plain);
      const got = await dumpStoreIndex(dir);
      expect(got.size).toBe(expected.size);
      for (const [k, v] of expected) if (got.get(k) !== v) expect({ key: k, value: got.get(k) }).toEqual({ key: k, value: v });
    }
  }, 120_000);

  it('serves reads from pending blocks, and flush() puts them on disk', async () => {
    const datadir = fresh('group-pending');
    const store = await openChainStore({ datadir, network: SHIELDED_REGTEST, groupCommit: { maxBlocks: 1000, maxBytes: 1 << 30 } });
    for (const b of blocks.slice(0, 120)) await store.addBlock(b.bytes);
    await store.putImportCheckpoint('test', { offset: 120 });
    // Nothing reached LevelDB yet: the tip key is still absent there, but the store reads its pending writes.
    expect(store.database.getSync(keys.tip())).toBeUndefined();
    expect((await store.tip())?.height).toBe(119);
    expect(await store.hashAtHeight(119)).toEqual(blocks[119]!.hash);
    expect((await store.blockIndex(blocks[60]!.hash))?.height).toBe(60);
    expect(await store.getImportCheckpoint('test')).toEqual({ offset: 120 });
    expect(Buffer.from((await store.blockBytes(blocks[100]!.hash))!).equals(Buffer.from(blocks[100]!.bytes))).toBe(true);
    await store.flush();
    expect(store.database.getSync(keys.tip())?.readUInt32LE(32)).toBe(119);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
    await store.close();
  });

  it('a failed group write stops the store; reopened, it holds the blocks before the group and nothing of it', async () => {
    const datadir = fresh('group-fail');
    const store = await openChainStore({ datadir, network: SHIELDED_REGTEST, groupCommit: { maxBlocks: 10, maxBytes: 1 << 30 } });
    for (const b of blocks.slice(0, 40)) await store.addBlock(b.bytes);
    await store.flush();
    // The next group's batch fails as a full disk would make it fail.
    const restore = interceptWrites(store.database, () => Promise.reject(new Error('IO error: No space left on device')));
    let failure: unknown = null;
    for (const b of blocks.slice(40, 70)) {
      failure = await store.addBlock(b.bytes).then(
        () => null,
        (e: unknown) => e,
      );
      if (failure) break;
    }
    expect(String(failure)).toMatch(/could not write its last 10 blocks \(IO error: No space left on device\).*reopen the store/);
    restore();
    await expect(store.close()).rejects.toThrow('could not write');

    const reopened = await openChainStore({ datadir, network: SHIELDED_REGTEST });
    expect((await reopened.tip())?.height).toBe(39);
    expect(await reopened.blockIndex(blocks[45]!.hash)).toBeNull();
    expect((await checkStoreIntegrity(reopened)).problems).toEqual([]);
    for (const b of blocks.slice(40)) await reopened.addBlock(b.bytes);
    expect((await reopened.tip())?.hash).toEqual(expectedTip.hash);
    await reopened.close();
  });
});

describe('group commit reads', () => {
  it('a coin spent in the pending group stays spent while the group that created it is still being written', async () => {
    const dir = tempDir('group-double-spend');
    const genesis = regtestGenesis();
    // Blocks 1..100 first: block 101 is the first that may spend a coinbase (block 1's).
    const prefix = [genesis, ...buildChain(genesis, 100, 'ds')];
    const coinbase = decodeBlock(prefix[1]!.bytes).transactions[0]!;
    const value = coinbase.data.vout[0]!.value;
    const script = coinbase.data.vout[0]!.scriptPubKey;
    const spend = (txid: Uint8Array, tag: number) =>
      encodeV1Transaction(
        [{ prevout: { hash: txid, index: 0 }, scriptSig: Uint8Array.of(0x01, tag), sequence: 0xffffffff }],
        [{ value, scriptPubKey: script }],
      );
    const tx1 = spend(coinbase.txid, 1);
    const b101 = buildBlock({ parent: prefix[100]!, tag: 'ds', extraTxs: [tx1] });
    const tx1id = decodeTransaction(tx1).txid;
    const b102 = buildBlock({ parent: b101, tag: 'ds', extraTxs: [spend(tx1id, 2)] });
    const b103 = buildBlock({ parent: b102, tag: 'ds', extraTxs: [spend(tx1id, 3)] }); // spends tx1:0 again
    const store = await openChainStore({ datadir: dir.path, network: REGTEST, groupCommit: { maxBlocks: 3, maxBytes: 1 << 30 } });
    try {
      // 101 blocks in groups of 3: blocks 99 and 100 are pending when block 101 arrives.
      for (const b of prefix) expect((await store.addBlock(b.bytes)).status).toBe('connected');
      // Slow writes keep that group (99, 100, 101: it creates tx1:0) in flight while 102 and 103 arrive.
      const restore = interceptWrites(
        store.database,
        (real) => new Promise<void>((done, fail) => setTimeout(() => real().then(done, fail), 300)),
      );
      for (const b of [b101, b102]) expect((await store.addBlock(b.bytes)).status).toBe('connected');
      const e = await store.addBlock(b103.bytes).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(BlockRejectedError);
      expect((e as BlockRejectedError).reason).toBe('state');
      expect((await store.tip())?.height).toBe(102);
      restore();
    } finally {
      await store.close();
      dir.remove();
    }
  });
});

describe('invalidateblock and reconsiderblock with blocks still in the pending group', () => {
  it('write the group first, then switch: the tip goes back to 17 and forward to 20', async () => {
    const genesis = regtestGenesis();
    const chain = [genesis, ...buildChain(genesis, 20, 'pe')];
    const d = tempDir('group-invalidate');
    const store = await openChainStore({ datadir: d.path, network: REGTEST, groupCommit: { maxBlocks: 100, maxBytes: 1 << 30 } });
    try {
      for (const b of chain) expect((await store.addBlock(b.bytes)).status).toBe('connected');
      expect(await store.invalidateBlock(chain[18]!.hash)).toBe(true);
      expect((await store.tip())?.height).toBe(17);
      expect(await store.reconsiderBlock(chain[18]!.hash)).toBe(true);
      expect(await store.tip()).toEqual({ hash: chain[20]!.hash, height: 20 });
    } finally {
      await store.close();
      d.remove();
    }
  });
});
