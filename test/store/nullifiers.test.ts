// zcashd's CheckShieldedRequirements at import: a nullifier revealed once may not be revealed
// again (by a later block, or a later transaction of the same block), and a Sapling spend's
// anchor must be a root the chain had (the empty tree's included). The nullifier records follow
// the active chain through a reorganization. The spends are synthetic (no real proofs, which
// zecrpc does not verify), on the shielded regtest chain whose coinbases they stand beside.
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { toHexReversed } from '../../src/codec/hex.js';
import { decodeTransaction } from '../../src/codec/tx/transaction.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { chainStateKeys } from '../../src/store/indexes/chain-state-index.js';
import { blockNullifiers } from '../../src/state/nullifiers.js';
import { BlockRejectedError } from '../../src/store/errors.js';
import { keys, SCHEMA_VERSION } from '../../src/store/layout.js';
import { encodeVersionRecord } from '../../src/store/migrations/index.js';
import { checkStoreIntegrity, openChainStore, type ChainStore } from '../../src/store/index.js';
import { regtestGenesis, type BuiltBlock } from '../../test-vectors/regtest-builder.js';
import { JUBJUB_POINT, saplingTransaction, SHIELDED_REGTEST, ShieldedChainBuilder } from '../../test-vectors/regtest-shielded.js';
import { startAtSaplingCheckpoint, tempDir } from '../support/store.js';
import { readHexVector } from '../support/vectors.js';
import { MAINNET } from '../../src/chain/network.js';

/** A v4 transaction spending one Sapling note (`nullifier`, `anchor`) of `value` into a transparent output. */
function saplingSpend(nullifier: Uint8Array, anchor: Uint8Array, value = 1000): Uint8Array {
  return saplingTransaction({
    vout: [{ value, scriptPubKey: Uint8Array.of(0x51) }],
    spends: [{ cv: JUBJUB_POINT, anchor, nullifier, rk: JUBJUB_POINT, zkproof: new Uint8Array(192), spendAuthSig: new Uint8Array(64) }],
    valueBalance: value,
  });
}

const nf = (n: number): Uint8Array => new Uint8Array(32).fill(n);

