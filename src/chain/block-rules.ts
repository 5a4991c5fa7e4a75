/**
 * The transaction rules zcashd v6.12.2 applies to a whole block before connecting it
 * (src/main.cpp), as pure functions returning zcashd's reject reason, or null:
 *
 *  - CheckBlock: a first transaction that is the only coinbase, every transaction's
 *    CheckTransaction (without Sprout proofs), at most MAX_BLOCK_SIGOPS legacy signature ops;
 *  - ContextualCheckBlock: every transaction's ContextualCheckTransaction and IsFinalTx at the
 *    block's height and time; before Canopy, the founders' reward output.
 *
 * ContextualCheckBlock's coinbase height is header-rules.ts's checkCoinbaseHeight, which zcashd
 * checks between the transaction rules and the founders' reward. What needs the coins view
 * (signature ops of P2SH spends, fees, the coinbase amount) is the state transition's.
 */
import type { Block } from '../codec/block.js';
import { sigOpCount, sigOpCountIn } from '../codec/script/sigops.js';
import { WireTxIn, WireTxOut } from '../codec/tx/transparent.js';
import { bytesEqual } from '../codec/hex.js';
import { foundersRewardAddress, recipientScript } from './funding-streams.js';
import type { NetworkParams } from './network.js';
import { foundersRewardAmount, hasFoundersReward } from './subsidy.js';
import { checkTransactionWithoutProofs, contextualCheckTransaction, isFinalTx, REJECT_INVALID, type TxRuleViolation } from './tx-rules.js';

/** MAX_BLOCK_SIGOPS: MAX_BLOCK_SIZE / 50. */
export const MAX_BLOCK_SIGOPS = 20_000;

/** A block-level rule a block breaks, with the transaction at fault where there is one. */
export interface BlockTxRuleError {
  rule: string;
  height: number | null;
  /** Block hash, RPC (byte-reversed) hex. */
  hash: string;
  /** The transaction at fault (RPC hex) and its position, when one is. */
  tx: { txid: string; index: number } | null;
  message: string;
}

function txError(block: Block, height: number | null, index: number, v: TxRuleViolation): BlockTxRuleError {
  const tx = block.transactions[index]!;
  return { rule: v.reason, height, hash: block.hashHex, tx: { txid: tx.txidHex, index }, message: v.detail };
}

function blockError(block: Block, height: number | null, rule: string, message: string): BlockTxRuleError {
  return { rule, height, hash: block.hashHex, tx: null, message };
}

/** The legacy signature-op count of a transaction (`GetLegacySigOpCount`). */
export function legacySigOpCount(tx: Block['transactions'][number]): number {
  let n = 0;
  // Decoded scripts are read in place: a view per script was most of the count's cost.
  for (const i of tx.data.vin) {
    n +=
      i instanceof WireTxIn
        ? sigOpCountIn(i.buf, i.scriptSigStart, i.scriptSigStart + i.scriptLength, false)
        : sigOpCount(i.scriptSig, false);
  }
  for (const o of tx.data.vout) {
    n +=
      o instanceof WireTxOut
        ? sigOpCountIn(o.buf, o.scriptPubKeyStart, o.scriptPubKeyStart + o.scriptLength, false)
        : sigOpCount(o.scriptPubKey, false);
  }
  return n;
}

/** CheckBlock's transaction checks (the size limit is the importer's, before decoding). */
export function checkBlockTransactions(block: Block, height: number | null): BlockTxRuleError | null {
  const txs = block.transactions;
  if (txs.length === 0) return blockError(block, height, 'bad-blk-length', 'the block has no transactions');
  if (!txs[0]!.isCoinbase) return blockError(block, height, 'bad-cb-missing', 'the first transaction is not a coinbase');
  for (let i = 1; i < txs.length; i++) {
    if (txs[i]!.isCoinbase) return blockError(block, height, 'bad-cb-multiple', `transaction ${i} is a second coinbase`);
  }
  for (let i = 0; i < txs.length; i++) {
    const v = checkTransactionWithoutProofs(txs[i]!);
    if (v) return txError(block, height, i, v);
  }
  let sigOps = 0;
  for (const tx of txs) sigOps += legacySigOpCount(tx);
  if (sigOps > MAX_BLOCK_SIGOPS)
    return blockError(block, height, 'bad-blk-sigops', `${sigOps} signature operations, above ${MAX_BLOCK_SIGOPS}`);
  return null;
}

/** ContextualCheckBlock's per-transaction checks at `height` (lock times against the block's own time). */
export function contextualCheckBlockTransactions(block: Block, height: number, network: NetworkParams): BlockTxRuleError | null {
  const txs = block.transactions;
  for (let i = 0; i < txs.length; i++) {
    const v = contextualCheckTransaction(txs[i]!, network, height);
    if (v) return txError(block, height, i, v);
    if (!isFinalTx(txs[i]!, height, block.header.time)) {
      return txError(block, height, i, {
        code: REJECT_INVALID,
        reason: 'bad-txns-nonfinal',
        detail: `lock time ${txs[i]!.data.lockTime} is not final at height ${height}, time ${block.header.time}`,
      });
    }
  }
  return null;
}

/** ContextualCheckBlock's founders' reward (heights 1 to the last founders' reward block, before Canopy). */
export function checkFoundersReward(block: Block, height: number, network: NetworkParams): BlockTxRuleError | null {
  if (!hasFoundersReward(height, network)) return null;
  const script = recipientScript(foundersRewardAddress(height, network), network);
  const amount = foundersRewardAmount(height, network);
  for (const out of block.transactions[0]!.data.vout) {
    if (BigInt(out.value) === amount && bytesEqual(out.scriptPubKey, script)) return null;
  }
  return blockError(block, height, 'cb-no-founders-reward', `no coinbase output pays ${amount} zatoshis to the founders' reward script`);
}
