// The rules that came after zcashd v6.12.2 (docs/validation.md): the Orchard soft fork and NU6.2's
// canonical proof length (ZIP 257), NU6.3's Orchard-pool restrictions (ZIP 258), v6 transactions
// and their Ironwood component (ZIP 229). Every real block around NU6.3 keeps them at its height on
// its network; a real transaction changed to break one is refused with its reason.
import { describe, expect, it } from 'vitest';
import { checkBlockTransactions, checkFoundersReward, contextualCheckBlockTransactions } from '../../src/chain/block-rules.js';
import {
  BRANCH_IDS,
  isOrchardSoftForkActive,
  MAINNET,
  NETWORK_UPGRADES,
  networkParams,
  REGTEST,
  regtestWithActivations,
  TESTNET,
  type NetworkParams,
} from '../../src/chain/network.js';
import { ACTIVATION_BLOCK_HASHES } from '../../src/chain/checkpoints.js';
import { checkCheckpoint } from '../../src/chain/header-rules.js';
import { canonicalActionProofSize, checkTransactionWithoutProofs, contextualCheckTransaction } from '../../src/chain/tx-rules.js';
import { decodeBlock, type Block } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { decodeTransaction, encodeTransaction, type Transaction } from '../../src/codec/tx/transaction.js';
import type { OrchardBundle, TransactionData } from '../../src/codec/tx/types.js';
import { networkUnderProfile, ZCASHD_6_12_2 } from '../../src/compat/profiles.js';
import { readHexVector, readJsonVector } from '../support/vectors.js';

interface RealBlock {
  network: NetworkParams;
  height: number;
  block: Block;
}

const facts = readJsonVector<{ blocks: Record<string, { network: 'mainnet' | 'testnet'; height: number }> }>('nu6.3', 'facts.json').blocks;
const realBlocks: RealBlock[] = Object.values(facts).map((f) => ({
  network: networkParams(f.network),
  height: f.height,
  block: decodeBlock(readHexVector('nu6.3', 'blocks', f.network, `${f.height}.hex`), CURRENT_CHAIN_ACCEPTANCE),
}));

function find(pick: (tx: Transaction, b: RealBlock) => boolean): { tx: Transaction; at: RealBlock } {
  for (const b of realBlocks) for (const tx of b.block.transactions) if (pick(tx, b)) return { tx, at: b };
  throw new Error('no such transaction in the nu6.3 vectors');
}

const bundleCopy = (b: OrchardBundle | null | undefined): OrchardBundle | null =>
  b ? { ...b, actions: b.actions.map((a) => ({ ...a })) } : null;

/** A copy of `tx` changed by `change`, re-encoded and decoded again under today's acceptance. */
function changed(tx: Transaction, change: (d: TransactionData) => void): Transaction {
  const d: TransactionData = {
    ...tx.data,
    vin: tx.data.vin.map((i) => ({ prevout: { ...i.prevout }, scriptSig: i.scriptSig, sequence: i.sequence })),
    vout: tx.data.vout.map((o) => ({ value: o.value, scriptPubKey: o.scriptPubKey })),
    orchard: bundleCopy(tx.data.orchard),
    ironwood: bundleCopy(tx.data.ironwood),
  };
  change(d);
  return decodeTransaction(encodeTransaction(d), CURRENT_CHAIN_ACCEPTANCE);
}

const reason = (v: { reason: string } | null): string | null => v?.reason ?? null;
const NU6_2 = (n: NetworkParams) => n.activationHeights['NU6.2']!;
const NU6_3 = (n: NetworkParams) => n.activationHeights['NU6.3']!;

