/**
 * The block tree beside the active chain: its tips with zcashd's statuses (getchaintips), and
 * the operator's reorganizations (invalidateblock, reconsiderblock, main.cpp's InvalidateBlock,
 * ReconsiderBlock and ActivateBestChain). Every walk starts at a tip or a marked block and stops
 * at the active chain, so its cost is the length of the side branches, never the chain's.
 *
 * Invalid marks are `x` records, as for blocks a reorganization found invalid: invalidateblock
 * marks the block and every active-chain block above it (zcashd's BLOCK_FAILED_VALID and
 * BLOCK_FAILED_CHILD), so an active tip that is marked means an unfinished invalidation, which
 * `open()` finishes (chain.ts).
 */
import { bytesEqual, toHexReversed } from '../codec/hex.js';
import type { BatchOp } from './block-data.js';
import type { ChainDb, TipState } from './chain-db.js';
import { BlockRejectedError } from './errors.js';
import { activate, type ReorgStepHook } from './fork-choice.js';
import type { IndexerSet } from './indexer-set.js';
import { keys } from './layout.js';
import type { ChainTipInfo, ChainTipStatus } from './types.js';
import { MAX_REORG_DEPTH } from './undo.js';

/** Why invalidateblock refused a block before changing anything (-20, as zcashd's failed DisconnectTip). */
export class InvalidationRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidationRefusedError';
  }
}

interface PathBlock {
  hash: Uint8Array;
  height: number;
  chainWork: bigint;
  haveData: boolean;
}

/**
 * The blocks from `hash` back to (not including) the active chain at or below `forkCeiling`:
 * highest first. Empty when `hash` itself is such a block.
 */
async function branchPath(db: ChainDb, hash: Uint8Array, forkCeiling: number): Promise<{ path: PathBlock[]; forkHeight: number }> {
  const path: PathBlock[] = [];
  let at = hash;
  for (;;) {
    const rec = await db.requireRecord(at);
    if (rec.height <= forkCeiling && (await db.isOnBestChain(at, rec.height))) return { path, forkHeight: rec.height };
    path.push({ hash: at, height: rec.height, chainWork: rec.chainWork, haveData: rec.haveData });
    // A header whose parent the store never had (a checkpoint start's first): the branch ends there.
    if (rec.height === 0 || !(await db.record(rec.header.subarray(4, 36)))) return { path, forkHeight: rec.height - 1 };
    at = rec.header.subarray(4, 36);
  }
}

/** The hash of `hash`'s ancestor at `height` (≤ its own), or null when the store lacks a block between. */
async function ancestorAt(db: ChainDb, hash: Uint8Array, height: number): Promise<Uint8Array | null> {
  let at = hash;
  for (;;) {
    const rec = await db.record(at);
    if (!rec || rec.height < height) return null;
    if (rec.height === height) return at;
    // On the active chain the ancestor is one height lookup away.
    if (await db.isOnBestChain(at, rec.height)) {
      const v = db.indexValue(keys.height(height));
      return v ? new Uint8Array(v) : null;
    }
    at = rec.header.subarray(4, 36);
  }
}

/**
 * getchaintips: every childless block and the active tip, highest first (zcashd breaks ties by
 * memory address; here by hash as printed, see the deviation registry), with the length of the
 * branch that joins it to the active chain and zcashd's status: "invalid" when it or a block
 * below it on its branch is marked, "headers-only" when one of them has no body, "valid-fork"
 * when it was connected once (it has a chain-state record), "valid-headers" otherwise.
 */
export async function chainTips(db: ChainDb, wasConnected: (hash: Uint8Array) => boolean): Promise<ChainTipInfo[]> {
  const tip = db.tip;
  const hashes = db.chainTips.hashes();
  if (tip && !hashes.some((h) => bytesEqual(h, tip.hash))) hashes.push(tip.hash);
  const out: ChainTipInfo[] = [];
  for (const hash of hashes) {
    const { path, forkHeight } = await branchPath(db, hash, tip?.height ?? -1);
    const height = path[0]?.height ?? forkHeight;
    let status: ChainTipStatus;
    if (path.length === 0) status = 'active';
    else if (path.some((b) => db.isInvalid(b.hash))) status = 'invalid';
    else if (path.some((b) => !b.haveData)) status = 'headers-only';
    else status = wasConnected(hash) ? 'valid-fork' : 'valid-headers';
    out.push({ hash, height, branchLength: height - forkHeight, status });
  }
  const printed = (h: Uint8Array): string => toHexReversed(h);
  return out.sort((a, b) => b.height - a.height || (printed(a.hash) < printed(b.hash) ? -1 : 1));
}

/**
 * The block the active chain should end at (FindMostWorkChain): `fallback` (a block of the
 * active chain), unless a branch off the active chain at or below it holds a block with more
 * work whose path from the fork is unmarked, fully stored and not in `skip`.
 */
async function mostWorkCandidate(db: ChainDb, fallback: TipState, skip: ReadonlySet<string>): Promise<TipState> {
  let best = fallback;
  for (const tipHash of db.chainTips.hashes()) {
    const { path } = await branchPath(db, tipHash, fallback.height);
    let usable: PathBlock | null = null;
    for (let i = path.length - 1; i >= 0; i--) {
      const b = path[i]!;
      if (db.isInvalid(b.hash) || !b.haveData || skip.has(toHexReversed(b.hash))) break;
      usable = b;
    }
    if (usable && usable.chainWork > best.chainWork) best = { hash: usable.hash, height: usable.height, chainWork: usable.chainWork };
  }
  return best;
}

