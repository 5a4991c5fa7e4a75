/**
 * Chain state as an indexer: on connect it runs the per-block transition (state/apply-block.ts)
 * from the state after the parent and writes, in the batch that moves the tip,
 * - `B` ‖ hash: what getblock prints for the block (kept when the block is disconnected, as
 *   zcashd keeps its CBlockIndex fields);
 * - `C`: the state after the tip (tree frontiers, history tree, pool totals);
 * - `c` ‖ txid ‖ n: the transparent coins view (spent outputs removed, new ones added);
 * - `A` ‖ pool ‖ root: the tree frontier of every root a block of the active chain produced
 *   (zcashd's anchors: `trees` presence and z_gettreestate);
 * - `Q` ‖ pool ‖ index: completed 2^16-leaf subtrees (z_getsubtreesbyindex);
 * - `N` ‖ pool ‖ nullifier: every nullifier the active chain revealed (zcashd's nullifier sets;
 *   removed again when the block is disconnected, so they need no undo);
 * - `P`, in a store started from a checkpoint only: the state after the checkpoint block, as that
 *   start wrote `C` and never changed again (`C` moves on with the tip, and the undo record that
 *   held it is deleted 100 blocks later), so `zecrpc verify -repair` can start the rebuilt store
 *   from the same checkpoint (store/checkpoint-read.ts);
 * and returns as undo the state before the block and the coins it spent.
 */
import { isUpgradeActive, type NetworkParams } from '../../chain/network.js';
import { ByteReader, ByteWriter } from '../../codec/bytes.js';
import { bytesEqual, toHexReversed } from '../../codec/hex.js';
import { applyBlock, type Coin } from '../../state/apply-block.js';
import { blockNullifiers, type RevealedNullifier } from '../../state/nullifiers.js';
import type { HistoryTree } from '../../state/history-tree.js';
import { IncrementalMerkleTree } from '../../state/trees/incremental.js';
import { unknownPoolTotals, type PoolTotals } from '../../state/value-pools.js';
import {
  decodeChainStateTip,
  isEmptyTreeRoot,
  treeAtAnchor,
  treeOptions,
  encodeBlockChainState,
  encodeChainStateTip,
  type ChainStateTip,
  type PoolHashers,
  type ShieldedPool,
} from '../../state/chain-state.js';
import {
  poolKeyByte,
  poolOfKeyByte,
  SHIELDED_POOL_ENTRIES,
  treePools,
  type ExtensionPoolId,
  type ShieldedPoolId,
  type ZcashdPoolId,
} from '../../state/pools.js';
import type { BatchOp } from '../block-data.js';
import type { ChainBlock, CoreConnect, CoreIndexer, DisconnectedBlock, IndexReadView } from './indexer.js';
import type { CoinsView } from '../types.js';

const PREFIX = { blockState: 0x42, tip: 0x43, coin: 0x63, anchor: 0x41, subtree: 0x51, nullifier: 0x4e, checkpointTip: 0x50 } as const; // B C c A Q N P

/** Every key prefix the chain state owns. */
export const CHAIN_STATE_KEY_PREFIXES: readonly number[] = Object.values(PREFIX);

export const chainStateKeys = {
  blockState: (hash: Uint8Array): Buffer => Buffer.concat([Buffer.of(PREFIX.blockState), hash]),
  tip: (): Buffer => Buffer.of(PREFIX.tip),
  checkpointTip: (): Buffer => Buffer.of(PREFIX.checkpointTip),
  coinPrefix: PREFIX.coin,
  coin: (txid: Uint8Array, n: number): Buffer => {
    const k = Buffer.allocUnsafe(37);
    k[0] = PREFIX.coin;
    k.set(txid, 1);
    k.writeUInt32LE(n, 33);
    return k;
  },
  anchor: (pool: ShieldedPool, root: Uint8Array): Buffer => Buffer.concat([Buffer.of(PREFIX.anchor, poolKeyByte(pool)), root]),
  subtree: (pool: ShieldedPoolId, index: number): Buffer => {
    const k = Buffer.allocUnsafe(6);
    k[0] = PREFIX.subtree;
    k[1] = poolKeyByte(pool);
    k.writeUInt32BE(index, 2);
    return k;
  },
  subtreePrefix: (pool: ShieldedPoolId): Buffer => Buffer.of(PREFIX.subtree, poolKeyByte(pool)),
  nullifier: (pool: ShieldedPool, nullifier: Uint8Array): Buffer => {
    const k = Buffer.allocUnsafe(34);
    k[0] = PREFIX.nullifier;
    k[1] = poolKeyByte(pool);
    k.set(nullifier, 2);
    return k;
  },
};

