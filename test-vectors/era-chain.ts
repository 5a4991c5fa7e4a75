/**
 * Era-shaped regtest chains: blocks whose transactions have the shapes of mainnet's eras
 * (transparent-heavy with Sprout JoinSplits, the 2022 Sapling-output spam, Orchard-action-heavy
 * NU5+ blocks, NU6.3's v6 blocks with Ironwood actions), built one block at a time so that a
 * chain of 100,000 blocks or more never sits in memory.
 *
 * The network is regtest with every upgrade through NU6.1 active from height 1 (`ERA_REGTEST`), so
 * v4 (Sapling) and v5 (Orchard) transactions are both valid at any height and every header
 * carries NU5's hashBlockCommitments, computed from the state the project's own transition
 * reaches after the parent. A chain that reaches its NU6.3 era activates NU6.2 there, and NU6.3
 * a block later (`activateNu63`, `eraNetwork`): from then on its blocks are today's (v6
 * coinbases, v6 transactions with Ironwood actions, no value added to the Orchard pool, ZIP 258),
 * so that era comes last in a chain. Blocks are mined with real (48, 5) solutions, or stand-ins of
 * mainnet's size (EraSolutions).
 *
 * What the importer checks holds for these blocks: every transparent input spends an existing
 * unspent output (the generator keeps the unspent set), amounts balance exactly (no fees: from
 * NU6 the coinbase must claim exactly the subsidy), JoinSplits, Sapling spends and Orchard and
 * Ironwood actions name an anchor the chain had (the parent's root) and reveal nullifiers never
 * revealed before, and the value pools never go below zero. What they are not: scripts are not
 * valid signatures and proofs and signatures are zeros (zecrpc verifies neither, README), so
 * zcashd would refuse them.
 *
 * Byte sizes follow mainnet's: a transparent input carries a 107-byte scriptSig (a P2PKH
 * signature and compressed key, 148 bytes an input), outputs pay P2PKH scripts to distinct
 * hashes, JoinSplits, Sapling spends and outputs and Orchard and Ironwood actions have their
 * canonical sizes. A JoinSplit is built in a v4 transaction with a Groth16 proof, 1,698 bytes,
 * where the Sprout era's v2 and v3 transactions carried BCTV14 proofs, 1,802 bytes (v2 and v3
 * transactions are not valid after Overwinter, which this network activates at height 1).
 * Headers carry regtest's real (48, 5) solutions of 36 bytes, or, in the benches' chains
 * (`solutions: 'mainnet-size'`), stand-ins of mainnet's 1,344 bytes (EraSolutions): a valid
 * (200, 9) solution takes far longer to find than a bench can spend on 100,000 headers.
 */
import {
  regtestWithActivations,
  branchIdAt,
  isUpgradeActive,
  MAINNET,
  REGTEST,
  type NetworkParams,
  type NetworkUpgrade,
} from '../src/chain/network.js';
import { NETWORK_UPGRADES } from '../src/chain/upgrades.js';
import { expectedCommitmentField } from '../src/chain/header-rules.js';
import { authDataRoot, decodeBlock, type Block } from '../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../src/codec/tx/acceptance.js';
import { decodeTransaction, encodeTransaction } from '../src/codec/tx/transaction.js';
import {
  SAPLING_VERSION_GROUP_ID,
  type JoinSplit,
  type OutPoint,
  type SaplingOutput,
  type SaplingBundle,
  type SaplingSpend,
  type TxIn,
  type TxOut,
} from '../src/codec/tx/types.js';
import { applyBlock, type Coin } from '../src/state/apply-block.js';
import type { ChainStateTip } from '../src/state/chain-state.js';
import { defaultPoolHashers } from '../src/state/hashers.js';
import { prevHistoryRoot } from '../src/state/history-tree.js';
import { actionBundle, nu6Regtest, shieldedTransaction } from '../test/support/nu6-regtest.js';
import { buildBlock, regtestGenesis, standInGenesis, type BuiltBlock } from './regtest-builder.js';
import { JUBJUB_POINT } from './regtest-shielded.js';

