// The coins cache of group commit (store/committed-coins.ts, `zecrpc import -dbcache`): the coins
// of the groups LevelDB wrote last answer spends before LevelDB. It must never answer what
// LevelDB does not hold: the store after an import with it equals the store written block by
// block, a reorganization (written outside the groups) drops it, a failed group write leaves
// nothing of it, and its memory bound evicts the oldest groups with reads still right.
import { describe, expect, it } from 'vitest';
import { REGTEST } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { decodeTransaction } from '../../src/codec/tx/transaction.js';
import { CommittedCoins } from '../../src/store/committed-coins.js';
import { BlockRejectedError } from '../../src/store/errors.js';
import { PendingWrites } from '../../src/store/pending-writes.js';
import { checkStoreIntegrity, openChainStore, type ChainStore, type ChainStoreOptions } from '../../src/store/index.js';
import { EraChainGenerator } from '../../test-vectors/era-chain.js';
import { buildBlock, buildChain, regtestGenesis, type BuiltBlock } from '../../test-vectors/regtest-builder.js';
import { encodeV1Transaction } from '../support/address-index-chain.js';
import { suiteTempDirs } from '../support/suite-dirs.js';
import { dumpStoreIndex, interceptWrites } from '../support/store-io.js';

/**
 * 101 coinbase-only blocks, then `spending` blocks, each with a transparent transaction spending
 * up to 5 of the oldest spendable outputs into 5 new ones once more than 10 are spendable (the
 * generator spends the oldest first): inputs spend coinbases 100 blocks old and outputs a few
 * blocks old, more blocks old as the chain goes on (a coinbase a block joins what is spendable).
 */
function transparentChain(spending: number): { network: EraChainGenerator['network']; blocks: BuiltBlock[]; inputs: number } {
  const generator = new EraChainGenerator({ tag: 'coins-cache' });
  const blocks = [generator.genesis];
  for (let i = 0; i < 101; i++) blocks.push(generator.next([]));
  let total = 0;
  for (let i = 0; i < spending; i++) {
    const inputs = Math.min(5, generator.spendableCount - 10);
    blocks.push(generator.next(inputs > 0 ? [{ inputs, outputs: 5 }] : []));
    total += Math.max(0, inputs);
  }
  return { network: generator.network, blocks, inputs: total };
}

/** A v1 transaction spending output `n` of `txid` (worth `value`) to the builder's payout script. */
function spendOf(txid: Uint8Array, n: number, value: number, script: Uint8Array, tag: number): Uint8Array {
  return encodeV1Transaction(
    [{ prevout: { hash: txid, index: n }, scriptSig: Uint8Array.of(0x01, tag), sequence: 0xffffffff }],
    [{ value, scriptPubKey: script }],
  );
}

/** Adds `block` and returns its status, or the reason it was refused. */
async function add(store: ChainStore, block: BuiltBlock): Promise<string> {
  return store.addBlock(block.bytes).then(
    (r) => r.status,
    (e: unknown) =>
      e instanceof BlockRejectedError ? `rejected: ${e.reason}${e.reason === 'state' ? '' : ` ${e.message}`}` : Promise.reject(e),
  );
}

