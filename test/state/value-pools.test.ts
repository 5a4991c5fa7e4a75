// Per-block value-pool deltas and cumulative totals (spec §3.1, §3.2, §3.6), against zcashd's own
// getblock output (zcashd-2019), the spec's worked values from real blocks, and hand-computed
// arithmetic on small synthetic blocks.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { hexToBytes } from '../../src/codec/hex.js';
import type { TxIn } from '../../src/codec/tx/types.js';
import { blockRewardSplit } from '../../src/chain/funding-streams.js';
import {
  addPoolTotals,
  blockPoolDeltas,
  blockValuePools,
  CHAIN_SUPPLY_CHECKPOINTS,
  genesisPoolTotals,
  poolDeltaIdentityError,
  poolTotalsError,
  PoolValueError,
  subtractPoolTotals,
  turnstileViolation,
  UNKNOWN_POOL_TOTALS,
  type PoolBlock,
  type PoolDeltas,
  type PoolTotals,
  type PoolTransaction,
} from '../../src/state/value-pools.js';
import { readHexVector, vectorPath, zcashd2019Heights } from '../support/vectors.js';

/** A lookup for blocks whose only transaction is the coinbase: it must never be asked. */
const noSpends = (): never => {
  throw new Error('a coinbase-only block has no prevouts to look up');
};

interface Zcashd2019Pool {
  id: string;
  monitored: boolean;
  chainValueZat: number;
  valueDeltaZat: number;
}

function zcashd2019(height: number): { valuePools: Zcashd2019Pool[]; tx: string[] } {
  return JSON.parse(readFileSync(vectorPath('zcashd-2019', `${height}.getblock.json`), 'utf8'));
}

describe('zcashd-2019: sprout and sapling deltas from the block bytes alone', () => {
  const heights = zcashd2019Heights();

  it('has all 51 golden blocks', () => expect(heights).toHaveLength(51));

  for (const height of heights) {
    it(`height ${height}`, () => {
      const block = decodeBlock(readHexVector('zcashd-2019', `${height}.hex`));
      const golden = zcashd2019(height);
      const d = blockPoolDeltas(block, 'mainnet', height);
      const pool = (id: string) => golden.valuePools.find((p) => p.id === id)!;
      expect(d.sprout).toBe(BigInt(pool('sprout').valueDeltaZat));
      expect(d.sapling).toBe(BigInt(pool('sapling').valueDeltaZat));
      expect(d.orchard).toBe(0n);
      expect(d.lockbox).toBe(0n);
      if (block.transactions.length > 1) {
        // Non-coinbase inputs spend prevouts we were not given: unknown, never 0.
        expect(d.transparent).toBeNull();
        expect(d.chainSupply).toBeNull();
      }
    });
  }

  it('coinbase-only blocks: transparent Δ = coinbase outputs = chain supply Δ, identity holds', () => {
    let checked = 0;
    for (const height of heights) {
      const block = decodeBlock(readHexVector('zcashd-2019', `${height}.hex`));
      if (block.transactions.length !== 1) continue;
      const d = blockPoolDeltas(block, 'mainnet', height, noSpends);
      const outs = block.transactions[0]!.data.vout.reduce((a, o) => a + BigInt(o.value), 0n);
      expect(d.transparent).toBe(outs);
      expect(d.chainSupply).toBe(outs);
      expect(poolDeltaIdentityError(d)).toBeNull();
      checked++;
    }
    expect(checked).toBe(5);
  });

  it('genesis: each total is its delta (sprout and sapling chainValue 0, monitored)', () => {
    const block = decodeBlock(readHexVector('zcashd-2019', '0.hex'));
    const totals = genesisPoolTotals(blockPoolDeltas(block, 'mainnet', 0, noSpends));
    const golden = zcashd2019(0).valuePools;
    for (const id of ['sprout', 'sapling'] as const) {
      const g = golden.find((p) => p.id === id)!;
      expect(g.monitored).toBe(true);
      expect(totals[id]).toBe(BigInt(g.chainValueZat));
    }
    expect(totals.chainSupply).toBe(0n);
    expect(totals.transparent).toBe(0n);
  });

  it('no two golden heights are consecutive, so chainValue links cannot be checked on this set', () => {
    // The chain-linked check runs on mainnet 0–20 below instead.
    for (let i = 1; i < heights.length; i++) expect(heights[i]! - heights[i - 1]!).toBeGreaterThan(1);
  });
});

