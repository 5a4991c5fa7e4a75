// The per-block state transition on real blocks: value pools from genesis, the three trees
// against the roots in roots.json and the headers that commit to them, and rejections with the
// height, the field and both values.
import { describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock, type Block } from '../../src/codec/block.js';
import { toHex, toHexReversed } from '../../src/codec/hex.js';
import { applyBlock, StateTransitionError, type Coin } from '../../src/state/apply-block.js';
import {
  decodeBlockChainState,
  decodeChainStateTip,
  emptyTrees,
  encodeBlockChainState,
  encodeChainStateTip,
  type ChainStateTip,
} from '../../src/state/chain-state.js';
import { defaultPoolHashers } from '../../src/state/hashers.js';
import { IncrementalMerkleTree } from '../../src/state/trees/incremental.js';
import { blockPoolDeltas, CHAIN_SUPPLY_CHECKPOINTS, UNKNOWN_POOL_TOTALS } from '../../src/state/value-pools.js';
import { mainnetChain } from '../support/store.js';
import { readHexVector, readJsonVector } from '../support/vectors.js';

interface RootEntry {
  network: string;
  height: number;
  pool: 'sprout' | 'sapling' | 'orchard';
  rpc_hex: string;
  internal_hex: string;
}
const ROOTS = readJsonVector<{ roots: RootEntry[]; sapling_treestates: { final_state_hex: string }[] }>('roots.json');
const root = (height: number, pool: RootEntry['pool']): string =>
  ROOTS.roots.find((r) => r.network === 'mainnet' && r.height === height && r.pool === pool)!.internal_hex;
const hashers = defaultPoolHashers();
const mainnetBlock = (h: number): Block => decodeBlock(readHexVector('blocks', 'mainnet', `${h}.hex`));

/** The state before `block` when only some of it is known (a checkpoint start). */
function checkpointParent(block: Block, height: number, trees: Partial<ChainStateTip['trees']> = {}): ChainStateTip {
  return {
    hash: block.header.prevHash,
    height: height - 1,
    trees: { ...emptyTrees(hashers), ...trees },
    history: 'unknown',
    totals: UNKNOWN_POOL_TOTALS,
    coinsComplete: false,
  };
}

describe('from genesis: mainnet 0..20', () => {
  const coins = new Map<string, Coin>();
  let tip: ChainStateTip | null = null;
  const records = mainnetChain().map((bytes, height) => {
    const result = applyBlock({
      network: MAINNET,
      hashers,
      block: decodeBlock(bytes),
      height,
      parent: tip,
      coin: (o) => coins.get(`${toHex(o.hash)}:${o.index}`) ?? null,
    });
    for (const c of result.created) coins.set(`${toHex(c.outpoint.hash)}:${c.outpoint.index}`, c.coin);
    tip = result.tip;
    return result;
  });

  it('genesis: what zcashd printed in 2019 (anchor, sprout and sapling pools)', () => {
    const golden = readJsonVector<{ anchor: string; valuePools: { id: string; chainValueZat: number; valueDeltaZat: number }[] }>(
      'zcashd-2019',
      '0.getblock.json',
    );
    const g = records[0]!.record;
    expect(toHexReversed(g.sproutRoot)).toBe(golden.anchor);
    for (const pool of golden.valuePools) {
      expect([pool.id, g.totals[pool.id as 'sprout'], g.deltas[pool.id as 'sprout']]).toEqual([
        pool.id,
        BigInt(pool.chainValueZat),
        BigInt(pool.valueDeltaZat),
      ]);
    }
    // Its coinbase never enters the coins view, and its only output is worth 0.
    expect(records[0]!.created).toEqual([]);
    expect([g.deltas.transparent, g.totals.chainSupply]).toEqual([0n, 0n]);
  });

  it('chain supply after block 10 is 62500 · 55 (spec §3.6 worked value), every pool monitored', () => {
    const ten = records[10]!.record;
    expect(ten.totals.chainSupply).toBe(3437500n);
    expect(ten.totals.transparent).toBe(3437500n);
    for (let h = 1; h <= 20; h++) {
      const r = records[h]!.record;
      expect([h, r.deltas.transparent, r.deltas.chainSupply]).toEqual([h, 62500n * BigInt(h), 62500n * BigInt(h)]);
      expect(toHexReversed(r.sproutRoot)).toBe(ROOTS.roots.find((x) => x.height === 0 && x.pool === 'sprout')!.rpc_hex);
      expect([r.saplingSize, r.orchardSize, r.orchardRoot]).toEqual([0, 0, null]);
    }
  });

  it('records and the tip state survive their binary encodings', () => {
    for (const { record } of records) expect(decodeBlockChainState(encodeBlockChainState(record))).toEqual(record);
    const decoded = decodeChainStateTip(encodeChainStateTip(tip!), hashers);
    expect([decoded.height, toHex(decoded.hash), decoded.totals, decoded.history]).toEqual([20, toHex(tip!.hash), tip!.totals, null]);
    expect(toHex(decoded.trees.sprout.root())).toBe(toHex(tip!.trees.sprout.root()));
  });

  it('a block spending an output the coins view does not have is rejected with the outpoint', () => {
    const block = mainnetBlock(396);
    const spender = block.transactions[1]!;
    const prevout = spender.data.vin[0]!.prevout;
    const parent = { ...checkpointParent(block, 396), coinsComplete: true };
    expect(() => applyBlock({ network: MAINNET, hashers, block, height: 396, parent, coin: () => null })).toThrow(
      new StateTransitionError(
        'bad-txns-inputs-missingorspent',
        396,
        block.hashHex,
        `transaction ${spender.txidHex} input 0 spends ${toHexReversed(prevout.hash)}:${prevout.index}, which is not an unspent output`,
      ),
    );
  });
});

