/**
 * Per-block value-pool deltas and cumulative pool totals, as zcashd v6.12.2 keeps them on each
 * block index entry (src/main.cpp: ComputePoolDeltas, SetChainPoolValues, ConnectBlock,
 * AccumulateChainPoolValues) and prints them in `getblock`'s `chainSupply` and `valuePools`.
 * Spec §3.1, §3.2 and §3.6.
 *
 * Unknown is never zero: the transparent and chain-supply deltas need the values of the
 * prevouts a block spends, and without them they are null, as in zcashd before ConnectBlock.
 * A null total is a pool zcashd reports as `monitored: false`, and it stays null for every
 * descendant.
 */
import type { TxIn, TxOut, JoinSplit } from '../codec/tx/types.js';
import { MAX_MONEY } from '../codec/tx/types.js';
import { lockboxDelta } from '../chain/funding-streams.js';
import { isUpgradeActive, type NetworkName, type NetworkParams } from '../chain/network.js';
import { resolveNetwork, type NetworkRef } from '../chain/subsidy.js';
import {
  derivedFromRegistry,
  poolListedAt,
  SHIELDED_POOL_ENTRIES,
  type PerPool,
  type ShieldedPoolEntry,
  type PoolBundles,
  type ExtensionPoolId,
  type ShieldedPoolId,
} from './pools.js';

export type ValuePoolId = 'transparent' | 'sprout' | ShieldedPoolId | 'lockbox';

/**
 * getblock's valuePools order: transparent, Sprout, zcashd's registered pools (state/pools.ts),
 * the lockbox, then the pools after zcashd's (Ironwood), which extend zcashd's list at its end.
 */
export const valuePoolIds: () => readonly ValuePoolId[] = derivedFromRegistry(() =>
  Object.freeze([
    'transparent' as const,
    'sprout' as const,
    ...SHIELDED_POOL_ENTRIES.filter((p) => p.listing !== 'extension').map((p) => p.id as ShieldedPoolId),
    'lockbox' as const,
    ...SHIELDED_POOL_ENTRIES.filter((p) => p.listing === 'extension').map((p) => p.id as ShieldedPoolId),
  ]),
);

/** The pools after zcashd's (listed only where their upgrade is active). */
const extensionPoolIds = derivedFromRegistry(
  (): ReadonlySet<string> => new Set(SHIELDED_POOL_ENTRIES.filter((p) => p.listing === 'extension').map((p) => p.id)),
);

/** The entries of the pools after zcashd's. */
const extensionPoolEntries = derivedFromRegistry((): readonly ShieldedPoolEntry[] =>
  SHIELDED_POOL_ENTRIES.filter((p) => p.listing === 'extension'),
);

/**
 * The value pools printed for a block at `at.height` (or a chain whose tip is there): every
 * pool of zcashd's, and a pool after zcashd's from its upgrade on. Without `at`, zcashd's only.
 */
export function listedValuePoolIds(at?: { network: NetworkParams; height: number }): readonly ValuePoolId[] {
  const extensions = extensionPoolEntries();
  if (extensions.length === 0) return valuePoolIds();
  // Which extension pools are listed, as bits; the list for each combination is built once.
  let mask = 0;
  if (at !== undefined) for (let i = 0; i < extensions.length; i++) if (poolListedAt(extensions[i]!, at.network, at.height)) mask |= 1 << i;
  const lists = listsByExtensionMask();
  let list = lists.get(mask);
  if (!list) {
    const listed = new Set(extensions.filter((_, i) => mask & (1 << i)).map((p) => p.id as ValuePoolId));
    const excluded = new Set(extensions.map((p) => p.id as ValuePoolId).filter((id) => !listed.has(id)));
    lists.set(mask, (list = Object.freeze(valuePoolIds().filter((id) => !excluded.has(id)))));
  }
  return list;
}

/** listedValuePoolIds' lists, by which extension pools they hold. */
const listsByExtensionMask = derivedFromRegistry(() => new Map<number, readonly ValuePoolId[]>());

/** What an out-of-range pool delta is called in its error ("sapling value delta"). */
const deltaLabels = derivedFromRegistry(() => SHIELDED_POOL_ENTRIES.map((p) => `${p.id} value delta`));

