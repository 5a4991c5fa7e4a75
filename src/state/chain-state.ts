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
import type { MerkleHasher } from './trees/hasher.js';
import { IncrementalMerkleTree } from './trees/incremental.js';
import type { PoolDeltas, PoolTotals } from './value-pools.js';

/** The three note-commitment trees, in zcashd's pool order. */
export const SHIELDED_POOLS = ['sprout', 'sapling', 'orchard'] as const;
export type ShieldedPool = (typeof SHIELDED_POOLS)[number];

export type PoolHashers = Readonly<Record<ShieldedPool, MerkleHasher>>;

/** What getblock and getblockchaininfo print for one connected block. */
export interface BlockChainState {
  height: number;
  deltas: PoolDeltas;
  totals: PoolTotals;
  /** hashFinalSproutRoot: `anchor`. */
  sproutRoot: Uint8Array;
  /** hashFinalSaplingRoot as §2.4 defines it (the header field before Heartwood). */
  saplingRoot: Uint8Array;
  /** hashFinalOrchardRoot; null before NU5 (not printed). */
  orchardRoot: Uint8Array | null;
  /** hashChainHistoryRoot (§2.4): zero before Heartwood+1, prevRoot(h) from NU5. */
  chainHistoryRoot: Uint8Array;
  /** hashAuthDataRoot: zero before NU5. */
  authDataRoot: Uint8Array;
  /** Leaves in each tree after this block. */
  sproutSize: number;
  saplingSize: number;
  orchardSize: number;
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

const FORMAT = 1;
const DELTA_KEYS = ['transparent', 'sprout', 'sapling', 'orchard', 'lockbox', 'chainSupply'] as const;

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

function readFormat(r: ByteReader, what: string): void {
  const format = r.u8();
  if (format !== FORMAT) throw new Error(`corrupt ${what} (format ${format}; this zecrpc reads format ${FORMAT})`);
}

export function encodeBlockChainState(s: BlockChainState): Uint8Array {
  const w = new ByteWriter(400).u8(FORMAT).u32(s.height);
  for (const k of DELTA_KEYS) writeOptionalAmount(w, s.deltas[k]);
  for (const k of DELTA_KEYS) writeOptionalAmount(w, s.totals[k]);
  w.bytes(s.sproutRoot).bytes(s.saplingRoot).bytes(s.chainHistoryRoot).bytes(s.authDataRoot);
  if (s.orchardRoot) w.u8(1).bytes(s.orchardRoot);
  else w.u8(0);
  return w.u64(BigInt(s.sproutSize)).u64(BigInt(s.saplingSize)).u64(BigInt(s.orchardSize)).finish();
}

export function decodeBlockChainState(bytes: Uint8Array): BlockChainState {
  const r = new ByteReader(bytes);
  readFormat(r, 'block chain-state record');
  const height = r.u32();
  const amounts = (): Record<(typeof DELTA_KEYS)[number], bigint | null> => {
    const out = {} as Record<(typeof DELTA_KEYS)[number], bigint | null>;
    for (const k of DELTA_KEYS) out[k] = readOptionalAmount(r);
    return out;
  };
  const d = amounts();
  const t = amounts();
  const req = (k: (typeof DELTA_KEYS)[number]): bigint => {
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
  if (r.remaining !== 0) throw new Error('corrupt block chain-state record (trailing bytes)');
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
  const w = new ByteWriter(8192).u8(FORMAT).bytes(tip.hash).u32(tip.height);
  // Padded frontiers: every level is present, so decoding never has to guess the layout.
  for (const pool of SHIELDED_POOLS) w.varBytes(tip.trees[pool].toTreeStateBytes('padded'));
  if (tip.history === 'unknown') w.u8(2);
  else if (tip.history) w.u8(1).varBytes(encodeHistoryTree(tip.history));
  else w.u8(0);
  for (const k of DELTA_KEYS) writeOptionalAmount(w, tip.totals[k]);
  return w.u8(tip.coinsComplete ? 1 : 0).finish();
}

export function decodeChainStateTip(bytes: Uint8Array, hashers: PoolHashers): ChainStateTip {
  const r = new ByteReader(bytes);
  readFormat(r, 'chain-state tip record');
  const hash = r.bytes(32).slice();
  const height = r.u32();
  const trees = {} as Record<ShieldedPool, IncrementalMerkleTree>;
  for (const pool of SHIELDED_POOLS) {
    trees[pool] = IncrementalMerkleTree.fromTreeState(hashers[pool], r.varBytes(), treeOptions(pool));
  }
  const historyFlag = r.u8();
  const history = historyFlag === 1 ? decodeHistoryTree(r.varBytes()) : historyFlag === 2 ? 'unknown' : null;
  const totals = {} as PoolTotals;
  for (const k of DELTA_KEYS) totals[k] = readOptionalAmount(r);
  const coinsComplete = r.u8() === 1;
  if (r.remaining !== 0) throw new Error('corrupt chain-state tip record (trailing bytes)');
  return { hash, height, trees, history, totals, coinsComplete };
}

/** zcashd tracks 2^16-leaf subtrees for Sapling and Orchard only. */
export function treeOptions(pool: ShieldedPool): { subtreeHeight?: null } {
  return pool === 'sprout' ? { subtreeHeight: null } : {};
}

export function emptyTrees(hashers: PoolHashers): Record<ShieldedPool, IncrementalMerkleTree> {
  return {
    sprout: new IncrementalMerkleTree(hashers.sprout, treeOptions('sprout')),
    sapling: new IncrementalMerkleTree(hashers.sapling, treeOptions('sapling')),
    orchard: new IncrementalMerkleTree(hashers.orchard, treeOptions('orchard')),
  };
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