describe('nullifier sets and Sapling anchors', () => {
  const genesis = regtestGenesis();
  const builder = new ShieldedChainBuilder(genesis);
  // Block 101 shields block 1's coinbase into two notes: its Sapling root is an anchor from then on.
  const base = [genesis, ...builder.chain(genesis, 101, 'nf', (h) => (h === 101 ? 2 : 0))];
  const root = builder.stateAfter(base[101]!).trees.sapling.root();
  const emptyRoot = builder.stateAfter(base[100]!).trees.sapling.root();
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanup) await c();
  });

  async function storeWith(blocks: readonly BuiltBlock[]): Promise<ChainStore> {
    const dir = tempDir('nullifiers');
    const store = await openChainStore({ datadir: dir.path, network: SHIELDED_REGTEST });
    cleanup.push(async () => {
      await store.close();
      dir.remove();
    });
    for (const b of blocks) expect((await store.addBlock(b.bytes)).status).toBe('connected');
    return store;
  }
  const refusal = async (store: ChainStore, block: BuiltBlock): Promise<string> => {
    const e = await store.addBlock(block.bytes).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BlockRejectedError);
    expect((e as BlockRejectedError).reason).toBe('state');
    return (e as Error).message;
  };
  const spendTxid = (bytes: Uint8Array) => decodeTransaction(bytes).txidHex;

  it('refuses a nullifier revealed by an earlier block or an earlier transaction of the block', async () => {
    const [spent] = builder.chain(base[101]!, 1, 'nf', undefined, () => [saplingSpend(nf(1), root)]);
    const store = await storeWith([...base, spent!]);
    expect(store.database.getSync(chainStateKeys.nullifier('sapling', nf(1)))).toEqual(Buffer.of(1));
    const again = saplingSpend(nf(1), root, 999);
    const [later] = builder.chain(spent!, 1, 'again', undefined, () => [again]);
    expect(await refusal(store, later!)).toContain(
      `rejected (bad-txns-sapling-duplicate-nullifier): Sapling spend 0 of transaction ${spendTxid(again)} reveals nullifier ${toHexReversed(nf(1))} again`,
    );
    const twice = [saplingSpend(nf(2), root), saplingSpend(nf(2), root, 999)];
    const [sameBlock] = builder.chain(spent!, 1, 'twice', undefined, () => twice);
    expect(await refusal(store, sameBlock!)).toContain(
      `rejected (bad-txns-sapling-duplicate-nullifier): Sapling spend 0 of transaction ${spendTxid(twice[1]!)}`,
    );
    expect(store.database.getSync(chainStateKeys.nullifier('sapling', nf(2)))).toBeUndefined();
    expect((await store.tip())?.height).toBe(102);
  });

  it('under group commit, refuses a nullifier revealed by a block still pending or already written, among many alike but for their leading bytes', async () => {
    // Nullifiers that differ only in a counter in their first bytes, as era-chain.ts writes them:
    // their records share every byte a partial key hash might read.
    const counterNf = (n: number): Uint8Array => {
      const out = new Uint8Array(32);
      new DataView(out.buffer).setUint32(0, n, true);
      out[5] = 0x5b;
      return out;
    };
    const dir = tempDir('nullifiers-group');
    const store = await openChainStore({ datadir: dir.path, network: SHIELDED_REGTEST, groupCommit: true });
    cleanup.push(async () => {
      await store.close();
      dir.remove();
    });
    const [many] = builder.chain(base[101]!, 1, 'many', undefined, () =>
      Array.from({ length: 300 }, (_, i) => saplingSpend(counterNf(i), root, 10)),
    );
    for (const b of [...base, many!]) expect((await store.addBlock(b.bytes)).status).toBe('connected');
    // Still in the pending group: LevelDB has not seen the records yet.
    expect(store.database.getSync(chainStateKeys.nullifier('sapling', counterNf(37)))).toBeUndefined();
    const pendingAgain = saplingSpend(counterNf(37), root, 9);
    const [fromPending] = builder.chain(many!, 1, 'pending', undefined, () => [pendingAgain]);
    expect(await refusal(store, fromPending!)).toContain(
      `rejected (bad-txns-sapling-duplicate-nullifier): Sapling spend 0 of transaction ${spendTxid(pendingAgain)} reveals nullifier ${toHexReversed(counterNf(37))} again`,
    );
    const [fresh] = builder.chain(many!, 1, 'fresh', undefined, () => [saplingSpend(counterNf(300), root, 10)]);
    expect((await store.addBlock(fresh!.bytes)).status).toBe('connected');
    await store.flush();
    expect(store.database.getSync(chainStateKeys.nullifier('sapling', counterNf(299)))).toEqual(Buffer.of(1));
    const writtenAgain = saplingSpend(counterNf(299), root, 9);
    const [fromWritten] = builder.chain(fresh!, 1, 'written', undefined, () => [writtenAgain]);
    expect(await refusal(store, fromWritten!)).toContain(
      `Sapling spend 0 of transaction ${spendTxid(writtenAgain)} reveals nullifier ${toHexReversed(counterNf(299))} again`,
    );
    expect((await store.tip())?.height).toBe(103);
  });

  it("are what sendrawtransaction checks a loose spend against, with zcashd's mempool codes", async () => {
    const [spent] = builder.chain(base[101]!, 1, 'loose', undefined, () => [saplingSpend(nf(10), root)]);
    const store = await storeWith([...base, spent!]);
    const send = async (tx: Uint8Array) => {
      const method = storeMethods(store).find((m) => m.name === 'sendrawtransaction')!;
      try {
        return await method.call([Buffer.from(tx).toString('hex')], { network: SHIELDED_REGTEST, requestStop: () => {} });
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(await send(saplingSpend(nf(10), root, 5))).toBe('18: bad-txns-sapling-duplicate-nullifier');
    expect(await send(saplingSpend(nf(11), nf(9)))).toBe('16: bad-txns-sapling-unknown-anchor');
    expect(await send(saplingSpend(nf(11), root))).toBe('Zcash is not connected!');
  });

  it('wants a Sapling anchor the chain had: any earlier root, the empty tree included', async () => {
    const store = await storeWith(base);
    const unknown = saplingSpend(nf(3), nf(9));
    const [bad] = builder.chain(base[101]!, 1, 'anchor', undefined, () => [unknown]);
    expect(await refusal(store, bad!)).toContain(
      `rejected (bad-txns-sapling-unknown-anchor): Sapling spend 0 of transaction ${spendTxid(unknown)} uses anchor ${toHexReversed(nf(9))}, which is not a known Sapling root`,
    );
    const [fine] = builder.chain(base[101]!, 1, 'anchor-ok', undefined, () => [saplingSpend(nf(3), emptyRoot), saplingSpend(nf(4), root)]);
    expect((await store.addBlock(fine!.bytes)).status).toBe('connected');
  });

  it("follow the active chain: a reorganization forgets the abandoned blocks' nullifiers and records the new ones", async () => {
    const [main102, main103] = builder.chain(base[101]!, 2, 'main', undefined, (h) =>
      h === 102 ? [saplingSpend(nf(5), root)] : [saplingSpend(nf(6), root)],
    );
    const store = await storeWith([...base, main102!, main103!]);
    // A longer branch from 101 that spends nf(5) again at 103: valid there, since main's 102 is abandoned.
    const branch = builder.chain(base[101]!, 3, 'branch', undefined, (h) => (h === 103 ? [saplingSpend(nf(5), root, 777)] : []));
    for (const b of branch) await store.addBlock(b.bytes);
    expect(toHexReversed((await store.tip())!.hash)).toBe(branch[2]!.hashHex);
    expect(store.database.getSync(chainStateKeys.nullifier('sapling', nf(5)))).toEqual(Buffer.of(1));
    expect(store.database.getSync(chainStateKeys.nullifier('sapling', nf(6)))).toBeUndefined();
    const fresh = await storeWith([...base, ...branch]);
    const dump = async (s: ChainStore) =>
      (await s.database.iterator({ gte: Buffer.of(0x4e), lt: Buffer.of(0x4f) }).all()).map(([k]) => k.toString('hex'));
    expect(await dump(store)).toEqual(await dump(fresh));
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
    expect(decodeBlock(branch[1]!.bytes).transactions).toHaveLength(2);
  });

  it('are built for a version-5 store when it is opened (schema version 6), from its active chain', async () => {
    const [spent] = builder.chain(base[101]!, 1, 'mig', undefined, () => [saplingSpend(nf(7), root), saplingSpend(nf(8), emptyRoot)]);
    const dir = tempDir('nullifier-migration');
    cleanup.push(async () => dir.remove());
    const first = await openChainStore({ datadir: dir.path, network: SHIELDED_REGTEST });
    for (const b of [...base, spent!]) await first.addBlock(b.bytes);
    await first.close();
    const db = new ClassicLevel<Buffer, Buffer>(join(dir.path, 'zecrpc', 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
    await db.open();
    const nullifierKeys = async () => (await db.keys({ gte: Buffer.of(0x4e), lt: Buffer.of(0x4f) }).all()).map((k) => k.toString('hex'));
    const written = await nullifierKeys();
    expect(written).toEqual(
      [chainStateKeys.nullifier('sapling', nf(7)), chainStateKeys.nullifier('sapling', nf(8))].map((k) => k.toString('hex')),
    );
    await db.batch(written.map((k) => ({ type: 'del' as const, key: Buffer.from(k, 'hex') })));
    await db.put(keys.version(), encodeVersionRecord(5, 'regtest'));
    await db.close();
    const lines: string[] = [];
    const reopened = await openChainStore({ datadir: dir.path, network: SHIELDED_REGTEST, log: (l) => lines.push(l) });
    try {
      expect(lines[0]).toBe(
        "upgrading the chain store to schema version 6: record the nullifiers the active chain has revealed (zcashd's nullifier sets)",
      );
      expect(reopened.database.getSync(keys.version())!.readUInt32LE(0)).toBe(SCHEMA_VERSION);
      expect((await reopened.database.keys({ gte: Buffer.of(0x4e), lt: Buffer.of(0x4f) }).all()).map((k) => k.toString('hex'))).toEqual(
        written,
      );
      const again = builder.chain(spent!, 1, 'mig-again', undefined, () => [saplingSpend(nf(7), root, 5)]);
      expect(await refusal(reopened, again[0]!)).toContain('rejected (bad-txns-sapling-duplicate-nullifier)');
    } finally {
      await reopened.close();
    }
  });

  it('are built for a version-5 store started from a checkpoint, from its first stored block on', async () => {
    const dir = tempDir('nullifier-checkpoint');
    cleanup.push(async () => dir.remove());
    const store = await openChainStore({ datadir: dir.path, network: MAINNET });
    await startAtSaplingCheckpoint(store);
    // sendrawtransaction does not ask a checkpoint store's coins view: a transaction of 419201
    // spends coins from before the checkpoint, which it does not hold (from genesis: -25).
    const loose = decodeBlock(readHexVector('blocks', 'mainnet', '419201.hex')).transactions[1]!;
    const sendraw = storeMethods(store).find((m) => m.name === 'sendrawtransaction')!;
    await expect(sendraw.call([Buffer.from(loose.bytes).toString('hex')], { network: MAINNET, requestStop: () => {} })).rejects.toThrow(
      'Zcash is not connected!',
    );
    const db = store.database;
    const nullifierKeys = async () => (await db.keys({ gte: Buffer.of(0x4e), lt: Buffer.of(0x4f) }).all()).map((k) => k.toString('hex'));
    const written = await nullifierKeys();
    // 419202 reveals two Sprout nullifiers (a JoinSplit) and one Sapling nullifier.
    const revealed = blockNullifiers(decodeBlock(readHexVector('blocks', 'mainnet', '419202.hex')));
    expect(revealed.map((r) => r.pool)).toEqual(['sprout', 'sprout', 'sapling']);
    expect(written).toEqual(revealed.map((r) => chainStateKeys.nullifier(r.pool, r.nullifier).toString('hex')).sort());

    await db.batch(written.map((k) => ({ type: 'del' as const, key: Buffer.from(k, 'hex') })));
    await db.put(keys.version(), encodeVersionRecord(5, 'mainnet'));
    await store.close();
    const lines: string[] = [];
    const reopened = await openChainStore({ datadir: dir.path, network: MAINNET, log: (l) => lines.push(l) });
    try {
      expect(lines.some((l) => l.includes('resuming'))).toBe(false);
      expect(reopened.database.getSync(keys.version())!.readUInt32LE(0)).toBe(SCHEMA_VERSION);
      expect((await reopened.database.keys({ gte: Buffer.of(0x4e), lt: Buffer.of(0x4f) }).all()).map((k) => k.toString('hex'))).toEqual(
        written,
      );
    } finally {
      await reopened.close();
    }
  });
});
