/**
 * ConnectBlock's transaction checks that need the coins a block spends (zcashd v6.12.2
 * src/main.cpp ConnectBlock and Consensus::CheckTxInputs), other than the spent outputs
 * existing (apply-block.ts): the block's signature ops counted with P2SH redeem scripts, each
 * transaction's fee and the block's fees in MoneyRange, coinbase maturity, transparent coinbase
 * spent only to shielded outputs, and the coinbase paying no more than subsidy + fees (exactly
 * that from NU6).
 *
 * Scripts and signatures are not run, so zcashd's "mandatory-script-verify-flag-failed" and the
 * shielded signature checks are not made.
 */
import { legacySigOpCount, MAX_BLOCK_SIGOPS } from '../chain/block-rules.js';
import { isUpgradeActive, type NetworkParams } from '../chain/network.js';
import { blockSubsidy } from '../chain/subsidy.js';
import type { Block } from '../codec/block.js';
import { isPayToScriptHash } from '../codec/script/solver.js';
import { spendSigOpCount } from '../codec/script/sigops.js';
import { MAX_MONEY } from '../codec/tx/types.js';
import { PoolValueError, shieldedValueIn, valueOut } from './value-pools.js';

/** COINBASE_MATURITY: a coinbase output is spendable 100 blocks after its own. */
export const COINBASE_MATURITY = 100;

/** The coin fields these checks read (apply-block's Coin). */
interface SpentOutput {
  value: number;
  scriptPubKey: Uint8Array;
  height: number;
  coinbase: boolean;
}

export type ConnectRule =
  | 'bad-blk-sigops'
  | 'bad-txns-value-out-of-range'
  | 'bad-txns-fee-out-of-range'
  | 'bad-txns-total-fees-out-of-range'
  | 'bad-txns-premature-spend-of-coinbase'
  | 'bad-txns-coinbase-spend-has-transparent-outputs'
  | 'bad-cb-amount'
  | 'bad-cb-not-exact';

export interface ConnectViolation {
  rule: ConnectRule;
  message: string;
}

const isMoneyRange = (v: number): boolean => v >= 0 && v <= MAX_MONEY;

/** The checks of one block, fed each transaction in order. */
export class ConnectChecks {
  private fees = 0;
  private feesKnown = true;
  /** Signature ops counted so far; counting starts at the first P2SH spend (before it, CheckBlock's legacy bound holds). */
  private sigOps = 0;
  private counting = false;

  constructor(
    private readonly block: Block,
    private readonly height: number,
    private readonly network: NetworkParams,
  ) {}

  /** Transaction `t` begins: zcashd adds its legacy signature ops first. */
  beginTransaction(t: number): ConnectViolation | null {
    if (!this.counting) return null;
    this.sigOps += legacySigOpCount(this.block.transactions[t]!);
    return this.sigOpsExceeded();
  }

  /** A non-coinbase transaction `t` whose spent outputs are all known, `coins[i]` spent by input i. */
  spends(t: number, coins: readonly SpentOutput[]): ConnectViolation | null {
    const tx = this.block.transactions[t]!;
    const vin = tx.data.vin;
    let p2sh = 0;
    for (let i = 0; i < vin.length; i++) {
      if (isPayToScriptHash(coins[i]!.scriptPubKey)) p2sh += spendSigOpCount(coins[i]!.scriptPubKey, vin[i]!.scriptSig);
    }
    if (p2sh > 0) {
      if (!this.counting) {
        this.counting = true;
        for (let k = 0; k <= t; k++) this.sigOps += legacySigOpCount(this.block.transactions[k]!);
      }
      this.sigOps += p2sh;
      const exceeded = this.sigOpsExceeded();
      if (exceeded) return exceeded;
    }
    // GetValueIn refuses a running total outside MoneyRange (ConnectBlock: "bad-txns-value-out-of-range").
    let valueIn = 0;
    for (let i = 0; i < coins.length; i++) {
      valueIn += coins[i]!.value;
      if (!isMoneyRange(valueIn)) return this.txViolation(t, 'bad-txns-value-out-of-range', `inputs total ${valueIn} after input ${i}`);
    }
    valueIn += shieldedValueIn(tx);
    if (!isMoneyRange(valueIn)) return this.txViolation(t, 'bad-txns-value-out-of-range', `inputs total ${valueIn} with shielded value`);
    let out: number;
    try {
      out = valueOut(tx, this.height);
    } catch (e) {
      if (e instanceof PoolValueError) return this.txViolation(t, 'bad-txns-value-out-of-range', e.message);
      throw e;
    }
    const fee = valueIn - out;
    if (!isMoneyRange(fee)) return this.txViolation(t, 'bad-txns-fee-out-of-range', `fee ${fee} (value in ${valueIn})`);
    this.fees += fee;
    if (!isMoneyRange(this.fees)) return this.txViolation(t, 'bad-txns-total-fees-out-of-range', `fees ${this.fees} so far`);
    for (let i = 0; i < coins.length; i++) {
      const c = coins[i]!;
      if (!c.coinbase) continue;
      if (this.height - c.height < COINBASE_MATURITY)
        return this.txViolation(
          t,
          'bad-txns-premature-spend-of-coinbase',
          `input ${i} spends a coinbase at depth ${this.height - c.height}`,
        );
      if (this.network.coinbaseMustBeShielded && tx.data.vout.length > 0)
        return this.txViolation(t, 'bad-txns-coinbase-spend-has-transparent-outputs', `input ${i} spends a coinbase output`);
    }
    return null;
  }

  /** A transaction spends an output a store started from a checkpoint does not know: its fee is unknown. */
  inputUnknown(): void {
    this.feesKnown = false;
  }

  /** Whether every fee was known, so the coinbase amount could be checked. */
  get feesComplete(): boolean {
    return this.feesKnown;
  }

  /**
   * After every transaction: the coinbase may pay at most subsidy + fees (exactly that from NU6),
   * what the block adds to the lockbox (`lockboxDelta`) counted as paid. Null, with nothing
   * checked, when a fee is unknown.
   */
  coinbaseAmount(lockboxDelta: bigint): ConnectViolation | null {
    if (!this.feesKnown) return null;
    const coinbaseOut = BigInt(valueOut(this.block.transactions[0]!, this.height));
    const paid = coinbaseOut + lockboxDelta;
    const allowed = blockSubsidy(this.height, this.network) + BigInt(this.fees);
    if (paid > allowed)
      return { rule: 'bad-cb-amount', message: `the coinbase pays ${coinbaseOut}, the limit is ${allowed - lockboxDelta}` };
    if (isUpgradeActive(this.network, 'NU6', this.height) && paid !== allowed) {
      return {
        rule: 'bad-cb-not-exact',
        message: `the coinbase pays ${coinbaseOut}, exactly ${allowed - lockboxDelta} is due (lockbox value ${lockboxDelta})`,
      };
    }
    return null;
  }

  private sigOpsExceeded(): ConnectViolation | null {
    return this.sigOps > MAX_BLOCK_SIGOPS
      ? { rule: 'bad-blk-sigops', message: `${this.sigOps} signature operations, above ${MAX_BLOCK_SIGOPS}` }
      : null;
  }

  private txViolation(t: number, rule: ConnectRule, detail: string): ConnectViolation {
    return { rule, message: `transaction ${this.block.transactions[t]!.txidHex}: ${detail}` };
  }
}
