/**
 * Writes accepted but not yet in LevelDB: the group commit of an import (chain.ts) and the
 * planning overlay of reorganizations and replays (overlay.ts). Operations
 * of many blocks are folded per key — the last write of a key wins — so a value rewritten by
 * every block (the tip, the chain state, the block-file cursor) reaches LevelDB once per group,
 * and a coin created and spent within the group only as a deletion.
 */
import type { BatchOp } from './block-data.js';

interface Entry {
  key: Buffer;
  /** null: deleted. */
  value: Buffer | null;
}

const asBuffer = (b: Uint8Array): Buffer => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));

export class PendingWrites {
  private readonly entries = new Map<string, Entry>();
  /** Blocks whose operations are in this group. */
  blocks = 0;
  /** Key and value bytes applied (before folding): what bounds the group's memory. */
  bytes = 0;

  get size(): number {
    return this.entries.size;
  }

  /** The pending value of `key` (latin1 text of its bytes): a Buffer, null when deleted, undefined when not pending. */
  lookup(key: string): Buffer | null | undefined {
    return this.entries.get(key)?.value;
  }

  /**
   * Takes the operations of one block (or, `block: false`, a record written beside blocks). Values are kept as given: callers hand over buffers
   * they no longer modify (every indexer builds fresh ones per block).
   */
  apply(ops: readonly BatchOp[], { block }: { block: boolean } = { block: true }): void {
    for (const op of ops) {
      const key = asBuffer(op.key);
      const value = op.type === 'put' ? asBuffer(op.value) : null;
      this.entries.set(key.toString('latin1'), { key, value });
      this.bytes += key.length + (value?.length ?? 0);
    }
    if (block) this.blocks++;
  }

  /** One operation per key, for a single atomic batch. */
  batch(): BatchOp[] {
    const ops: BatchOp[] = [];
    for (const { key, value } of this.entries.values()) ops.push(value ? { type: 'put', key, value } : { type: 'del', key });
    return ops;
  }
}
