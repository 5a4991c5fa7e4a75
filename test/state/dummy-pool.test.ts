// Adding a pool is one registry entry: a dummy pool registered only here flows through the state
// transition, the shielded requirements, the store's records and keys, undo on a
// reorganization, the value pools, z_gettreestate, z_getsubtreesbyindex and getblock's and
// getblockchaininfo's renderers, without any other file knowing it.
//
// The dummy pool mirrors Sapling: its leaves are the Sapling outputs' note commitments and its
// nullifiers and anchors the Sapling spends', with Sapling's hasher, so every value it must show
// is a Sapling value the chain already has (its roots printed raw where Sapling's are reversed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSaplingHasher } from '../../src/crypto/sapling/index.js';
import { decodeTransaction } from '../../src/codec/tx/transaction.js';
import type { RpcMethod } from '../../src/rpc/method.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import {
  decodeBlockChainState,
  decodeChainStateTip,
  encodeBlockChainState,
  encodeChainStateTip,
  recordPoolRoot,
  recordPoolSize,
  type ShieldedPool,
} from '../../src/state/chain-state.js';
import { defaultPoolHashers } from '../../src/state/hashers.js';
import { registerShieldedPool, type ShieldedPoolEntry, type ShieldedPoolId } from '../../src/state/pools.js';
import { checkShieldedRequirements, type ShieldedRequirementFailure } from '../../src/state/shielded-requirements.js';
import { blockPoolDeltas, poolDeltaIdentityError } from '../../src/state/value-pools.js';
import { chainStateKeys } from '../../src/store/indexes/chain-state-index.js';
import { checkStoreIntegrity, openChainStore, type ChainStore } from '../../src/store/index.js';
import { regtestGenesis, type BuiltBlock } from '../../test-vectors/regtest-builder.js';
import { JUBJUB_POINT, saplingTransaction, SHIELDED_REGTEST, ShieldedChainBuilder } from '../../test-vectors/regtest-shielded.js';
import { errorOf, resultOf } from '../support/call.js';
import { tempDir } from '../support/store.js';

const DUMMY: ShieldedPoolEntry = {
  id: 'dummy',
  name: 'Dummy',
  keyByte: 0x09,
  upgrade: 'Heartwood',
  treeDepth: 32,
  hasher: () => defaultSaplingHasher().hasher,
  treeStateLayout: 'padded',
  rootsPrinted: 'raw',
  requirements: (tx, visit) => {
    const spends = tx.sapling?.spends ?? [];
    for (let i = 0; i < spends.length; i++)
      if (!visit('nullifier', spends[i]!.nullifier, i) || !visit('anchor', spends[i]!.anchor, i)) return;
  },
  part: (_kind, index) => `Dummy spend ${index}`,
  nullifiers: (tx, out) => {
    for (const spend of tx.sapling?.spends ?? []) out.push(spend.nullifier);
  },
  commitments: (tx, leaves) => {
    for (const output of tx.sapling?.outputs ?? []) leaves.push(output.cmu);
  },
  // Nothing moves in or out of it on this chain (a real balance would break the supply identity).
  valueBalance: () => 0,
};
const DUMMY_ID = 'dummy' as ShieldedPoolId;

const hex = (b: Uint8Array | null): string | null => (b ? Buffer.from(b).toString('hex') : null);
const reversedHex = (b: Uint8Array): string => Buffer.from(b).reverse().toString('hex');
const CLOCK = { clock: () => 1752983473 };

/** base 0..106 shields at 101, 103 and 105; the branch from 102 shields at 104 and reaches 108, taking over. */
function buildChains(): { base: BuiltBlock[]; branch: BuiltBlock[] } {
  const genesis = regtestGenesis();
  const builder = new ShieldedChainBuilder(genesis);
  const baseShields: Record<number, number> = { 101: 2, 103: 1, 105: 3 };
  const base = [genesis, ...builder.chain(genesis, 106, 'base', (h) => baseShields[h] ?? 0)];
  const branch = builder.chain(base[102]!, 6, 'branch', (h) => (h === 104 ? 4 : 0));
  return { base, branch };
}