describe('coins cache (group commit)', () => {
  const fresh = suiteTempDirs();

  it('an import through the cache, at the default bound and at one that evicts, ends as block by block', async () => {
    const { network, blocks, inputs } = transparentChain(80);
    const plainDir = fresh('coins-plain');
    const plain = await openChainStore({ datadir: plainDir, network });
    for (const b of blocks) expect((await plain.addBlock(b.bytes)).status).toBe('connected');
    await plain.close();
    const expected = await dumpStoreIndex(plainDir);

    const grouped = async (coinCacheBytes: number | undefined) => {
      const dir = fresh('coins-grouped');
      const options: ChainStoreOptions = { datadir: dir, network, groupCommit: { maxBlocks: 3, maxBytes: 1 << 30 } };
      const store = await openChainStore(coinCacheBytes === undefined ? options : { ...options, coinCacheBytes });
      let peak = 0;
      for (const b of blocks) {
        expect((await store.addBlock(b.bytes)).status).toBe('connected');
        peak = Math.max(peak, store.coinCache.bytes);
      }
      await store.flush();
      const cache = store.coinCache;
      expect((await checkStoreIntegrity(store)).problems).toEqual([]);
      await store.close();
      const got = await dumpStoreIndex(dir);
      expect(got.size).toBe(expected.size);
      for (const [k, v] of expected) if (got.get(k) !== v) expect({ key: k, value: got.get(k) }).toEqual({ key: k, value: v });
      return { ...cache, peak };
    };

    const roomy = await grouped(undefined);
    expect(roomy.limitBytes).toBe(450 * 1024 * 1024);
    // Every input of the spending blocks was read once.
    expect(inputs).toBeGreaterThan(150);
    expect(roomy.reads.pending + roomy.reads.cached + roomy.reads.leveldb).toBe(inputs);
    expect(roomy.reads.cached).toBeGreaterThan(0);
    // At 450 MiB no group was evicted: a coin a group wrote is read from LevelDB only if no group
    // with coins held it, i.e. none (every group wrote a coinbase coin).
    expect(roomy.reads.leveldb).toBe(0);

    // Room for about four of these small groups (a group's tables start at 100 KiB): the oldest
    // go, and their coins are read from LevelDB.
    const tight = await grouped(420_000);
    expect(tight.peak).toBeLessThanOrEqual(420_000);
    expect(tight.groups).toBeGreaterThan(0);
    expect(tight.reads.cached).toBeGreaterThan(0);
    expect(tight.reads.leveldb).toBeGreaterThan(0);
    expect(tight.reads.pending + tight.reads.cached + tight.reads.leveldb).toBe(inputs);

    const off = await grouped(0);
    expect(off.groups).toBe(0);
    expect(off.reads.cached).toBe(0);
  }, 300_000);

  /**
   * Regtest 0..100, then 101 (tx A: spends block 1's coinbase, creates A:0), 102 (tx C spends
   * A:0, creates C:0; tx B spends block 2's coinbase, creates B:0), 103..106.
   */
  function spendingBase() {
    const genesis = regtestGenesis();
    const prefix = [genesis, ...buildChain(genesis, 100, 'cc')];
    const coinbaseOut = (h: number) => decodeBlock(prefix[h]!.bytes).transactions[0]!;
    const value = coinbaseOut(1).data.vout[0]!.value;
    const script = coinbaseOut(1).data.vout[0]!.scriptPubKey;
    const txA = spendOf(coinbaseOut(1).txid, 0, value, script, 1);
    const txB = spendOf(coinbaseOut(2).txid, 0, value, script, 2);
    const a = decodeTransaction(txA).txid;
    const b = decodeTransaction(txB).txid;
    const b101 = buildBlock({ parent: prefix[100]!, tag: 'cc', extraTxs: [txA] });
    const txC = spendOf(a, 0, value, script, 3);
    const c = decodeTransaction(txC).txid;
    const b102 = buildBlock({ parent: b101, tag: 'cc', extraTxs: [txC, txB] });
    const base = [...prefix, b101, b102, ...buildChain(b102, 4, 'cc')];
    return { base, b101, a, b, c, spend: (txid: Uint8Array, tag: number) => spendOf(txid, 0, value, script, tag) };
  }

  it('a reorganization across kept groups reads the coins it re-creates and removes', async () => {
    const { base, b101, a, c, spend } = spendingBase();
    const store = await openChainStore({
      datadir: fresh('coins-reorg'),
      network: REGTEST,
      groupCommit: { maxBlocks: 1, maxBytes: 1 << 30 },
    });
    try {
      for (const blk of base) expect(await add(store, blk)).toBe('connected');
      await store.flush();
      // The groups that created A:0 (101) and spent it (102) are kept, and answered 102's read.
      expect(store.coinCache.groups).toBeGreaterThan(5);
      expect(store.coinCache.reads.cached).toBeGreaterThan(0);
      expect(store.coinsView().isUnspent(a, 0)).toBe(false);
      expect(store.coinsView().isUnspent(c, 0)).toBe(true);

      // A branch from 101, one block longer than the base's 102..106: the switch disconnects 102
      // (A:0 unspent again, C:0 gone) in batches of its own, outside the groups.
      const branch = buildChain(b101, 6, 'branch');
      for (const blk of branch.slice(0, 5)) expect(await add(store, blk)).toBe('side-chain');
      // Side blocks' records are written outside the groups but touch no coin: the cache stays.
      expect(store.coinCache.groups).toBeGreaterThan(5);
      expect(await add(store, branch[5]!)).toBe('reorganized');
      expect(store.coinsView().isUnspent(a, 0)).toBe(true);
      expect(store.coinsView().isUnspent(c, 0)).toBe(false);

      // On the new tip: a spend of C:0, which the switch removed, is refused; one of A:0, which it
      // re-created, is taken (the groups kept before the switch said the opposite of both).
      const tip = branch[5]!;
      expect(await add(store, buildBlock({ parent: tip, tag: 'after', extraTxs: [spend(c, 4)] }))).toBe('rejected: state');
      const spendsA = buildBlock({ parent: tip, tag: 'after', extraTxs: [spend(a, 5)] });
      expect(await add(store, spendsA)).toBe('connected');
      await store.flush();
      expect(store.coinsView().isUnspent(a, 0)).toBe(false);
      expect((await checkStoreIntegrity(store)).problems).toEqual([]);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('a failed group write leaves none of its rows, nor the groups before it, in the cache', async () => {
    const { base, a, b, spend } = spendingBase();
    const datadir = fresh('coins-fail');
    const store = await openChainStore({ datadir, network: REGTEST, groupCommit: { maxBlocks: 2, maxBytes: 1 << 30 } });
    for (const blk of base) expect(await add(store, blk)).toBe('connected');
    await store.flush();
    expect(store.coinCache.groups).toBeGreaterThan(0);
    // The next group spends B:0 and creates D:0; its batch fails as a full disk would make it fail.
    const txD = spend(b, 6);
    const d = decodeTransaction(txD).txid;
    const b107 = buildBlock({ parent: base.at(-1)!, tag: 'cc', extraTxs: [txD] });
    const b108 = buildBlock({ parent: b107, tag: 'cc' });
    const restore = interceptWrites(store.database, () => Promise.reject(new Error('IO error: No space left on device')));
    expect(await add(store, b107)).toBe('connected');
    await expect(add(store, b108)).resolves.toBe('connected');
    await expect(store.flush()).rejects.toThrow('could not write its last 2 blocks');
    restore();
    expect(store.coinCache.groups).toBe(0);
    expect(store.coinCache.bytes).toBe(0);
    await expect(store.close()).rejects.toThrow('could not write');

    // Reopened (starting with no cache), the store holds the blocks before the failed group.
    const reopened = await openChainStore({ datadir, network: REGTEST, groupCommit: { maxBlocks: 2, maxBytes: 1 << 30 } });
    try {
      expect(reopened.coinCache.groups).toBe(0);
      expect((await reopened.tip())?.height).toBe(106);
      expect(reopened.coinsView().isUnspent(b, 0)).toBe(true);
      expect(reopened.coinsView().isUnspent(d, 0)).toBe(false);
      expect(reopened.coinsView().isUnspent(a, 0)).toBe(false);
      expect(await add(reopened, b107)).toBe('connected');
    } finally {
      await reopened.close();
    }
  }, 120_000);

  it('past its memory bound the oldest groups are evicted, and a spent coin stays spent', async () => {
    const { base, a, b, spend } = spendingBase();
    // Room for three one-block groups (their tables start at 100 KiB).
    const limit = 320_000;
    const store = await openChainStore({
      datadir: fresh('coins-bound'),
      network: REGTEST,
      groupCommit: { maxBlocks: 1, maxBytes: 1 << 30 },
      coinCacheBytes: limit,
    });
    try {
      let written = 0;
      for (const blk of base) {
        expect(await add(store, blk)).toBe('connected');
        await store.flush();
        written++;
        expect(store.coinCache.bytes).toBeLessThanOrEqual(limit);
      }
      expect(store.coinCache.groups).toBeGreaterThan(0);
      expect(store.coinCache.groups).toBeLessThan(written / 10);
      // 101 (which created A:0 and B:0) and 102 (which spent A:0) are long evicted.
      const tip = base.at(-1)!;
      expect(await add(store, buildBlock({ parent: tip, tag: 'again', extraTxs: [spend(a, 7)] }))).toBe('rejected: state');
      expect(await add(store, buildBlock({ parent: tip, tag: 'cc', extraTxs: [spend(b, 8)] }))).toBe('connected');
      expect(store.coinCache.reads.leveldb).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('a coin write outside the groups while a group write is in flight: that group is not kept', async () => {
    const { base } = spendingBase();
    const store = await openChainStore({ datadir: fresh('rv-race'), network: REGTEST, groupCommit: { maxBlocks: 1, maxBytes: 1 << 30 } });
    try {
      for (const blk of base.slice(0, -1)) await store.addBlock(blk.bytes);
      await store.flush();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const db = (store as any).db;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      // Batches reach LevelDB in the order they were handed over, the first one held until released.
      let last: Promise<unknown> = gate;
      const restore = interceptWrites(store.database, (real) => {
        const p = last.then(real);
        last = p.catch(() => undefined);
        return p;
      });
      expect((await store.addBlock(base.at(-1)!.bytes)).status).toBe('connected'); // its group write starts, held
      // The last block's coinbase coin, deleted outside the groups while its group is in flight.
      const txid = decodeBlock(base.at(-1)!.bytes).transactions[0]!.txid;
      const key = Buffer.concat([Buffer.of(0x63), Buffer.from(txid), Buffer.alloc(4)]);
      expect(db.writing).not.toBeNull();
      const direct = db.write([{ type: 'del', key }], false);
      release();
      await direct;
      await store.flush();
      restore();
      expect(db.db.getSync(key)).toBeUndefined();
      expect(db.indexValue(key)).toBeUndefined();
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe('CommittedCoins', () => {
  const C = 0x63;
  const coinKey = (n: number) => Buffer.concat([Buffer.of(C), Buffer.alloc(32, n), Buffer.from([n, 0, 0, 0])]);
  const group = (ops: { key: Buffer; value?: Buffer }[]): PendingWrites => {
    const g = new PendingWrites();
    g.apply(ops.map((o) => (o.value ? { type: 'put' as const, key: o.key, value: o.value } : { type: 'del' as const, key: o.key })));
    return g;
  };

  it('refuses a bound that is no finite number of bytes (NaN would keep every group)', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, -1]) {
      expect(() => new CommittedCoins(bad, 0x63)).toThrow(
        `coinCacheBytes must be a finite number of bytes, 0 or more (0: no coins cache), not ${bad}`,
      );
    }
  });

  it('answers from the newest group holding a key, and evicts the oldest groups past its bound', () => {
    const created = group([
      { key: coinKey(1), value: Buffer.from('coin one') },
      { key: coinKey(2), value: Buffer.from('coin two') },
    ]);
    const spent = group([{ key: coinKey(1) }]);
    const unrelated = group([{ key: coinKey(3), value: Buffer.alloc(200) }]);
    const sizes = [created, spent, unrelated].map((g) => g.memoryBytes);
    // Room for the two newest groups, not for all three.
    const cache = new CommittedCoins(sizes[1]! + sizes[2]!, C);
    cache.retain(created);
    cache.retain(spent);
    expect(cache.lookup(coinKey(1))).toBeNull();
    expect(cache.lookup(coinKey(2))?.toString()).toBe('coin two');
    expect(cache.lookup(coinKey(9))).toBeUndefined();
    cache.retain(unrelated);
    // The group that created coin 1 went first: its spend still answers, coin 2 is LevelDB's again.
    expect(cache.groups).toBe(2);
    expect(cache.bytes).toBe(sizes[1]! + sizes[2]!);
    expect(cache.lookup(coinKey(1))).toBeNull();
    expect(cache.lookup(coinKey(2))).toBeUndefined();
    expect(cache.lookup(coinKey(3))?.length).toBe(200);
    // A group larger than the bound by itself leaves no group at all.
    const large = new PendingWrites({ rows: 1024, bytes: sizes[1]! + sizes[2]! });
    large.apply([{ type: 'put', key: coinKey(4), value: Buffer.alloc(10) }]);
    cache.retain(large);
    expect(cache.groups).toBe(0);
    expect(cache.bytes).toBe(0);
    expect(cache.lookup(coinKey(1))).toBeUndefined();
  });

  it('keeps nothing at a bound of 0, and says which batches touch coins', () => {
    const cache = new CommittedCoins(0, C);
    cache.retain(group([{ key: coinKey(1), value: Buffer.from('x') }]));
    expect(cache.groups).toBe(0);
    expect(cache.lookup(coinKey(1))).toBeUndefined();
    expect(cache.touchedBy([{ type: 'put', key: Buffer.of(0x69, 1), value: Buffer.of(1) }])).toBe(false);
    expect(
      cache.touchedBy([
        { type: 'put', key: Buffer.of(0x69, 1), value: Buffer.of(1) },
        { type: 'del', key: coinKey(1) },
      ]),
    ).toBe(true);
  });
});