describe('outputs spent within their block', () => {
  // Block 347,499's coinbase and its first three transactions (version 1, two, two and five
  // transparent inputs), every outpoint from before the block worth 100,000 ZEC so the values
  // balance; the first input of the later ones rewritten in the block's bytes.
  const rich: Coin = { value: 100_000 * 100_000_000, scriptPubKey: new Uint8Array(), height: 1, coinbase: false };
  const HEIGHT = 347_499;
  const original = mainnetBlock(HEIGHT);
  const [, first, second, third] = original.transactions;
  const outpoint = (o: { hash: Uint8Array; index: number }): string => `${toHex(o.hash)}:${o.index}`;
  function withSpending(prevout: { hash: Uint8Array; index: number }, spenders = [second!]): Block {
    const bytes = Buffer.from(readHexVector('blocks', 'mainnet', `${HEIGHT}.hex`));
    for (const spender of spenders) {
      const at = bytes.indexOf(Buffer.from(spender.bytes));
      // A version-1 transaction: its 4-byte version, a one-byte input count, then the first prevout.
      expect([bytes.readUInt32LE(at), bytes[at + 4]]).toEqual([1, spender.data.vin.length]);
      bytes.set(prevout.hash, at + 5);
      bytes.writeUInt32LE(prevout.index, at + 37);
    }
    const block = decodeBlock(bytes);
    block.transactions.splice(4);
    return block;
  }
  const apply = (block: Block, asked: string[] = [], coinsComplete = true) =>
    applyBlock({
      network: MAINNET,
      hashers,
      block,
      height: HEIGHT,
      parent: { ...checkpointParent(block, HEIGHT), coinsComplete },
      coin: (o) => {
        asked.push(outpoint(o));
        return rich;
      },
    });

  it('an input spending an earlier transaction’s output takes it from the block, not the coins view', () => {
    const own = { hash: first!.txid, index: 1 };
    const asked: string[] = [];
    const r = apply(withSpending(own), asked);
    expect(asked).toHaveLength(8);
    expect(asked).not.toContain(outpoint(own));
    expect(r.inputCoins[2]![0]).toEqual({
      value: first!.data.vout[1]!.value,
      scriptPubKey: first!.data.vout[1]!.scriptPubKey,
      height: HEIGHT,
      coinbase: false,
    });
    // Created and spent in the block: neither an unspent output after it nor in its undo data.
    expect(r.created.map((c) => outpoint(c.outpoint))).not.toContain(outpoint(own));
    expect(r.created.map((c) => outpoint(c.outpoint))).toContain(outpoint({ hash: first!.txid, index: 0 }));
    expect(r.spent.map((s) => outpoint(s.outpoint))).toEqual(asked);
  });

  it('two inputs of the block spending one outpoint are refused with it', () => {
    const prevout = first!.data.vin[1]!.prevout;
    const block = withSpending(prevout);
    expect(() => apply(block)).toThrow(
      new StateTransitionError(
        'bad-txns-inputs-missingorspent',
        HEIGHT,
        block.hashHex,
        `${toHexReversed(prevout.hash)}:${prevout.index} is spent twice in the block`,
      ),
    );
  });

  it('an output of the block spent twice in it is refused, also on a store started from a checkpoint', () => {
    const own = { hash: first!.txid, index: 1 };
    const block = withSpending(own, [second!, third!]);
    for (const coinsComplete of [true, false]) {
      expect(() => apply(block, [], coinsComplete)).toThrow(
        new StateTransitionError(
          'bad-txns-inputs-missingorspent',
          HEIGHT,
          block.hashHex,
          `${toHexReversed(own.hash)}:1 is spent twice in the block`,
        ),
      );
    }
  });
});

