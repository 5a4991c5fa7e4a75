// The Ironwood pool through the state transition on a regtest chain with every upgrade through
// NU6.2 from height 1 and NU6.3 at 102 (regtestWithActivations). Its v6 transactions carry real
// Ironwood actions (mainnet 3428144's and 3428145's, ../shared/test-vectors/nu6.3) in new
// transactions: one moves a mature coinbase into Ironwood, one takes part of it out again.
// Every header commits to what the product computes (hashBlockCommitments over the ZIP-221
// history root and the auth data root), and applyBlock checks each one as it connects it.
// Proofs and signatures are not verified (README), so the reused actions exercise everything
// the state computes: the tree, the nullifiers, the anchors, the value pool and its turnstile,
// and the V3 history leaves.
import { beforeAll, describe, expect, it } from 'vitest';
import { regtestWithActivations } from '../../src/chain/network.js';
import { expectedCommitmentField } from '../../src/chain/commitment-era.js';
import { BRANCH_IDS } from '../../src/chain/upgrades.js';
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { encodeTransaction } from '../../src/codec/tx/transaction.js';
import type { OrchardBundle, OutPoint, TransactionData } from '../../src/codec/tx/types.js';
import { applyBlock, StateTransitionError, type ApplyBlockResult, type Coin } from '../../src/state/apply-block.js';
import type { ChainStateTip } from '../../src/state/chain-state.js';
import { defaultPoolHashers } from '../../src/state/hashers.js';
import { historyNodeVersion, prevHistoryRoot } from '../../src/state/history-tree.js';
import { shieldedPool } from '../../src/state/pools.js';
import { IncrementalMerkleTree } from '../../src/state/trees/incremental.js';
import { blockValuePools } from '../../src/state/value-pools.js';
import { buildBlock, regtestGenesis, type BuiltBlock } from '../../test-vectors/regtest-builder.js';
import { readHexVector } from '../support/vectors.js';

const NU63 = 102;
const NETWORK = regtestWithActivations({
  Overwinter: 1,
  Sapling: 1,
  Blossom: 1,
  Heartwood: 1,
  Canopy: 1,
  NU5: 1,
  NU6: 1,
  'NU6.1': 1,
  'NU6.2': 1,
  'NU6.3': NU63,
});
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** A real v6 transaction's data from the nu6.3 mainnet blocks. */
function realTx(height: number, index: number): TransactionData {
  return decodeBlock(readHexVector('nu6.3', 'blocks', 'mainnet', `${height}.hex`), CURRENT_CHAIN_ACCEPTANCE).transactions[index]!.data;
}

/** A v6 transaction carrying `ironwood` (real actions), spending `vin` into `vout`; nothing else. */
function ironwoodTx(parts: Pick<TransactionData, 'vin' | 'vout'> & { ironwood: OrchardBundle }): Uint8Array {
  const template = realTx(3428144, 2);
  return encodeTransaction({
    ...template,
    consensusBranchId: BRANCH_IDS['NU6.3'],
    lockTime: 0,
    expiryHeight: 0,
    vin: parts.vin,
    vout: parts.vout,
    sapling: null,
    orchard: null,
    ironwood: parts.ironwood,
  });
}

interface Node {
  block: BuiltBlock;
  tip: ChainStateTip;
  result: ApplyBlockResult | null;
  /** Ironwood roots the chain had up to this block (the empty tree's included), its nullifiers and coins. */
  anchors: Set<string>;
  nullifiers: Set<string>;
  coins: Map<string, Coin>;
}

/** A minimal builder: each header's commitment is what the product computes for its parent state and transactions. */
class Chain {
  readonly hashers = defaultPoolHashers();
  readonly nodes = new Map<string, Node>();
  readonly genesis: Node;