/** The built-in pools' valuePools order (valuePoolIds() also has any pool a test registers). */
export const VALUE_POOL_IDS: readonly ValuePoolId[] = valuePoolIds();

/** A registered pool's value in per-pool values (a pool registered after they were made counts as zero). */
function poolValue<T, A>(values: Readonly<PerPool<T>>, id: string, absent: A): T | A {
  const v = (values as Readonly<Record<string, T | undefined>>)[id];
  return v === undefined ? absent : v;
}

/** A value that may be missing because its pool was registered after it was made: zero then. */
const orZero = (v: bigint | null | undefined): bigint | null => (v === undefined ? 0n : v);

/** The effect of one block on each pool and on the chain supply, in zatoshis. */
export interface PoolDeltas extends PerPool<bigint> {
  height: number;
  /** Σ outputs − Σ spent prevouts; null when a spent prevout's value is unknown. */
  transparent: bigint | null;
  /** Σ JoinSplit (vpub_old − vpub_new). */
  sprout: bigint;
  /** (The registered pools': −Σ valueBalance<Pool>.) */
  /** Lockbox funding streams − one-time disbursements at this height. */
  lockbox: bigint;
  /** lockbox + coinbase GetValueOut − Σ fees; null when a spent prevout's value is unknown. */
  chainSupply: bigint | null;
}

/** Cumulative totals after a block; null = not monitored (unknown). */
export interface PoolTotals extends PerPool<bigint | null> {
  chainSupply: bigint | null;
  transparent: bigint | null;
  sprout: bigint | null;
  lockbox: bigint | null;
}

/** The transaction fields the pool deltas read (a decoded `Transaction` satisfies it). */
export interface PoolTransaction {
  readonly isCoinbase: boolean;
  readonly data: PoolBundles & {
    readonly vin: readonly TxIn[];
    readonly vout: readonly TxOut[];
    readonly joinSplits: readonly JoinSplit[];
  };
}

/** The block fields the pool deltas read (a decoded `Block` satisfies it). */
export interface PoolBlock {
  readonly transactions: readonly PoolTransaction[];
}

/**
 * The value (zatoshis) of the prevout that `input` spends, or null when it is not known. Called
 * only for non-coinbase inputs, in block order. `txIndex`/`inputIndex` locate the input, so a
 * lookup can resolve outputs created earlier in the same block.
 */
export type SpentOutputValue = (input: TxIn, txIndex: number, inputIndex: number) => number | bigint | null;

/** A block zcashd would reject while computing its pool values (an amount out of range). */
export class PoolValueError extends Error {
  constructor(
    readonly height: number,
    message: string,
  ) {
    super(`${message} at height ${height}`);
    this.name = 'PoolValueError';
  }
}

// Running sums are JS numbers: each step is checked to stay within ±MAX_MONEY (as zcashd
// checks), and one more step of at most MAX_MONEY stays far below 2^53, so every sum is exact.
const inDeltaRange = (v: number): boolean => v >= -MAX_MONEY && v <= MAX_MONEY;
const inMoneyRange = (v: number): boolean => v >= 0 && v <= MAX_MONEY;

function checked(v: number, what: string, height: number, range: (v: number) => boolean = inDeltaRange): number {
  if (!range(v)) throw new PoolValueError(height, `${what} out of range: ${v}`);
  return v;
}

/** `CTransaction::GetValueOut`: outputs + value moved into the shielded pools. */
export function valueOut(tx: PoolTransaction, height: number): number {
  const d = tx.data;
  let out = 0;
  for (const o of d.vout) out = checked(out + o.value, 'transaction output value', height, inMoneyRange);
  const pools = SHIELDED_POOL_ENTRIES;
  for (let p = 0; p < pools.length; p++) {
    const vb = pools[p]!.valueBalance(d);
    if (vb <= 0) out = checked(out - vb, 'transaction output value', height, inMoneyRange);
  }
  for (const js of d.joinSplits) out = checked(out + js.vpubOld, 'transaction output value', height, inMoneyRange);
  return out;
}