describe('the real blocks around NU6.3 keep every rule', () => {
  it('all 19 blocks pass CheckBlock, ContextualCheckBlock and the founders-reward rule at their heights', () => {
    expect(realBlocks).toHaveLength(19);
    let v6 = 0;
    for (const { network, height, block } of realBlocks) {
      expect(checkBlockTransactions(block, height), `${network.name} ${height}`).toBeNull();
      expect(contextualCheckBlockTransactions(block, height, network), `${network.name} ${height}`).toBeNull();
      expect(checkFoundersReward(block, height, network), `${network.name} ${height}`).toBeNull();
      v6 += block.transactions.filter((t) => t.data.format === 'v6').length;
    }
    expect(v6).toBe(23);
  });

  it('every Orchard-protocol proof in them has the canonical length', () => {
    let bundles = 0;
    for (const { block } of realBlocks)
      for (const tx of block.transactions)
        for (const b of [tx.data.orchard, tx.data.ironwood ?? null]) {
          if (!b) continue;
          expect(b.proof.length).toBe(canonicalActionProofSize(b.actions.length));
          bundles++;
        }
    expect(bundles).toBeGreaterThan(15);
    expect(canonicalActionProofSize(2)).toBe(7264);
  });
});

describe('the NU6.3 activation blocks', () => {
  it('are pinned with the hashes of the real first NU6.3 blocks, and another hash there is refused', () => {
    for (const { network, height, block } of realBlocks.filter((b) => b.height === NU6_3(b.network))) {
      expect(ACTIVATION_BLOCK_HASHES[network.name]['NU6.3']).toBe(block.hashHex);
      expect(checkCheckpoint(network, height, block.hashHex)).toBeNull();
      const other = realBlocks.find((b) => b.network === network && b.height === height + 1)!.block.hashHex;
      expect(checkCheckpoint(network, height, other)).toMatchObject({ rule: 'activation-block-mismatch', expected: block.hashHex });
    }
    expect(ACTIVATION_BLOCK_HASHES.mainnet['NU6.3']).toBe('00000000001a8b54bbde4e8996373417a6b33ee2bd984bcf02882e5d8128d761');
    expect(ACTIVATION_BLOCK_HASHES.testnet['NU6.3']).toBe('000003943e1a2c60c17b69ed4d448ea9296019a247f1134b507917941957fccd');
    // Under -compat=6.12.2 NU6.3 never activates, so its pin never applies.
    const old = networkUnderProfile(MAINNET, ZCASHD_6_12_2);
    expect(checkCheckpoint(old, NU6_3(MAINNET), '00'.repeat(32))).toBeNull();
  });
});

describe('the Orchard soft fork (ZIP 257)', () => {
  // A real NU6.2-era v5 transaction with Orchard actions, given the branch id of the epoch it is moved to.
  const { tx: nu62 } = find((t, b) => t.data.format === 'v5' && (t.data.orchard?.actions.length ?? 0) > 0 && b.height < NU6_3(b.network));
  // No expiry, so that it may be checked at any height.
  const inEpoch = (branch: number) =>
    changed(nu62, (d) => {
      d.consensusBranchId = branch;
      d.expiryHeight = 0;
    });
  const nu61 = inEpoch(BRANCH_IDS['NU6.1']);

  it('is a network fact: mainnet 3,363,426, testnet 4,048,500, none on regtest', () => {
    expect(MAINNET.orchardSoftForkHeight).toBe(3363426);
    expect(TESTNET.orchardSoftForkHeight).toBe(4048500);
    expect(REGTEST.orchardSoftForkHeight).toBeNull();
    expect(regtestWithActivations(Object.fromEntries(NETWORK_UPGRADES.map((u) => [u, 1]))).orchardSoftForkHeight).toBeNull();
    for (const n of [MAINNET, TESTNET]) {
      expect(isOrchardSoftForkActive(n, n.orchardSoftForkHeight! - 1)).toBe(false);
      expect(isOrchardSoftForkActive(n, n.orchardSoftForkHeight!)).toBe(true);
      expect(isOrchardSoftForkActive(n, NU6_2(n) - 1)).toBe(true);
      expect(isOrchardSoftForkActive(n, NU6_2(n))).toBe(false);
    }
  });

  it('refuses Orchard actions from its height until NU6.2, on both networks', () => {
    for (const n of [MAINNET, TESTNET]) {
      const from = n.orchardSoftForkHeight!;
      expect(contextualCheckTransaction(nu61, n, from - 1), n.name).toBeNull();
      expect(reason(contextualCheckTransaction(nu61, n, from))).toBe('bad-tx-orchard-actions-disabled');
      expect(reason(contextualCheckTransaction(nu61, n, NU6_2(n) - 1))).toBe('bad-tx-orchard-actions-disabled');
      expect(contextualCheckTransaction(inEpoch(BRANCH_IDS['NU6.2']), n, NU6_2(n)), n.name).toBeNull();
    }
    // A transaction without Orchard actions is untouched by it.
    const transparent = changed(nu61, (d) => (d.orchard = null));
    expect(contextualCheckTransaction(transparent, MAINNET, MAINNET.orchardSoftForkHeight!)).toBe(null);
  });

  it('does not exist for a node of zcashd v6.12.2, which knows no NU6.2', () => {
    const old = networkUnderProfile(MAINNET, ZCASHD_6_12_2);
    expect(old.orchardSoftForkHeight).toBeNull();
    expect(contextualCheckTransaction(nu61, old, MAINNET.orchardSoftForkHeight!)).toBeNull();
  });
});