  constructor() {
    const block = regtestGenesis();
    const result = applyBlock({
      network: NETWORK,
      hashers: this.hashers,
      block: decodeBlock(block.bytes),
      height: 0,
      parent: null,
      coin: () => null,
    });
    const empty = hex(new IncrementalMerkleTree(this.hashers.ironwood).root());
    this.genesis = { block, tip: result.tip, result, anchors: new Set([empty]), nullifiers: new Set(), coins: new Map() };
    this.nodes.set(block.hashHex, this.genesis);
  }

  /** Connects a block on `parent`, or returns the refusal. */
  next(parent: Node, tag: string, extraTxs: Uint8Array[] = []): Node | StateTransitionError {
    const height = parent.block.height + 1;
    const draft = buildBlock({ parent: parent.block, tag, extraTxs, saplingCoinbase: true, network: NETWORK });
    const authDataRoot = decodeBlock(draft.bytes, CURRENT_CHAIN_ACCEPTANCE).computeAuthDataRoot();
    const history = parent.tip.history === 'unknown' ? null : parent.tip.history;
    const commitments = expectedCommitmentField(NETWORK, height, {
      prevHistoryRoot: prevHistoryRoot(NETWORK, history, height),
      authDataRoot,
    })!;
    const block = buildBlock({ parent: parent.block, tag, extraTxs, saplingCoinbase: true, network: NETWORK, commitments });
    let result: ApplyBlockResult;
    try {
      result = applyBlock({
        network: NETWORK,
        hashers: this.hashers,
        block: decodeBlock(block.bytes, CURRENT_CHAIN_ACCEPTANCE),
        height,
        parent: parent.tip,
        coin: (o) => parent.coins.get(key(o)) ?? null,
        anchorKnown: (pool, root) => pool !== 'ironwood' || parent.anchors.has(hex(root)),
        nullifierSpent: (pool, nf) => pool === 'ironwood' && parent.nullifiers.has(hex(nf)),
      });
    } catch (e) {
      if (e instanceof StateTransitionError) return e;
      throw e;
    }
    const coins = new Map(parent.coins);
    for (const s of result.spent) coins.delete(key(s.outpoint));
    for (const c of result.created) coins.set(key(c.outpoint), c.coin);
    const anchors = new Set(parent.anchors);
    for (const r of result.newRoots) if (r.pool === 'ironwood') anchors.add(hex(r.root));
    const nullifiers = new Set(parent.nullifiers);
    for (const n of result.nullifiers) if (n.pool === 'ironwood') nullifiers.add(hex(n.nullifier));
    const node = { block, tip: result.tip, result, anchors, nullifiers, coins };
    this.nodes.set(block.hashHex, node);
    return node;
  }

  extend(parent: Node, count: number, tag: string): Node[] {
    const out: Node[] = [];
    for (let i = 0; i < count; i++) out.push(connected(this.next(out[i - 1] ?? parent, tag)));
    return out;
  }
}

const key = (o: OutPoint): string => `${hex(o.hash)}:${o.index}`;

function connected(n: Node | StateTransitionError): Node {
  if (n instanceof StateTransitionError) throw n;
  return n;
}

/** The coinbase's first output of `node` (the miner's), as a prevout and its value. */
function minerCoin(node: Node): { prevout: OutPoint; value: number } {
  const coinbase = decodeBlock(node.block.bytes, CURRENT_CHAIN_ACCEPTANCE).transactions[0]!;
  return { prevout: { hash: coinbase.txid, index: 0 }, value: coinbase.data.vout[0]!.value };
}

const P2PKH = Uint8Array.from(Buffer.from('76a914' + '11'.repeat(20) + '88ac', 'hex'));

