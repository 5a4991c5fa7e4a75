/**
 * Pending writes over the committed database: a reorganization (or a migration replay) plans
 * many batches ahead, and each planned step must read what the steps before it will write.
 */
import type { ClassicLevel } from 'classic-level';
import type { BatchOp } from './block-data.js';
import type { IndexReadView } from './indexes/indexer.js';

export class WriteOverlay implements IndexReadView {
  private readonly pending = new Map<string, Buffer | null>();
  /** The operations applied since the last take(), in order. */
  ops: BatchOp[] = [];

  constructor(private readonly db: ClassicLevel<Buffer, Buffer>) {}

  get(key: Buffer): Buffer | undefined {
    const p = this.pending.get(key.toString('latin1'));
    if (p !== undefined) return p ?? undefined;
    return this.db.getSync(key);
  }

  apply(ops: readonly BatchOp[]): void {
    for (const op of ops) {
      this.pending.set(op.key.toString('latin1'), op.type === 'put' ? Buffer.from(op.value) : null);
      this.ops.push(op);
    }
  }

  /** The applied operations, to be written in one batch; the overlay then reads the database again. */
  take(): BatchOp[] {
    const ops = this.ops;
    this.ops = [];
    this.pending.clear();
    return ops;
  }
}
