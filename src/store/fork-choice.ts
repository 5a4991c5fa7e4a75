/**
 * Fork choice's second half: switching the active chain to the most-work block. Every
 * disconnect and connect is planned first against an overlay, so a branch block that cannot be
 * connected (or a switch deeper than MAX_REORG_DEPTH) changes nothing but marking it; then the
 * steps are written one batch per block, each moving the tip by one, so a crash in between
 * leaves a store that `open()` finishes switching (the most-work mark `W` is already written).
 */
import { decodeBlock, type Block } from '../codec/block.js';
import { STORED_BLOCK_ACCEPTANCE } from '../codec/tx/acceptance.js';
import { toHexReversed } from '../codec/hex.js';
import { StateTransitionError } from '../state/apply-block.js';
import type { BatchOp } from './block-data.js';
import type { ChainDb, TipState } from './chain-db.js';
import { BlockRejectedError } from './errors.js';
import type { IndexerSet } from './indexer-set.js';
import type { ChainBlock } from './indexes/indexer.js';
import { keys, splitTxids, type IndexRecord } from './layout.js';
import { WriteOverlay } from './overlay.js';
import { MAX_REORG_DEPTH } from './undo.js';

/** Test hook: called after each batch of a reorganization (throwing simulates a crash there). */
export type ReorgStepHook = (step: { kind: 'disconnect' | 'connect'; hash: Uint8Array; height: number }) => void;

/** What a switch of the active chain did. */
export interface Reorg {
  forkHeight: number;
  disconnected: Uint8Array[];
  connected: Uint8Array[];
}

/** A stored block as indexers see it; the bytes are read and decoded only if an indexer asks. */
async function storedChainBlock(db: ChainDb, hash: Uint8Array, rec: IndexRecord): Promise<ChainBlock> {
  const txids = splitTxids(await db.requireValue(keys.txids(hash), `txid list of block ${toHexReversed(hash)}`));
  let decoded: Promise<Block> | null = null;
  return {
    hash,
    height: rec.height,
    header: rec.header,
    txids,
    block: () => {
      decoded ??= db.data
        .read(hash, { file: rec.file, offset: rec.offset }, rec.size)
        .then((bytes) => decodeBlock(bytes, STORED_BLOCK_ACCEPTANCE));
      return decoded;
    },
  };
}

/** The most-work block goes back to the current tip (the better branch was refused). */
export async function stayOnTip(db: ChainDb, invalid: { hash: Uint8Array; why: string } | null = null): Promise<void> {
  const tip = db.tip;
  const ops: BatchOp[] = [];
  if (invalid) ops.push({ type: 'put', key: keys.invalid(invalid.hash), value: Buffer.from(invalid.why, 'utf8') });
  if (tip) ops.push({ type: 'put', key: keys.best(), value: Buffer.from(tip.hash) });
  if (ops.length) await db.write(ops, db.durable);
  if (invalid) db.markedInvalid(invalid.hash);
  if (tip) db.best = { ...tip };
}

async function parentTip(db: ChainDb, tip: TipState): Promise<TipState> {
  const prev = new Uint8Array((await db.requireRecord(tip.hash)).header.subarray(4, 36));
  return { hash: prev, height: tip.height - 1, chainWork: (await db.requireRecord(prev)).chainWork };
}

/** The batch that takes `tip` off the active chain. */
async function disconnectOps(db: ChainDb, indexers: IndexerSet, tip: TipState, overlay: WriteOverlay): Promise<BatchOp[]> {
  const rec = await db.requireRecord(tip.hash);
  const block = await storedChainBlock(db, tip.hash, rec);
  return indexers.disconnectOps(block, tip.height === 0 ? null : rec.header.subarray(4, 36), overlay);
}

/**
 * Switches the best chain to end at `targetHash`: disconnect to the fork point, connect the
 * branch. Every step is planned first against an overlay, so a branch block that cannot be
 * connected (or a switch deeper than MAX_REORG_DEPTH) changes nothing but marking it.
 */
