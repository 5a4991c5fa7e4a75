/**
 * Chain state as zcashd keeps it per block (CBlockIndex: pool deltas and totals, the final tree
 * roots, the history and auth-data roots) and at the tip (the coins view's tree frontiers and the
 * history tree), with the compact binary records the store persists them as.
 *
 * Two shapes, because their lifetimes differ:
 * - `BlockChainState`, one per connected block, is kept forever (zcashd never clears these
 *   fields, not even when the block is reorganized away) and is what `getblock` prints;
 * - `ChainStateTip` is the state after the current tip, enough to connect its child. Only the
 *   tip's is kept; the one before each block travels in that block's undo data.
 */
import { ByteReader, ByteWriter } from '../codec/bytes.js';
import { bytesEqual } from '../codec/hex.js';
import { decodeHistoryTree, encodeHistoryTree, type HistoryTree } from './history-tree.js';
import {
  poolKeyByte,
  poolMemberNames,
  poolOfKeyByte,
  SHIELDED_POOL_ENTRIES,
  treePools,
  type ExtensionPoolId,
  type ShieldedPoolId,
  type TreePool,
  type ZcashdPoolId,
} from './pools.js';
import type { MerkleHasher } from './trees/hasher.js';
import { IncrementalMerkleTree } from './trees/incremental.js';
import type { PoolDeltas, PoolTotals } from './value-pools.js';

/** Sprout or a registered pool (state/pools.ts): each has a tree, anchors and a nullifier set. */
export type ShieldedPool = TreePool;

export type PoolHashers = Readonly<Record<ShieldedPool, MerkleHasher>>;

/**
 * hashFinal<Pool>Root and the tree size after the block, one pair per registered pool
 * (`saplingRoot`, `saplingSize`, `orchardRoot`, …): null where the pool's upgrade was not active.
 */
export type PoolRecordFields = { [K in ZcashdPoolId as `${K}Root`]: Uint8Array | null } & {
  [K in ZcashdPoolId as `${K}Size`]: number;
} & { [K in ExtensionPoolId as `${K}Root`]?: Uint8Array | null } & { [K in ExtensionPoolId as `${K}Size`]?: number };

/** What getblock and getblockchaininfo print for one connected block. */
export interface BlockChainState extends PoolRecordFields {
  height: number;
  deltas: PoolDeltas;
  totals: PoolTotals;
  /** hashFinalSproutRoot: `anchor`. */
  sproutRoot: Uint8Array;
  /** hashFinalSaplingRoot as §2.4 defines it (the header field before Heartwood). */
  saplingRoot: Uint8Array;
  /** hashChainHistoryRoot (§2.4): zero before Heartwood+1, prevRoot(h) from NU5. */
  chainHistoryRoot: Uint8Array;
  /** hashAuthDataRoot: zero before NU5. */
  authDataRoot: Uint8Array;
  /** Leaves in the Sprout tree after this block. */
  sproutSize: number;
}

/** A registered pool's final root in a block record (null: not active, or a record written before the pool existed). */
export function recordPoolRoot(s: BlockChainState, pool: string): Uint8Array | null {
  return (s as unknown as Record<string, Uint8Array | null | undefined>)[poolMemberNames(pool).root] ?? null;
}

/** A registered pool's tree size in a block record (0 for a record written before the pool existed). */
export function recordPoolSize(s: BlockChainState, pool: string): number {
  return (s as unknown as Record<string, number | undefined>)[poolMemberNames(pool).size] ?? 0;
}

/** The state after the tip: what connecting the next block starts from. */
export interface ChainStateTip {
  hash: Uint8Array;
  height: number;
  trees: Record<ShieldedPool, IncrementalMerkleTree>;
  /**
   * The current epoch's ZIP-221 tree: null before Heartwood; 'unknown' for a store started from
   * a checkpoint without the tree's peaks, until the next upgrade starts a fresh tree.
   */
  history: HistoryTree | null | 'unknown';
  totals: PoolTotals;
  /** False when the store started from a checkpoint: outputs created before it are unknown. */
  coinsComplete: boolean;
}

/**
 * Record formats. 1: one fixed field per pool (Sprout, Sapling, Orchard), as stores of schema 6
 * and before wrote them; still read. 2: the registered pools' data as a list tagged by key byte,
 * so a record written before a pool existed reads with that pool absent (its tree empty, its
 * root null, its values zero: nothing can have entered a pool before its upgrade).
 */
const FORMAT_FIXED_POOLS = 1;
const FORMAT_POOL_LIST = 2;
const FIXED_DELTA_KEYS = ['transparent', 'sprout', 'sapling', 'orchard', 'lockbox', 'chainSupply'] as const;
/** The values every format-2 record has; the registered pools' follow in their list. */
const CORE_VALUE_KEYS = ['transparent', 'sprout', 'lockbox', 'chainSupply'] as const;
type CoreValueKey = (typeof CORE_VALUE_KEYS)[number];