describe('a pool registered only in a test', () => {
  let unregister: () => void;
  let chains: ReturnType<typeof buildChains>;
  const dir = tempDir('dummy-pool');
  let store: ChainStore;
  let methods: Map<string, RpcMethod>;
  const call = async (name: string, params: unknown[]): Promise<unknown> =>
    JSON.parse(await resultOf(methods.get(name)!, JSON.stringify(params)));

  beforeAll(async () => {
    chains = buildChains();
    unregister = registerShieldedPool(DUMMY);
    store = await openChainStore({ datadir: dir.path, network: SHIELDED_REGTEST });
    for (const b of chains.base) await store.addBlock(b.bytes);
    methods = new Map(storeMethods(store, { ...CLOCK, lightwalletd: true }).map((m) => [m.name, m]));
  });
  afterAll(async () => {
    await store.close();
    dir.remove();
    unregister();
  });

  it('cannot take a key byte or id another pool has', () => {
    expect(() => registerShieldedPool({ ...DUMMY, id: 'other' })).toThrow('shielded pool other (key byte 9) is already registered');
    expect(() => registerShieldedPool({ ...DUMMY, keyByte: 0x0a })).toThrow('already registered');
    expect(() => registerShieldedPool({ ...DUMMY, id: 'sprout', keyByte: 0x0a })).toThrow('already registered');
  });

  it('apply: its tree grows with its leaves, its root and size land in each block record and in the tip', async () => {
    const tip = (await store.chainStateTip())!;
    expect(tip.trees[DUMMY_ID].size).toBe(6);
    expect(hex(tip.trees[DUMMY_ID].root())).toBe(hex(tip.trees.sapling.root()));
    for (const h of [1, 100, 101, 104, 105, 106]) {
      const record = (await store.blockState((await store.hashAtHeight(h))!))!;
      expect([h, hex(recordPoolRoot(record, 'dummy')), recordPoolSize(record, 'dummy')]).toEqual([
        h,
        hex(record.saplingRoot),
        record.saplingSize,
      ]);
    }
    // The genesis block is before its upgrade: no root.
    const genesis = (await store.blockState((await store.hashAtHeight(0))!))!;
    expect([recordPoolRoot(genesis, 'dummy'), recordPoolSize(genesis, 'dummy')]).toEqual([null, 0]);
  });

  it('records: the block and tip records round-trip with it, and read it as absent when written without it', async () => {
    const record = (await store.blockState(chains.base[105]!.hash))!;
    expect(decodeBlockChainState(encodeBlockChainState(record))).toEqual(record);
    const tip = (await store.chainStateTip())!;
    const hashers = defaultPoolHashers();
    const tipBytes = encodeChainStateTip(tip);
    expect(hex(decodeChainStateTip(tipBytes, hashers).trees[DUMMY_ID].root())).toBe(hex(tip.trees[DUMMY_ID].root()));
    expect(Buffer.from(encodeChainStateTip(decodeChainStateTip(tipBytes, hashers))).equals(Buffer.from(tipBytes))).toBe(true);

    // Written by a zecrpc without the pool: read back with it absent (empty tree, no root, zero values).
    unregister();
    let withoutRecord: Uint8Array;
    let withoutTip: Uint8Array;
    try {
      withoutRecord = encodeBlockChainState(record);
      withoutTip = encodeChainStateTip(tip);
      expect(withoutTip.length).toBeLessThan(tipBytes.length);
      // Such a zecrpc refuses a record naming a pool it does not know.
      expect(() => decodeChainStateTip(tipBytes, defaultPoolHashers())).toThrow('pool key byte 9, which this zecrpc does not know');
    } finally {
      unregister = registerShieldedPool(DUMMY);
    }
    const absent = decodeBlockChainState(withoutRecord);
    expect([recordPoolRoot(absent, 'dummy'), recordPoolSize(absent, 'dummy')]).toEqual([null, 0]);
    expect([
      (absent.deltas as unknown as Record<string, bigint>).dummy,
      (absent.totals as unknown as Record<string, bigint>).dummy,
    ]).toEqual([0n, 0n]);
    expect({ ...absent, dummyRoot: undefined, dummySize: undefined, deltas: record.deltas, totals: record.totals }).toEqual({
      ...record,
      dummyRoot: undefined,
      dummySize: undefined,
    });
    const absentTip = decodeChainStateTip(withoutTip, defaultPoolHashers());
    expect([absentTip.trees[DUMMY_ID].size, (absentTip.totals as unknown as Record<string, bigint>).dummy]).toEqual([0, 0n]);
  });

  it('keys: each root it reached is an anchor of its own, and its nullifiers and subtrees have its key byte', async () => {
    const tip = (await store.chainStateTip())!;
    expect(chainStateKeys.anchor('dummy' as ShieldedPool, tip.trees[DUMMY_ID].root())[1]).toBe(0x09);
    expect(store.database.getSync(chainStateKeys.anchor('dummy' as ShieldedPool, tip.trees[DUMMY_ID].root()))).toBeDefined();
    expect(chainStateKeys.nullifier('dummy' as ShieldedPool, new Uint8Array(32))[1]).toBe(0x09);
    expect(chainStateKeys.subtreePrefix(DUMMY_ID)).toEqual(Buffer.of(0x51, 0x09));
    const view = store.coinsView();
    expect(view.anchorKnown(DUMMY_ID, tip.trees[DUMMY_ID].root())).toBe(true);
    expect(view.anchorKnown(DUMMY_ID, new Uint8Array(32).fill(7))).toBe(false);
  });

  it('the shielded requirements check its nullifiers and anchors after the built-in pools, with its rule names', () => {
    // A Sapling spend: the dummy pool reads the same nullifier and anchor.
    const spendTx = decodeTransaction(encodeSpend(new Uint8Array(32).fill(3), new Uint8Array(32).fill(4)));
    const failures: ShieldedRequirementFailure[] = [];
    checkShieldedRequirements(
      spendTx.data,
      { nullifierRevealed: (pool) => pool === DUMMY_ID, anchorKnown: (pool) => pool !== DUMMY_ID },
      (f) => (failures.push(f), true),
    );
    expect(failures.map((f) => [f.rule, f.part, hex(f.value)])).toEqual([
      ['bad-txns-dummy-duplicate-nullifier', 'Dummy spend 0', '03'.repeat(32)],
      ['bad-txns-dummy-unknown-anchor', 'Dummy spend 0', '04'.repeat(32)],
    ]);
  });

  it('value pools: its delta is its transactions’ value balances, checked by the supply identity', () => {
    // 500 zatoshis leave the Sapling pool (and the valued pool, which reads the same balance) as fee.
    const block = {
      transactions: [{ isCoinbase: false, data: { vin: [], vout: [], joinSplits: [], sapling: { valueBalance: 500 }, orchard: null } }],
    };
    const unregisterValued = registerShieldedPool({
      ...DUMMY,
      id: 'valued',
      keyByte: 0x0b,
      valueBalance: (tx) => tx.sapling?.valueBalance ?? 0,
    });
    try {
      const deltas = blockPoolDeltas(block, 'regtest', 200, null) as unknown as Record<string, bigint | null>;
      expect([deltas.sapling, deltas.dummy, deltas.valued]).toEqual([-500n, 0n, -500n]);
      const known = blockPoolDeltas(block, 'regtest', 200, () => 0);
      expect([known.chainSupply, poolDeltaIdentityError(known)]).toEqual([-1000n, null]);
      expect(poolDeltaIdentityError({ ...known, valued: 0n } as typeof known)).toBe(
        'per-block value pool identity fails at height 200: chainSupply -1000 != transparent 0 + sprout 0 + sapling -500 + orchard 0 + dummy 0 + valued 0 + lockbox 0 = -500 (difference -500)',
      );
    } finally {
      unregisterValued();
    }
  });

  it('z_gettreestate prints it after the built-in pools, its root raw, its frontier in its layout', async () => {
    const reply = (await call('z_gettreestate', [chains.base[105]!.hashHex])) as Record<
      string,
      { commitments: { finalRoot: string; finalState?: string } }
    >;
    expect(Object.keys(reply)).toEqual(['hash', 'height', 'time', 'sprout', 'sapling', 'dummy']);
    const record = (await store.blockState(chains.base[105]!.hash))!;
    expect(reply.dummy!.commitments.finalRoot).toBe(hex(record.saplingRoot));
    expect(reply.sapling!.commitments.finalRoot).toBe(reversedHex(record.saplingRoot));
    const tree = (await store.chainStateTip())!.trees[DUMMY_ID];
    expect(reply.dummy!.commitments.finalState).toBe(tree.toTreeState('padded'));
  });

  it('z_getsubtreesbyindex accepts it and names it among the pools', async () => {
    expect(await resultOf(methods.get('z_getsubtreesbyindex')!, '["dummy", 0]')).toBe('{"pool":"dummy","start_index":0,"subtrees":[]}');
    expect(await errorOf(methods.get('z_getsubtreesbyindex')!, '["nope", 0]')).toEqual({
      code: -8,
      message: 'Requested pool must be "sapling", "orchard" or "dummy"',
    });
  });

  it('getblock and getblockchaininfo render its tree size and value pool', async () => {
    const block = (await call('getblock', [chains.base[105]!.hashHex, 1])) as {
      valuePools: { id: string; chainValueZat: number; valueDeltaZat: number }[];
      trees: Record<string, { size: number }>;
    };
    expect(block.valuePools.map((p) => p.id)).toEqual(['transparent', 'sprout', 'sapling', 'orchard', 'dummy', 'lockbox']);
    expect(block.valuePools[4]).toMatchObject({ id: 'dummy', chainValueZat: 0, valueDeltaZat: 0 });
    expect(block.trees).toEqual({ sapling: { size: 6 }, dummy: { size: 6 } });
    const info = (await call('getblockchaininfo', [])) as { valuePools: { id: string }[] };
    expect(info.valuePools.map((p) => p.id)).toEqual(['transparent', 'sprout', 'sapling', 'orchard', 'dummy', 'lockbox']);
  });

  it('undo: a reorganization removes the abandoned blocks’ roots of it and restores its tree', async () => {
    const abandoned = (await store.chainStateTip())!.trees[DUMMY_ID].root();
    for (const b of chains.branch) await store.addBlock(b.bytes);
    const tip = (await store.chainStateTip())!;
    expect(Buffer.from(tip.hash).equals(Buffer.from(chains.branch[5]!.hash))).toBe(true);
    // Branch: 2 leaves at 101, 4 at 104.
    expect([tip.trees[DUMMY_ID].size, hex(tip.trees[DUMMY_ID].root())]).toEqual([6, hex(tip.trees.sapling.root())]);
    expect(store.database.getSync(chainStateKeys.anchor('dummy' as ShieldedPool, abandoned))).toBeUndefined();
    expect(store.database.getSync(chainStateKeys.anchor('dummy' as ShieldedPool, tip.trees[DUMMY_ID].root()))).toBeDefined();
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
  });
});

/** A v4 transaction with one Sapling spend of `nullifier` at `anchor` (nothing here verifies its proof or signatures). */
function encodeSpend(nullifier: Uint8Array, anchor: Uint8Array): Uint8Array {
  const spend = { cv: JUBJUB_POINT, anchor, nullifier, rk: JUBJUB_POINT, zkproof: new Uint8Array(192), spendAuthSig: new Uint8Array(64) };
  return saplingTransaction({ spends: [spend], valueBalance: 0 });
}