describe('the Ironwood pool on a regtest chain through NU6.3', () => {
  const chain = new Chain();
  let base: Node[];
  let shielded: Node;
  let shieldedValue: number;
  let shieldTx: Uint8Array;
  const inActions = realTx(3428144, 2).ironwood!;
  const outActions = realTx(3428145, 1).ironwood!;

  beforeAll(() => {
    base = [chain.genesis, ...chain.extend(chain.genesis, NU63 + 1, 'base')];
    const coin = minerCoin(base[3]!);
    shieldedValue = coin.value;
    shieldTx = ironwoodTx({
      vin: [{ prevout: coin.prevout, scriptSig: Uint8Array.of(0x00), sequence: 0xffffffff }],
      vout: [],
      ironwood: { ...inActions, valueBalance: -coin.value, anchor: emptyRoot() },
    });
    shielded = connected(chain.next(base[NU63 + 1]!, 'base', [shieldTx]));
  }, 600_000);

  function emptyRoot(): Uint8Array {
    return new IncrementalMerkleTree(chain.hashers.ironwood).root();
  }

  it('before NU6.3 the pool is no member of the records or views; at activation it is, empty', () => {
    const before = base[NU63 - 1]!.result!;
    expect([before.record.ironwoodRoot, before.record.ironwoodSize, before.record.deltas.ironwood, before.record.totals.ironwood]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(
      blockValuePools(before.record.totals, before.record.deltas, { network: NETWORK, height: NU63 - 1 }).valuePools.map((p) => p.id),
    ).toEqual(['transparent', 'sprout', 'sapling', 'orchard', 'lockbox']);
    const activation = base[NU63]!.result!;
    expect([
      hex(activation.record.ironwoodRoot!),
      activation.record.ironwoodSize,
      activation.record.deltas.ironwood,
      activation.record.totals.ironwood,
    ]).toEqual([hex(emptyRoot()), 0, 0n, 0n]);
    const view = blockValuePools(activation.record.totals, activation.record.deltas, { network: NETWORK, height: NU63 });
    expect(view.valuePools.map((p) => p.id)).toEqual(['transparent', 'sprout', 'sapling', 'orchard', 'lockbox', 'ironwood']);
    expect(view.valuePools[5]).toEqual({ id: 'ironwood', monitored: true, chainValue: 0n, valueDelta: 0n });
  });

  it('the history tree starts a V3 epoch at the activation block, whose header commits to the NU6.2 epoch’s root', () => {
    const last62 = base[NU63 - 1]!.tip.history;
    const first63 = base[NU63]!.tip.history;
    if (!last62 || last62 === 'unknown' || !first63 || first63 === 'unknown') throw new Error('no history tree');
    expect([last62.branchId, historyNodeVersion(last62.branchId)]).toEqual([BRANCH_IDS['NU6.2'], 2]);
    expect([first63.branchId, first63.leafCount, historyNodeVersion(first63.branchId)]).toEqual([BRANCH_IDS['NU6.3'], 1, 3]);
    // The V3 leaf carries the Ironwood root after the block and its Ironwood transaction count.
    expect([hex(first63.peaks[0]!.ironwood!.endRoot), first63.peaks[0]!.ironwood!.txCount]).toEqual([hex(emptyRoot()), 0]);
    const after = shielded.tip.history;
    if (!after || after === 'unknown') throw new Error('no history tree');
    const leaf = after.peaks[after.peaks.length - 1]!;
    expect([after.leafCount, hex(leaf.ironwood!.endRoot), leaf.ironwood!.txCount]).toEqual([3, hex(shielded.tip.trees.ironwood.root()), 1]);
  });

  it('notes in: the real actions’ commitments grow the tree to the real chain’s root, the value pool holds what went in', () => {
    const record = shielded.result!.record;
    // The same two actions made mainnet's first Ironwood notes (3428144): the same root.
    const real = new IncrementalMerkleTree(chain.hashers.ironwood);
    const leaves: Uint8Array[] = [];
    shieldedPool('ironwood')!.commitments(realTx(3428144, 2), leaves);
    real.appendMany(leaves);
    expect([record.ironwoodSize, hex(record.ironwoodRoot!)]).toEqual([2, hex(real.root())]);
    expect(hex(real.root())).toBe('1fc133493a7c6d369ece9b5f50eec778ee72eb5488b0b10803b915d6f72d920b');
    expect([record.deltas.ironwood, record.totals.ironwood]).toEqual([BigInt(shieldedValue), BigInt(shieldedValue)]);
    expect(shielded.result!.nullifiers.filter((n) => n.pool === 'ironwood').map((n) => hex(n.nullifier))).toEqual(
      inActions.actions.map((a) => hex(a.nullifier)),
    );
    expect(shielded.result!.newRoots.map((r) => r.pool)).toEqual(['ironwood']);
  });

  it('notes out: a transaction anchored at that root takes value out of Ironwood', () => {
    const out = 1_000_000;
    const tx = ironwoodTx({
      vin: [],
      vout: [{ value: out, scriptPubKey: P2PKH }],
      ironwood: { ...outActions, valueBalance: out, anchor: shielded.tip.trees.ironwood.root() },
    });
    const spent = connected(chain.next(shielded, 'base', [tx]));
    const record = spent.result!.record;
    expect([record.ironwoodSize, record.deltas.ironwood, record.totals.ironwood]).toEqual([4, -BigInt(out), BigInt(shieldedValue - out)]);
  });

  it('refuses an anchor that was never an Ironwood root', () => {
    const tx = ironwoodTx({
      vin: [],
      vout: [{ value: 1000, scriptPubKey: P2PKH }],
      ironwood: { ...outActions, valueBalance: 1000, anchor: new Uint8Array(32).fill(7) },
    });
    const refused = chain.next(shielded, 'base', [tx]);
    expect(refused).toBeInstanceOf(StateTransitionError);
    expect((refused as StateTransitionError).rule).toBe('bad-txns-ironwood-unknown-anchor');
    expect((refused as StateTransitionError).message).toContain('the Ironwood bundle of transaction');
  });

  it('refuses a repeated Ironwood nullifier', () => {
    const tx = ironwoodTx({
      vin: [],
      vout: [{ value: 1000, scriptPubKey: P2PKH }],
      ironwood: { ...inActions, valueBalance: 1000, anchor: shielded.tip.trees.ironwood.root() },
    });
    const refused = chain.next(shielded, 'base', [tx]);
    expect(refused).toBeInstanceOf(StateTransitionError);
    expect([(refused as StateTransitionError).rule, (refused as StateTransitionError).message]).toEqual([
      'bad-txns-ironwood-duplicate-nullifier',
      expect.stringContaining(`Ironwood action 0 of transaction`),
    ]);
  });

  it('the turnstile refuses a block that takes more out of Ironwood than went in', () => {
    const tooMuch = shieldedValue + 1;
    const tx = ironwoodTx({
      vin: [],
      vout: [{ value: tooMuch, scriptPubKey: P2PKH }],
      ironwood: { ...outActions, valueBalance: tooMuch, anchor: shielded.tip.trees.ironwood.root() },
    });
    const refused = chain.next(shielded, 'base', [tx]);
    expect(refused).toBeInstanceOf(StateTransitionError);
    expect([(refused as StateTransitionError).rule, (refused as StateTransitionError).message]).toEqual([
      'turnstile-violation-ironwood',
      expect.stringContaining(
        `turnstile violation in Ironwood shielded value pool at height ${NU63 + 3} (sprout=0, sapling=0, orchard=0, lockbox=`,
      ),
    ]);
    expect((refused as StateTransitionError).message).toContain(', ironwood=-1)');
  });

  it('a branch from before the activation connects from the parent state as if Ironwood had never held anything', () => {
    const fork = base[NU63 - 1]!;
    const branch = chain.extend(fork, 4, 'branch');
    const tip = branch[3]!;
    expect([tip.block.height, tip.tip.trees.ironwood.size, tip.tip.totals.ironwood, hex(tip.tip.trees.ironwood.root())]).toEqual([
      NU63 + 3,
      0,
      0n,
      hex(emptyRoot()),
    ]);
    expect(tip.nullifiers.size).toBe(0);
    const history = tip.tip.history;
    if (!history || history === 'unknown') throw new Error('no history tree');
    expect([history.branchId, history.leafCount]).toEqual([BRANCH_IDS['NU6.3'], 4]);
  });
});
