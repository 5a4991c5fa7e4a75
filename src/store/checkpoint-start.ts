/**
 * A store started at a checkpoint block instead of genesis (ChainStore.startFromCheckpoint): the
 * headers up to that block as header-only records, its chain work and nChainTx, and the core
 * indexer's records for the state after it, in one batch.
 */
import { checkBlockHeader } from '../chain/header-rules.js';
import type { NetworkParams } from '../chain/network.js';
import { blockWork } from '../chain/pow.js';
import { decodeBlockHeader, type BlockHeader } from '../codec/block.js';
import { bytesEqual } from '../codec/hex.js';
import { sha256d } from '../crypto/hash.js';
import type { BatchOp } from './block-data.js';
import type { ChainDb } from './chain-db.js';
import type { CheckpointState } from './indexes/chain-state-index.js';
import type { CoreIndexer } from './indexes/indexer.js';
import { encodeChainTx, encodeIndexRecord, encodeTip, keys, type IndexRecord } from './layout.js';

/** What a store started from a checkpoint is given (see ChainStore.startFromCheckpoint). */
export interface CheckpointStart {
  /** The checkpoint block's height. */
  height: number;
  /** Serialized headers ending with the checkpoint block's, oldest first (28 let difficulty checks run at once). */
  headers: Uint8Array[];
  /** Cumulative chain work up to and including the checkpoint block. */
  chainWork: bigint;
  /** nChainTx of the checkpoint block; null when unknown (then counted from 0, as zcashd does without bodies). */
  chainTx: number | null;
  state: CheckpointState;
}

export interface CheckpointRules {
  network: NetworkParams;
  genesisHash: Uint8Array;
  verifySolutions: boolean;
}

/** Writes the checkpoint start into an empty store (the caller holds the writer queue). */
export async function startFromCheckpoint(
  db: ChainDb,
  core: CoreIndexer<CheckpointState> | null,
  rules: CheckpointRules,
  cp: CheckpointStart,
): Promise<void> {
  const { network } = rules;
  if (db.tip || db.best) throw new Error('a checkpoint start needs an empty chain store');
  await db.flushGroup();
  if (cp.headers.length === 0) throw new Error('a checkpoint start needs at least the checkpoint block header');
  const firstHeight = cp.height - cp.headers.length + 1;
  if (!Number.isSafeInteger(cp.height) || firstHeight < 0)
    throw new Error(`checkpoint: ${cp.headers.length} headers cannot end at height ${cp.height}`);
  // Each header as a block's header is checked without its chain: it decodes, is of this
  // network, carries a valid Equihash solution and meets the target it states.
  const headers = cp.headers.map((bytes, i) => {
    let h: BlockHeader;
    try {
      h = decodeBlockHeader(bytes);
    } catch (e) {
      throw new Error(`checkpoint header ${i} does not decode (${(e as Error).message})`);
    }
    if (h.bytes.length !== bytes.length) throw new Error(`checkpoint header ${i} has ${bytes.length - h.bytes.length} bytes after it`);
    if (h.solution.length !== network.solutionSize) {
      throw new Error(
        `checkpoint header ${i} has a ${h.solution.length}-byte Equihash solution; ${network.name} headers have ${network.solutionSize}`,
      );
    }
    const problem = checkBlockHeader(h, network, firstHeight + i, { verifySolution: rules.verifySolutions });
    if (problem) throw new Error(`checkpoint header ${i} (${problem.hash}) is refused (${problem.rule}): ${problem.message}`);
    return h;
  });
  if (firstHeight === 0 && !bytesEqual(sha256d(headers[0]!.bytes), rules.genesisHash)) {
    throw new Error(`checkpoint header 0 is at height 0 but is not the ${network.name} genesis block ${network.genesisHash}`);
  }
  const ops: BatchOp[] = [];
  // Chain work of each earlier header: the checkpoint's minus the work of the ones after it.
  const works = headers.map((h) => blockWork(h.bits));
  let work = cp.chainWork;
  const records: { hash: Uint8Array; rec: IndexRecord }[] = [];
  for (let i = headers.length - 1; i >= 0; i--) {
    const h = headers[i]!;
    const hash = sha256d(h.bytes);
    if (i < headers.length - 1 && !bytesEqual(hash, headers[i + 1]!.prevHash)) {
      throw new Error(`checkpoint headers do not link: header ${i + 1} does not follow header ${i}`);
    }
    records.unshift({
      hash,
      rec: { haveData: false, height: firstHeight + i, chainWork: work, size: 0, txCount: 0, file: 0, offset: 0, header: h.bytes },
    });
    work -= works[i]!;
    if (work < 0n) throw new Error('checkpoint: its chain work is less than the work of its own headers');
  }
  for (const { hash, rec } of records) {
    ops.push({ type: 'put', key: keys.index(hash), value: encodeIndexRecord(rec) });
    ops.push({ type: 'put', key: keys.height(rec.height), value: Buffer.from(hash) });
    // nChainTx of header-only blocks before the checkpoint: zcashd keeps 0 for blocks whose bodies it lacks.
    ops.push({ type: 'put', key: keys.chainTx(hash), value: encodeChainTx(rec.height === cp.height ? (cp.chainTx ?? 0) : 0) });
  }
  const tip = records[records.length - 1]!;
  ops.push(...db.highestRecordOps(tip.rec.height));
  // An empty store: the last header is its one childless block.
  ops.push(...db.chainTips.recordOps(tip.hash, null));
  if (core) ops.push(...core.checkpointOps(tip.hash, cp.height, cp.state));
  ops.push({ type: 'put', key: keys.tip(), value: encodeTip(tip.hash, cp.height) });
  ops.push({ type: 'put', key: keys.best(), value: Buffer.from(tip.hash) });
  await db.write(ops, true, 'the checkpoint start');
  for (const { hash, rec } of records) db.remember(hash, rec);
  db.chainTips.recorded(tip.hash, null);
  db.highestRecord = cp.height;
  db.tip = { hash: tip.hash, height: cp.height, chainWork: cp.chainWork };
  db.best = { ...db.tip };
}