describe('spec worked values from real blocks (§3.1, §3.6)', () => {
  const deltas = (height: number, network: 'mainnet' | 'testnet' = 'mainnet') =>
    blockPoolDeltas(decodeBlock(readHexVector('blocks', network, `${height}.hex`)), network, height);

  it('396, the first JoinSplit: sprout Δ +14250000', () => expect(deltas(396).sprout).toBe(14250000n));
  it('419201: sapling Δ +136171583, sprout Δ +28770000', () => {
    const d = deltas(419201);
    expect(d.sapling).toBe(136171583n);
    expect(d.sprout).toBe(28770000n);
  });
  it('419202: sapling Δ −10000', () => expect(deltas(419202).sapling).toBe(-10000n));
  it('1687107, the first Orchard actions: orchard Δ +1000000', () => expect(deltas(1687107).orchard).toBe(1000000n));

  it("949496's shielded coinbase: 1.25 ZEC transparent, 500018759 into Sapling, all counted in the supply", () => {
    const block = decodeBlock(readHexVector('blocks', 'mainnet', '949496.hex'));
    const coinbaseOnly: PoolBlock = { transactions: [block.transactions[0]!] };
    const d = blockPoolDeltas(coinbaseOnly, 'mainnet', 949496, noSpends);
    expect(d.transparent).toBe(125000000n);
    expect(d.sapling).toBe(500018759n);
    expect(d.chainSupply).toBe(125000000n + 500018759n);
    expect(poolDeltaIdentityError(d)).toBeNull();
  });
});

describe('mainnet 0–20 chained from genesis', () => {
  // Heights 0–20 are the first 21 lines of lightwalletd's mainnet_genesis file (index.json).
  const lines = readFileSync(vectorPath('lightwalletd', 'mainnet_genesis'), 'utf8').split('\n');

  it('chain supply after block 10 is 3437500 (0.03437500), every total monitored, the identity holds', () => {
    let totals: PoolTotals | null = null;
    const after: PoolTotals[] = [];
    for (let h = 0; h <= 20; h++) {
      const block = decodeBlock(hexToBytes(lines[h]!.trim()));
      const d = blockPoolDeltas(block, 'mainnet', h, noSpends);
      expect(poolDeltaIdentityError(d)).toBeNull();
      totals = totals === null ? genesisPoolTotals(d) : addPoolTotals(totals, d);
      expect(poolTotalsError(totals, h)).toBeNull();
      after.push(totals);
    }
    expect(after[10]!.chainSupply).toBe(3437500n);
    expect(after[10]!.transparent).toBe(3437500n);
    expect(after[20]!).toEqual({
      chainSupply: 62500n * 210n,
      transparent: 62500n * 210n,
      sprout: 0n,
      sapling: 0n,
      orchard: 0n,
      lockbox: 0n,
    });
    const view = blockValuePools(after[20]!, null);
    expect(view.valuePools.map((p) => [p.id, p.monitored])).toEqual([
      ['transparent', true],
      ['sprout', true],
      ['sapling', true],
      ['orchard', true],
      ['lockbox', true],
    ]);
  });
});

// --- Hand-built blocks --------------------------------------------------------------------------

const input = (tag: number): TxIn => ({
  prevout: { hash: new Uint8Array(32).fill(tag), index: 0 },
  scriptSig: new Uint8Array(),
  sequence: 0,
});

function tx(
  coinbase: boolean,
  parts: { inputs?: number[]; outputs?: number[]; sapling?: number; orchard?: number; joinSplits?: [number, number][] },
): PoolTransaction {
  return {
    isCoinbase: coinbase,
    data: {
      vin: (parts.inputs ?? [0]).map((_, i) => input(i + 1)),
      vout: (parts.outputs ?? []).map((value) => ({ value, scriptPubKey: new Uint8Array() })),
      joinSplits: (parts.joinSplits ?? []).map(([vpubOld, vpubNew]) => ({ vpubOld, vpubNew }) as never),
      sapling: parts.sapling === undefined ? null : { valueBalance: parts.sapling },
      orchard: parts.orchard === undefined ? null : { valueBalance: parts.orchard },
    },
  };
}

/** Looks each input up by (txIndex, inputIndex) in a hand-written table. */
const spentFrom =
  (table: Record<string, number | bigint | null>) =>
  (_input: TxIn, t: number, i: number): number | bigint | null => {
    const v = table[`${t}:${i}`];
    if (v === undefined) throw new Error(`unexpected lookup ${t}:${i}`);
    return v;
  };