function writeOptionalAmount(w: ByteWriter, v: bigint | null): void {
  if (v === null) w.u8(0);
  else w.u8(1).i64(v);
}

function readOptionalAmount(r: ByteReader): bigint | null {
  const flag = r.u8();
  if (flag === 0) return null;
  if (flag !== 1) throw new Error(`corrupt chain-state record (amount flag ${flag})`);
  return BigInt(r.i64());
}

function readFormat(r: ByteReader, what: string): number {
  const format = r.u8();
  if (format !== FORMAT_FIXED_POOLS && format !== FORMAT_POOL_LIST)
    throw new Error(`corrupt ${what} (format ${format}; this zecrpc reads formats ${FORMAT_FIXED_POOLS} and ${FORMAT_POOL_LIST})`);
  return format;
}

/** A registered pool named by a record's key byte; a byte no entry has means a newer zecrpc wrote the record. */
function registeredPoolOf(b: number, what: string): ShieldedPoolId {
  const pool = poolOfKeyByte(b);
  if (pool === undefined || pool === 'sprout') throw new Error(`corrupt ${what} (pool key byte ${b}, which this zecrpc does not know)`);
  return pool;
}

/** Reads a format-2 pool list's length; each pool appears at most once, so it is bounded by the key bytes. */
function readPoolCount(r: ByteReader, what: string): number {
  const n = r.compactSize();
  if (n > 256) throw new Error(`corrupt ${what} (${n} pools)`);
  return n;
}

export function encodeBlockChainState(s: BlockChainState): Uint8Array {
  const w = new ByteWriter(400).u8(FORMAT_POOL_LIST).u32(s.height);
  for (const k of CORE_VALUE_KEYS) writeOptionalAmount(w, s.deltas[k]);
  for (const k of CORE_VALUE_KEYS) writeOptionalAmount(w, s.totals[k]);
  w.bytes(s.sproutRoot).bytes(s.chainHistoryRoot).bytes(s.authDataRoot).u64(BigInt(s.sproutSize));
  // A pool after zcashd's that the record does not name (a block before its upgrade) is left out.
  const named = SHIELDED_POOL_ENTRIES.filter((p) => p.listing !== 'extension' || namesPool(s, p.id));
  w.compactSize(named.length);
  for (const { id, keyByte } of named) {
    const values = poolValues(s.deltas, s.totals, id);
    w.u8(keyByte).i64(values.delta);
    writeOptionalAmount(w, values.total);
    const root = recordPoolRoot(s, id);
    if (root) w.u8(1).bytes(root);
    else w.u8(0);
    w.u64(BigInt(recordPoolSize(s, id)));
  }
  return w.finish();
}

/** Whether a record has any member of the pool. */
function namesPool(s: BlockChainState, id: string): boolean {
  const member = (o: object, key: string): boolean => (o as Record<string, unknown>)[key] !== undefined;
  return member(s.deltas, id) || member(s.totals, id) || member(s, poolMemberNames(id).root) || member(s, poolMemberNames(id).size);
}

/** A registered pool's delta and total; a pool registered after the values were made counts as zero (null stays unknown). */
function poolValues(deltas: PoolDeltas | PoolTotals, totals: PoolTotals, id: string): { delta: bigint; total: bigint | null } {
  const d = (deltas as unknown as Record<string, bigint | null | undefined>)[id];
  const t = (totals as unknown as Record<string, bigint | null | undefined>)[id];
  return { delta: d ?? 0n, total: t === undefined ? 0n : t };
}

export function decodeBlockChainState(bytes: Uint8Array): BlockChainState {
  const r = new ByteReader(bytes);
  const format = readFormat(r, 'block chain-state record');
  const state = format === FORMAT_FIXED_POOLS ? decodeFixedPoolBlockState(r) : decodePoolListBlockState(r);
  if (r.remaining !== 0) throw new Error('corrupt block chain-state record (trailing bytes)');
  return state;
}