/** `CTransaction::GetShieldedValueIn`: value released from the shielded pools. */
export function shieldedValueIn(tx: PoolTransaction): number {
  const d = tx.data;
  let v = 0;
  const pools = SHIELDED_POOL_ENTRIES;
  for (let p = 0; p < pools.length; p++) {
    const vb = pools[p]!.valueBalance(d);
    if (vb >= 0) v += vb;
  }
  for (const js of d.joinSplits) v += js.vpubNew;
  return v;
}

function prevoutValue(raw: number | bigint, height: number): number {
  const v = typeof raw === 'bigint' ? (raw >= 0n && raw <= BigInt(MAX_MONEY) ? Number(raw) : Number.NaN) : raw;
  if (!Number.isInteger(v) || !inMoneyRange(v)) {
    throw new PoolValueError(height, `spent output value out of range: ${raw}`);
  }
  return v;
}

/**
 * The block's pool deltas at `height` (§3.1). Without `spentOutputValue`, or when it returns
 * null for any input, the transparent and chain-supply deltas are null. Throws PoolValueError
 * where zcashd would reject the block for an out-of-range amount.
 */
export function blockPoolDeltas(
  block: PoolBlock,
  network: NetworkRef,
  height: number,
  spentOutputValue?: SpentOutputValue | null,
): PoolDeltas {
  const lockbox = lockboxDelta(height, network);
  let sprout = 0;
  const pools = SHIELDED_POOL_ENTRIES;
  const labels = deltaLabels();
  const shielded: number[] = [];
  for (let p = 0; p < pools.length; p++) shielded.push(0);
  let transparent = 0;
  let supply = checked(Number(lockbox), 'chain supply delta', height);
  let known = spentOutputValue !== undefined && spentOutputValue !== null;

  const txs = block.transactions;
  for (let t = 0; t < txs.length; t++) {
    const tx = txs[t]!;
    const d = tx.data;
    // Only the first transaction can be a coinbase (zcashd rejects blocks with another one),
    // and asking the others would build prevout views for nothing.
    const coinbase = t === 0 && tx.isCoinbase;
    // A negative value balance moves value into the shielded pool, hence the sign flip.
    for (let p = 0; p < pools.length; p++) {
      const pool = pools[p]!;
      shielded[p] = checked(shielded[p]! - pool.valueBalance(d), labels[p]!, height);
    }
    for (const js of d.joinSplits) {
      sprout = checked(sprout + js.vpubOld, 'sprout value delta', height);
      sprout = checked(sprout - js.vpubNew, 'sprout value delta', height);
    }
    if (!known) continue;

    let transparentIn = 0;
    if (!coinbase) {
      const vin = d.vin;
      for (let i = 0; i < vin.length; i++) {
        const raw = spentOutputValue!(vin[i]!, t, i);
        if (raw === null) {
          known = false;
          break;
        }
        const v = prevoutValue(raw, height);
        transparent = checked(transparent - v, 'transparent value delta', height);
        transparentIn = checked(transparentIn + v, 'transparent value in', height, inMoneyRange);
      }
      if (!known) continue;
    }
    for (const o of d.vout) transparent = checked(transparent + o.value, 'transparent value delta', height);

    const out = valueOut(tx, height);
    if (coinbase) {
      // Includes fees the miner claims and lockbox disbursement outputs; the fee subtractions
      // below and the negative lockbox delta cancel them.
      supply = checked(supply + out, 'chain supply delta', height);
    } else {
      const valueIn = checked(transparentIn + shieldedValueIn(tx), 'transaction input value', height, inMoneyRange);
      const fee = checked(valueIn - out, 'transaction fee', height, inMoneyRange);
      supply = checked(supply - fee, 'chain supply delta', height);
    }
  }

  const deltas = { height, transparent: known ? BigInt(transparent) : null, sprout: BigInt(sprout) } as PoolDeltas;
  for (let p = 0; p < pools.length; p++) {
    const pool = pools[p]!;
    // A pool after zcashd's is a member from its upgrade on (nothing can enter it before).
    if (pool.listing === 'extension' && shielded[p] === 0 && !isUpgradeActive(resolveNetwork(network), pool.upgrade, height)) continue;
    (deltas as unknown as Record<string, bigint>)[pool.id] = BigInt(shielded[p]!);
  }
  deltas.lockbox = lockbox;
  deltas.chainSupply = known ? BigInt(supply) : null;
  return deltas;
}