/** Regtest with Overwinter … NU6.1 active from height 1 (NU6.2 and NU6.3 never): a chain before its NU6.3 era. */
export const ERA_REGTEST: NetworkParams = regtestWithActivations(
  Object.fromEntries(NETWORK_UPGRADES.filter((u) => u !== 'NU6.2' && u !== 'NU6.3').map((u) => [u, 1])) as Partial<
    Record<NetworkUpgrade, number>
  >,
);

/** Where a chain activates NU6.2 and NU6.3 (NU6.3 a block after NU6.2), when it does. */
export interface EraActivations {
  'NU6.2': number;
  'NU6.3': number;
}

/**
 * How a chain's headers carry their Equihash solutions: `regtest`, real (48, 5) solutions of 36
 * bytes; `mainnet-size`, stand-ins of mainnet's 1,344 bytes (Equihash (200, 9), chainparams.cpp),
 * so that every header has a mainnet header's 1,487 bytes where the import parses, hashes, files
 * and indexes it. A stand-in is no valid solution: such a chain imports with solutions unchecked
 * (`verifySolutions: false`, as `zecrpc import --no-verify-equihash`), and Equihash (200, 9) is
 * measured apart, on real mainnet headers (bench/import-eras.ts).
 */
export type EraSolutions = 'regtest' | 'mainnet-size';

/** Mainnet's Equihash (200, 9) solution size: 1,344 bytes (chainparams.cpp). */
export const MAINNET_SOLUTION_BYTES = MAINNET.solutionSize;

let mainnetSizeGenesisBlock: BuiltBlock | undefined;
/** Regtest's genesis block with a stand-in solution of mainnet's size: the genesis of `mainnet-size` chains. */
export function mainnetSizeGenesis(): BuiltBlock {
  return (mainnetSizeGenesisBlock ??= standInGenesis(MAINNET_SOLUTION_BYTES));
}

/**
 * The network of a chain that activates NU6.2 and NU6.3 at `activations` (ERA_REGTEST when it
 * does not), with headers whose solutions are `solutions`: for `mainnet-size`, a solution size of
 * 1,344 bytes and the genesis block of that size (`mainnetSizeGenesis`).
 */
export function eraNetwork(activations: EraActivations | null | undefined, solutions: EraSolutions = 'regtest'): NetworkParams {
  const network = activations ? nu6Regtest(activations) : ERA_REGTEST;
  if (solutions === 'regtest') return network;
  return { ...network, solutionSize: MAINNET_SOLUTION_BYTES, genesisHash: mainnetSizeGenesis().hashHex };
}

/** Whether `network`'s blocks carry stand-in solutions (`mainnet-size`), which no Equihash check accepts. */
export function hasStandInSolutions(network: NetworkParams): boolean {
  return network.name === 'regtest' && network.solutionSize !== REGTEST.solutionSize;
}

/** One transaction's shape: how many of each part it has. */
export interface TxShape {
  /** Transparent inputs (spending the oldest unspent outputs the chain has). */
  inputs: number;
  /** Transparent outputs (P2PKH). */
  outputs: number;
  /** Sprout JoinSplits (in a v4 transaction; no value crosses into or out of Sprout, as from Canopy). */
  joinSplits?: number;
  saplingSpends?: number;
  saplingOutputs?: number;
  orchardActions?: number;
  /** Ironwood actions (v6 transactions, from NU6.3). */
  ironwoodActions?: number;
}

/** A block's transactions after its coinbase. */
export type BlockShape = readonly TxShape[];

