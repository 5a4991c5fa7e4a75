// zcashd's transaction rules without proofs (CheckTransactionWithoutProofVerification,
// ContextualCheckTransaction, IsFinalTx, CheckBlock's coinbase and signature-op rules): every real
// block passes them at its height, and a real transaction changed to break one rule is refused
// with zcashd's reject reason.
import { describe, expect, it } from 'vitest';
import {
  checkBlockTransactions,
  checkFoundersReward,
  contextualCheckBlockTransactions,
  legacySigOpCount,
  MAX_BLOCK_SIGOPS,
} from '../../src/chain/block-rules.js';
import { addressScript, blockRewardSplit, lockboxDelta } from '../../src/chain/funding-streams.js';
import { MAINNET, networkParams, type NetworkParams } from '../../src/chain/network.js';
import { checkTransactionWithoutProofs, contextualCheckTransaction, isFinalTx } from '../../src/chain/tx-rules.js';
import { Block, decodeBlock } from '../../src/codec/block.js';
import { hexToBytes } from '../../src/codec/hex.js';
import { sigOpCount, spendSigOpCount } from '../../src/codec/script/sigops.js';
import { decodeTransaction, encodeTransaction, type Transaction } from '../../src/codec/tx/transaction.js';
import type { TransactionData, TxIn, TxOut } from '../../src/codec/tx/types.js';
import { ConnectChecks } from '../../src/state/connect-checks.js';
import { readHexVector, realBlockFiles, zcashd2019Heights } from '../support/vectors.js';

interface RealBlock {
  network: NetworkParams;
  height: number;
  block: Block;
}

const realBlocks: RealBlock[] = [
  ...realBlockFiles().map((f) => ({ network: networkParams(f.network), height: f.height, block: decodeBlock(readHexVector(f.file)) })),
  ...zcashd2019Heights().map((h) => ({ network: MAINNET, height: h, block: decodeBlock(readHexVector('zcashd-2019', `${h}.hex`)) })),
];

/** The first real transaction (with its block) that `pick` accepts. */
function find(pick: (tx: Transaction, b: RealBlock) => boolean): { tx: Transaction; at: RealBlock } {
  for (const b of realBlocks) for (const tx of b.block.transactions) if (pick(tx, b)) return { tx, at: b };
  throw new Error('no such transaction in the vectors');
}

/** A copy of `tx` changed by `change`, re-encoded and decoded again. */
function changed(tx: Transaction, change: (d: TransactionData) => void): Transaction {
  const d: TransactionData = {
    ...tx.data,
    vin: tx.data.vin.map((i): TxIn => ({ prevout: { ...i.prevout }, scriptSig: i.scriptSig, sequence: i.sequence })),
    vout: tx.data.vout.map((o): TxOut => ({ value: o.value, scriptPubKey: o.scriptPubKey })),
  };
  change(d);
  return decodeTransaction(encodeTransaction(d));
}

const reason = (v: { reason: string } | null): string | null => v?.reason ?? null;

describe('every real block passes the rules at its height', () => {
  it('checks every transaction of every block in the vectors', () => {
    let txs = 0;
    for (const { network, height, block } of realBlocks) {
      expect(checkBlockTransactions(block, height), `${network.name} ${height}`).toBeNull();
      expect(contextualCheckBlockTransactions(block, height, network), `${network.name} ${height}`).toBeNull();
      expect(checkFoundersReward(block, height, network), `${network.name} ${height}`).toBeNull();
      txs += block.transactions.length;
    }
    expect(realBlocks.length).toBeGreaterThan(40);
    expect(txs).toBeGreaterThan(800);
  });
});