const fmt = (v: bigint | null): string => (v === null ? 'unknown' : v.toString());

function identityError(
  kind: string,
  height: number,
  supply: bigint | null,
  parts: Partial<Record<ValuePoolId, bigint | null>>,
): string | null {
  if (supply === null) return null;
  let sum = 0n;
  const ids = valuePoolIds();
  for (let i = 0; i < ids.length; i++) {
    const v = orZero(parts[ids[i]!]);
    if (v === null) return null;
    sum += v;
  }
  if (sum === supply) return null;
  // A pool after zcashd's is named only when it holds something, so zcashd-era messages keep their terms.
  const extensions = extensionPoolIds();
  const named = ids.filter((id) => !extensions.has(id) || orZero(parts[id]) !== 0n);
  const terms = named.map((id) => `${id} ${fmt(orZero(parts[id]))}`).join(' + ');
  return (
    `${kind} value pool identity fails at height ${height}: ` + `chainSupply ${supply} != ${terms} = ${sum} (difference ${supply - sum})`
  );
}

/**
 * The §3.1 identity on one block: chainSupply Δ = transparent + sprout + sapling + orchard +
 * lockbox Δ. Returns a description of the failure, or null when it holds or cannot be checked
 * (a delta is unknown).
 */
export function poolDeltaIdentityError(d: PoolDeltas): string | null {
  return identityError('per-block', d.height, d.chainSupply, d);
}

/**
 * The §3.1 identity on the totals after a block (their sum is the chain supply); the range of
 * each total is `turnstileViolation`'s.
 */
export function poolTotalsError(t: PoolTotals, height: number): string | null {
  return identityError('chain total', height, t.chainSupply, t);
}

/** zcashd's reject reasons for a block that leaves a total out of range (ConnectBlock). */
export type TurnstileRule =
  | 'turnstile-violation-sprout-shielded-pool'
  | 'turnstile-violation-sapling-shielded-pool'
  | 'turnstile-violation-orchard'
  | 'invalid-lockbox-disbursement-amount'
  | 'turnstile-violation-transparent'
  | 'turnstile-violation-total'
  /** A pool after zcashd's, named as zcashd names Orchard's. */
  | `turnstile-violation-${ExtensionPoolId}`;

interface TurnstileCheck {
  id: ValuePoolId | 'chainSupply';
  rule: TurnstileRule;
  what: string;
  /** The transparent and total checks print those two totals beside the pools'. */
  withSupply: boolean;
}

/**
 * The totals zcashd checks after connecting a block, in its order: the shielded pools (ZIP 209),
 * the lockbox (§4.17), then the transparent pool and the total supply. A pool after zcashd's
 * follows Orchard.
 */
const turnstileChecks = derivedFromRegistry((): readonly TurnstileCheck[] => [
  {
    id: 'sprout',
    rule: 'turnstile-violation-sprout-shielded-pool',
    what: 'turnstile violation in Sprout shielded value pool',
    withSupply: false,
  },
  {
    id: 'sapling',
    rule: 'turnstile-violation-sapling-shielded-pool',
    what: 'turnstile violation in Sapling shielded value pool',
    withSupply: false,
  },
  { id: 'orchard', rule: 'turnstile-violation-orchard', what: 'turnstile violation in Orchard shielded value pool', withSupply: false },
  ...SHIELDED_POOL_ENTRIES.filter((p) => p.listing === 'extension').map((p) => ({
    id: p.id as ValuePoolId,
    rule: `turnstile-violation-${p.id as ExtensionPoolId}` as const,
    what: `turnstile violation in ${p.name} shielded value pool`,
    withSupply: false,
  })),
  { id: 'lockbox', rule: 'invalid-lockbox-disbursement-amount', what: 'invalid lockbox disbursement amount', withSupply: false },
  { id: 'transparent', rule: 'turnstile-violation-transparent', what: 'turnstile violation in transparent value pool', withSupply: true },
  { id: 'chainSupply', rule: 'turnstile-violation-total', what: 'turnstile violation in total supply', withSupply: true },
]);

