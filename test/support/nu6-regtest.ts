/**
 * Regtest chains with NU6.2 and NU6.3 activated as `-nuparams` activates them (every earlier
 * upgrade at height 1), for tests that need whole blocks of today's consensus: v5 and v6
 * coinbases, any transactions a test gives a block, and the header's hashBlockCommitments
 * computed as the state transition checks it (ZIP-221 history nodes V2 up to NU6.3, V3 from it,
 * the activation block committing to the previous epoch's root; the ZIP-244 auth data root).
 * Blocks are mined with regtest's real Equihash (48, 5), so a store accepts them as it accepts
 * zcashd's.
 *
 * The shielded parts are built from real action bytes (the nu6.3 vectors' first v6 transaction
 * with Orchard and Ironwood actions): each action keeps that transaction's value commitment,
 * randomized key and ephemeral key (valid Pallas points) and gets its own nullifier and note
 * commitment (small field elements from a counter), so that blocks never repeat one. Proofs and
 * signatures are zeros of the canonical lengths: zecrpc verifies neither.
 */
import { branchIdAt, regtestWithActivations, type NetworkParams, type NetworkUpgrade } from '../../src/chain/network.js';
import { NETWORK_UPGRADES } from '../../src/chain/upgrades.js';
import { expectedCommitmentField } from '../../src/chain/header-rules.js';
import { canonicalActionProofSize } from '../../src/chain/tx-rules.js';
import { authDataRoot, decodeBlock } from '../../src/codec/block.js';
import { hexInt } from '../../src/codec/hex.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { decodeTransaction, encodeTransaction } from '../../src/codec/tx/transaction.js';
import {
  NU5_VERSION_GROUP_ID,
  NU6_3_VERSION_GROUP_ID,
  type OrchardAction,
  type OrchardBundle,
  type OutPoint,
  type TransactionData,
  type TxIn,
  type TxOut,
} from '../../src/codec/tx/types.js';
import { applyBlock, type Coin } from '../../src/state/apply-block.js';
import type { ChainStateTip } from '../../src/state/chain-state.js';
import { defaultPoolHashers } from '../../src/state/hashers.js';
import { prevHistoryRoot } from '../../src/state/history-tree.js';
import { buildBlock, regtestGenesis, type BuiltBlock, type CoinbaseFormat } from '../../test-vectors/regtest-builder.js';
import { readHexVector } from './vectors.js';

/** Regtest with Overwinter … NU6.1 at height 1 and NU6.2, NU6.3 where given. */
export function nu6Regtest(heights: { 'NU6.2': number; 'NU6.3': number }): NetworkParams {
  const early = Object.fromEntries(NETWORK_UPGRADES.filter((u) => u !== 'NU6.2' && u !== 'NU6.3').map((u) => [u, 1]));
  return regtestWithActivations({ ...early, ...heights } as Partial<Record<NetworkUpgrade, number>>);
}

/** The `-nuparams` arguments that schedule `network`'s upgrades, as a zcash.conf would. */
export function nuparamsArgs(network: NetworkParams): string[] {
  return network.upgrades.filter((u) => u.activationHeight !== null).map((u) => `-nuparams=${hexInt(u.branchId)}:${u.activationHeight}`);
}

/** The real action the builders copy: mainnet 3428144's v6 transaction with Orchard and Ironwood actions. */
const TEMPLATE_ACTION: OrchardAction = (() => {
  const block = decodeBlock(readHexVector('nu6.3', 'blocks', 'mainnet', '3428144.hex'), CURRENT_CHAIN_ACCEPTANCE);
  const tx = block.transactions.find((t) => t.data.format === 'v6' && t.data.orchard && t.data.ironwood);
  if (!tx) throw new Error('nu6.3 vectors: no v6 transaction with Orchard and Ironwood actions at mainnet 3428144');
  return tx.data.orchard!.actions[0]!;
})();