/**
 * The chain state's point reads, over any reader of committed state (the indexer's view while
 * connecting, the store's own while serving): an unspent coin, a revealed nullifier, a known
 * anchor (the empty tree's root is always one and is not stored).
 */
export function chainStateLookups(
  read: (key: Buffer) => Buffer | undefined,
  hashers: PoolHashers,
): Pick<CoinsView, 'isUnspent' | 'coin' | 'nullifierRevealed' | 'anchorKnown'> {
  return {
    isUnspent: (txid, n) => read(chainStateKeys.coin(txid, n)) !== undefined,
    coin: (txid, n) => {
      const v = read(chainStateKeys.coin(txid, n));
      return v ? decodeCoin(v) : null;
    },
    nullifierRevealed: (pool, nullifier) => read(chainStateKeys.nullifier(pool, nullifier)) !== undefined,
    anchorKnown: (pool, root) => isEmptyTreeRoot(hashers[pool], root) || read(chainStateKeys.anchor(pool, root)) !== undefined,
  };
}

/** A nullifier record's value: its presence is the fact (zcashd stores `true`). */
const REVEALED = Buffer.of(1);

/** The record writes of a block's nullifiers (connect: put; disconnect: del). */
export function nullifierOps(nullifiers: readonly RevealedNullifier[], type: 'put' | 'del'): BatchOp[] {
  return nullifiers.map(({ pool, nullifier }) =>
    type === 'put'
      ? { type, key: chainStateKeys.nullifier(pool, nullifier), value: REVEALED }
      : { type, key: chainStateKeys.nullifier(pool, nullifier) },
  );
}

/** Coin record: value(i64 LE) ‖ height(u32 LE) ‖ flags(u8, bit 0 = coinbase) ‖ scriptPubKey. */
export function encodeCoin(c: Coin): Buffer {
  const v = Buffer.allocUnsafe(13 + c.scriptPubKey.length);
  v.writeBigInt64LE(BigInt(c.value), 0);
  v.writeUInt32LE(c.height, 8);
  v[12] = c.coinbase ? 1 : 0;
  v.set(c.scriptPubKey, 13);
  return v;
}

export function decodeCoin(v: Uint8Array): Coin {
  const b = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (b.length < 13) throw new Error(`corrupt coin record (${b.length} bytes)`);
  return {
    value: Number(b.readBigInt64LE(0)),
    height: b.readUInt32LE(8),
    coinbase: (b[12]! & 1) === 1,
    scriptPubKey: new Uint8Array(b.subarray(13)),
  };
}

/** Subtree record: root(32) ‖ end height(u32 LE). */
export function decodeSubtree(v: Uint8Array): { root: Uint8Array; endHeight: number } {
  const b = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (b.length !== 36) throw new Error(`corrupt subtree record (${b.length} bytes)`);
  return { root: new Uint8Array(b.subarray(0, 32)), endHeight: b.readUInt32LE(32) };
}

/** The chain state could not be advanced; names the block and why. */
export class ChainStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChainStateError';
  }
}

/**
 * Undo blob: CompactSize-prefixed tip record before the block (empty for genesis), spent coins
 * (txid ‖ n ‖ coin record), new roots (pool ‖ root) and completed subtrees (pool ‖ index).
 */
