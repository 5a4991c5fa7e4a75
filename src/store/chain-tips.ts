/**
 * The chain tips the store knows (getchaintips): every block with an index record and no child
 * record, kept as `K` ‖ hash rows beside the records, so a call reads a handful of rows instead
 * of every block index record (zcashd walks its whole in-memory mapBlockIndex).
 *
 * A record is never deleted, so the set only changes when a block is accepted: its hash joins,
 * its parent's leaves, in the batch that writes its record; a reorganization or an invalid mark
 * changes no tip. A store written before the set existed has no `K` marker; the first caller
 * rebuilds it once from the records (`rebuild`), with no schema migration, and a store that
 * cannot be written keeps the rebuilt set in memory only.
 */
import type { ClassicLevel } from 'classic-level';
import type { BatchOp } from './block-data.js';
import { indexRecordLink, keys } from './layout.js';

/** The `K` marker's value: the format of the rows it vouches for. */
const TIPS_FORMAT = 1;

/** A block hash as a map key: its bytes in hex. */
function hashKey(hash: Uint8Array): string {
  return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('hex');
}

export class ChainTipSet {
  /** Hex of each childless block; null until loaded or rebuilt (the store had no marker). */
  private tips: Set<string> | null = null;

  /** Whether the set is known (loaded at open, or rebuilt since). */
  get known(): boolean {
    return this.tips !== null;
  }

  /** Loads the set at open when the store keeps it; leaves it unknown otherwise. */
  async load(db: ClassicLevel<Buffer, Buffer>): Promise<void> {
    const marker = await db.get(keys.chainTipsKept());
    if (!marker) return;
    if (marker.length !== 1 || marker[0] !== TIPS_FORMAT) throw new Error(`corrupt chain-tips marker (${marker.toString('hex')})`);
    const tips = new Set<string>();
    const prefix = keys.chainTipPrefix;
    for await (const key of db.keys({ gt: Buffer.of(prefix), lt: Buffer.of(prefix + 1) })) tips.add(key.subarray(1).toString('hex'));
    this.tips = tips;
  }

  /** The marker a new store is created with: its (empty) set is complete from the start. */
  static creationOps(): BatchOp[] {
    return [{ type: 'put', key: keys.chainTipsKept(), value: Buffer.of(TIPS_FORMAT) }];
  }

  /**
   * The writes that go with a new record for `hash` (child of `parent`, null for a genesis or
   * checkpoint header without a stored parent). None while the set is unknown: a rebuild finds it.
   */
  recordOps(hash: Uint8Array, parent: Uint8Array | null): BatchOp[] {
    if (!this.tips) return [];
    const ops: BatchOp[] = [{ type: 'put', key: keys.chainTip(hash), value: Buffer.alloc(0), fresh: true }];
    if (parent && this.tips.has(hashKey(parent))) ops.push({ type: 'del', key: keys.chainTip(parent) });
    return ops;
  }

  /** Applies `recordOps` to memory once their batch is written (or handed to group commit). */
  recorded(hash: Uint8Array, parent: Uint8Array | null): void {
    if (!this.tips) return;
    if (parent) this.tips.delete(hashKey(parent));
    this.tips.add(hashKey(hash));
  }

  /** The tips' hashes (internal order); throws while the set is unknown. */
  hashes(): Uint8Array[] {
    if (!this.tips) throw new Error('the chain-tips set is not built yet');
    return [...this.tips].map((h) => new Uint8Array(Buffer.from(h, 'hex')));
  }

  /**
   * Builds the set from the block index records: one pass over `H` with the active chain's
   * hashes at hand (one pass over `h`, 32 bytes per height), since every block of the active
   * chain but its tip has a child there and only side-branch blocks need remembering. Writes the
   * rows and the marker when `persist` (a writable store); memory alone otherwise.
   */
  async rebuild(
    db: ClassicLevel<Buffer, Buffer>,
    activeTip: { hash: Uint8Array; height: number } | null,
    persist: (ops: BatchOp[]) => Promise<void>,
  ): Promise<void> {
    const tipHeight = activeTip?.height ?? -1;
    const active = Buffer.alloc((tipHeight + 1) * 32);
    const hp = keys.heightPrefix;
    for await (const [key, value] of db.iterator({ gt: Buffer.of(hp), lt: Buffer.of(hp + 1) })) {
      const height = key.readUInt32BE(1);
      if (height <= tipHeight) active.set(value, height * 32);
    }
    // Each side-branch block and its parent.
    const side = new Map<string, string | null>();
    const ip = keys.indexPrefix;
    for await (const [key, value] of db.iterator({ gt: Buffer.of(ip), lt: Buffer.of(ip + 1) })) {
      const hash = key.subarray(1);
      const { height, parent } = indexRecordLink(value);
      if (height <= tipHeight && active.subarray(height * 32, height * 32 + 32).equals(hash)) continue;
      side.set(hash.toString('hex'), parent.every((b: number) => b === 0) ? null : parent.toString('hex'));
    }
    const parents = new Set<string>();
    for (const parent of side.values()) if (parent !== null) parents.add(parent);
    const tips = new Set<string>();
    for (const hash of side.keys()) if (!parents.has(hash)) tips.add(hash);
    if (activeTip && !parents.has(hashKey(activeTip.hash))) tips.add(hashKey(activeTip.hash));
    await persist([
      ...[...tips].map((h): BatchOp => ({ type: 'put', key: keys.chainTip(Buffer.from(h, 'hex')), value: Buffer.alloc(0) })),
      ...ChainTipSet.creationOps(),
    ]);
    this.tips = tips;
  }
}
