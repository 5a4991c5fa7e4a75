// The store answers "already stored?" and "is its parent invalid?" without reading LevelDB for a
// new block (the highest record's height `M`, the invalid marks in memory): the answers must stay
// exact through group commit, reopening, refused blocks and a branch that fails to connect.
import { describe, expect, it } from 'vitest';
import { REGTEST } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { decodeTransaction } from '../../src/codec/tx/transaction.js';
import { BlockRejectedError } from '../../src/store/errors.js';
import { keys } from '../../src/store/layout.js';
import { checkStoreIntegrity, openChainStore } from '../../src/store/index.js';
import { buildBlock, buildChain, regtestGenesis, type BuiltBlock } from '../../test-vectors/regtest-builder.js';
import { encodeV1Transaction } from '../support/address-index-chain.js';
import { tempDir } from '../support/store.js';
import { blockContentProblem } from '../../src/store/verify.js';

describe('stored and invalid blocks, told without a read per new block', () => {
  it('knows a block again while its group is pending, once written, and after reopening', async () => {
    const dir = tempDir('known-dup');
    const genesis = regtestGenesis();
    const chain = [genesis, ...buildChain(genesis, 12, 'dup')];
    let store = await openChainStore({ datadir: dir.path, network: REGTEST, groupCommit: { maxBlocks: 5, maxBytes: 1 << 30 } });
    try {
      for (const b of chain.slice(0, 8)) expect((await store.addBlock(b.bytes)).status).toBe('connected');
      // Blocks 5..7 are in the pending group, 0..4 in LevelDB.
      expect((await store.addBlock(chain[6]!.bytes)).status).toBe('duplicate');
      expect((await store.addBlock(chain[2]!.bytes)).status).toBe('duplicate');
      await store.flush();
      expect((await store.addBlock(chain[7]!.bytes)).status).toBe('duplicate');
      await store.close();
      store = await openChainStore({ datadir: dir.path, network: REGTEST, groupCommit: { maxBlocks: 5, maxBytes: 1 << 30 } });
      for (const b of chain) expect((await store.addBlock(b.bytes)).status).toBe(b.height <= 7 ? 'duplicate' : 'connected');
      expect((await store.tip())?.height).toBe(12);
      expect((await checkStoreIntegrity(store)).problems).toEqual([]);
    } finally {
      await store.close();
      dir.remove();
    }
  });

  it('marks a branch block that fails to connect invalid and refuses its descendants, before and after reopening', async () => {
    const dir = tempDir('known-invalid');
    const genesis = regtestGenesis();
    const base = buildChain(genesis, 3, 'base');
    // A branch whose second block spends an output that never existed: it is stored as a side
    // chain, and fails only when the branch leads and the store tries to connect it.
    const c1 = buildBlock({ parent: genesis, tag: 'side' });
    const nowhere = encodeV1Transaction(
      [{ prevout: { hash: new Uint8Array(32).fill(7), index: 0 }, scriptSig: Uint8Array.of(0x51), sequence: 0xffffffff }],
      [{ value: 1, scriptPubKey: Uint8Array.of(0x51) }],
    );
    const c2 = buildBlock({ parent: c1, tag: 'side', extraTxs: [nowhere] });
    const [c3, c4] = buildChain(c2, 2, 'side');
    // Children of the invalid block and of its stored descendant, new at each check.
    const [c5, c6] = buildChain(c4!, 2, 'side');
    const siblings = [buildBlock({ parent: c2, tag: 'sibling' }), buildBlock({ parent: c2, tag: 'other' })];
    let store = await openChainStore({ datadir: dir.path, network: REGTEST });
    const refusal = async (bytes: Uint8Array): Promise<[string, string]> => {
      const e = await store.addBlock(bytes).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(BlockRejectedError);
      return [(e as BlockRejectedError).reason, (e as Error).message];
    };
    try {
      for (const b of [genesis, ...base, c1, c2, c3!]) await store.addBlock(b.bytes);
      expect((await store.tip())?.hash).toEqual(base[2]!.hash);
      const [reason] = await refusal(c4!.bytes);
      expect(reason).toBe('state');
      expect(store.database.getSync(keys.invalid(c2.hash))).toBeDefined();
      // c4 is stored above the tip: `M` covers it.
      expect(store.database.getSync(keys.highestRecord())!.readUInt32LE(0)).toBe(4);
      expect((await store.tip())?.hash).toEqual(base[2]!.hash);
      const check = async (round: number): Promise<void> => {
        const sibling = siblings[round]!;
        const child = [c5!, c6!][round]!;
        expect(await refusal(sibling.bytes)).toEqual([
          'invalid-parent',
          `block ${sibling.hashHex} rejected: its parent ${c2.hashHex} is invalid`,
        ]);
        expect(await refusal(child.bytes)).toEqual(['invalid-parent', `block ${child.hashHex} descends from invalid block ${c2.hashHex}`]);
        expect((await store.tip())?.hash).toEqual(base[2]!.hash);
      };
      await check(0);
      await store.close();
      store = await openChainStore({ datadir: dir.path, network: REGTEST });
      await check(1);
      for (const b of [c1, c2, c3!, c4!]) expect((await store.addBlock(b.bytes)).status).toBe('duplicate');
      expect((await checkStoreIntegrity(store)).problems).toEqual([]);
    } finally {
      await store.close();
      dir.remove();
    }
  });

  it('a block refused at a height leaves `M` to the next block stored there', async () => {
    const genesis = regtestGenesis();
    const base = buildChain(genesis, 3, 'base');
    const nowhere = encodeV1Transaction(
      [{ prevout: { hash: new Uint8Array(32).fill(9), index: 0 }, scriptSig: Uint8Array.of(0x51), sequence: 0xffffffff }],
      [{ value: 1, scriptPubKey: Uint8Array.of(0x51) }],
    );
    const bad = buildBlock({ parent: base[2]!, tag: 'bad', extraTxs: [nowhere] });
    const good = buildBlock({ parent: base[2]!, tag: 'good' });
    for (const groupCommit of [false, true]) {
      const dir = tempDir('known-refused');
      const options = { datadir: dir.path, network: REGTEST, groupCommit };
      let store = await openChainStore(options);
      try {
        for (const b of [genesis, ...base]) await store.addBlock(b.bytes);
        expect(await store.addBlock(bad.bytes).catch((e: unknown) => (e as BlockRejectedError).reason)).toBe('state');
        expect((await store.addBlock(good.bytes)).status).toBe('connected');
        await store.close();
        store = await openChainStore(options);
        expect(store.database.getSync(keys.highestRecord())!.readUInt32LE(0)).toBe(4);
        expect((await store.addBlock(good.bytes)).status).toBe('duplicate');
        expect((await checkStoreIntegrity(store)).problems).toEqual([]);
      } finally {
        await store.close();
        dir.remove();
      }
    }
  });

  it('refuses a mutated block (CVE-2012-2459) without marking its hash, so the block without the repeats is taken', async () => {
    // Blocks 103 and 104 may spend the coinbases of blocks 1 and 2 (100 blocks deep, as zcashd wants).
    const genesis = regtestGenesis();
    const chain = [genesis, ...buildChain(genesis, 102, 'mut')];
    const spend = (of: BuiltBlock) =>
      encodeV1Transaction(
        [
          {
            prevout: { hash: decodeBlock(of.bytes).transactions[0]!.txid, index: 0 },
            scriptSig: Uint8Array.of(0x51),
            sequence: 0xffffffff,
          },
        ],
        [{ value: 1, scriptPubKey: Uint8Array.of(0x51) }],
      );
    const t1 = spend(chain[1]!);
    const t2 = spend(chain[2]!);
    // [coinbase, t1, t2, t2] has the merkle root, so the header and hash, of [coinbase, t1, t2].
    const repeatingLast = (b: BuiltBlock): Uint8Array => {
      const headerBytes = decodeBlock(b.bytes).header.bytes.length;
      expect(b.bytes[headerBytes]).toBe(3);
      const out = new Uint8Array(b.bytes.length + t2.length);
      out.set(b.bytes);
      out[headerBytes] = 4;
      out.set(t2, b.bytes.length);
      return out;
    };
    const onTip = buildBlock({ parent: chain[102]!, tag: 'tip', extraTxs: [t1, t2] });
    const onBranch = buildBlock({ parent: chain[101]!, tag: 'branch', extraTxs: [t1, t2] });
    const branch = [onBranch, ...buildChain(onBranch, 2, 'branch')];
    for (const [name, block, rest] of [
      ['tip', onTip, []],
      ['branch', onBranch, branch.slice(1)],
    ] as const) {
      const mutated = repeatingLast(block);
      expect(decodeBlock(mutated).hash).toEqual(block.hash);
      expect(blockContentProblem(decodeBlock(mutated))).toBe(
        'the transactions repeat in a way that mutates the merkle tree (CVE-2012-2459)',
      );
      const dir = tempDir(`mutated-${name}`);
      const store = await openChainStore({ datadir: dir.path, network: REGTEST });
      try {
        for (const b of chain) await store.addBlock(b.bytes);
        const e = await store.addBlock(mutated).catch((x: unknown) => x);
        expect([(e as BlockRejectedError).reason, (e as Error).message]).toEqual([
          'merkle-root',
          `block ${block.hashHex} rejected: bad-txns-duplicate: its transaction list repeats transactions in a way that keeps the merkle root of the list without them (CVE-2012-2459)`,
        ]);
        expect(store.database.getSync(keys.invalid(block.hash))).toBeUndefined();
        expect((await store.tip())?.hash).toEqual(chain[102]!.hash);
        for (const b of [block, ...rest]) expect((await store.addBlock(b.bytes)).status).not.toBe('duplicate');
        const tip = [block, ...rest].at(-1)!;
        expect((await store.tip())?.hash).toEqual(tip.hash);
        expect((await checkStoreIntegrity(store)).problems).toEqual([]);
      } finally {
        await store.close();
        dir.remove();
      }
    }
  });
});