/** The parts a block or a chain holds, in the units the import model counts. */
export interface Composition {
  blocks: number;
  bytes: number;
  /** Transactions, coinbases included. */
  txs: number;
  /** Transparent inputs of non-coinbase transactions. */
  inputs: number;
  /** Transparent outputs, coinbase outputs included. */
  outputs: number;
  /**
   * Sapling spends, and two per Sprout JoinSplit: the import model charges a JoinSplit's two
   * nullifiers as Sapling-spend units (bench/lib/mainnet.ts counts mainnet's the same way).
   */
  saplingSpends: number;
  saplingOutputs: number;
  /** Orchard-protocol actions: Orchard's and Ironwood's (one action layout, one tree hasher). */
  orchardActions: number;
}

export const emptyComposition = (): Composition => ({
  blocks: 0,
  bytes: 0,
  txs: 0,
  inputs: 0,
  outputs: 0,
  saplingSpends: 0,
  saplingOutputs: 0,
  orchardActions: 0,
});

/** Adds `b` into `a` (in place) and returns `a`. */
export function addComposition(a: Composition, b: Composition): Composition {
  for (const k of Object.keys(a) as (keyof Composition)[]) a[k] += b[k];
  return a;
}

/** What a decoded block holds, counted the way `Composition` counts. */
export function compositionOf(block: Block, bytes: number): Composition {
  const c = emptyComposition();
  c.blocks = 1;
  c.bytes = bytes;
  c.txs = block.transactions.length;
  block.transactions.forEach((tx, i) => {
    const d = tx.data;
    if (i > 0) c.inputs += d.vin.length;
    c.outputs += d.vout.length;
    c.saplingSpends += (d.sapling?.spends.length ?? 0) + 2 * d.joinSplits.length;
    c.saplingOutputs += d.sapling?.outputs.length ?? 0;
    c.orchardActions += (d.orchard?.actions.length ?? 0) + (d.ironwood?.actions.length ?? 0);
  });
  return c;
}

/** Regtest's COINBASE_MATURITY. */
const COINBASE_MATURITY = 100;
/** A P2PKH scriptSig's length: a push of a 72-byte DER signature and of a 33-byte compressed key. */
export const P2PKH_SCRIPTSIG_BYTES = 107;
/** zcashd's MAX_BLOCK_SIZE. */
const MAX_BLOCK_BYTES = 2_000_000;

interface Spendable {
  prevout: OutPoint;
  value: number;
}

/** Bytes of a Sprout note ciphertext (zcashd's ZC_NOTECIPHERTEXT_SIZE). */
const SPROUT_CIPHERTEXT_BYTES = 601;
/** A Groth16 proof's bytes (a JoinSplit in a v4 transaction). */
const GROTH16_PROOF_BYTES = 192;

/** A distinct small integer as 32 little-endian bytes: a canonical Jubjub or Pallas base field element. */
function counterElement(n: number, tag: number): Uint8Array {
  const out = new Uint8Array(32);
  new DataView(out.buffer).setUint32(0, n, true);
  out[5] = tag;
  return out;
}

export interface EraChainOptions {
  /** Distinguishes chains (goes into every coinbase and nonce). */
  tag: string;
  /** Bytes of each transparent input's scriptSig (P2PKH's 107 unless given). */
  scriptSigBytes?: number;
  /** The headers' Equihash solutions (`regtest` unless given; the benches' chains are `mainnet-size`). */
  solutions?: EraSolutions;
}

/**
 * Builds one chain from regtest's genesis (or its mainnet-size twin), a block at a time; keeps only the tip's state and the
 * unspent outputs, so its memory does not grow with the chain.
 */
export class EraChainGenerator {
  private net: NetworkParams;
  private activations: EraActivations | null = null;
  readonly genesis: BuiltBlock;
  private readonly hashers = defaultPoolHashers();
  private tip: BuiltBlock;
  private state: ChainStateTip;
  /** Unspent outputs by `txid:index`, for applyBlock's coins view. */
  private readonly coins = new Map<string, Coin>();
  /** Spendable outputs, oldest first (`head` is the next to spend). */
  private spendable: Spendable[] = [];
  private head = 0;
  /** Coinbase outputs waiting for maturity, by the height at which they mature. */
  private readonly maturing: { height: number; coins: Spendable[] }[] = [];
  private counter = 1;
  private readonly scriptSig: Uint8Array;