let nextFieldElement = 1;
/** A distinct canonical Pallas base field element (a small integer, little-endian). */
function freshFieldElement(): Uint8Array {
  const out = new Uint8Array(32);
  new DataView(out.buffer).setUint32(0, nextFieldElement++, true);
  out[4] = 0x5a; // keeps these apart from the counters other helpers use
  return out;
}

/** `count` actions of the real template, each with its own nullifier and note commitment. */
export function freshActions(count: number): OrchardAction[] {
  return Array.from({ length: count }, () => ({
    ...TEMPLATE_ACTION,
    nullifier: freshFieldElement(),
    cmx: freshFieldElement(),
    spendAuthSig: new Uint8Array(64),
  }));
}

/** An Orchard-protocol bundle (Orchard or Ironwood component) with a zero proof of the canonical length. */
export function actionBundle(parts: { actions: number; flags: number; valueBalance: number; anchor: Uint8Array }): OrchardBundle {
  return {
    actions: freshActions(parts.actions),
    flags: parts.flags,
    valueBalance: parts.valueBalance,
    anchor: parts.anchor,
    proof: new Uint8Array(canonicalActionProofSize(parts.actions)),
    bindingSig: new Uint8Array(64),
  };
}

export interface ShieldedTxParts {
  /** v5 or v6. */
  format: 'v5' | 'v6';
  branchId: number;
  vin?: TxIn[];
  vout?: TxOut[];
  orchard?: OrchardBundle | null;
  /** v6 only. */
  ironwood?: OrchardBundle | null;
  expiryHeight?: number;
}

/** A v5 or v6 transaction with the given parts (no Sapling). */
export function shieldedTransaction(parts: ShieldedTxParts): Uint8Array {
  const v6 = parts.format === 'v6';
  const data: TransactionData = {
    format: parts.format,
    overwintered: true,
    version: v6 ? 6 : 5,
    versionGroupId: v6 ? NU6_3_VERSION_GROUP_ID : NU5_VERSION_GROUP_ID,
    consensusBranchId: parts.branchId,
    lockTime: 0,
    expiryHeight: parts.expiryHeight ?? 0,
    vin: parts.vin ?? [],
    vout: parts.vout ?? [],
    joinSplits: [],
    joinSplitPubKey: null,
    joinSplitSig: null,
    sapling: null,
    orchard: parts.orchard ?? null,
    ...(v6 ? { ironwood: parts.ironwood ?? null } : {}),
  };
  return encodeTransaction(data);
}

/** A transparent input spending `prevout` with a one-byte scriptSig (zecrpc runs no scripts). */
export const spend = (prevout: OutPoint): TxIn => ({ prevout, scriptSig: Uint8Array.of(0x51), sequence: 0xffffffff });

export interface NextBlock {
  /** Distinguishes competing branches. */
  tag: string;
  /** Transactions after the coinbase. */
  txs?: readonly Uint8Array[];
  /** The coinbase's format: by default v6 from NU6.3, v5 from NU5, v4 before. */
  coinbase?: CoinbaseFormat;
  /** Changes the coinbase before it is encoded. */
  editCoinbase?: (tx: TransactionData) => void;
}

interface BuiltState {
  block: BuiltBlock;
  parentHash: string | null;
  tip: ChainStateTip;
}

/**
 * Builds branches on `network`, keeping the chain state the project's own transition computes
 * after each block (a block whose transition fails has none, and nothing can be built on it).
 */
export class RegtestChainBuilder {
  readonly genesis: BuiltBlock;
  private readonly hashers = defaultPoolHashers();
  private readonly states = new Map<string, BuiltState>();
  private readonly coins = new Map<string, Coin>();
  /**
   * Why the state transition refused or could not compute a block built here, by block hash: a
   * block a test builds to break a rule, or one the transition cannot connect.
   */
  readonly refused = new Map<string, Error>();

  constructor(readonly network: NetworkParams) {
    this.genesis = regtestGenesis();
    this.record(this.genesis, null);
  }