/**
 * The first total a block leaves outside 0..MAX_MONEY, with zcashd's reject reason and the
 * totals in the message; an unknown total (a checkpoint start) is not checked. A pool after
 * zcashd's is named in the message only when it is the one out of range or holds something.
 */
export function turnstileViolation(t: PoolTotals, height: number): { rule: TurnstileRule; message: string } | null {
  const max = BigInt(MAX_MONEY);
  const values = t as unknown as Record<string, bigint | null | undefined>;
  const amount = (id: string): string => {
    const v = values[id];
    return v === null ? 'unknown' : String(v ?? 0n);
  };
  const extensions = extensionPoolIds();
  for (const check of turnstileChecks()) {
    const v = values[check.id];
    if (v === null || v === undefined || (v >= 0n && v <= max)) continue;
    const shown = ['sprout', 'sapling', 'orchard', 'lockbox'];
    for (const id of extensions) if (id === check.id || (values[id] ?? 0n) !== 0n) shown.push(id);
    if (check.withSupply) shown.push('transparent', 'chainSupply');
    const terms = shown.map((id) => `${id === 'chainSupply' ? 'total' : id}=${amount(id)}`).join(', ');
    return { rule: check.rule, message: `${check.what} at height ${height} (${terms})` };
  }
  return null;
}

/** The totals after the genesis block: each total is its delta. */
export function genesisPoolTotals(d: PoolDeltas): PoolTotals {
  const none = unknownPoolTotals() as unknown as Record<string, null>;
  // A pool after zcashd's the genesis block does not name stays absent (it holds nothing).
  for (const { id, listing } of SHIELDED_POOL_ENTRIES) if (listing === 'extension') delete none[id];
  return combineTotals(none as unknown as PoolTotals, d, (_none, delta) => delta);
}

const plus = (a: bigint | null, b: bigint | null): bigint | null => (a === null || b === null ? null : a + b);
const minus = (a: bigint | null, b: bigint | null): bigint | null => (a === null || b === null ? null : a - b);

/** The totals after a block from its parent's totals and its deltas; unknown stays unknown. */
export function addPoolTotals(parent: PoolTotals, d: PoolDeltas): PoolTotals {
  return combineTotals(parent, d, plus);
}

/**
 * The parent's totals from a block's totals and its deltas: walks a seeded checkpoint (§3.6)
 * backwards. Unknown stays unknown.
 */
export function subtractPoolTotals(child: PoolTotals, d: PoolDeltas): PoolTotals {
  return combineTotals(child, d, minus);
}

/**
 * Totals and deltas pool by pool, in getblock's member order; a registered pool missing from
 * either side (a value made before the pool was registered, or before a pool after zcashd's
 * started) counts as zero.
 */
function combineTotals(totals: PoolTotals, d: PoolDeltas, op: (total: bigint | null, delta: bigint | null) => bigint | null): PoolTotals {
  const out = {
    chainSupply: op(totals.chainSupply, d.chainSupply),
    transparent: op(totals.transparent, d.transparent),
    sprout: op(totals.sprout, d.sprout),
  } as PoolTotals;
  for (const { id, listing } of SHIELDED_POOL_ENTRIES) {
    // A pool after zcashd's stays absent (nothing in it) until a value names it.
    if (listing === 'extension' && poolValue(totals, id, undefined) === undefined && poolValue(d, id, undefined) === undefined) continue;
    (out as unknown as Record<string, bigint | null>)[id] = op(poolValue(totals, id, 0n), poolValue(d, id, 0n));
  }
  out.lockbox = op(totals.lockbox, d.lockbox);
  return out;
}

/** Totals where nothing is known (a block whose ancestry is not fully available), with every registered pool. */
export function unknownPoolTotals(): PoolTotals {
  const totals = { chainSupply: null, transparent: null, sprout: null } as PoolTotals;
  for (const { id } of SHIELDED_POOL_ENTRIES) (totals as unknown as Record<string, null>)[id] = null;
  totals.lockbox = null;
  return totals;
}

