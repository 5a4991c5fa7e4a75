// A regtest chain with NU6.2 and NU6.3 activated through -nuparams (test/support/nu6-regtest.ts),
// imported into a store: every block's header commitment (ZIP-221 V2 nodes in NU6.2's epoch, V3
// from NU6.3, whose activation block commits to NU6.2's history root) is the one the store
// computes. NU6.2's activation block shields into Orchard with a NU6.2-branch v5 transaction;
// NU6.3's (a v6 coinbase) moves that value across the turnstile into Ironwood with a v6
// transaction and carries a v4 and a NU6.3-branch v5 one; later blocks give a coinbase Ironwood
// notes and spend Ironwood notes out. Each block that breaks one of the rules after zcashd v6.12.2
// (in NU6.2, and at NU6.3's activation height) is refused with its reason while the chain stays
// where it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBlockTransactions, contextualCheckBlockTransactions } from '../../src/chain/block-rules.js';
import { hashBlockCommitments } from '../../src/chain/commitment-era.js';
import { BRANCH_IDS } from '../../src/chain/upgrades.js';
import { historyRoot } from '../../src/state/history-tree.js';
import { loadNodeConfig } from '../../src/config.js';
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { encodeTransaction, decodeTransaction } from '../../src/codec/tx/transaction.js';
import { BlockRejectedError } from '../../src/store/errors.js';
import { openChainStore, type ChainStore } from '../../src/store/index.js';
import type { BuiltBlock } from '../../test-vectors/regtest-builder.js';
import { actionBundle, nu6Regtest, nuparamsArgs, RegtestChainBuilder, shieldedTransaction, spend } from '../support/nu6-regtest.js';
import { tempDir } from '../support/store.js';

const NU6_2 = 103;
const NU6_3 = 106;
const network = nu6Regtest({ 'NU6.2': NU6_2, 'NU6.3': NU6_3 });

interface Chains {
  builder: RegtestChainBuilder;
  /** Genesis … NU6.3 + 2. */
  main: BuiltBlock[];
  /** The Orchard value shielded at NU6.2, in Ironwood after NU6.3's activation block. */
  migrated: number;
  /** Blocks that break one rule each, with the reason the store must give. */
  broken: { block: BuiltBlock; reason: string }[];
}

