/**
 * Synthetic regtest chains with Sapling activity, for the tests and runs that need a store to
 * reorganize across shielded blocks (zcashd's own regtest tests do the same after `-nuparams`).
 *
 * The network is regtest with Overwinter, Sapling, Blossom and Heartwood active from height 1
 * (`SHIELDED_REGTEST`); coinbases are Sapling (v4) transactions from then on. A block may carry a
 * shielding transaction: it spends the coinbase output 100 blocks below it on its own branch
 * (regtest's coinbase maturity) into Sapling outputs, so the Sapling pool, the note-commitment
 * tree, the anchors and the ZIP-221 history tree all move. Each header's commitment field is the
 * one zcashd's ConnectBlock expects (the Sapling root, then from Heartwood the history root),
 * computed by the project's own state transition as it goes.
 *
 * What these blocks are not: the Sapling outputs carry a canonical value commitment and ephemeral
 * key, a distinct canonical note commitment, and zero-filled ciphertexts, proof and binding
 * signature. zcashd would reject them at proof verification; zecrpc verifies no proofs (README),
 * so they exercise everything it does compute.
 */
import { regtestWithActivations, type NetworkParams } from '../src/chain/network.js';
import { expectedCommitmentField } from '../src/chain/header-rules.js';
import { decodeBlock } from '../src/codec/block.js';
import { decodeTransaction, encodeTransaction } from '../src/codec/tx/transaction.js';
import {
  SAPLING_VERSION_GROUP_ID,
  type OutPoint,
  type SaplingOutput,
  type SaplingSpend,
  type TransactionData,
} from '../src/codec/tx/types.js';
import { isCanonicalJubjubPoint, isJubjubSmallOrder } from '../src/crypto/curves.js';
import { applyBlock, StateTransitionError, type Coin } from '../src/state/apply-block.js';
import type { ChainStateTip } from '../src/state/chain-state.js';
import { defaultPoolHashers } from '../src/state/hashers.js';
import { prevHistoryRoot } from '../src/state/history-tree.js';
import { buildBlock, type BuiltBlock } from './regtest-builder.js';

export const SHIELDED_REGTEST: NetworkParams = regtestWithActivations({ Overwinter: 1, Sapling: 1, Blossom: 1, Heartwood: 1 });

/** Regtest's COINBASE_MATURITY. */
const COINBASE_MATURITY = 100;

/** The first y = 2, 3, … whose encoding is a canonical Jubjub point outside the small-order subgroup. */
export const JUBJUB_POINT = ((): Uint8Array => {
  for (let y = 2; ; y++) {
    const b = new Uint8Array(32);
    b[0] = y;
    if (isCanonicalJubjubPoint(b) && !isJubjubSmallOrder(b)) return b;
  }
})();

function saplingOutput(tag: string, height: number, index: number): SaplingOutput {
  // A small integer is a canonical field element; tag, height and index keep each one distinct.
  const cmu = new Uint8Array(32);
  const seed = Buffer.from(`${tag}/${height}/${index}`, 'utf8');
  for (let i = 0; i < seed.length && i < 31; i++) cmu[i] = seed[i]!;
  return {
    cv: JUBJUB_POINT,
    cmu,
    ephemeralKey: JUBJUB_POINT,
    encCiphertext: new Uint8Array(580),
    outCiphertext: new Uint8Array(80),
    zkproof: new Uint8Array(192),
  };
}

/** A v4 (Sapling) transaction with a Sapling bundle; its binding signature is zeros (zecrpc verifies none). */
export function saplingTransaction(parts: {
  vin?: TransactionData['vin'];
  vout?: TransactionData['vout'];
  spends?: SaplingSpend[];
  outputs?: SaplingOutput[];
  valueBalance: number;
}): Uint8Array {
  return encodeTransaction({
    format: 'v4',
    overwintered: true,
    version: 4,
    versionGroupId: SAPLING_VERSION_GROUP_ID,
    consensusBranchId: null,
    lockTime: 0,
    expiryHeight: 0,
    vin: parts.vin ?? [],
    vout: parts.vout ?? [],
    joinSplits: [],
    joinSplitPubKey: null,
    joinSplitSig: null,
    sapling: {
      spends: parts.spends ?? [],
      outputs: parts.outputs ?? [],
      valueBalance: parts.valueBalance,
      sharedAnchor: null,
      bindingSig: new Uint8Array(64),
    },
    orchard: null,
  });
}