describe('blockPoolDeltas arithmetic on a hand-built block', () => {
  // coinbase: outputs 1000 + 200, a shielded output of 300 (valueBalanceSapling −300)
  // tx1: spends 5000 + 700, pays 4000, releases 100 from Sapling, moves 50 into Sprout → fee 1750
  // tx2: spends 10000, no outputs, moves 9000 into Orchard → fee 1000
  const block: PoolBlock = {
    transactions: [
      tx(true, { outputs: [1000, 200], sapling: -300 }),
      tx(false, { inputs: [5000, 700], outputs: [4000], sapling: 100, joinSplits: [[50, 0]] }),
      tx(false, { inputs: [10000], orchard: -9000 }),
    ],
  };
  const spent = spentFrom({ '1:0': 5000, '1:1': 700n, '2:0': 10000 });

  it('gives each pool and the supply', () => {
    const d = blockPoolDeltas(block, 'mainnet', 500000, spent);
    expect(d).toEqual({
      height: 500000,
      transparent: 1200n - 5700n + 4000n - 10000n, // −10500
      sprout: 50n,
      sapling: 300n - 100n,
      orchard: 9000n,
      lockbox: 0n,
      chainSupply: 1500n - 1750n - 1000n, // coinbase GetValueOut − fees = −1250
    });
    expect(poolDeltaIdentityError(d)).toBeNull();
  });

  it('adds the lockbox delta to the supply at an NU6 height', () => {
    const d = blockPoolDeltas(block, 'mainnet', 2726400, spent);
    expect(d.lockbox).toBe(18750000n);
    expect(d.chainSupply).toBe(18750000n - 1250n);
    expect(poolDeltaIdentityError(d)).toBeNull();
  });

  it('one unknown prevout makes transparent and supply unknown, not partial', () => {
    const d = blockPoolDeltas(block, 'mainnet', 500000, spentFrom({ '1:0': 5000, '1:1': null }));
    expect(d.transparent).toBeNull();
    expect(d.chainSupply).toBeNull();
    expect(d.sapling).toBe(200n);
    expect(poolDeltaIdentityError(d)).toBeNull();
  });

  it('rejects what zcashd rejects: negative fee, out-of-range prevout value', () => {
    expect(() => blockPoolDeltas(block, 'mainnet', 500000, spentFrom({ '1:0': 1, '1:1': 1, '2:0': 10000 }))).toThrow(PoolValueError);
    expect(() => blockPoolDeltas(block, 'mainnet', 500000, spentFrom({ '1:0': -1, '1:1': 700, '2:0': 10000 }))).toThrow(
      /spent output value out of range: -1 at height 500000/,
    );
  });

  it('the identity check names the height and both sides', () => {
    const d = blockPoolDeltas(block, 'mainnet', 500000, spent);
    const broken: PoolDeltas = { ...d, chainSupply: d.chainSupply! + 7n };
    expect(poolDeltaIdentityError(broken)).toBe(
      'per-block value pool identity fails at height 500000: chainSupply -1243 != transparent -10500 + sprout 50 + ' +
        'sapling 200 + orchard 9000 + lockbox 0 = -1250 (difference 7)',
    );
  });
});

describe('the NU6.1 block (§3.5): a coinbase paying exactly the split', () => {
  it('supply Δ = subsidy, lockbox Δ = −78749.8125 ZEC, the lockbox total becomes the checkpoint', () => {
    const split = blockRewardSplit(3146400, 'mainnet');
    const coinbase = tx(true, { outputs: [Number(split.minerSubsidy), ...split.requiredPayments.map((p) => Number(p.amount))] });
    const d = blockPoolDeltas({ transactions: [coinbase] }, 'mainnet', 3146400, noSpends);
    expect(d.lockbox).toBe(-7874981250000n);
    expect(d.chainSupply).toBe(156250000n);
    expect(d.transparent).toBe(156250000n + 7874981250000n);
    expect(poolDeltaIdentityError(d)).toBeNull();
    const parentLockbox = 7875000000000n; // 420000 blocks × 18750000 (§3.5)
    expect(parentLockbox + d.lockbox).toBe(CHAIN_SUPPLY_CHECKPOINTS.mainnet!.totals.lockbox);
  });
});