/**
 * Moves the active chain to the most-work usable block at or above `fallback` (ActivateBestChain):
 * a branch that fails to connect is marked invalid by the switch and the next one is tried, as
 * zcashd's ActivateBestChainStep does.
 */
async function activateBestChain(
  db: ChainDb,
  indexers: IndexerSet,
  fallback: TipState,
  hook: () => ReorgStepHook | null,
  marks: { ops: BatchOp[]; what: string },
): Promise<void> {
  const skip = new Set<string>();
  let pending = marks.ops;
  for (;;) {
    const target = await mostWorkCandidate(db, fallback, skip);
    const stays = db.tip !== null && bytesEqual(target.hash, db.tip.hash);
    // The marks and the most-work block in one batch: a crash after it leaves a store whose
    // `open()` finishes the switch (its tip is marked, or has less work than `W`).
    const ops = stays ? pending : [...pending, { type: 'put' as const, key: keys.best(), value: Buffer.from(target.hash) }];
    if (ops.length) await db.write(ops, db.durable, pending.length ? marks.what : 'the most-work mark');
    pending = [];
    if (stays) return;
    db.best = { ...target };
    try {
      await activate(db, indexers, target.hash, hook);
      return;
    } catch (e) {
      if (!(e instanceof BlockRejectedError) || bytesEqual(target.hash, fallback.hash)) throw e;
      skip.add(toHexReversed(target.hash));
      db.log(`did not switch to block ${toHexReversed(target.hash)}: ${e.message}`);
    }
  }
}

/** invalidateblock: the caller holds the writer queue and has checked that the block exists. */
export async function invalidateBlock(
  db: ChainDb,
  indexers: IndexerSet,
  hash: Uint8Array,
  hook: () => ReorgStepHook | null,
): Promise<void> {
  // The switch below is planned against LevelDB (overlay.ts): blocks group commit still holds go there first.
  await db.flushGroup();
  await db.ensureChainTips();
  const rec = await db.requireRecord(hash);
  const tip = db.tip;
  const marks: BatchOp[] = [{ type: 'put', key: keys.invalid(hash), value: Buffer.from('invalidated by invalidateblock', 'utf8') }];
  const marked = [hash];
  let fallback = tip;
  if (tip && (await db.isOnBestChain(hash, rec.height))) {
    if (rec.height === 0) throw new InvalidationRefusedError('The genesis block cannot be invalidated: the chain would have no block left');
    const depth = tip.height - rec.height + 1;
    if (depth > MAX_REORG_DEPTH) {
      throw new InvalidationRefusedError(
        `Invalidating block ${toHexReversed(hash)} would disconnect ${depth} blocks; the store keeps undo data for the last ${MAX_REORG_DEPTH} only`,
      );
    }
    const why = Buffer.from(`descends from block ${toHexReversed(hash)}, invalidated by invalidateblock`, 'utf8');
    for (let h = rec.height + 1; h <= tip.height; h++) {
      const above = new Uint8Array(db.indexValue(keys.height(h))!);
      marks.push({ type: 'put', key: keys.invalid(above), value: why });
      marked.push(above);
    }
    const parent = rec.header.subarray(4, 36);
    fallback = { hash: new Uint8Array(parent), height: rec.height - 1, chainWork: (await db.requireRecord(parent)).chainWork };
  }
  if (!fallback) return;
  // Marked in memory first: the choice of the chain to activate reads the marks.
  for (const h of marked) db.markedInvalid(h);
  try {
    await activateBestChain(db, indexers, fallback, hook, { ops: marks, what: `the invalid mark of block ${toHexReversed(hash)}` });
  } catch (e) {
    if (db.notWritable) for (const h of marked) db.unmarkedInvalid(h);
    throw e;
  }
}

/** reconsiderblock: the caller holds the writer queue and has checked that the block exists. */
export async function reconsiderBlock(
  db: ChainDb,
  indexers: IndexerSet,
  hash: Uint8Array,
  hook: () => ReorgStepHook | null,
): Promise<void> {
  // As invalidateBlock: the switch is planned against LevelDB.
  await db.flushGroup();
  await db.ensureChainTips();
  const rec = await db.requireRecord(hash);
  const cleared: Uint8Array[] = [];
  for (const m of db.invalidHashes()) {
    const mrec = await db.record(m);
    if (!mrec) continue;
    // The block and its descendants, then its ancestors (ReconsiderBlock's two loops).
    const related =
      mrec.height >= rec.height
        ? bytesEqual((await ancestorAt(db, m, rec.height)) ?? new Uint8Array(0), hash)
        : bytesEqual((await ancestorAt(db, hash, mrec.height)) ?? new Uint8Array(0), m);
    if (related) cleared.push(m);
  }
  for (const m of cleared) db.unmarkedInvalid(m);
  const ops: BatchOp[] = cleared.map((m) => ({ type: 'del', key: keys.invalid(m) }));
  const what = `the invalid marks cleared by reconsidering block ${toHexReversed(hash)}`;
  try {
    if (db.tip) await activateBestChain(db, indexers, db.tip, hook, { ops, what });
    else if (ops.length) await db.write(ops, db.durable, what);
  } catch (e) {
    if (db.notWritable) for (const m of cleared) db.markedInvalid(m);
    throw e;
  }
}