describe('JoinSplit anchors (HaveShieldedRequirements)', () => {
  // Block 396's transparent inputs are outside the vectors: a coins view that has every
  // outpoint, worth a lot, lets the block get as far as its JoinSplit.
  const rich: Coin = { value: 21_000_000 * 100_000_000 - 1, scriptPubKey: new Uint8Array(), height: 1, coinbase: false };
  const sproutTreeAt = (root: Uint8Array): IncrementalMerkleTree | null =>
    toHex(root) === toHex(hashers.sprout.emptyRoots[29]!) ? new IncrementalMerkleTree(hashers.sprout, { subtreeHeight: null }) : null;

  it('396: the first JoinSplit anchors to the empty Sprout tree, which is known', () => {
    const block = mainnetBlock(396);
    const parent = { ...checkpointParent(block, 396), coinsComplete: true };
    const r = applyBlock({ network: MAINNET, hashers, block, height: 396, parent, coin: () => rich, sproutTreeAt });
    expect(toHex(r.record.sproutRoot)).toBe(root(396, 'sprout'));
    expect(r.unverified).toEqual([]);
  });

  it('an anchor the chain never had is rejected; after a checkpoint start it is reported instead', () => {
    const block = mainnetBlock(396);
    const js = block.transactions[1]!.data.joinSplits[0]!;
    js.anchor[0]! ^= 1;
    try {
      const parent = { ...checkpointParent(block, 396), coinsComplete: true };
      expect(() => applyBlock({ network: MAINNET, hashers, block, height: 396, parent, coin: () => rich, sproutTreeAt })).toThrow(
        `JoinSplit 0 of transaction ${block.transactions[1]!.txidHex} uses anchor ${toHexReversed(js.anchor)}, which is not a known Sprout root`,
      );
      const r = applyBlock({
        network: MAINNET,
        hashers,
        block,
        height: 396,
        parent: checkpointParent(block, 396),
        coin: () => null,
        sproutTreeAt,
      });
      expect(r.unverified).toEqual([
        `JoinSplit 0 of transaction ${block.transactions[1]!.txidHex}: its anchor ${toHexReversed(js.anchor)} predates the checkpoint this store started from`,
        `the coinbase amount of block ${block.hashHex} at 396: an output the block spends predates the checkpoint this store started from`,
      ]);
    } finally {
      js.anchor[0]! ^= 1;
    }
  });
});