describe("a block breaking zcashd's transaction rules", () => {
  it('is refused by name: a transaction rule before connecting, a fee rule when connecting', async () => {
    const dir = tempDir('tx-rules');
    const genesis = regtestGenesis();
    // Block 1's coinbase is spendable from block 101 on.
    const chain = [genesis, ...buildChain(genesis, 100, 'rules')];
    const coinbase = decodeBlock(chain[1]!.bytes).transactions[0]!;
    const paid = coinbase.data.vout[0]!.value;
    const spend = (value: number, inputs = 1) =>
      encodeV1Transaction(
        Array.from({ length: inputs }, () => ({
          prevout: { hash: coinbase.txid, index: 0 },
          scriptSig: Uint8Array.of(0x51),
          sequence: 0xffffffff,
        })),
        [{ value, scriptPubKey: Uint8Array.of(0x51) }],
      );
    const store = await openChainStore({ datadir: dir.path, network: REGTEST });
    const refusal = async (bytes: Uint8Array): Promise<[string, string]> => {
      const e = await store.addBlock(bytes).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(BlockRejectedError);
      return [(e as BlockRejectedError).reason, (e as Error).message];
    };
    try {
      for (const b of chain) expect((await store.addBlock(b.bytes)).status).toBe('connected');
      const twice = buildBlock({ parent: chain[100]!, tag: 'twice', extraTxs: [spend(paid, 2)] });
      const [reason, message] = await refusal(twice.bytes);
      expect(reason).toBe('transactions');
      const txid = decodeBlock(twice.bytes).transactions[1]!.txidHex;
      expect(message).toBe(
        `block ${twice.hashHex} at height 101 rejected (bad-txns-inputs-duplicate) in transaction ${txid} (position 1): input 1 spends ${coinbase.txidHex}:0 again`,
      );
      const overpaid = buildBlock({ parent: chain[100]!, tag: 'overpaid', extraTxs: [spend(paid + 1)] });
      const [stateReason, stateMessage] = await refusal(overpaid.bytes);
      expect(stateReason).toBe('state');
      expect(stateMessage).toContain('rejected (bad-txns-fee-out-of-range)');
      expect(stateMessage).toContain('fee -1');
      // Block 2's coinbase is 99 blocks deep at height 101: not yet spendable.
      const second = decodeBlock(chain[2]!.bytes).transactions[0]!;
      const early = encodeV1Transaction(
        [{ prevout: { hash: second.txid, index: 0 }, scriptSig: Uint8Array.of(0x51), sequence: 0xffffffff }],
        [{ value: 1, scriptPubKey: Uint8Array.of(0x51) }],
      );
      const [earlyReason, earlyMessage] = await refusal(buildBlock({ parent: chain[100]!, tag: 'early', extraTxs: [early] }).bytes);
      expect([earlyReason, earlyMessage.split(': ').slice(-1)[0]]).toEqual(['state', 'input 0 spends a coinbase at depth 99']);
      expect(earlyMessage).toContain('rejected (bad-txns-premature-spend-of-coinbase)');
      const exact = buildBlock({ parent: chain[100]!, tag: 'exact', extraTxs: [spend(paid)] });
      expect((await store.addBlock(exact.bytes)).status).toBe('connected');
    } finally {
      await store.close();
      dir.remove();
    }
  });

  it('with -regtestshieldcoinbase, refuses a coinbase spent to a transparent output', async () => {
    const dir = tempDir('shield-coinbase');
    const genesis = regtestGenesis();
    const chain = [genesis, ...buildChain(genesis, 100, 'shield')];
    const coinbase = decodeBlock(chain[1]!.bytes).transactions[0]!;
    const spend = encodeV1Transaction(
      [{ prevout: { hash: coinbase.txid, index: 0 }, scriptSig: Uint8Array.of(0x51), sequence: 0xffffffff }],
      [{ value: coinbase.data.vout[0]!.value, scriptPubKey: Uint8Array.of(0x51) }],
    );
    const block = buildBlock({ parent: chain[100]!, tag: 'shield', extraTxs: [spend] });
    const store = await openChainStore({ datadir: dir.path, network: { ...REGTEST, coinbaseMustBeShielded: true } });
    try {
      for (const b of chain) expect((await store.addBlock(b.bytes)).status).toBe('connected');
      const e = await store.addBlock(block.bytes).catch((x: unknown) => x);
      expect((e as BlockRejectedError).reason).toBe('state');
      expect((e as Error).message).toContain(
        `rejected (bad-txns-coinbase-spend-has-transparent-outputs): transaction ${decodeTransaction(spend).txidHex}: input 0 spends a coinbase output`,
      );
    } finally {
      await store.close();
      dir.remove();
    }
  });
});
