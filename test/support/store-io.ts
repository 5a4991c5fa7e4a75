// LevelDB-level helpers for store tests: a closed store's whole index, and a hook on every batch
// write (write-batch.ts fills classic-level's chained batch) to fail or delay it.
import { ClassicLevel } from 'classic-level';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every LevelDB entry of a closed store, hex by hex. */
export async function dumpStoreIndex(datadir: string): Promise<Map<string, string>> {
  const db = new ClassicLevel<Buffer, Buffer>(join(datadir, 'zecrpc', 'index'), { keyEncoding: 'buffer', valueEncoding: 'buffer' });
  await db.open();
  const out = new Map<string, string>();
  for await (const [k, v] of db.iterator()) out.set(k.toString('hex'), v.toString('hex'));
  await db.close();
  return out;
}

/** Routes the LevelDB write of every store batch through `write`, which may fail it or delay the real one; returns the undo. */
export function interceptWrites(db: unknown, write: (real: () => Promise<void>) => Promise<void>): () => void {
  type Batch = { _write: (options: unknown) => Promise<void> };
  const target = db as { _chainedBatch: () => Batch };
  const real = target._chainedBatch;
  target._chainedBatch = function (this: unknown) {
    const batch = real.call(this);
    const realWrite = batch._write.bind(batch);
    batch._write = (options) => write(() => realWrite(options));
    return batch;
  };
  return () => {
    target._chainedBatch = real;
  };
}

/**
 * Flips a bit inside `block`'s header where the newest LevelDB log of the closed store in
 * `datadir` holds it (the batch that stored the block): LevelDB would drop that record, and what
 * follows it in its 32 KiB block, without a word. Returns the log's file name, or null when no log
 * holds the header.
 */
export function damageLoggedBlock(datadir: string, block: Uint8Array): string | null {
  const indexDir = join(datadir, 'zecrpc', 'index');
  const log = readdirSync(indexDir)
    .filter((f) => f.endsWith('.log'))
    .sort()
    .at(-1);
  if (log === undefined) return null;
  const bytes = readFileSync(join(indexDir, log));
  const at = bytes.indexOf(Buffer.from(block.subarray(0, 140)));
  if (at <= 0) return null;
  bytes[at + 100]! ^= 0x04;
  writeFileSync(join(indexDir, log), bytes);
  return log;
}