interface ChainStateUndo {
  before: Uint8Array;
  spent: { txid: Uint8Array; n: number; coin: Uint8Array }[];
  roots: { pool: ShieldedPool; root: Uint8Array }[];
  subtrees: { pool: ShieldedPoolId; index: number }[];
}

function encodeUndo(u: ChainStateUndo): Uint8Array {
  const w = new ByteWriter(u.before.length + 64 * u.spent.length + 256).varBytes(u.before).compactSize(u.spent.length);
  for (const s of u.spent) w.bytes(s.txid).u32(s.n).varBytes(s.coin);
  w.compactSize(u.roots.length);
  for (const r of u.roots) w.u8(poolKeyByte(r.pool)).bytes(r.root);
  w.compactSize(u.subtrees.length);
  for (const s of u.subtrees) w.u8(poolKeyByte(s.pool)).u32(s.index);
  return w.finish();
}

const poolOf = (b: number): ShieldedPool => {
  const pool = poolOfKeyByte(b);
  if (!pool) throw new Error(`corrupt chain-state undo (pool ${b})`);
  return pool;
};

const subtreePoolOf = (b: number): ShieldedPoolId => {
  const pool = poolOf(b);
  if (pool === 'sprout') throw new Error(`corrupt chain-state undo (a Sprout subtree)`);
  return pool;
};

/** The chain state's tag in a block's undo record. */
export const CHAIN_STATE_UNDO_TAG = 0x43;

/**
 * The coins a block spent from the coins view, in the order of its inputs, from the chain state's
 * undo blob (outputs the block created and spent again are not among them).
 */
export function chainStateUndoSpent(bytes: Uint8Array): { txid: Uint8Array; n: number; coin: Coin }[] {
  return decodeUndo(bytes).spent.map((s) => ({ txid: s.txid, n: s.n, coin: decodeCoin(s.coin) }));
}

function decodeUndo(bytes: Uint8Array): ChainStateUndo {
  const r = new ByteReader(bytes);
  const before = r.varBytes();
  const spent = Array.from({ length: r.compactSize() }, () => ({ txid: r.bytes(32), n: r.u32(), coin: r.varBytes() }));
  const roots = Array.from({ length: r.compactSize() }, () => ({ pool: poolOf(r.u8()), root: r.bytes(32) }));
  const subtrees = Array.from({ length: r.compactSize() }, () => ({ pool: subtreePoolOf(r.u8()), index: r.u32() }));
  if (r.remaining !== 0) throw new Error('corrupt chain-state undo (trailing bytes)');
  return { before, spent, roots, subtrees };
}

/** The chain state after a checkpoint block, as an operator supplies it. */
export type CheckpointState = {
  /** zcashd's `finalState` hex of each tree (z_gettreestate), either layout; an extension pool's absent: empty. */
  [P in 'sprout' | ZcashdPoolId]: string;
} & { [P in ExtensionPoolId]?: string } & {
  /** The current epoch's history tree, or 'unknown' (its commitments then go unverified until the next upgrade). */
  history: HistoryTree | null | 'unknown';
  /** Pool totals after the block; null members are not monitored. Transparent and supply are never carried forward. */
  totals?: Partial<PoolTotals>;
};

export interface ChainStateIndexOptions {
  network: NetworkParams;
  hashers: PoolHashers;
  /** Hears what could not be verified (checkpoint starts). */
  log?: (line: string) => void;
}

export class ChainStateIndex implements CoreIndexer<CheckpointState> {
  readonly name = 'chainstate';
  readonly undoTag = CHAIN_STATE_UNDO_TAG;
  readonly role = 'core';
  readonly keyPrefixes = CHAIN_STATE_KEY_PREFIXES;
  private readonly network: NetworkParams;
  private readonly hashers: PoolHashers;
  private readonly log: (line: string) => void;
  /** The decoded tip state, so consecutive connects do not re-parse the frontiers. */
  private cachedTip: { bytes: Buffer; tip: ChainStateTip } | null = null;