describe('totals and monitored (§3.2)', () => {
  const d: PoolDeltas = { height: 7, transparent: -5n, sprout: 3n, sapling: 2n, orchard: 1n, lockbox: 0n, chainSupply: 1n };
  const parent: PoolTotals = { chainSupply: 100n, transparent: 60n, sprout: 20n, sapling: 10n, orchard: 10n, lockbox: 0n };

  it('add and subtract are inverse', () => {
    const child = addPoolTotals(parent, d);
    expect(child).toEqual({ chainSupply: 101n, transparent: 55n, sprout: 23n, sapling: 12n, orchard: 11n, lockbox: 0n });
    expect(subtractPoolTotals(child, d)).toEqual(parent);
  });

  it('unknown stays unknown through deltas and descendants', () => {
    const unconnected: PoolDeltas = { ...d, transparent: null, chainSupply: null };
    const child = addPoolTotals(parent, unconnected);
    expect(child.transparent).toBeNull();
    expect(child.chainSupply).toBeNull();
    expect(child.sapling).toBe(12n);
    const grandchild = addPoolTotals(child, d);
    expect(grandchild.transparent).toBeNull();
    expect(grandchild.chainSupply).toBeNull();
    expect(addPoolTotals(UNKNOWN_POOL_TOTALS, d)).toEqual(UNKNOWN_POOL_TOTALS);
  });

  it('getblock view: monitored iff the total is known; valueDelta absent when unknown', () => {
    const unconnected: PoolDeltas = { ...d, transparent: null, chainSupply: null };
    const view = blockValuePools(addPoolTotals(parent, unconnected), unconnected);
    expect(view.chainSupply).toEqual({ monitored: false, chainValue: null, valueDelta: null });
    expect(view.valuePools[0]).toEqual({ id: 'transparent', monitored: false, chainValue: null, valueDelta: null });
    expect(view.valuePools[2]).toEqual({ id: 'sapling', monitored: true, chainValue: 12n, valueDelta: 2n });
  });

  it('totals check: identity and turnstile', () => {
    expect(poolTotalsError(parent, 7)).toBeNull();
    expect(poolTotalsError({ ...parent, sprout: 21n }, 7)).toMatch(
      /^chain total value pool identity fails at height 7: chainSupply 100 != /,
    );
    expect(poolTotalsError({ ...parent, sapling: -1n, transparent: 71n }, 7)).toBeNull();
  });

  it("turnstile: zcashd's reject reason for each total out of range, in zcashd's order", () => {
    expect(turnstileViolation(parent, 7)).toBeNull();
    const MAX = 21_000_000n * 100_000_000n;
    const cases: [Partial<PoolTotals>, string, string][] = [
      [
        { sprout: -1n },
        'turnstile-violation-sprout-shielded-pool',
        'turnstile violation in Sprout shielded value pool at height 7 (sprout=-1, sapling=10, orchard=10, lockbox=0)',
      ],
      [
        { sapling: -1n },
        'turnstile-violation-sapling-shielded-pool',
        'turnstile violation in Sapling shielded value pool at height 7 (sprout=20, sapling=-1, orchard=10, lockbox=0)',
      ],
      [
        { orchard: MAX + 1n },
        'turnstile-violation-orchard',
        `turnstile violation in Orchard shielded value pool at height 7 (sprout=20, sapling=10, orchard=${MAX + 1n}, lockbox=0)`,
      ],
      [
        { lockbox: -5n },
        'invalid-lockbox-disbursement-amount',
        'invalid lockbox disbursement amount at height 7 (sprout=20, sapling=10, orchard=10, lockbox=-5)',
      ],
      [
        { transparent: -1n },
        'turnstile-violation-transparent',
        'turnstile violation in transparent value pool at height 7 (sprout=20, sapling=10, orchard=10, lockbox=0, transparent=-1, total=100)',
      ],
      [
        { chainSupply: MAX + 1n },
        'turnstile-violation-total',
        `turnstile violation in total supply at height 7 (sprout=20, sapling=10, orchard=10, lockbox=0, transparent=60, total=${MAX + 1n})`,
      ],
      // Two out of range: zcashd refuses for the shielded pool, checked before the transparent one.
      [
        { sapling: -1n, transparent: -1n },
        'turnstile-violation-sapling-shielded-pool',
        'turnstile violation in Sapling shielded value pool at height 7 (sprout=20, sapling=-1, orchard=10, lockbox=0)',
      ],
    ];
    for (const [change, rule, message] of cases) expect(turnstileViolation({ ...parent, ...change }, 7)).toEqual({ rule, message });
    // An unknown total is not checked (a store started from a checkpoint).
    expect(turnstileViolation({ ...parent, transparent: null, chainSupply: null }, 7)).toBeNull();
  });
});

describe('chain-supply checkpoints (§3.6)', () => {
  it('each network’s pools sum exactly to its total supply', () => {
    for (const network of ['mainnet', 'testnet'] as const) {
      const c = CHAIN_SUPPLY_CHECKPOINTS[network]!;
      expect(poolTotalsError(c.totals, c.height)).toBeNull();
      expect(turnstileViolation(c.totals, c.height)).toBeNull();
    }
    expect(CHAIN_SUPPLY_CHECKPOINTS.mainnet!.height).toBe(3146400);
    expect(CHAIN_SUPPLY_CHECKPOINTS.testnet!.height).toBe(3536500);
  });
});