describe('CheckTransactionWithoutProofVerification', () => {
  const transparent = find((tx) => !tx.isCoinbase && tx.data.format === 'v4' && tx.data.vin.length >= 1 && !tx.data.sapling).tx;

  it('refuses a transaction without a source or a sink of funds', () => {
    expect(reason(checkTransactionWithoutProofs(changed(transparent, (d) => (d.vin = []))))).toBe('bad-txns-no-source-of-funds');
    expect(reason(checkTransactionWithoutProofs(changed(transparent, (d) => (d.vout = []))))).toBe('bad-txns-no-sink-of-funds');
  });

  it('refuses an input listed twice and a null prevout outside a coinbase', () => {
    expect(reason(checkTransactionWithoutProofs(changed(transparent, (d) => d.vin.push(d.vin[0]!))))).toBe('bad-txns-inputs-duplicate');
    const nullPrevout = changed(transparent, (d) =>
      d.vin.push({ prevout: { hash: new Uint8Array(32), index: 0xffffffff }, scriptSig: Uint8Array.of(0x51), sequence: 0 }),
    );
    expect(reason(checkTransactionWithoutProofs(nullPrevout))).toBe('bad-txns-prevout-null');
  });

  it('refuses a coinbase scriptSig outside 2..100 bytes', () => {
    const { tx: coinbase } = find((tx, b) => tx.isCoinbase && b.height > 0);
    expect(checkTransactionWithoutProofs(coinbase)).toBeNull();
    expect(reason(checkTransactionWithoutProofs(changed(coinbase, (d) => (d.vin[0]!.scriptSig = Uint8Array.of(0x51)))))).toBe(
      'bad-cb-length',
    );
    expect(reason(checkTransactionWithoutProofs(changed(coinbase, (d) => (d.vin[0]!.scriptSig = new Uint8Array(101)))))).toBe(
      'bad-cb-length',
    );
    expect(checkTransactionWithoutProofs(changed(coinbase, (d) => (d.vin[0]!.scriptSig = new Uint8Array(100))))).toBeNull();
  });

  it('refuses duplicate Orchard nullifiers and an identity rk or ephemeral key', () => {
    const { tx } = find((t) => (t.data.orchard?.actions.length ?? 0) >= 2);
    expect(checkTransactionWithoutProofs(tx)).toBeNull();
    const withActions = (f: (a: NonNullable<TransactionData['orchard']>['actions']) => void) =>
      changed(tx, (d) => {
        const actions = d.orchard!.actions.map((a) => ({ ...a }));
        f(actions);
        d.orchard = { ...d.orchard!, actions };
      });
    expect(reason(checkTransactionWithoutProofs(withActions((a) => (a[1]!.nullifier = a[0]!.nullifier))))).toBe(
      'bad-orchard-nullifiers-duplicate',
    );
    expect(reason(checkTransactionWithoutProofs(withActions((a) => (a[0]!.rk = new Uint8Array(32)))))).toBe(
      'bad-orchard-action-identity-point',
    );
    expect(reason(checkTransactionWithoutProofs(withActions((a) => (a[1]!.ephemeralKey = new Uint8Array(32)))))).toBe(
      'bad-orchard-action-identity-point',
    );
  });

  it('refuses duplicate Sapling nullifiers', () => {
    const { tx } = find((t) => (t.data.sapling?.spends.length ?? 0) >= 1 && t.data.format === 'v4');
    const twice = changed(tx, (d) => (d.sapling = { ...d.sapling!, spends: [...d.sapling!.spends, d.sapling!.spends[0]!] }));
    expect(reason(checkTransactionWithoutProofs(twice))).toBe('bad-spend-description-nullifiers-duplicate');
  });
});