  constructor(opts: ChainStateIndexOptions) {
    this.network = opts.network;
    this.hashers = opts.hashers;
    this.log = opts.log ?? (() => undefined);
  }

  /** The state after the current tip, or null for an empty chain. */
  tip(view: IndexReadView): ChainStateTip | null {
    const bytes = view.get(chainStateKeys.tip());
    if (!bytes) return null;
    if (this.cachedTip && this.cachedTip.bytes.equals(bytes)) return this.cachedTip.tip;
    const tip = decodeChainStateTip(bytes, this.hashers);
    this.cachedTip = { bytes: Buffer.from(bytes), tip };
    return tip;
  }

  /** The records a store started from a checkpoint begins with: the tip state (also kept as `P`) and the frontiers' anchors. */
  checkpointOps(hash: Uint8Array, height: number, cp: CheckpointState): BatchOp[] {
    const trees = {} as Record<ShieldedPool, IncrementalMerkleTree>;
    for (const pool of treePools())
      trees[pool] = IncrementalMerkleTree.fromTreeState(
        this.hashers[pool],
        (cp as unknown as Partial<Record<string, string>>)[pool] ?? '000000',
        treeOptions(pool),
      );
    // Without the coins view the transparent pool, and so the supply, cannot be followed.
    const totals: PoolTotals = { ...unknownPoolTotals(), ...cp.totals, transparent: null, chainSupply: null };
    // A pool after zcashd's whose upgrade comes after the checkpoint holds nothing yet: known, not
    // unknown (Zebra prints such a pool unmonitored).
    for (const entry of SHIELDED_POOL_ENTRIES) {
      if (
        entry.listing === 'extension' &&
        (cp.totals?.[entry.id as ExtensionPoolId] ?? null) === null &&
        !isUpgradeActive(this.network, entry.upgrade, height)
      )
        delete (totals as unknown as Record<string, unknown>)[entry.id];
    }
    const tip: ChainStateTip = { hash, height, trees, history: cp.history, totals, coinsComplete: false };
    const tipBytes = Buffer.from(encodeChainStateTip(tip));
    const ops: BatchOp[] = [
      { type: 'put', key: chainStateKeys.tip(), value: tipBytes },
      { type: 'put', key: chainStateKeys.checkpointTip(), value: Buffer.from(tipBytes) },
    ];
    for (const pool of treePools()) {
      if (trees[pool].size > 0)
        ops.push({
          type: 'put',
          key: chainStateKeys.anchor(pool, trees[pool].root()),
          value: Buffer.from(trees[pool].toTreeStateBytes('padded')),
        });
    }
    return ops;
  }