  stateAfter(block: BuiltBlock): ChainStateTip {
    const s = this.states.get(block.hashHex);
    if (!s) throw new Error(`block ${block.hashHex} has no state here (${this.refused.get(block.hashHex)?.message ?? 'not built here'})`);
    return s.tip;
  }

  /** The block on `parent` carrying `spec.txs`, with the header commitment its transactions need. */
  next(parent: BuiltBlock, spec: NextBlock): BuiltBlock {
    const height = parent.height + 1;
    const network = this.network;
    const tip = this.stateAfter(parent);
    const active = (u: NetworkUpgrade) => network.activationHeights[u] !== null && height >= network.activationHeights[u]!;
    const coinbaseFormat = spec.coinbase ?? (active('NU6.3') ? 'v6' : active('NU5') ? 'v5' : active('Overwinter') ? 'v4' : 'v1');
    const commitments = (txs: readonly Uint8Array[]): Uint8Array | null => {
      const decoded = txs.map((t) => decodeTransaction(t, CURRENT_CHAIN_ACCEPTANCE));
      const sapling = tip.trees.sapling.clone();
      sapling.appendMany(decoded.flatMap((t) => t.data.sapling?.outputs.map((o) => o.cmu) ?? []));
      return expectedCommitmentField(network, height, {
        saplingRoot: sapling.root(),
        prevHistoryRoot: prevHistoryRoot(network, tip.history === 'unknown' ? null : tip.history, height),
        authDataRoot: authDataRoot(decoded.map((t) => t.authDigest)),
      });
    };
    const block = buildBlock({
      parent,
      tag: spec.tag,
      extraTxs: spec.txs ?? [],
      coinbaseFormat,
      ...(spec.editCoinbase ? { editCoinbase: spec.editCoinbase } : {}),
      commitments,
      network,
    });
    this.record(block, parent);
    return block;
  }

  /** `count` blocks on `parent`, `txsAt(height)` giving each one's transactions. */
  chain(parent: BuiltBlock, count: number, tag: string, txsAt?: (height: number) => readonly Uint8Array[]): BuiltBlock[] {
    const out: BuiltBlock[] = [];
    let prev = parent;
    for (let i = 0; i < count; i++) {
      prev = this.next(prev, { tag, txs: txsAt?.(prev.height + 1) ?? [] });
      out.push(prev);
    }
    return out;
  }

  /** The miner's output of `block`'s coinbase (output 0), to spend once mature (100 blocks). */
  minerOutput(block: BuiltBlock): { prevout: OutPoint; value: number } {
    const coinbase = decodeBlock(block.bytes, CURRENT_CHAIN_ACCEPTANCE).transactions[0]!;
    return { prevout: { hash: coinbase.txid, index: 0 }, value: coinbase.data.vout[0]!.value };
  }

  /** The branch id of the epoch `block`'s child is in. */
  nextBranchId(block: BuiltBlock): number {
    return branchIdAt(this.network, block.height + 1);
  }

  private record(block: BuiltBlock, parent: BuiltBlock | null): void {
    let result;
    try {
      result = applyBlock({
        network: this.network,
        hashers: this.hashers,
        block: decodeBlock(block.bytes, CURRENT_CHAIN_ACCEPTANCE),
        height: block.height,
        parent: parent ? this.stateAfter(parent) : null,
        coin: (o) => this.coins.get(`${Buffer.from(o.hash).toString('hex')}:${o.index}`) ?? null,
      });
    } catch (e) {
      if (!(e instanceof Error)) throw e;
      this.refused.set(block.hashHex, e);
      return;
    }
    for (const c of result.created) this.coins.set(`${Buffer.from(c.outpoint.hash).toString('hex')}:${c.outpoint.index}`, c.coin);
    this.states.set(block.hashHex, { block, parentHash: parent?.hashHex ?? null, tip: result.tip });
  }
}
