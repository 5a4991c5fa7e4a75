/**
 * Pending writes over the committed database: a reorganization (or a migration replay) plans
 * many batches ahead, and each planned step must read what the steps before it will write.
 * The pending values are kept as group commit keeps them (pending-writes.ts), folded per key.
 */
import type { ClassicLevel } from 'classic-level';
import type { BatchOp } from './block-data.js';
import type { IndexReadView } from './indexes/indexer.js';
import { PendingWrites } from './pending-writes.js';
import { storedValue } from './record-checksums.js';

export class WriteOverlay implements IndexReadView {
  private pending = new PendingWrites();

  constructor(private readonly db: ClassicLevel<Buffer, Buffer>) {}

  get(key: Buffer): Buffer | undefined {
    const p = this.pending.lookup(key);
    if (p !== undefined) return p ?? undefined;
    return storedValue(this.db, this.db.getSync(key), key);
  }

  apply(ops: readonly BatchOp[]): void {
    this.pending.apply(ops, { block: false });
  }

  /** Keys with a pending write. */
  get size(): number {
    return this.pending.size;
  }

  /** The pending writes as one batch (one operation per key); the overlay then reads the database again. */
  take(): BatchOp[] {
    const ops = [...this.pending.batch()];
    this.pending = new PendingWrites();
    return ops;
  }
}