  async connect(chainBlock: ChainBlock, view: IndexReadView): Promise<CoreConnect> {
    const { height, hash } = chainBlock;
    const parent = this.tip(view);
    if (height === 0 ? parent !== null : !parent || !bytesEqual(parent.hash, chainBlock.header.subarray(4, 36))) {
      throw new ChainStateError(
        `chain state cannot connect block ${toHexReversed(hash)} at ${height}: the state is at ` +
          (parent ? `${toHexReversed(parent.hash)} (height ${parent.height})` : 'no block'),
      );
    }
    const block = await chainBlock.block();
    const precomputedTrees = (await chainBlock.precomputedTrees) ?? null;
    const lookups = chainStateLookups((key) => view.get(key), this.hashers);
    const result = applyBlock({
      network: this.network,
      hashers: this.hashers,
      block,
      height,
      parent,
      coin: (o) => {
        const v = view.get(chainStateKeys.coin(o.hash, o.index));
        return v ? decodeCoin(v) : null;
      },
      sproutTreeAt: (root) => treeAtAnchor(this.hashers.sprout, root, view.get(chainStateKeys.anchor('sprout', root)) ?? null, 'sprout'),
      anchorKnown: lookups.anchorKnown,
      nullifierSpent: lookups.nullifierRevealed,
      precomputedTrees,
    });
    for (const line of result.unverified) this.log(`not verified: ${line}`);
    if (precomputedTrees) chainBlock.treeStepsUsed?.(result.treeSteps);

    const tipBytes = Buffer.from(encodeChainStateTip(result.tip));
    const ops: BatchOp[] = [
      { type: 'put', key: chainStateKeys.blockState(hash), value: encodeBlockChainState(result.record) },
      { type: 'put', key: chainStateKeys.tip(), value: tipBytes },
    ];
    for (const s of result.spent) ops.push({ type: 'del', key: chainStateKeys.coin(s.outpoint.hash, s.outpoint.index) });
    for (const c of result.created)
      ops.push({ type: 'put', key: chainStateKeys.coin(c.outpoint.hash, c.outpoint.index), value: encodeCoin(c.coin), fresh: true });
    for (const r of result.newRoots) {
      ops.push({
        type: 'put',
        key: chainStateKeys.anchor(r.pool, r.root),
        value: Buffer.from(result.tip.trees[r.pool].toTreeStateBytes('padded')),
      });
    }
    ops.push(...nullifierOps(result.nullifiers, 'put'));
    for (const s of result.completedSubtrees) {
      const v = Buffer.allocUnsafe(36);
      v.set(s.root, 0);
      v.writeUInt32LE(height, 32);
      ops.push({ type: 'put', key: chainStateKeys.subtree(s.pool, s.index), value: v });
    }
    const undo = encodeUndo({
      before: parent ? (view.get(chainStateKeys.tip()) ?? new Uint8Array()) : new Uint8Array(),
      spent: result.spent.map((s) => ({ txid: s.outpoint.hash, n: s.outpoint.index, coin: encodeCoin(s.coin) })),
      roots: result.newRoots.map((r) => ({ pool: r.pool, root: r.root })),
      subtrees: result.completedSubtrees.map((s) => ({ pool: s.pool, index: s.index })),
    });
    this.cachedTip = { bytes: tipBytes, tip: result.tip };
    const { spent, created, inputCoins, nullifiers, newRoots } = result;
    return { ops, undo, connected: { spent, created, inputCoins, nullifiers, newRoots } };
  }

  disconnected(undo: Uint8Array | null): DisconnectedBlock {
    return { spent: undo ? chainStateUndoSpent(undo) : [] };
  }

  async disconnect(chainBlock: ChainBlock, undoBytes: Uint8Array | null): Promise<BatchOp[]> {
    if (!undoBytes) {
      throw new ChainStateError(
        `chain state cannot disconnect block ${toHexReversed(chainBlock.hash)} at ${chainBlock.height}: its undo data is gone (deeper than the reorganization limit)`,
      );
    }
    const undo = decodeUndo(undoBytes);
    const block = await chainBlock.block();
    const ops: BatchOp[] = [];
    // Outputs the block created (those it also spent were never written; deleting is harmless).
    block.transactions.forEach((tx, t) => {
      if (chainBlock.height === 0) return;
      for (let n = 0; n < tx.data.vout.length; n++) ops.push({ type: 'del', key: chainStateKeys.coin(chainBlock.txids[t]!, n) });
    });
    for (const s of undo.spent) ops.push({ type: 'put', key: chainStateKeys.coin(s.txid, s.n), value: Buffer.from(s.coin) });
    for (const r of undo.roots) ops.push({ type: 'del', key: chainStateKeys.anchor(r.pool, r.root) });
    for (const s of undo.subtrees) ops.push({ type: 'del', key: chainStateKeys.subtree(s.pool, s.index) });
    if (chainBlock.height > 0) ops.push(...nullifierOps(blockNullifiers(block), 'del'));
    ops.push(
      undo.before.length
        ? { type: 'put', key: chainStateKeys.tip(), value: Buffer.from(undo.before) }
        : { type: 'del', key: chainStateKeys.tip() },
    );
    this.cachedTip = null;
    return ops;
  }
}