function buildChains(): Chains {
  const builder = new RegtestChainBuilder(network);
  const { genesis } = builder;
  const emptyRoot = builder.stateAfter(genesis).trees.orchard.root();
  const main = [genesis, ...builder.chain(genesis, NU6_2 - 1, 'base')];
  const broken: Chains['broken'] = [];
  const at = (h: number) => main[h]!;
  const orchardRoot = (h: number) => builder.stateAfter(at(h)).trees.orchard.root();
  const nu62 = BRANCH_IDS['NU6.2'];
  const nu63 = BRANCH_IDS['NU6.3'];

  // NU6.2's activation block shields block 2's coinbase into Orchard with a NU6.2-branch v5 transaction.
  const shielded = builder.minerOutput(at(2));
  const shield = shieldedTransaction({
    format: 'v5',
    branchId: nu62,
    vin: [spend(shielded.prevout)],
    orchard: actionBundle({ actions: 2, flags: 0b010, valueBalance: -shielded.value, anchor: orchardRoot(NU6_2 - 1) }),
  });
  main.push(builder.next(at(NU6_2 - 1), { tag: 'base', txs: [shield] }));

  // In NU6.2: a proof one action short of canonical; a v6 transaction before NU6.3.
  const short = actionBundle({ actions: 2, flags: 0b010, valueBalance: -builder.minerOutput(at(3)).value, anchor: orchardRoot(NU6_2) });
  short.proof = short.proof.subarray(2272);
  const shortTx = shieldedTransaction({ format: 'v5', branchId: nu62, vin: [spend(builder.minerOutput(at(3)).prevout)], orchard: short });
  broken.push({ block: builder.next(at(NU6_2), { tag: 'short-proof', txs: [shortTx] }), reason: 'bad-tx-orchard-proof-length' });
  const early = shieldedTransaction({
    format: 'v6',
    branchId: nu62,
    vin: [spend(builder.minerOutput(at(3)).prevout)],
    vout: [{ value: builder.minerOutput(at(3)).value, scriptPubKey: Uint8Array.of(0x51) }],
  });
  broken.push({ block: builder.next(at(NU6_2), { tag: 'early-v6', txs: [early] }), reason: 'bad-nu5-tx-version-group-id' });
  main.push(...builder.chain(at(NU6_2), NU6_3 - NU6_2 - 1, 'base'));

  // NU6.3's activation block: a v6 coinbase; the Orchard value crosses into Ironwood in a v6
  // transaction (ZIP 318's migration); a v4 and a NU6.3-branch v5 transaction.
  const migrate = shieldedTransaction({
    format: 'v6',
    branchId: nu63,
    orchard: actionBundle({ actions: 2, flags: 0b011, valueBalance: shielded.value, anchor: orchardRoot(NU6_2) }),
    ironwood: actionBundle({ actions: 2, flags: 0b110, valueBalance: -shielded.value, anchor: emptyRoot }),
  });
  const c4 = builder.minerOutput(at(4));
  const v4 = encodeTransaction({
    ...decodeTransaction(shieldedTransaction({ format: 'v5', branchId: nu63 }), CURRENT_CHAIN_ACCEPTANCE).data,
    format: 'v4',
    version: 4,
    versionGroupId: 0x892f2085,
    consensusBranchId: null,
    vin: [spend(c4.prevout)],
    vout: [{ value: c4.value, scriptPubKey: Uint8Array.of(0x51) }],
  });
  const c5 = builder.minerOutput(at(5));
  const v5 = shieldedTransaction({
    format: 'v5',
    branchId: nu63,
    vin: [spend(c5.prevout)],
    vout: [{ value: c5.value, scriptPubKey: Uint8Array.of(0x51) }],
  });
  main.push(builder.next(at(NU6_3 - 1), { tag: 'base', txs: [migrate, v4, v5] }));

  // At NU6.3's activation height, one broken rule per block.
  const c6 = builder.minerOutput(at(6));
  const outputsOnly = () => actionBundle({ actions: 2, flags: 0b010, valueBalance: 0, anchor: emptyRoot });
  broken.push({
    block: builder.next(at(NU6_3 - 1), { tag: 'cb-orchard', editCoinbase: (d) => (d.orchard = outputsOnly()) }),
    reason: 'bad-cb-has-orchard-actions',
  });
  broken.push({
    block: builder.next(at(NU6_3 - 1), {
      tag: 'cb-ironwood-spend',
      editCoinbase: (d) => (d.ironwood = { ...outputsOnly(), flags: 0b011 }),
    }),
    reason: 'bad-cb-has-ironwood-spend',
  });
  const into = shieldedTransaction({
    format: 'v5',
    branchId: nu63,
    vin: [spend(c6.prevout)],
    orchard: actionBundle({ actions: 2, flags: 0b010, valueBalance: -c6.value, anchor: orchardRoot(NU6_3 - 1) }),
  });
  broken.push({ block: builder.next(at(NU6_3 - 1), { tag: 'into-orchard', txs: [into] }), reason: 'bad-tx-orchard-negative-valuebalance' });
  const cross = shieldedTransaction({
    format: 'v6',
    branchId: nu63,
    vin: [spend(c6.prevout)],
    vout: [{ value: c6.value, scriptPubKey: Uint8Array.of(0x51) }],
    orchard: actionBundle({ actions: 2, flags: 0b111, valueBalance: 0, anchor: orchardRoot(NU6_3 - 1) }),
  });
  broken.push({
    block: builder.next(at(NU6_3 - 1), { tag: 'cross-address', txs: [cross] }),
    reason: 'bad-tx-orchard-cross-address-enabled',
  });
  // A coinbase may create Ironwood notes; then the migrated value leaves Ironwood to a transparent output.
  main.push(builder.next(at(NU6_3), { tag: 'base', editCoinbase: (d) => (d.ironwood = outputsOnly()) }));
  const ironwoodRoot = builder.stateAfter(at(NU6_3 + 1)).trees.ironwood.root();
  const out = shieldedTransaction({
    format: 'v6',
    branchId: nu63,
    vout: [{ value: shielded.value, scriptPubKey: Uint8Array.of(0x51) }],
    ironwood: actionBundle({ actions: 2, flags: 0b111, valueBalance: shielded.value, anchor: ironwoodRoot }),
  });
  main.push(builder.next(at(NU6_3 + 1), { tag: 'base', txs: [out] }));
  return { builder, main, migrated: shielded.value, broken };
}