describe('ContextualCheckTransaction and IsFinalTx', () => {
  it('holds a transaction to the epoch of the height it is checked at', () => {
    const { tx: v4, at } = find(
      (tx, b) => tx.data.format === 'v4' && !tx.isCoinbase && b.network === MAINNET && tx.data.expiryHeight === 0,
    );
    expect(contextualCheckTransaction(v4, MAINNET, at.height)).toBeNull();
    expect(reason(contextualCheckTransaction(v4, MAINNET, MAINNET.activationHeights.Overwinter! - 1))).toBe('tx-overwinter-not-active');
    // A Sapling transaction in the Overwinter epoch.
    expect(reason(contextualCheckTransaction(v4, MAINNET, MAINNET.activationHeights.Sapling! - 1))).toBe(
      'bad-tx-overwinter-version-too-high',
    );
    const { tx: v1 } = find((tx) => tx.data.format === 'v1' && !tx.isCoinbase);
    expect(reason(contextualCheckTransaction(v1, MAINNET, MAINNET.activationHeights.Overwinter!))).toBe('tx-overwintered-flag-not-set');
  });

  it('refuses an expired transaction, a v5 branch id of another epoch, an expiry height past the threshold', () => {
    const { tx: v5, at } = find((tx) => tx.data.format === 'v5' && !tx.isCoinbase && tx.data.expiryHeight > 0);
    expect(contextualCheckTransaction(v5, at.network, at.height)).toBeNull();
    expect(reason(contextualCheckTransaction(v5, at.network, v5.data.expiryHeight + 1))).toBe('tx-overwinter-expired');
    const otherEpoch = changed(v5, (d) => {
      d.consensusBranchId = 0xc2d6d0b4; // NU5's id
      d.expiryHeight = 0;
    });
    const nu6 = Math.max(at.height, at.network.activationHeights.NU6!);
    expect(reason(contextualCheckTransaction(otherEpoch, at.network, nu6))).toBe('bad-tx-consensus-branch-id-mismatch');
    const farExpiry = changed(v5, (d) => (d.expiryHeight = 500_000_000));
    expect(reason(contextualCheckTransaction(farExpiry, at.network, at.height))).toBe('bad-tx-expiry-height-too-high');
    // Before NU5 a v5 transaction has the wrong version group for the Sapling epoch.
    expect(reason(contextualCheckTransaction(v5, MAINNET, MAINNET.activationHeights.NU5! - 1))).toBe('bad-sapling-tx-version-group-id');
  });

  it('refuses a coinbase without its funding-stream outputs', () => {
    const { tx: coinbase, at } = find(
      (tx, b) =>
        tx.isCoinbase &&
        b.network === MAINNET &&
        b.height >= MAINNET.activationHeights.Canopy! &&
        b.height < MAINNET.activationHeights.NU6!,
    );
    expect(contextualCheckTransaction(coinbase, MAINNET, at.height)).toBeNull();
    const paysMinerOnly = changed(coinbase, (d) => (d.vout = [d.vout[0]!]));
    expect(reason(contextualCheckTransaction(paysMinerOnly, MAINNET, at.height))).toBe('cb-funding-stream-missing');
  });

  it('reads lock times below 500,000,000 as heights and the rest as times, final sequences aside', () => {
    const { tx } = find((t) => !t.isCoinbase && t.data.format === 'v4' && t.data.vin.length > 0);
    const locked = changed(tx, (d) => {
      d.lockTime = 1000;
      d.vin[0]!.sequence = 0;
    });
    expect(isFinalTx(locked, 1000, 0)).toBe(false);
    expect(isFinalTx(locked, 1001, 0)).toBe(true);
    const byTime = changed(locked, (d) => (d.lockTime = 1_600_000_000));
    expect(isFinalTx(byTime, 10_000_000, 1_600_000_000)).toBe(false);
    expect(isFinalTx(byTime, 0, 1_600_000_001)).toBe(true);
    const allFinal = changed(locked, (d) => d.vin.forEach((i) => (i.sequence = 0xffffffff)));
    expect(isFinalTx(allFinal, 0, 0)).toBe(true);
  });
});

describe('CheckBlock and ContextualCheckBlock over a real block', () => {
  const { block, height, network } = realBlocks.find((b) => b.block.transactions.length >= 3 && b.network === MAINNET)!;
  const withTxs = (txs: Transaction[]) => new Block(block.header, txs, block.bytes);

  it('wants the coinbase first and only there', () => {
    const [cb, a, b] = block.transactions;
    expect(checkBlockTransactions(withTxs([a!, cb!, b!]), height)?.rule).toBe('bad-cb-missing');
    expect(checkBlockTransactions(withTxs([cb!, a!, cb!]), height)?.rule).toBe('bad-cb-multiple');
    expect(checkBlockTransactions(withTxs([]), height)?.rule).toBe('bad-blk-length');
  });

  it('names the transaction that breaks a rule', () => {
    const [cb, a] = block.transactions;
    const bad = changed(a!, (d) => d.vin.push(d.vin[0]!));
    const e = checkBlockTransactions(withTxs([cb!, bad]), height);
    expect(e).toMatchObject({ rule: 'bad-txns-inputs-duplicate', tx: { txid: bad.txidHex, index: 1 } });
    const nonfinal = changed(a!, (d) => {
      d.lockTime = height + 1;
      d.vin[0]!.sequence = 0;
    });
    expect(contextualCheckBlockTransactions(withTxs([cb!, nonfinal]), height, network)?.rule).toBe('bad-txns-nonfinal');
  });

  it('counts legacy signature ops over the block', () => {
    const [cb, a] = block.transactions;
    // 1,001 CHECKMULTISIGs, 20 each uncounted: 20,020 in one script.
    const heavy = changed(a!, (d) => d.vout.push({ value: 0, scriptPubKey: new Uint8Array(1001).fill(0xae) }));
    expect(legacySigOpCount(heavy)).toBeGreaterThan(MAX_BLOCK_SIGOPS);
    expect(checkBlockTransactions(withTxs([cb!, heavy]), height)?.rule).toBe('bad-blk-sigops');
  });
});

