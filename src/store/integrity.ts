/**
 * A full consistency check of a chain store, used by the tests and the kill -9 reliability script
 * (and usable by an operator): every invariant the key layout promises, checked against the data.
 * It reads the whole best chain, so it is meant for test-sized stores and offline checks.
 */
import { decodeBlockHeader } from '../codec/block.js';
import { sha256d } from '../crypto/hash.js';
import { bytesEqual, toHexReversed } from '../codec/hex.js';
import type { ChainStore } from './chain.js';
import { decodeHighestRecord, decodeIndexRecord, decodeTxLocation, keys } from './layout.js';

/** What `checkStoreIntegrity` found. */
export interface IntegrityReport {
  ok: boolean;
  problems: string[];
  tipHeight: number;
  /** Best-chain blocks checked. */
  blocks: number;
  /** `t` entries checked. */
  txEntries: number;
}

/** Checks every invariant of the store's key layout along the whole best chain (for test-sized stores and offline checks). */
export async function checkStoreIntegrity(store: ChainStore): Promise<IntegrityReport> {
  const problems: string[] = [];
  // Its scans read LevelDB itself: blocks a group commit still holds are written first.
  await store.flush();
  const db = store.database;
  const tip = await store.tip();
  const tipHeight = tip?.height ?? -1;
  const bestChain: Uint8Array[] = [];
  let expectedTxEntries = 0;
  let chainTx = 0;

  for (let h = 0; h <= tipHeight; h++) {
    const hash = await store.hashAtHeight(h);
    if (!hash) {
      problems.push(`no best-chain entry at height ${h}`);
      bestChain.push(new Uint8Array(32));
      continue;
    }
    bestChain.push(hash);
    const entry = await store.blockIndex(hash);
    const hex = toHexReversed(hash);
    if (!entry) {
      problems.push(`height ${h}: block ${hex} has no index record`);
      continue;
    }
    if (entry.height !== h) problems.push(`block ${hex} is at height ${h} but its record says ${entry.height}`);
    if (!entry.onBestChain) problems.push(`block ${hex} at height ${h} does not report onBestChain`);
    if (h > 0 && !bytesEqual(entry.prevHash, bestChain[h - 1]!))
      problems.push(`block ${hex} at height ${h} does not link to height ${h - 1}`);
    const bytes = await store.blockBytes(hash).catch((e: Error) => {
      problems.push(`block ${hex}: ${e.message}`);
      return null;
    });
    if (bytes) {
      if (bytes.length !== entry.size) problems.push(`block ${hex}: ${bytes.length} bytes stored, record says ${entry.size}`);
      if (!bytesEqual(sha256d(decodeBlockHeader(bytes).bytes), hash)) problems.push(`block ${hex}: stored bytes hash to another block`);
    }
    chainTx += entry.txCount;
    const recorded = await store.chainTx(hash);
    if (recorded !== chainTx) problems.push(`block ${hex}: nChainTx record ${recorded}, expected ${chainTx}`);
    const txids = await store.blockTxids(hash);
    if (!txids || txids.length !== entry.txCount) {
      problems.push(`block ${hex}: txid list missing or of the wrong length`);
      continue;
    }
    if (h === 0) continue; // zcashd does not index the genesis coinbase
    for (let i = 0; i < txids.length; i++) {
      const loc = await store.txLocation(txids[i]!);
      // A txid repeated later on the chain legitimately points to the later copy.
      if (!loc) problems.push(`tx ${toHexReversed(txids[i]!)} of block ${hex} is missing from the tx index`);
      else if (loc.height < h || (loc.height === h && loc.index !== i))
        problems.push(`tx ${toHexReversed(txids[i]!)} points to ${loc.height}:${loc.index}, expected ${h}:${i}`);
      else expectedTxEntries++;
    }
  }

  // Nothing above the tip, and no transaction entry pointing off the best chain (stale after a reorg).
  for await (const key of db.keys({ gt: keys.height(tipHeight + 1 > 0 ? tipHeight : 0), lt: Buffer.of(keys.heightPrefix + 1) })) {
    const h = key.readUInt32BE(1);
    if (h > tipHeight) problems.push(`best-chain entry at height ${h} above the tip ${tipHeight}`);
  }
  if (tipHeight < 0) {
    for await (const key of db.keys({ gte: Buffer.of(keys.heightPrefix), lt: Buffer.of(keys.heightPrefix + 1), limit: 1 })) {
      problems.push(`empty chain but a best-chain entry exists (${key.toString('hex')})`);
    }
  }
  let txEntries = 0;
  for await (const [key, value] of db.iterator({ gte: Buffer.of(keys.txPrefix), lt: Buffer.of(keys.txPrefix + 1) })) {
    txEntries++;
    const txid = key.subarray(1);
    const { height, index } = decodeTxLocation(value);
    const hash = bestChain[height];
    const txids = hash && height <= tipHeight ? await store.blockTxids(hash) : null;
    if (!txids || !txids[index] || !bytesEqual(txids[index]!, txid)) {
      problems.push(`stale tx index entry ${toHexReversed(txid)} → ${height}:${index}`);
    }
  }
  if (txEntries < expectedTxEntries) problems.push(`tx index has ${txEntries} entries, expected at least ${expectedTxEntries}`);

  // `M` bounds every block record's height: a record above it would be taken for a new block.
  const highest = decodeHighestRecord(await db.get(keys.highestRecord()));
  for await (const [key, value] of db.iterator({ gte: Buffer.of(keys.indexPrefix), lt: Buffer.of(keys.indexPrefix + 1) })) {
    let height: number;
    try {
      ({ height } = decodeIndexRecord(value));
    } catch (e) {
      problems.push(`block ${toHexReversed(key.subarray(1))}: ${(e as Error).message}`);
      continue;
    }
    if (height > highest)
      problems.push(`block ${toHexReversed(key.subarray(1))} at height ${height} is above the highest-record mark ${highest}`);
  }

  const bestHeader = await store.bestHeaderHeight();
  if (bestHeader < tipHeight) problems.push(`best header height ${bestHeader} below the tip ${tipHeight}`);
  return { ok: problems.length === 0, problems, tipHeight, blocks: bestChain.length, txEntries };
}
