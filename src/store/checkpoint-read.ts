/**
 * The checkpoint start a store began from (checkpoint-start.ts), read back from the store's own
 * records for `zecrpc verify -repair` (sync/repair.ts). Such a store holds no block below its
 * checkpoint, so its block files cannot rebuild it alone: the rebuilt store is started from the
 * same checkpoint first. The pieces are what the checkpoint start wrote: the header-only index
 * records of its headers (`H`), the checkpoint block's nChainTx (`n`) and the chain state after
 * it (`P`, the one record the tip's later connects do not overwrite).
 *
 * The store is read through a private copy of its LevelDB logs (reading-copy.ts), so it is left
 * exactly as it was whatever is found; a record missing or damaged is named, not guessed around.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { bytesEqual, toHexReversed } from '../codec/hex.js';
import { sha256d } from '../crypto/hash.js';
import { decodeChainStateTip } from '../state/chain-state.js';
import { defaultPoolHashers } from '../state/hashers.js';
import { treePools } from '../state/pools.js';
import type { CheckpointStart } from './checkpoint-start.js';
import { chainStateKeys, type CheckpointState } from './indexes/chain-state-index.js';
import { decodeChainTx, decodeIndexRecord, keys, type IndexRecord } from './layout.js';
import { readingCopy } from './reading-copy.js';
import { intactValue } from './record-checksums.js';

/** The checkpoint start, or why it cannot be read (with the checkpoint's height when that much is known). */
export type StoredCheckpointStart = { start: CheckpointStart } | { problem: string; height: number | null };

/** A record the checkpoint start needs is missing, damaged or not what it wrote. */
class CheckpointRecordProblem extends Error {}

/**
 * Reads the checkpoint start of the store in `storeDir` (`<datadir>/zecrpc`, or the copy a repair
 * set aside). `firstParent` is the parent of the first block in its block files (null when they
 * hold none): the checkpoint block (or one of its headers), which names the height when the state
 * record is gone.
 */
export async function readCheckpointStart(storeDir: string, firstParent: Uint8Array | null): Promise<StoredCheckpointStart> {
  const indexDir = join(storeDir, 'index');
  if (!existsSync(indexDir)) return { problem: `${indexDir} is missing`, height: null };
  const copy = readingCopy(indexDir);
  const db = new ClassicLevel<Buffer, Buffer>(copy, { keyEncoding: 'buffer', valueEncoding: 'buffer', createIfMissing: false });
  try {
    await db.open();
  } catch (e) {
    rmSync(copy, { recursive: true, force: true });
    return { problem: `its LevelDB index does not open (${(e as Error).message})`, height: null };
  }
  try {
    const sealed = (await db.get(keys.recordChecksums())) !== undefined;
    const read = async (key: Buffer, what: string): Promise<Buffer | null> => {
      const stored = await db.get(key);
      if (stored === undefined) return null;
      if (!sealed) return stored;
      const value = intactValue(stored);
      if (value === null) throw new CheckpointRecordProblem(`${what} is damaged (its checksum does not match)`);
      return value;
    };
    const headerRecord = async (hash: Uint8Array): Promise<IndexRecord | null> => {
      const what = `the index record (H) of header ${toHexReversed(hash)}`;
      const value = await read(keys.index(hash), what);
      if (!value) return null;
      const rec = decodeOrProblem(() => decodeIndexRecord(value), what);
      if (!bytesEqual(sha256d(rec.header), hash)) throw new CheckpointRecordProblem(`${what} holds another block's header`);
      return rec;
    };
    let height: number | null = null;
    try {
      if (firstParent) height = (await headerRecord(firstParent))?.height ?? null;
      return { start: await readStart(read, headerRecord) };
    } catch (e) {
      const problem = e instanceof CheckpointRecordProblem ? e.message : `its LevelDB index could not be read (${(e as Error).message})`;
      return { problem, height };
    }
  } finally {
    await db.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

function decodeOrProblem<T>(decode: () => T, what: string): T {
  try {
    return decode();
  } catch (e) {
    throw new CheckpointRecordProblem(`${what} does not decode (${(e as Error).message})`);
  }
}

async function readStart(
  read: (key: Buffer, what: string) => Promise<Buffer | null>,
  headerRecord: (hash: Uint8Array) => Promise<IndexRecord | null>,
): Promise<CheckpointStart> {
  const stateWhat = 'the record of the chain state after its checkpoint (P)';
  const stateValue = await read(chainStateKeys.checkpointTip(), stateWhat);
  if (!stateValue) throw new CheckpointRecordProblem(`${stateWhat} is missing (a store started before zecrpc kept it has none)`);
  const tip = decodeOrProblem(() => decodeChainStateTip(stateValue, defaultPoolHashers()), stateWhat);

  // The checkpoint block's record, then its ancestors', all header-only, back to the first header.
  const headers: Uint8Array[] = [];
  let rec = await headerRecord(tip.hash);
  if (!rec) throw new CheckpointRecordProblem(`the checkpoint block ${toHexReversed(tip.hash)}'s index record (H) is missing`);
  const checkpoint = rec;
  for (let expected = tip.height; rec; expected--) {
    if (rec.haveData || rec.height !== expected) {
      throw new CheckpointRecordProblem(
        `the index record (H) at height ${rec.height} below the checkpoint ${tip.height} is not one of its headers`,
      );
    }
    headers.unshift(rec.header);
    rec = expected === 0 ? null : await headerRecord(rec.header.subarray(4, 36));
  }
  // The walk ends at the first header, whose parent has no record; a best-chain entry below it
  // means a header's record was lost, not that the checkpoint began there.
  const first = tip.height - headers.length + 1;
  if (first > 0 && (await read(keys.height(first - 1), `the best-chain entry (h) at height ${first - 1}`))) {
    throw new CheckpointRecordProblem(
      `the index record (H) of the header at height ${first - 1} is missing, though the best chain names one there`,
    );
  }

  const chainTxWhat = `the checkpoint block's nChainTx record (n)`;
  const chainTxValue = await read(keys.chainTx(tip.hash), chainTxWhat);
  if (!chainTxValue) throw new CheckpointRecordProblem(`${chainTxWhat} is missing`);
  const chainTx = decodeOrProblem(() => decodeChainTx(chainTxValue), chainTxWhat);

  const trees = Object.fromEntries(treePools().map((pool) => [pool, tip.trees[pool].toTreeState('padded')]));
  const state = { ...trees, history: tip.history, totals: tip.totals } as CheckpointState;
  return { height: tip.height, headers, chainWork: checkpoint.chainWork, chainTx, state };
}