function decodePoolListBlockState(r: ByteReader): BlockChainState {
  const what = 'block chain-state record';
  const height = r.u32();
  const d = readCoreValues(r);
  const t = readCoreValues(r);
  const sproutRoot = r.bytes(32).slice();
  const chainHistoryRoot = r.bytes(32).slice();
  const authDataRoot = r.bytes(32).slice();
  const sproutSize = Number(r.u64());
  const pools = new Map<ShieldedPoolId, { delta: bigint; total: bigint | null; root: Uint8Array | null; size: number }>();
  const count = readPoolCount(r, what);
  for (let i = 0; i < count; i++) {
    const pool = registeredPoolOf(r.u8(), what);
    const delta = BigInt(r.i64());
    const total = readOptionalAmount(r);
    const root = r.u8() === 1 ? r.bytes(32).slice() : null;
    pools.set(pool, { delta, total, root, size: Number(r.u64()) });
  }
  const deltas = { height, transparent: d.transparent, sprout: requiredDelta(d, 'sprout') } as Record<string, unknown>;
  const totals = { chainSupply: t.chainSupply, transparent: t.transparent, sprout: t.sprout } as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const { id, listing } of SHIELDED_POOL_ENTRIES) {
    const p = pools.get(id as ShieldedPoolId);
    // A pool after zcashd's that the record does not name stays absent (nothing entered it).
    if (!p && listing === 'extension') continue;
    const names = poolMemberNames(id);
    deltas[id] = p?.delta ?? 0n;
    totals[id] = p ? p.total : 0n;
    fields[names.root] = p?.root ?? null;
    fields[names.size] = p?.size ?? 0;
  }
  deltas.lockbox = requiredDelta(d, 'lockbox');
  deltas.chainSupply = d.chainSupply;
  totals.lockbox = t.lockbox;
  // Sapling's root is never null in a record: zero where no tree existed yet.
  fields.saplingRoot ??= new Uint8Array(32);
  return {
    height,
    deltas: deltas as unknown as PoolDeltas,
    totals: totals as unknown as PoolTotals,
    sproutRoot,
    ...(fields as unknown as PoolRecordFields & { saplingRoot: Uint8Array }),
    chainHistoryRoot,
    authDataRoot,
    sproutSize,
  };
}

function readCoreValues(r: ByteReader): Record<CoreValueKey, bigint | null> {
  const out = {} as Record<CoreValueKey, bigint | null>;
  for (const k of CORE_VALUE_KEYS) out[k] = readOptionalAmount(r);
  return out;
}

function requiredDelta(d: Record<CoreValueKey, bigint | null>, k: CoreValueKey): bigint {
  const v = d[k];
  if (v === null) throw new Error(`corrupt block chain-state record (no ${k} delta)`);
  return v;
}

/** Format 1: the Sprout, Sapling and Orchard values, roots and sizes in fixed fields. */
function decodeFixedPoolBlockState(r: ByteReader): BlockChainState {
  const height = r.u32();
  const amounts = (): Record<(typeof FIXED_DELTA_KEYS)[number], bigint | null> => {
    const out = {} as Record<(typeof FIXED_DELTA_KEYS)[number], bigint | null>;
    for (const k of FIXED_DELTA_KEYS) out[k] = readOptionalAmount(r);
    return out;
  };
  const d = amounts();
  const t = amounts();
  const req = (k: (typeof FIXED_DELTA_KEYS)[number]): bigint => {
    const v = d[k];
    if (v === null) throw new Error(`corrupt block chain-state record (no ${k} delta)`);
    return v;
  };
  const sproutRoot = r.bytes(32).slice();
  const saplingRoot = r.bytes(32).slice();
  const chainHistoryRoot = r.bytes(32).slice();
  const authDataRoot = r.bytes(32).slice();
  const orchardRoot = r.u8() === 1 ? r.bytes(32).slice() : null;
  const sizes = [r.u64(), r.u64(), r.u64()].map(Number) as [number, number, number];
  return {
    height,
    deltas: {
      height,
      transparent: d.transparent,
      sprout: req('sprout'),
      sapling: req('sapling'),
      orchard: req('orchard'),
      lockbox: req('lockbox'),
      chainSupply: d.chainSupply,
    },
    totals: t,
    sproutRoot,
    saplingRoot,
    orchardRoot,
    chainHistoryRoot,
    authDataRoot,
    sproutSize: sizes[0],
    saplingSize: sizes[1],
    orchardSize: sizes[2],
  };
}

export function encodeChainStateTip(tip: ChainStateTip): Uint8Array {
  // Padded frontiers: every level is present, so decoding never has to guess the layout.
  const pools = treePools();
  const frontiers = pools.map((pool) => tip.trees[pool].toTreeStateBytes('padded'));
  const history = tip.history && tip.history !== 'unknown' ? encodeHistoryTree(tip.history) : null;
  // Sized for what is known here (written every block: a larger buffer is zero-filled for nothing);
  // the amounts after it fit in the 512 spare bytes or the writer grows.
  const size = 512 + frontiers.reduce((n, f) => n + 10 + f.length, 0) + (history ? 9 + history.length : 0);
  const w = new ByteWriter(size).u8(FORMAT_POOL_LIST).bytes(tip.hash).u32(tip.height);
  w.compactSize(pools.length);
  pools.forEach((pool, i) => w.u8(poolKeyByte(pool)).varBytes(frontiers[i]!));
  if (tip.history === 'unknown') w.u8(2);
  else if (history) w.u8(1).varBytes(history);
  else w.u8(0);
  for (const k of CORE_VALUE_KEYS) writeOptionalAmount(w, tip.totals[k]);
  const named = SHIELDED_POOL_ENTRIES.filter(
    (p) => p.listing !== 'extension' || (tip.totals as unknown as Record<string, unknown>)[p.id] !== undefined,
  );
  w.compactSize(named.length);
  for (const { id, keyByte } of named) {
    w.u8(keyByte);
    writeOptionalAmount(w, poolValues(tip.totals, tip.totals, id).total);
  }
  return w.u8(tip.coinsComplete ? 1 : 0).finish();
}