describe('a regtest chain through NU6.2 and NU6.3', () => {
  let chains: Chains;
  const dir = tempDir('nu6-regtest');
  let store: ChainStore;
  beforeAll(async () => {
    chains = buildChains();
    store = await openChainStore({ datadir: dir.path, network });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    dir.remove();
  });

  it('is the chain -nuparams schedules', () => {
    const args = ['-regtest', `-datadir=${dir.path}`, ...nuparamsArgs(network)];
    expect(args).toContain(`-nuparams=5437f330:${NU6_2}`);
    expect(args).toContain(`-nuparams=37a5165b:${NU6_3}`);
    expect(loadNodeConfig(args).network.activationHeights).toEqual(network.activationHeights);
  });

  it('builds valid blocks: the state transition accepts every header commitment, the history tree restarting at NU6.2 and NU6.3', () => {
    const { builder, main } = chains;
    expect(main).toHaveLength(NU6_3 + 3);
    for (const b of main) expect(builder.refused.get(b.hashHex), `height ${b.height}`).toBeUndefined();
    const branchAfter = (h: number) => {
      const history = builder.stateAfter(main[h]!).history;
      return history === 'unknown' || history === null ? null : history.branchId >>> 0;
    };
    expect(branchAfter(NU6_2 - 1)).toBe(BRANCH_IDS['NU6.1']);
    expect(branchAfter(NU6_2)).toBe(BRANCH_IDS['NU6.2']);
    expect(branchAfter(NU6_3 - 1)).toBe(BRANCH_IDS['NU6.2']);
    expect(branchAfter(NU6_3)).toBe(BRANCH_IDS['NU6.3']);
    const formats = (h: number) => decodeBlock(main[h]!.bytes, CURRENT_CHAIN_ACCEPTANCE).transactions.map((t) => t.data.format);
    expect(formats(1)).toEqual(['v5']);
    expect(formats(NU6_2)).toEqual(['v5', 'v5']);
    expect(formats(NU6_3)).toEqual(['v6', 'v6', 'v4', 'v5']);
    expect(formats(NU6_3 + 2)).toEqual(['v6', 'v6']);
  });

  it("NU6.3's activation block keeps every transaction rule and commits to NU6.2's history root", () => {
    const block = decodeBlock(chains.main[NU6_3]!.bytes, CURRENT_CHAIN_ACCEPTANCE);
    expect(checkBlockTransactions(block, NU6_3)).toBeNull();
    expect(contextualCheckBlockTransactions(block, NU6_3, network)).toBeNull();
    const nu62History = chains.builder.stateAfter(chains.main[NU6_3 - 1]!).history;
    if (nu62History === 'unknown' || nu62History === null) throw new Error('no history tree after NU6.3 − 1');
    expect(Buffer.from(block.header.commitments).toString('hex')).toBe(
      Buffer.from(hashBlockCommitments(historyRoot(nu62History), block.computeAuthDataRoot())).toString('hex'),
    );
  });

  it('moves the shielded value Orchard → Ironwood → transparent, through the turnstile', () => {
    const totals = (h: number) => chains.builder.stateAfter(chains.main[h]!).totals;
    const v = BigInt(chains.migrated);
    expect([totals(NU6_2).orchard, totals(NU6_2).ironwood ?? 0n]).toEqual([v, 0n]);
    expect([totals(NU6_3).orchard, totals(NU6_3).ironwood]).toEqual([0n, v]);
    expect([totals(NU6_3 + 2).orchard, totals(NU6_3 + 2).ironwood]).toEqual([0n, 0n]);
  });

  it('the store connects every block', async () => {
    for (const b of chains.main) expect((await store.addBlock(b.bytes)).status, `height ${b.height}`).toBe('connected');
    expect((await store.tip())?.height).toBe(NU6_3 + 2);
  });

  it('refuses each block that breaks a rule, with its reason', async () => {
    for (const { block, reason } of chains.broken) {
      const e = await store.addBlock(block.bytes).then(
        () => null,
        (x: unknown) => x,
      );
      expect(e, reason).toBeInstanceOf(BlockRejectedError);
      expect((e as Error).message, reason).toContain(reason);
    }
    expect((await store.tip())?.height).toBe(NU6_3 + 2);
  });
});