describe('signature-op counts (GetSigOpCount)', () => {
  const multisig2of3 = hexToBytes('52' + '21' + '02'.repeat(33) + '21' + '03'.repeat(33) + '21' + '02'.repeat(33) + '53ae');

  it('counts CHECKMULTISIG as 20 unless accurate, where the OP_n before it counts', () => {
    expect(sigOpCount(multisig2of3, false)).toBe(20);
    expect(sigOpCount(multisig2of3, true)).toBe(3);
    expect(sigOpCount(hexToBytes('76a914' + '00'.repeat(20) + '88ac'), false)).toBe(1);
    // A push that runs past the end stops the count.
    expect(sigOpCount(hexToBytes('ac4cffac'), false)).toBe(1);
  });

  it('counts a P2SH spend by its redeem script, the last push of a push-only scriptSig', () => {
    const p2sh = hexToBytes('a914' + '11'.repeat(20) + '87');
    const redeem = Uint8Array.from(multisig2of3);
    const scriptSig = Uint8Array.of(0x00, 0x4c, redeem.length, ...redeem);
    expect(spendSigOpCount(p2sh, scriptSig)).toBe(3);
    expect(spendSigOpCount(p2sh, Uint8Array.of(0x76, 0x4c, redeem.length, ...redeem))).toBe(0); // OP_DUP: not push-only
    expect(spendSigOpCount(hexToBytes('ac'), scriptSig)).toBe(1);
  });
});

describe("ConnectBlock's fee and P2SH signature-op checks", () => {
  const { block } = realBlocks.find((b) => {
    const t = b.block.transactions[1];
    return (
      b.network === MAINNET &&
      t !== undefined &&
      t.data.vin.length > 0 &&
      !t.data.sapling &&
      t.data.joinSplits.length === 0 &&
      t.data.vout.some((o) => o.value > 0)
    );
  })!;
  const spender = block.transactions[1]!;
  const out = spender.data.vout.reduce((n, o) => n + o.value, 0);
  const coins = (first: number) =>
    spender.data.vin.map((_, i) => ({ value: i === 0 ? first : 0, scriptPubKey: Uint8Array.of(0x51), height: 0, coinbase: false }));

  it('refuses a transaction paying out more than it spends, and accepts a zero fee', () => {
    expect(out).toBeGreaterThan(0);
    expect(new ConnectChecks(block, 1, MAINNET).spends(1, coins(out))).toBeNull();
    expect(new ConnectChecks(block, 1, MAINNET).spends(1, coins(out - 1))?.rule).toBe('bad-txns-fee-out-of-range');
  });

  it('refuses inputs whose running total leaves MoneyRange, as GetValueIn does', () => {
    const two = changed(spender, (d) => {
      d.vin = [0, 1].map((i) => ({
        prevout: { hash: new Uint8Array(32).fill(2), index: i },
        scriptSig: Uint8Array.of(0x51),
        sequence: 0xffffffff,
      }));
    });
    const b = new Block(block.header, [block.transactions[0]!, two], block.bytes);
    const max = 21_000_000 * 100_000_000;
    const coin = (value: number) => ({ value, scriptPubKey: Uint8Array.of(0x51), height: 0, coinbase: false });
    expect(new ConnectChecks(b, 1, MAINNET).spends(1, [coin(max), coin(1)])?.rule).toBe('bad-txns-value-out-of-range');
    expect(new ConnectChecks(b, 1, MAINNET).spends(1, [coin(max - out), coin(out)])).toBeNull();
  });

  it('adds P2SH redeem scripts to the legacy count, from the first P2SH spend on', () => {
    const p2sh = hexToBytes('a914' + '11'.repeat(20) + '87');
    const redeem = new Uint8Array(500).fill(0xac); // 500 CHECKSIGs
    const scriptSig = Uint8Array.of(0x4d, redeem.length & 0xff, redeem.length >> 8, ...redeem);
    const heavy = changed(spender, (d) => {
      d.vin = Array.from({ length: 41 }, (_, i) => ({
        prevout: { hash: new Uint8Array(32).fill(1), index: i },
        scriptSig,
        sequence: 0xffffffff,
      }));
    });
    const b = new Block(block.header, [block.transactions[0]!, heavy], block.bytes);
    const checks = new ConnectChecks(b, 1, MAINNET);
    expect(checks.beginTransaction(0)).toBeNull();
    expect(checks.beginTransaction(1)).toBeNull();
    const verdict = checks.spends(
      1,
      heavy.data.vin.map(() => ({ value: (21_000_000 * 100_000_000) / 100, scriptPubKey: p2sh, height: 0, coinbase: false })),
    );
    expect(verdict?.rule).toBe('bad-blk-sigops'); // 41 × 500 = 20,500
  });
});