export function decodeChainStateTip(bytes: Uint8Array, hashers: PoolHashers): ChainStateTip {
  const what = 'chain-state tip record';
  const r = new ByteReader(bytes);
  const format = readFormat(r, what);
  const hash = r.bytes(32).slice();
  const height = r.u32();
  const trees = {} as Record<ShieldedPool, IncrementalMerkleTree>;
  const frontier = (pool: ShieldedPool, state: Uint8Array): void => {
    trees[pool] = IncrementalMerkleTree.fromTreeState(hashers[pool], state, treeOptions(pool));
  };
  if (format === FORMAT_FIXED_POOLS) {
    for (const pool of ['sprout', 'sapling', 'orchard'] as const) frontier(pool, r.varBytes());
  } else {
    const count = readPoolCount(r, what);
    for (let i = 0; i < count; i++) {
      const b = r.u8();
      const pool = b === poolKeyByte('sprout') ? 'sprout' : registeredPoolOf(b, what);
      frontier(pool, r.varBytes());
    }
  }
  for (const pool of treePools()) trees[pool] ??= new IncrementalMerkleTree(hashers[pool], treeOptions(pool));
  const historyFlag = r.u8();
  const history = historyFlag === 1 ? decodeHistoryTree(r.varBytes()) : historyFlag === 2 ? 'unknown' : null;
  const totals = {} as Record<string, bigint | null>;
  if (format === FORMAT_FIXED_POOLS) {
    for (const k of FIXED_DELTA_KEYS) totals[k] = readOptionalAmount(r);
  } else {
    for (const k of CORE_VALUE_KEYS) totals[k] = readOptionalAmount(r);
    const count = readPoolCount(r, what);
    for (let i = 0; i < count; i++) totals[registeredPoolOf(r.u8(), what)] = readOptionalAmount(r);
  }
  for (const { id, listing } of SHIELDED_POOL_ENTRIES) if (!(id in totals) && listing !== 'extension') totals[id] = 0n;
  const coinsComplete = r.u8() === 1;
  if (r.remaining !== 0) throw new Error('corrupt chain-state tip record (trailing bytes)');
  return { hash, height, trees, history, totals: totals as unknown as PoolTotals, coinsComplete };
}

/** zcashd tracks 2^16-leaf subtrees for the registered pools (Sapling, Orchard), not for Sprout. */
export function treeOptions(pool: ShieldedPool): { subtreeHeight?: null } {
  return pool === 'sprout' ? { subtreeHeight: null } : {};
}

export function emptyTrees(hashers: PoolHashers): Record<ShieldedPool, IncrementalMerkleTree> {
  const trees = {} as Record<ShieldedPool, IncrementalMerkleTree>;
  for (const pool of treePools()) trees[pool] = new IncrementalMerkleTree(hashers[pool], treeOptions(pool));
  return trees;
}

/**
 * The tree zcashd's coins view holds for an anchor `root` (GetSproutAnchorAt and friends): the
 * empty tree for the empty root, the stored frontier otherwise, or null when it has none.
 */
/** `root` is the root of the pool's empty tree (a known anchor that no record holds). */
export function isEmptyTreeRoot(hasher: MerkleHasher, root: Uint8Array): boolean {
  return bytesEqual(root, hasher.emptyRoots[hasher.depth]!);
}

export function treeAtAnchor(
  hasher: MerkleHasher,
  root: Uint8Array,
  frontier: Uint8Array | null,
  pool: ShieldedPool,
): IncrementalMerkleTree | null {
  // A null root (a block before the pool existed) never has a tree; answering that without the
  // empty root spares building the hasher's tables (≈ 0.4 s) on a node serving old blocks.
  if (frontier === null && root.every((b) => b === 0)) return null;
  if (isEmptyTreeRoot(hasher, root)) return new IncrementalMerkleTree(hasher, treeOptions(pool));
  return frontier ? IncrementalMerkleTree.fromTreeState(hasher, frontier, treeOptions(pool)) : null;
}