describe("NU6.2's canonical proof length (ZIP 257)", () => {
  const { tx: v5, at } = find((t) => t.data.format === 'v5' && (t.data.orchard?.actions.length ?? 0) > 0);
  const { tx: v6ironwood, at: v6at } = find((t) => t.data.format === 'v6' && !!t.data.ironwood);

  it('refuses an Orchard proof one byte short or long from NU6.2, not before', () => {
    expect(contextualCheckTransaction(v5, at.network, at.height)).toBeNull();
    const short = changed(v5, (d) => (d.orchard!.proof = d.orchard!.proof.subarray(1)));
    const long = changed(v5, (d) => (d.orchard!.proof = Uint8Array.from([...d.orchard!.proof, 0])));
    expect(reason(contextualCheckTransaction(short, at.network, at.height))).toBe('bad-tx-orchard-proof-length');
    expect(reason(contextualCheckTransaction(long, at.network, at.height))).toBe('bad-tx-orchard-proof-length');
    // In NU6.1, before the soft fork, the length was not a consensus rule.
    const nu61 = changed(short, (d) => (d.consensusBranchId = BRANCH_IDS['NU6.1']));
    expect(contextualCheckTransaction(nu61, MAINNET, MAINNET.orchardSoftForkHeight! - 1)).toBeNull();
  });

  it('holds the Ironwood proof to the same length', () => {
    expect(contextualCheckTransaction(v6ironwood, v6at.network, v6at.height)).toBeNull();
    const short = changed(v6ironwood, (d) => (d.ironwood!.proof = d.ironwood!.proof.subarray(2272)));
    expect(reason(contextualCheckTransaction(short, v6at.network, v6at.height))).toBe('bad-tx-ironwood-proof-length');
  });
});