describe('the coinbase amount, on real blocks whose fees are known without the coins view', () => {
  // Blocks whose transactions other than the coinbase spend no transparent output: their fees
  // come from the value balances alone, so subsidy + fees is known exactly.
  const shieldedOnly = realBlocks.filter(
    (b) => b.network === MAINNET && b.height > 0 && b.block.transactions.slice(1).every((t) => t.data.vin.length === 0),
  );
  const verdict = (b: RealBlock, coinbase = b.block.transactions[0]!) => {
    const block = new Block(b.block.header, [coinbase, ...b.block.transactions.slice(1)], b.block.bytes);
    const checks = new ConnectChecks(block, b.height, MAINNET);
    for (let t = 1; t < block.transactions.length; t++) expect(checks.spends(t, [])).toBeNull();
    return checks.coinbaseAmount(lockboxDelta(b.height, MAINNET))?.rule ?? null;
  };
  const paying = (b: RealBlock, change: number) => changed(b.block.transactions[0]!, (d) => (d.vout[0]!.value += change));
  /** A real v5-era block whose transactions are shielded-only (1687106: v5 Sapling transactions). */
  const before0 = () => shieldedOnly.find((b) => b.block.transactions[0]!.data.format === 'v5' && b.block.transactions.length > 1)!;

  it('pays at most subsidy + fees before NU6: real blocks, and their coinbase one zatoshi over', () => {
    const before = shieldedOnly.filter((b) => b.block.transactions.length > 1);
    expect(before.length).toBeGreaterThanOrEqual(3);
    for (const b of before) {
      expect(verdict(b), String(b.height)).toBeNull();
      expect(verdict(b, paying(b, 1))).toBe('bad-cb-amount');
      expect(verdict(b, paying(b, -1))).toBeNull();
    }
  });

  it("pays exactly subsidy + fees from NU6, lockbox included, at mainnet's NU6 and NU6.1 heights", () => {
    // No block of the vectors is past NU6: a real coinbase and a real shielded transaction, paid
    // as mainnet's reward split says at those heights.
    const shielded = before0().block.transactions.find((t, i) => i > 0 && t.data.vin.length === 0)!;
    const fee =
      (shielded.data.sapling?.valueBalance ?? 0) +
      (shielded.data.orchard?.valueBalance ?? 0) -
      shielded.data.vout.reduce((n, o) => n + o.value, 0);
    expect(fee).toBeGreaterThan(0);
    const realCoinbase = before0().block.transactions[0]!;
    for (const height of [MAINNET.activationHeights.NU6!, MAINNET.activationHeights.NU6! + 1000, MAINNET.activationHeights['NU6.1']!]) {
      const split = blockRewardSplit(height, MAINNET);
      const coinbase = (miner: number) =>
        changed(realCoinbase, (d) => {
          d.vout = [
            { value: miner, scriptPubKey: d.vout[0]!.scriptPubKey },
            ...split.requiredPayments.map((p) => ({ value: Number(p.amount), scriptPubKey: addressScript(p.address, MAINNET) })),
          ];
        });
      const amount = (miner: number) => {
        const block = new Block(before0().block.header, [coinbase(miner), shielded], before0().block.bytes);
        const checks = new ConnectChecks(block, height, MAINNET);
        expect(checks.spends(1, [])).toBeNull();
        return checks.coinbaseAmount(lockboxDelta(height, MAINNET))?.rule ?? null;
      };
      const exact = Number(split.minerSubsidy) + fee;
      expect([amount(exact), amount(exact + 1), amount(exact - 1)], String(height)).toEqual([null, 'bad-cb-amount', 'bad-cb-not-exact']);
    }
  });

  it("wants the founders' reward output while it is due", () => {
    const early = realBlocks.find((b) => b.network === MAINNET && b.height > 0 && b.height < 100_000)!;
    const coinbase = early.block.transactions[0]!;
    expect(coinbase.data.vout.length).toBeGreaterThan(1);
    const withoutReward = changed(coinbase, (d) => (d.vout = d.vout.slice(0, 1)));
    const block = new Block(early.block.header, [withoutReward], early.block.bytes);
    expect(checkFoundersReward(block, early.height, MAINNET)?.rule).toBe('cb-no-founders-reward');
  });
});