/** Totals where nothing is known, for the built-in pools. */
export const UNKNOWN_POOL_TOTALS: Readonly<PoolTotals> = Object.freeze(unknownPoolTotals());

/** One `ValuePoolDesc` as getblock prints it: `monitored` iff the total is known; absent values are null. */
export interface ValuePoolView {
  monitored: boolean;
  chainValue: bigint | null;
  valueDelta: bigint | null;
}

export interface BlockValuePools {
  chainSupply: ValuePoolView;
  valuePools: (ValuePoolView & { id: ValuePoolId })[];
}

/**
 * What getblock shows for a block: `chainSupply`, then the pools in valuePoolIds() order, a
 * pool after zcashd's only from its upgrade on (`at`: the block's network and height).
 * `deltas` null means the block's body was never processed (no valueDelta anywhere).
 */
export function blockValuePools(
  totals: PoolTotals,
  deltas: PoolDeltas | null,
  at?: { network: NetworkParams; height: number },
): BlockValuePools {
  const ids = listedValuePoolIds(at);
  const valuePools: BlockValuePools['valuePools'] = [];
  for (const id of ids) {
    const chainValue = orZero(totals[id]);
    valuePools.push({ id, monitored: chainValue !== null, chainValue, valueDelta: deltas === null ? null : orZero(deltas[id]) });
  }
  const chainSupply = totals.chainSupply;
  return { chainSupply: { monitored: chainSupply !== null, chainValue: chainSupply, valueDelta: deltas?.chainSupply ?? null }, valuePools };
}

// --- Hard-coded checkpoints (v6.12.2 src/chainparams.cpp) ------------------------------------

/**
 * zcashd's chain-supply checkpoint at NU6.1 activation: every total after that block. zcashd
 * injects it into legacy index data and otherwise verifies its own totals against it; here it
 * can seed totals without replaying from genesis.
 */
export interface ChainSupplyCheckpoint {
  height: number;
  /** Displayed (reversed) block hash. */
  blockHash: string;
  totals: { readonly [K in keyof PoolTotals]: bigint };
}

export const CHAIN_SUPPLY_CHECKPOINTS: Record<NetworkName, ChainSupplyCheckpoint | null> = {
  mainnet: {
    height: 3_146_400,
    blockHash: '0000000000b98a7d8f390793fa113bf6755935f0c14ea817af07d2c16f2c3ef4',
    totals: {
      chainSupply: 1_640_588_297_804_480n,
      transparent: 1_158_133_657_237_751n,
      sprout: 2_562_695_744_028n,
      sapling: 64_691_367_655_556n,
      orchard: 415_200_558_417_145n,
      lockbox: 18_750_000n,
    },
  },
  testnet: {
    height: 3_536_500,
    blockHash: '01b947c7556b23040dc6840e9d3e4c6d9478c67a87b9737a83be848729d6e0af',
    totals: {
      chainSupply: 1_690_647_512_835_043n,
      transparent: 1_499_728_640_946_163n,
      sprout: 42_832_983_037_484n,
      sapling: 140_562_922_195_481n,
      orchard: 7_522_947_905_915n,
      lockbox: 18_750_000n,
    },
  },
  // Regtest has one only with -regtestchainsupplycheckpoint (a test-cache fixture).
  regtest: null,
};

/** The Sprout pool total zcashd injects for index data written before Sprout values were tracked. */
export interface SproutValueCheckpoint {
  height: number;
  blockHash: string;
  sprout: bigint;
}

export const SPROUT_VALUE_CHECKPOINTS: Record<NetworkName, SproutValueCheckpoint | null> = {
  mainnet: {
    height: 520_633,
    blockHash: '0000000000c7b46b6bc04b4cbf87d8bb08722aebd51232619b214f7273f8460e',
    sprout: 22_145_062_442_933n,
  },
  testnet: {
    height: 440_329,
    blockHash: '000a95d08ba5dcbabe881fc6471d11807bcca7df5f1795c99f3ec4580db4279b',
    sprout: 40_000_029_096_803n,
  },
  regtest: null,
};