describe("NU6.3's Orchard-pool rules (ZIP 258, ZIP 229)", () => {
  const { tx: coinbase, at: cbAt } = find((t) => t.isCoinbase && t.data.format === 'v6');
  const { tx: both, at } = find((t) => t.data.format === 'v6' && !!t.data.orchard && !!t.data.ironwood);
  const orchardOutputs = (): OrchardBundle => ({ ...bundleCopy(both.data.orchard)!, flags: 2, valueBalance: 0 });

  it('names the mainnet block holding Orchard and Ironwood components together, and the first v6 coinbase', () => {
    expect(at.network.name).toBe('mainnet');
    expect(both.data.orchard!.flags).toBe(0b011);
    expect(both.data.ironwood!.flags).toBe(0b111);
    expect(both.data.orchard!.valueBalance).toBeGreaterThanOrEqual(0);
    expect(find((t, b) => t.data.format === 'v6' && t.isCoinbase && b.height === NU6_3(b.network)).at.height).toBeGreaterThan(0);
  });

  it('refuses a coinbase with Orchard actions, even outputs only', () => {
    const withOrchard = changed(coinbase, (d) => (d.orchard = orchardOutputs()));
    expect(checkTransactionWithoutProofs(withOrchard)).toBeNull();
    expect(reason(contextualCheckTransaction(withOrchard, cbAt.network, cbAt.height))).toBe('bad-cb-has-orchard-actions');
  });

  it('lets a coinbase create Ironwood notes but not spend them', () => {
    const outputs = changed(coinbase, (d) => (d.ironwood = { ...orchardOutputs() }));
    expect(checkTransactionWithoutProofs(outputs)).toBeNull();
    expect(contextualCheckTransaction(outputs, cbAt.network, cbAt.height)).toBeNull();
    const spends = changed(coinbase, (d) => (d.ironwood = { ...orchardOutputs(), flags: 0b011 }));
    expect(reason(checkTransactionWithoutProofs(spends))).toBe('bad-cb-has-ironwood-spend');
  });

  it('refuses enableCrossAddress in flagsOrchard, and allows it in flagsIronwood', () => {
    expect(contextualCheckTransaction(both, at.network, at.height)).toBeNull();
    const cross = changed(both, (d) => (d.orchard!.flags = 0b111));
    expect(reason(contextualCheckTransaction(cross, at.network, at.height))).toBe('bad-tx-orchard-cross-address-enabled');
  });

  it('refuses flag bits 3–7 in either component (the parser refuses them too)', () => {
    const data = { ...both.data, ironwood: bundleCopy(both.data.ironwood) };
    expect(() => encodeAndDecode({ ...data, ironwood: { ...data.ironwood!, flags: 0b1111 } })).toThrow('invalid Orchard flags');
    for (const part of ['orchard', 'ironwood'] as const) {
      const bad = decodeTransaction(both.bytes, CURRENT_CHAIN_ACCEPTANCE);
      bad.data[part]!.flags |= 0x80;
      expect(reason(contextualCheckTransaction(bad, at.network, at.height))).toBe(`bad-tx-${part}-flags-reserved`);
    }
  });

  it('refuses value entering the Orchard pool from NU6.3, in v6 and v5 alike', () => {
    const into = changed(both, (d) => (d.orchard!.valueBalance = -1));
    expect(reason(contextualCheckTransaction(into, at.network, at.height))).toBe('bad-tx-orchard-negative-valuebalance');
    expect(
      contextualCheckTransaction(
        changed(both, (d) => (d.orchard!.valueBalance = 0)),
        at.network,
        at.height,
      ),
    ).toBeNull();
    // A real NU6.2-era v5 transaction that shielded into Orchard: valid then, refused from NU6.3.
    const { tx: shielding, at: v5at } = find((t) => t.data.format === 'v5' && (t.data.orchard?.valueBalance ?? 0) < 0);
    expect(contextualCheckTransaction(shielding, v5at.network, v5at.height)).toBeNull();
    const later = changed(shielding, (d) => (d.consensusBranchId = BRANCH_IDS['NU6.3']));
    expect(reason(contextualCheckTransaction(later, v5at.network, NU6_3(v5at.network)))).toBe('bad-tx-orchard-negative-valuebalance');
  });
});