describe('note-commitment trees on real blocks', () => {
  it('396: the first JoinSplit gives the Sprout anchor zcashd printed', () => {
    const block = mainnetBlock(396);
    const r = applyBlock({ network: MAINNET, hashers, block, height: 396, parent: checkpointParent(block, 396), coin: () => null });
    expect(toHex(r.record.sproutRoot)).toBe(root(396, 'sprout'));
    expect([r.record.deltas.sprout, r.record.sproutSize]).toEqual([14250000n, 2]);
    // Its inputs are outside this partial coins view: transparent and supply are unknown.
    expect([r.record.deltas.transparent, r.record.deltas.chainSupply, r.record.totals.sprout]).toEqual([null, null, null]);
  });

  it('419201: five outputs on the empty Sapling tree reproduce the root in its header', () => {
    const block = mainnetBlock(419201);
    const r = applyBlock({ network: MAINNET, hashers, block, height: 419201, parent: checkpointParent(block, 419201), coin: () => null });
    expect(toHex(r.record.saplingRoot)).toBe(root(419201, 'sapling'));
    expect(r.record.saplingSize).toBe(5);
    expect(r.newRoots.map((x) => x.pool)).toEqual(['sprout', 'sapling']);
    // Its inputs are outside the coins view, so the fees, and the coinbase amount, are unknown.
    expect(r.unverified).toEqual([
      `the coinbase amount of block ${block.hashHex} at 419201: an output the block spends predates the checkpoint this store started from`,
    ]);
  });

  it("419202: from zcashd's 419201 tree state, two more outputs reproduce 419202's header root", () => {
    const block = mainnetBlock(419202);
    const sapling = IncrementalMerkleTree.fromTreeState(hashers.sapling, ROOTS.sapling_treestates[0]!.final_state_hex);
    const r = applyBlock({
      network: MAINNET,
      hashers,
      block,
      height: 419202,
      parent: checkpointParent(block, 419202, { sapling }),
      coin: () => null,
    });
    expect(toHex(r.record.saplingRoot)).toBe(root(419202, 'sapling'));
    expect([r.record.saplingSize, r.record.deltas.sapling]).toEqual([7, -10000n]);
  });

  it('a Sapling root that differs from the header stops the block with height, field and both values', () => {
    const block = mainnetBlock(419201);
    const output = block.transactions.find((t) => t.data.sapling?.outputs.length)!.data.sapling!.outputs[0]!;
    output.cmu[0]! ^= 1;
    try {
      applyBlock({ network: MAINNET, hashers, block, height: 419201, parent: checkpointParent(block, 419201), coin: () => null });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(StateTransitionError);
      const err = e as StateTransitionError;
      expect([err.rule, err.height]).toEqual(['bad-sapling-root-in-block', 419201]);
      expect(err.message).toContain(`hashBlockCommitments is ${toHexReversed(block.header.commitments)}`);
    } finally {
      output.cmu[0]! ^= 1;
    }
  });

  it('1687107: the first Orchard actions on the empty tree give the Orchard root, unverifiable commitment reported', () => {
    const block = mainnetBlock(1687107);
    const r = applyBlock({ network: MAINNET, hashers, block, height: 1687107, parent: checkpointParent(block, 1687107), coin: () => null });
    expect(toHex(r.record.orchardRoot!)).toBe(root(1687107, 'orchard'));
    expect([r.record.orchardSize, r.record.deltas.orchard]).toEqual([2, 1000000n]);
    expect(toHexReversed(r.record.authDataRoot)).not.toBe('0'.repeat(64));
    // Without the NU5 epoch's history tree, prevRoot(h) is unknown: printed as zeros, reported.
    expect(toHex(r.record.chainHistoryRoot)).toBe('0'.repeat(64));
    expect(r.unverified).toHaveLength(2);
    expect(r.unverified[0]).toContain('the coinbase amount of block');
    expect(r.unverified[1]).toContain('history tree before it is unknown');
  });
});

describe("zcashd's chain-supply checkpoint at NU6.1 activation", () => {
  // A real NU5 block standing at height 3146400 (its deltas at that height include the lockbox
  // disbursement); the parent's shielded totals are set so the totals after it do, or do not,
  // land on the checkpoint.
  const cp = CHAIN_SUPPLY_CHECKPOINTS.mainnet!;
  const block = mainnetBlock(1687107);
  const deltas = blockPoolDeltas(block, MAINNET, cp.height, null);
  const parentWith = (offset: bigint): ChainStateTip => ({
    ...checkpointParent(block, cp.height),
    totals: {
      ...UNKNOWN_POOL_TOTALS,
      sprout: cp.totals.sprout - deltas.sprout + offset,
      sapling: cp.totals.sapling - deltas.sapling,
      orchard: cp.totals.orchard - deltas.orchard,
      lockbox: cp.totals.lockbox - deltas.lockbox,
    },
  });

  it('totals that reach the checkpoint pass', () => {
    const r = applyBlock({ network: MAINNET, hashers, block, height: cp.height, parent: parentWith(0n), coin: () => null });
    expect([r.record.totals.sprout, r.record.totals.orchard, r.record.totals.lockbox]).toEqual([
      cp.totals.sprout,
      cp.totals.orchard,
      18750000n,
    ]);
  });

  it('a total one zatoshi off stops the block, naming the pool and both values', () => {
    expect(() => applyBlock({ network: MAINNET, hashers, block, height: cp.height, parent: parentWith(1n), coin: () => null })).toThrow(
      `the sprout total after the block is ${cp.totals.sprout + 1n}; zcashd's checkpoint at height 3146400 says ${cp.totals.sprout}`,
    );
  });
});