export async function activate(
  db: ChainDb,
  indexers: IndexerSet,
  targetHash: Uint8Array,
  hook: () => ReorgStepHook | null,
): Promise<Reorg> {
  const branch: { hash: Uint8Array; rec: IndexRecord }[] = [];
  let hash = targetHash;
  for (;;) {
    const rec = await db.requireRecord(hash);
    if (await db.isOnBestChain(hash, rec.height)) break;
    branch.push({ hash, rec });
    if (rec.height === 0) break;
    hash = rec.header.subarray(4, 36);
  }
  branch.reverse();
  const forkHeight = branch.length ? branch[0]!.rec.height - 1 : (await db.requireRecord(targetHash)).height;
  const invalid = branch.find((b) => db.isInvalid(b.hash));
  if (invalid) {
    await stayOnTip(db);
    throw new BlockRejectedError(
      'invalid-parent',
      `block ${toHexReversed(targetHash)} descends from invalid block ${toHexReversed(invalid.hash)}`,
      targetHash,
    );
  }
  const depth = (db.tip?.height ?? -1) - forkHeight;
  if (depth > MAX_REORG_DEPTH) {
    await stayOnTip(db);
    throw new BlockRejectedError(
      'reorg-too-deep',
      `block ${toHexReversed(targetHash)} would make the store disconnect ${depth} blocks; the limit is ${MAX_REORG_DEPTH} (zcashd shuts down here). Re-import from a source you trust if this chain is right.`,
      targetHash,
    );
  }

  const overlay = new WriteOverlay(db.db);
  const steps: {
    kind: 'disconnect' | 'connect';
    hash: Uint8Array;
    height: number;
    chainWork: bigint;
    ops: BatchOp[];
    tipAfter: TipState | null;
  }[] = [];
  let tip = db.tip;
  let connecting: Uint8Array | null = null;
  try {
    while (tip && tip.height > forkHeight) {
      const ops = await disconnectOps(db, indexers, tip, overlay);
      overlay.apply(ops);
      const parent = tip.height === 0 ? null : await parentTip(db, tip);
      steps.push({ kind: 'disconnect', hash: tip.hash, height: tip.height, chainWork: tip.chainWork, ops, tipAfter: parent });
      tip = parent;
    }
    for (const { hash: h, rec } of branch) {
      connecting = h;
      const ops = await indexers.connectOps(await storedChainBlock(db, h, rec), overlay);
      overlay.apply(ops);
      const after = { hash: h, height: rec.height, chainWork: rec.chainWork };
      steps.push({ kind: 'connect', hash: h, height: rec.height, chainWork: rec.chainWork, ops, tipAfter: after });
    }
  } catch (e) {
    // Nothing was written: the store stays on its chain whatever went wrong (a most-work mark
    // it cannot reach would make every open retry the same switch and fail).
    const message = (e as Error).message;
    const invalid = e instanceof StateTransitionError && connecting ? connecting : null;
    await stayOnTip(db, invalid ? { hash: invalid, why: message } : null);
    if (invalid) throw new BlockRejectedError('state', message, invalid, (e as StateTransitionError).rule);
    throw new BlockRejectedError('reorg-failed', `cannot switch to block ${toHexReversed(targetHash)}: ${message}`, targetHash);
  }

  const disconnected: Uint8Array[] = [];
  const connected: Uint8Array[] = [];
  for (const step of steps) {
    await db.write(step.ops, db.durable, `the ${step.kind} of block ${toHexReversed(step.hash)} (a reorganization step)`);
    db.tip = step.tipAfter;
    (step.kind === 'connect' ? connected : disconnected).push(step.hash);
    hook()?.({ kind: step.kind, hash: step.hash, height: step.height });
  }
  return { forkHeight, disconnected, connected };
}
