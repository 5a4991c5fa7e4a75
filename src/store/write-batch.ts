/**
 * Atomic LevelDB batches for the store, straight to classic-level's native writer.
 *
 * Why not `db.batch(ops)`: abstract-level's array batch clones every operation into a new object
 * (`{ ...options, ...op }`), runs its key/value validation and encoders and prepares prewrite
 * hooks and write events, per operation, in JavaScript; and classic-level's native array batch
 * then looks up `type`, `key` and `value` of every operation by name (about ten N-API calls per
 * operation), on the main thread. The store never uses hooks, events, sublevels or encodings
 * other than raw buffers, and its batches are large (a group of imported blocks with the address
 * index writes tens of thousands of rows). So the rows go one by one into classic-level's native
 * chained batch (`_put`/`_del`: one call with the key and value as arguments), which builds the
 * same LevelDB WriteBatch faster than the array batch; bench/address-index.ts measures the
 * import with it.
 *
 * The native batch copies a Buffer's bytes as they are; other Uint8Arrays are wrapped (no copy)
 * so only their own bytes are written. abstract-level's own checks that matter here are kept: the
 * database must be open, and every operation must be a put or a del with buffer data. Where the
 * private methods are missing (another classic-level), the public `batch` is used.
 *
 * Every value gets its checksum here when the store's values carry them (record-checksums.ts):
 * this is the one door every write of the store goes through.
 */
import type { ClassicLevel } from 'classic-level';
import { expandOps, type BatchOp, type PlainOp } from './block-data.js';
import { checksumsOf, sealValue, SealingScratch } from './record-checksums.js';

/** classic-level's ChainedBatch, below abstract-level's validating `put`/`del`/`write`. */
interface NativeChainedBatch {
  _put(key: Buffer, value: Buffer): void;
  _del(key: Buffer): void;
  _write(options: { sync: boolean }): Promise<void>;
  close(): Promise<void>;
}

function asBuffer(b: Uint8Array, what: string): Buffer {
  if (Buffer.isBuffer(b)) return b;
  if (b instanceof Uint8Array) return Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  throw new TypeError(`store batch: ${what} is not a byte array`);
}

const BAD_TYPE = "store batch: an operation must have a type property that is 'put' or 'del'";

/** Rows handed over one call each, without an operation object per row (pending-writes.ts). */
export interface RowSource {
  /** Calls `put` or `del` for every row, in order; returns how many rows it passed. */
  writeRows(put: (key: Buffer, value: Buffer) => void, del: (key: Buffer) => void): number;
}

function isRowSource(ops: readonly BatchOp[] | Iterable<BatchOp> | RowSource): ops is RowSource {
  return typeof (ops as Partial<RowSource>).writeRows === 'function';
}

/** The rows of `source` as operations (views into its bytes), in order. */
export function rowSourceOps(source: RowSource): PlainOp[] {
  const ops: PlainOp[] = [];
  source.writeRows(
    (key, value) => ops.push({ type: 'put', key, value }),
    (key) => ops.push({ type: 'del', key }),
  );
  return ops;
}

export async function writeBatch(
  db: ClassicLevel<Buffer, Buffer>,
  ops: readonly BatchOp[] | Iterable<BatchOp> | RowSource,
  options: { sync: boolean },
): Promise<void> {
  if (Array.isArray(ops) && ops.length === 0) return;
  if (db.status !== 'open') {
    // abstract-level's wording and code for the same situation.
    throw Object.assign(new Error('Database is not open'), { code: 'LEVEL_DATABASE_NOT_OPEN' });
  }
  const sealed = checksumsOf(db)?.sealed === true;
  const batch = (db as unknown as { _chainedBatch?: () => NativeChainedBatch })._chainedBatch?.();
  if (!batch || typeof batch._put !== 'function' || typeof batch._del !== 'function' || typeof batch._write !== 'function') {
    await batch?.close();
    const plain = expandOps(isRowSource(ops) ? rowSourceOps(ops) : ops);
    const sealedOps = sealed ? plain.map((op) => (op.type === 'put' ? { ...op, value: sealValue(op.value) } : op)) : plain;
    // Raw buffers: the values carry their checksums already, the store's encoding must not add more.
    await db.batch(sealedOps, { ...options, valueEncoding: 'buffer' });
    return;
  }
  const target = sealed ? sealingBatch(batch) : batch;
  let count = 0;
  try {
    if (isRowSource(ops)) {
      count = ops.writeRows(
        (key, value) => target._put(key, value),
        (key) => target._del(key),
      );
    } else {
      count = putOps(target, ops);
    }
    if (count > 0) await batch._write({ sync: options.sync });
  } finally {
    await batch.close();
  }
}

/** The native batch with every value sealed on its way in (the batch copies what it is given). */
function sealingBatch(batch: NativeChainedBatch): NativeChainedBatch {
  const scratch = new SealingScratch();
  return {
    _put: (key, value) => batch._put(key, scratch.seal(value)),
    _del: (key) => batch._del(key),
    _write: (options) => batch._write(options),
    close: () => batch.close(),
  };
}

/** Puts `ops` into the native batch; returns the number of rows. */
function putOps(batch: NativeChainedBatch, ops: readonly BatchOp[] | Iterable<BatchOp>): number {
  let count = 0;
  for (const op of ops) {
    if (op.type === 'put') batch._put(asBuffer(op.key, 'a key'), asBuffer(op.value, 'a value'));
    else if (op.type === 'del') batch._del(asBuffer(op.key, 'a key'));
    else if (op.type === 'packed') {
      op.rows.forEach((b, put, _fresh, keyAt, keyLength, valueLength) => {
        const key = b.subarray(keyAt, keyAt + keyLength);
        if (put) batch._put(key, b.subarray(keyAt + keyLength, keyAt + keyLength + valueLength));
        else batch._del(key);
      });
      count += op.rows.count;
      continue;
    } else throw new TypeError(BAD_TYPE);
    count++;
  }
  return count;
}