  constructor(private readonly options: EraChainOptions) {
    this.net = eraNetwork(null, this.solutions);
    this.genesis = this.solutions === 'regtest' ? regtestGenesis() : mainnetSizeGenesis();
    this.tip = this.genesis;
    this.scriptSig = new Uint8Array(options.scriptSigBytes ?? P2PKH_SCRIPTSIG_BYTES).fill(0x51);
    this.state = this.apply(this.genesis, null);
  }

  get height(): number {
    return this.tip.height;
  }

  /** How its headers carry their Equihash solutions. */
  get solutions(): EraSolutions {
    return this.options.solutions ?? 'regtest';
  }

  /** The chain's network: `eraNetwork` of its solutions, with NU6.2 and NU6.3 once `activateNu63` activated them. */
  get network(): NetworkParams {
    return this.net;
  }

  /** Where this chain activated NU6.2 and NU6.3, once it has. */
  get nu63Activations(): EraActivations | null {
    return this.activations;
  }

  /**
   * Activates NU6.2 at the next block and NU6.3 at the one after, as mainnet had NU6.2 before
   * NU6.3, and returns the NU6.2 block (its coinbase alone). From then on Orchard actions add no
   * value to their pool (ZIP 258), so no era that adds to it may follow.
   */
  activateNu63(): BuiltBlock {
    if (this.activations) throw new RangeError(`NU6.3 is already active from ${this.activations['NU6.3']}`);
    const nu62 = this.tip.height + 1;
    this.activations = { 'NU6.2': nu62, 'NU6.3': nu62 + 1 };
    this.net = eraNetwork(this.activations, this.solutions);
    return this.next([]);
  }

  /** Transparent outputs spendable by the next block. */
  get spendableCount(): number {
    return this.spendable.length - this.head;
  }

  /** The next block, carrying transactions of `shape` after its coinbase. */
  next(shape: BlockShape): BuiltBlock {
    const height = this.tip.height + 1;
    while (this.maturing.length && this.maturing[0]!.height <= height) this.spendable.push(...this.maturing.shift()!.coins);
    const network = this.network;
    const trees = this.state.trees;
    const at: BlockContext = {
      branchId: branchIdAt(network, height),
      nu63: isUpgradeActive(network, 'NU6.3', height),
      sproutAnchor: trees.sprout.root(),
      saplingAnchor: trees.sapling.root(),
      orchardAnchor: trees.orchard.root(),
      ironwoodAnchor: trees.ironwood.root(),
    };
    const txs = shape.map((t) => this.transaction(t, at));
    const parentState = this.state;
    const block = buildBlock({
      parent: this.tip,
      tag: this.options.tag,
      extraTxs: txs,
      coinbaseFormat: at.nu63 ? 'v6' : 'v5',
      network,
      commitments: (all) =>
        expectedCommitmentField(network, height, {
          prevHistoryRoot: prevHistoryRoot(network, parentState.history === 'unknown' ? null : parentState.history, height),
          authDataRoot: authDataRoot(all.map((t) => decodeTransaction(t, CURRENT_CHAIN_ACCEPTANCE).authDigest)),
        }),
    });
    if (block.bytes.length > MAX_BLOCK_BYTES) throw new RangeError(`block at ${height} is ${block.bytes.length} bytes, over 2 MB`);
    this.state = this.apply(block, parentState);
    this.tip = block;
    if (this.spendable.length > 4096 && this.head > this.spendable.length / 2) {
      this.spendable = this.spendable.slice(this.head);
      this.head = 0;
    }
    return block;
  }

  private take(count: number): Spendable[] {
    if (this.spendableCount < count)
      throw new RangeError(`height ${this.tip.height + 1}: ${count} inputs wanted, ${this.spendableCount} outputs spendable`);
    const out = this.spendable.slice(this.head, this.head + count);
    this.head += count;
    return out;
  }