/** A v4 transaction moving `coin` whole into `outputs` Sapling notes (no fee). */
function shieldingTx(prevout: OutPoint, value: number, tag: string, height: number, outputs: number): Uint8Array {
  return saplingTransaction({
    vin: [{ prevout, scriptSig: Uint8Array.of(0x00), sequence: 0xffffffff }],
    outputs: Array.from({ length: outputs }, (_, i) => saplingOutput(tag, height, i)),
    valueBalance: -value,
  });
}

interface BuiltState {
  block: BuiltBlock;
  parentHash: string | null;
  tip: ChainStateTip;
}

/** Builds branches on SHIELDED_REGTEST, keeping the chain state after every block it made. */
export class ShieldedChainBuilder {
  readonly network = SHIELDED_REGTEST;
  private readonly hashers = defaultPoolHashers();
  private readonly states = new Map<string, BuiltState>();
  /** Every coinbase output built, on any branch (each branch spends only its own ancestors'). */
  private readonly coins = new Map<string, Coin>();

  constructor(genesis: BuiltBlock) {
    this.record(genesis, null);
  }

  /** The state the project's transition computes after `block`. */
  stateAfter(block: BuiltBlock): ChainStateTip {
    const s = this.states.get(block.hashHex);
    if (!s) throw new Error(`block ${block.hashHex} was not built here`);
    return s.tip;
  }

  /**
   * `count` blocks on `parent`; `shieldAt(height)` says how many Sapling outputs that block's
   * shielding transaction creates (0 or absent: none, as before maturity), and `extraAt(height)`
   * gives transactions to add after it (spends the caller builds, which touch no tree).
   */
  chain(
    parent: BuiltBlock,
    count: number,
    tag: string,
    shieldAt?: (height: number) => number,
    extraAt?: (height: number) => readonly Uint8Array[],
  ): BuiltBlock[] {
    const out: BuiltBlock[] = [];
    let prev = parent;
    for (let i = 0; i < count; i++) {
      prev = this.next(prev, tag, shieldAt?.(prev.height + 1) ?? 0, extraAt?.(prev.height + 1) ?? []);
      out.push(prev);
    }
    return out;
  }

  private next(parent: BuiltBlock, tag: string, outputs: number, extra: readonly Uint8Array[]): BuiltBlock {
    const height = parent.height + 1;
    const parentTip = this.stateAfter(parent);
    const extraTxs: Uint8Array[] = [];
    if (outputs > 0) {
      const source = this.ancestor(parent, height - COINBASE_MATURITY);
      const coinbase = decodeBlock(source.bytes).transactions[0]!;
      extraTxs.push(shieldingTx({ hash: coinbase.txid, index: 0 }, coinbase.data.vout[0]!.value, tag, height, outputs));
    }
    extraTxs.push(...extra);
    const sapling = parentTip.trees.sapling.clone();
    sapling.appendMany(extraTxs.flatMap((tx) => decodeTransaction(tx).data.sapling?.outputs.map((o) => o.cmu) ?? []));
    const commitments = expectedCommitmentField(this.network, height, {
      saplingRoot: sapling.root(),
      prevHistoryRoot: prevHistoryRoot(this.network, parentTip.history === 'unknown' ? null : parentTip.history, height),
    });
    const block = buildBlock({
      parent,
      tag,
      extraTxs,
      saplingCoinbase: true,
      network: this.network,
      ...(commitments ? { commitments } : {}),
    });
    this.record(block, parent);
    return block;
  }

  private ancestor(from: BuiltBlock, height: number): BuiltBlock {
    if (height < 1) throw new Error(`no mature coinbase below height ${from.height + 1}`);
    let s = this.states.get(from.hashHex)!;
    while (s.block.height > height) s = this.states.get(s.parentHash!)!;
    return s.block;
  }

  private record(block: BuiltBlock, parent: BuiltBlock | null): void {
    const decoded = decodeBlock(block.bytes);
    let result;
    try {
      result = applyBlock({
        network: this.network,
        hashers: this.hashers,
        block: decoded,
        height: block.height,
        parent: parent ? this.stateAfter(parent) : null,
        coin: (o) => this.coins.get(`${Buffer.from(o.hash).toString('hex')}:${o.index}`) ?? null,
      });
    } catch (e) {
      // A block a test builds to be refused (its extra transactions break a rule) has no state after it.
      if (e instanceof StateTransitionError) return;
      throw e;
    }
    for (const c of result.created) this.coins.set(`${Buffer.from(c.outpoint.hash).toString('hex')}:${c.outpoint.index}`, c.coin);
    this.states.set(block.hashHex, { block, parentHash: parent?.hashHex ?? null, tip: result.tip });
  }
}