describe('transaction versions around NU6.3', () => {
  const { tx: v6, at } = find((t) => t.data.format === 'v6' && !t.isCoinbase);
  const { tx: v5 } = find((t) => t.data.format === 'v5' && !t.isCoinbase && (t.data.orchard?.valueBalance ?? 0) >= 0);

  it('accepts v4, v5 and v6 after activation', () => {
    const { tx: v4, at: v4at } = find((t, b) => t.data.format === 'v4' && b.height >= NU6_3(b.network));
    expect(contextualCheckTransaction(v4, v4at.network, v4at.height)).toBeNull();
    const v5later = changed(v5, (d) => (d.consensusBranchId = BRANCH_IDS['NU6.3']));
    expect(contextualCheckTransaction(v5later, MAINNET, NU6_3(MAINNET))).toBeNull();
    expect(contextualCheckTransaction(v6, at.network, at.height)).toBeNull();
  });

  it('refuses v6 before NU6.3, as NU5 refuses a version group it does not know', () => {
    const early = changed(v6, (d) => (d.consensusBranchId = BRANCH_IDS['NU6.2']));
    expect(reason(contextualCheckTransaction(early, at.network, NU6_3(at.network) - 1))).toBe('bad-nu5-tx-version-group-id');
  });

  it("holds v5 and v6 branch ids to the epoch's", () => {
    expect(reason(contextualCheckTransaction(v5, MAINNET, NU6_3(MAINNET)))).toBe('bad-tx-consensus-branch-id-mismatch');
    const nu62v6 = changed(v6, (d) => (d.consensusBranchId = BRANCH_IDS['NU6.2']));
    expect(reason(contextualCheckTransaction(nu62v6, at.network, at.height))).toBe('bad-tx-consensus-branch-id-mismatch');
  });

  it('refuses a v6 version group with another version number', () => {
    const bad = decodeTransaction(v6.bytes, CURRENT_CHAIN_ACCEPTANCE);
    (bad.data as { version: number }).version = 7;
    expect(reason(contextualCheckTransaction(bad, at.network, at.height))).toBe('bad-tx-zip229-version-too-high');
    (bad.data as { version: number }).version = 5;
    expect(reason(contextualCheckTransaction(bad, at.network, at.height))).toBe('bad-tx-zip229-version-too-low');
  });
});

describe("CheckTransaction's Orchard rules, applied to the Ironwood component", () => {
  const { tx } = find((t) => (t.data.ironwood?.actions.length ?? 0) >= 2 && !t.data.orchard);

  it('counts Ironwood spends as a source of funds and Ironwood outputs as a sink', () => {
    expect(checkTransactionWithoutProofs(tx)).toBeNull();
    const shielded = changed(tx, (d) => {
      d.vin = [];
      d.vout = [];
    });
    expect(checkTransactionWithoutProofs(shielded)).toBeNull();
    expect(reason(checkTransactionWithoutProofs(changed(shielded, (d) => (d.ironwood!.flags = 0b110))))).toBe(
      'bad-txns-no-source-of-funds',
    );
    expect(reason(checkTransactionWithoutProofs(changed(shielded, (d) => (d.ironwood!.flags = 0b101))))).toBe('bad-txns-no-sink-of-funds');
  });

  it('refuses duplicate Ironwood nullifiers, an identity rk, and disabled flags', () => {
    const dup = changed(tx, (d) => (d.ironwood!.actions[1]!.nullifier = d.ironwood!.actions[0]!.nullifier));
    expect(reason(checkTransactionWithoutProofs(dup))).toBe('bad-ironwood-nullifiers-duplicate');
    const identity = changed(tx, (d) => (d.ironwood!.actions[0]!.rk = new Uint8Array(32)));
    expect(reason(checkTransactionWithoutProofs(identity))).toBe('bad-ironwood-action-identity-point');
    const disabled = changed(tx, (d) => {
      d.ironwood!.flags = 0b100;
      d.vin = [{ prevout: { hash: new Uint8Array(32).fill(1), index: 0 }, scriptSig: Uint8Array.of(0x51), sequence: 0 }];
      d.vout = [{ value: 0, scriptPubKey: Uint8Array.of(0x51) }];
    });
    expect(reason(checkTransactionWithoutProofs(disabled))).toBe('bad-tx-ironwood-flags-disable-actions');
  });
});

function encodeAndDecode(d: TransactionData): Transaction {
  return decodeTransaction(encodeTransaction(d), CURRENT_CHAIN_ACCEPTANCE);
}