  private p2pkh(): Uint8Array {
    const script = new Uint8Array(25);
    script.set([0x76, 0xa9, 0x14], 0);
    new DataView(script.buffer).setUint32(3, this.counter++, true);
    script.set([0x88, 0xac], 23);
    return script;
  }

  /**
   * A transaction of `shape`: its inputs' whole value goes to its transparent outputs, or, when it
   * has shielded outputs, into their pool (Ironwood, else Orchard before NU6.3, else Sapling), so
   * nothing is left as a fee. From NU6.3 Orchard actions move no value (ZIP 258 forbids adding to
   * the pool, and this chain's Orchard notes are not tracked to take value out).
   */
  private transaction(shape: TxShape, at: BlockContext): Uint8Array {
    const orchardActions = shape.orchardActions ?? 0;
    const ironwoodActions = shape.ironwoodActions ?? 0;
    const sapling = (shape.saplingSpends ?? 0) + (shape.saplingOutputs ?? 0) > 0;
    const joinSplits = shape.joinSplits ?? 0;
    const actions = orchardActions + ironwoodActions > 0;
    if ([actions, sapling, joinSplits > 0].filter(Boolean).length > 1)
      throw new RangeError('a transaction shape mixes JoinSplits, Sapling and Orchard-protocol parts; give them as separate transactions');
    if (ironwoodActions > 0 && !at.nu63) throw new RangeError('Ironwood actions before NU6.3');
    const inputs = this.take(shape.inputs);
    const vin: TxIn[] = inputs.map((c) => ({ prevout: c.prevout, scriptSig: this.scriptSig, sequence: 0xffffffff }));
    const valueIn = inputs.reduce((s, c) => s + c.value, 0);
    const shieldedSink = ironwoodActions > 0 || (orchardActions > 0 && !at.nu63) || (shape.saplingOutputs ?? 0) > 0;
    const transparentOut = shieldedSink ? 0 : valueIn;
    if (transparentOut > 0 && shape.outputs === 0)
      throw new RangeError(`a transaction of ${shape.inputs} inputs has nowhere to put their value (no outputs, no pool it may add to)`);
    const vout: TxOut[] = Array.from({ length: shape.outputs }, (_, i) => ({
      value: Math.floor(transparentOut / shape.outputs) + (i === 0 ? transparentOut % shape.outputs : 0),
      scriptPubKey: this.p2pkh(),
    }));
    const toPool = valueIn - transparentOut;
    if (actions) {
      const orchard =
        orchardActions > 0
          ? actionBundle({ actions: orchardActions, flags: 0b011, valueBalance: at.nu63 ? 0 : -toPool, anchor: at.orchardAnchor })
          : null;
      if (!at.nu63) return shieldedTransaction({ format: 'v5', branchId: at.branchId, vin, vout, orchard });
      const ironwood =
        ironwoodActions > 0
          ? actionBundle({ actions: ironwoodActions, flags: 0b111, valueBalance: -toPool, anchor: at.ironwoodAnchor })
          : null;
      return shieldedTransaction({ format: 'v6', branchId: at.branchId, vin, vout, orchard, ironwood });
    }
    if (sapling) return this.saplingTransaction(vin, vout, shape, at.saplingAnchor, -toPool);
    if (joinSplits > 0) return v4Transaction(vin, vout, null, this.joinSplits(joinSplits, at.sproutAnchor));
    if (shape.inputs === 0 || shape.outputs === 0) throw new RangeError('a transparent transaction needs inputs and outputs');
    return v4Transaction(vin, vout, null);
  }

