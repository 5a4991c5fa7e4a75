/**
 * ConnectBlock's transaction checks that need the coins a block spends (zcashd v6.12.2
 * src/main.cpp), other than the spent outputs existing (apply-block.ts): the block's signature
 * ops counted with P2SH redeem scripts, and each transaction's fee and the block's fees in
 * MoneyRange.
 *
 * Not checked: scripts and signatures, and the rules on the miner's reward (coinbase maturity,
 * coinbase spent only to shielded outputs, the coinbase amount, the founders' reward).
 */
import { legacySigOpCount, MAX_BLOCK_SIGOPS } from '../chain/block-rules.js';
import type { Block } from '../codec/block.js';
import { isPayToScriptHash } from '../codec/script/solver.js';
import { spendSigOpCount } from '../codec/script/sigops.js';
import { MAX_MONEY } from '../codec/tx/types.js';
import { PoolValueError, shieldedValueIn, valueOut } from './value-pools.js';

/** The coin fields these checks read (apply-block's Coin). */
interface SpentOutput {
  value: number;
  scriptPubKey: Uint8Array;
}

export type ConnectRule =
  'bad-blk-sigops' | 'bad-txns-fee-out-of-range' | 'bad-txns-total-fees-out-of-range' | 'bad-txns-value-out-of-range';

export interface ConnectViolation {
  rule: ConnectRule;
  message: string;
}

const isMoneyRange = (v: number): boolean => v >= 0 && v <= MAX_MONEY;

/** The checks of one block, fed each transaction in order. */
export class ConnectChecks {
  private fees = 0;
  /** Signature ops counted so far; counting starts at the first P2SH spend (before it, CheckBlock's legacy bound holds). */
  private sigOps = 0;
  private counting = false;

  constructor(
    private readonly block: Block,
    private readonly height: number,
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
    let valueIn = 0;
    for (const c of coins) valueIn += c.value;
    valueIn += shieldedValueIn(tx);
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