  /** `count` JoinSplits that move no value, each revealing two new nullifiers and adding two note commitments. */
  private joinSplits(count: number, anchor: Uint8Array): JoinSplit[] {
    const two = (tag: number): [Uint8Array, Uint8Array] => [counterElement(this.counter++, tag), counterElement(this.counter++, tag)];
    return Array.from({ length: count }, () => ({
      vpubOld: 0,
      vpubNew: 0,
      anchor,
      nullifiers: two(0x5d),
      commitments: two(0x5e),
      ephemeralKey: new Uint8Array(32),
      randomSeed: new Uint8Array(32),
      macs: [new Uint8Array(32), new Uint8Array(32)],
      proofKind: 'groth16',
      proof: new Uint8Array(GROTH16_PROOF_BYTES),
      ciphertexts: [new Uint8Array(SPROUT_CIPHERTEXT_BYTES), new Uint8Array(SPROUT_CIPHERTEXT_BYTES)],
    }));
  }

  private saplingTransaction(vin: TxIn[], vout: TxOut[], shape: TxShape, anchor: Uint8Array, valueBalance: number): Uint8Array {
    const spends: SaplingSpend[] = Array.from({ length: shape.saplingSpends ?? 0 }, () => ({
      cv: JUBJUB_POINT,
      anchor,
      nullifier: counterElement(this.counter++, 0x5b),
      rk: JUBJUB_POINT,
      zkproof: new Uint8Array(192),
      spendAuthSig: new Uint8Array(64),
    }));
    const outputs: SaplingOutput[] = Array.from({ length: shape.saplingOutputs ?? 0 }, () => ({
      cv: JUBJUB_POINT,
      cmu: counterElement(this.counter++, 0x5c),
      ephemeralKey: JUBJUB_POINT,
      encCiphertext: new Uint8Array(580),
      outCiphertext: new Uint8Array(80),
      zkproof: new Uint8Array(192),
    }));
    return v4Transaction(vin, vout, { spends, outputs, valueBalance, sharedAnchor: null, bindingSig: new Uint8Array(64) });
  }

  /** Runs the project's state transition on `block`, and keeps the outputs it created. */
  private apply(block: BuiltBlock, parent: ChainStateTip | null): ChainStateTip {
    const decoded = decodeBlock(block.bytes, CURRENT_CHAIN_ACCEPTANCE);
    const key = (o: OutPoint): string => `${Buffer.from(o.hash).toString('hex')}:${o.index}`;
    const result = applyBlock({
      network: this.network,
      hashers: this.hashers,
      block: decoded,
      height: block.height,
      parent,
      coin: (o) => this.coins.get(key(o)) ?? null,
    });
    for (const s of result.spent) this.coins.delete(key(s.outpoint));
    const matured: Spendable[] = [];
    for (const c of result.created) {
      this.coins.set(key(c.outpoint), c.coin);
      const spendable = { prevout: c.outpoint, value: c.coin.value };
      if (c.coin.coinbase) matured.push(spendable);
      else this.spendable.push(spendable);
    }
    if (matured.length) this.maturing.push({ height: block.height + COINBASE_MATURITY, coins: matured });
    return result.tip;
  }
}

/** What a block's transactions are built against: its consensus branch, NU6.3 or not, and the parent's tree roots. */
interface BlockContext {
  branchId: number;
  nu63: boolean;
  sproutAnchor: Uint8Array;
  saplingAnchor: Uint8Array;
  orchardAnchor: Uint8Array;
  ironwoodAnchor: Uint8Array;
}

/** A v4 (Sapling-format) transaction: its Sapling bundle or none, its JoinSplits or none. */
function v4Transaction(vin: TxIn[], vout: TxOut[], sapling: SaplingBundle | null, joinSplits: JoinSplit[] = []): Uint8Array {
  return encodeTransaction({
    format: 'v4',
    overwintered: true,
    version: 4,
    versionGroupId: SAPLING_VERSION_GROUP_ID,
    consensusBranchId: null,
    lockTime: 0,
    expiryHeight: 0,
    vin,
    vout,
    joinSplits,
    joinSplitPubKey: joinSplits.length > 0 ? new Uint8Array(32) : null,
    joinSplitSig: joinSplits.length > 0 ? new Uint8Array(64) : null,
    sapling,
    orchard: null,
  });
}
