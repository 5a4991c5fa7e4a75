/**
 * A checksum in every value the store writes to LevelDB, checked on every read.
 *
 * classic-level never asks LevelDB to check its own block checksums when it reads, so a flipped
 * bit in a table is otherwise served as data (a chain-state amount one zatoshi off). From schema
 * version 7 every value ends with 4 bytes, the CRC-32 of the bytes before them (little-endian;
 * Node's zlib computes it natively). A value that does not match is never handed on: the read
 * throws RecordChecksumError, which RPC answers as zcashd answers an unreadable block.
 *
 * One place does it for every prefix, so no indexer sees checksums:
 * - writes: `writeBatch` (write-batch.ts), which every store write goes through, appends them;
 * - reads: the value encoding of the store's ClassicLevel (`valueEncoding`) checks and strips
 *   them for every `get`, `getSync`, `getMany` and iterator.
 *
 * The state lives beside its database (one per ClassicLevel, `checksumsOf`): `sealed` says the
 * values on disk carry checksums (the store has the `R` mark, layout.ts: created by this code or
 * migrated, migrations/v7-record-checksums.ts); `decoding` says the encoding strips them. While
 * migrations run, `decoding` is off and migration code reads raw values through `storedValue`, so
 * the same code upgrades a store whose values have checksums (a test's store with an older
 * version written into it) and one whose values have none (a store written before version 7).
 */
import { crc32 } from 'node:zlib';
import { BlockReadError } from './verify.js';

export const CHECKSUM_BYTES = 4;

/** CRC-32 (IEEE, reflected: zlib's), byte by byte. */
const CRC32_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/**
 * Below this many bytes the table in JavaScript is faster than a call into zlib, whose fixed cost
 * per call is most of what a small value (a coin, an address-index row) costs.
 */
const NATIVE_FROM_BYTES = 96;

/** zlib's CRC-32 of `bytes[0, end)`. */
export function recordCrc(bytes: Uint8Array, end = bytes.length): number {
  if (end >= NATIVE_FROM_BYTES) return crc32(end === bytes.length ? bytes : bytes.subarray(0, end));
  let c = -1;
  for (let i = 0; i < end; i++) c = CRC32_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** A stored value whose checksum does not match: damaged on disk, never served. */
export class RecordChecksumError extends BlockReadError {
  constructor(
    /** The LevelDB key as hex, when the read that found it knows it. */
    readonly key: string | null,
  ) {
    super(key === null ? 'a LevelDB record' : `LevelDB record ${key}`, 'its checksum does not match (damaged on disk)');
    this.name = 'RecordChecksumError';
  }
}

/** The value with its checksum appended (a new buffer). */
export function sealValue(value: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(value.length + CHECKSUM_BYTES);
  out.set(value, 0);
  out.writeUInt32LE(recordCrc(value), value.length);
  return out;
}

/** Whether `stored` ends with the checksum of the bytes before it. */
export function hasValidChecksum(stored: Uint8Array): boolean {
  if (stored.length < CHECKSUM_BYTES) return false;
  const end = stored.length - CHECKSUM_BYTES;
  const stated = (stored[end]! | (stored[end + 1]! << 8) | (stored[end + 2]! << 16) | (stored[end + 3]! << 24)) >>> 0;
  return recordCrc(stored, end) === stated;
}

/** The value without its checksum, or null when the checksum does not match. */
export function intactValue(stored: Buffer): Buffer | null {
  return hasValidChecksum(stored) ? stored.subarray(0, stored.length - CHECKSUM_BYTES) : null;
}

/** The value without its checksum; throws RecordChecksumError when it does not match. */
export function openValue(stored: Buffer, key: Uint8Array | null = null): Buffer {
  const value = intactValue(stored);
  if (value === null) throw new RecordChecksumError(key ? Buffer.from(key).toString('hex') : null);
  return value;
}

/**
 * Values written one after another into memory reused between calls: LevelDB's native write
 * batch copies a value when it is put, so a sealed copy needs no allocation of its own. A value
 * above the reuse limit (block bytes kept in LevelDB) gets a buffer of its own.
 */
export class SealingScratch {
  private scratch = Buffer.allocUnsafe(16 * 1024);

  /** `value` ‖ its checksum, valid until the next call. */
  seal(value: Buffer): Buffer {
    const n = value.length + CHECKSUM_BYTES;
    if (n > this.scratch.length) {
      if (n > 1024 * 1024) return sealValue(value);
      this.scratch = Buffer.allocUnsafe(Math.max(n, this.scratch.length * 2));
    }
    const out = this.scratch;
    if (value.length < NATIVE_FROM_BYTES) for (let i = 0; i < value.length; i++) out[i] = value[i]!;
    else out.set(value, 0);
    const crc = recordCrc(value);
    const at = value.length;
    out[at] = crc & 0xff;
    out[at + 1] = (crc >>> 8) & 0xff;
    out[at + 2] = (crc >>> 16) & 0xff;
    out[at + 3] = crc >>> 24;
    return out.subarray(0, n);
  }
}

/** An abstract-level value encoding (a custom encoding object with the buffer format). */
export interface ValueEncoding {
  name: string;
  format: 'buffer';
  encode(value: Buffer): Buffer;
  decode(value: Buffer): Buffer;
}

export class RecordChecksums {
  /** The values on disk carry checksums. */
  sealed = false;
  /** The database's value encoding checks and strips them. */
  decoding = false;
  /** Values read whose checksum did not match (metrics). */
  mismatches = 0;

  readonly encoding: ValueEncoding = {
    name: 'zecrpc-checksummed',
    format: 'buffer',
    encode: (value) => (this.sealed && this.decoding ? sealValue(value) : value),
    decode: (value) => {
      if (!this.decoding) return value;
      if (hasValidChecksum(value)) return value.subarray(0, value.length - CHECKSUM_BYTES);
      this.mismatches++;
      throw new RecordChecksumError(null);
    },
  };
}

const byDatabase = new WeakMap<object, RecordChecksums>();

/** Ties `state` to `db` (the store does this when it creates its ClassicLevel, migrations for another). */
export function attachChecksums(db: object, state: RecordChecksums): RecordChecksums {
  byDatabase.set(db, state);
  return state;
}

export function checksumsOf(db: object): RecordChecksums | undefined {
  return byDatabase.get(db);
}

/**
 * A value read from `db` as a migration reads it: without its checksum when the values carry one
 * and the database's encoding has not removed it already.
 */
export function storedValue(db: object, value: Buffer, key: Uint8Array): Buffer;
export function storedValue(db: object, value: Buffer | undefined, key: Uint8Array): Buffer | undefined;
export function storedValue(db: object, value: Buffer | undefined, key: Uint8Array): Buffer | undefined {
  const state = byDatabase.get(db);
  if (value === undefined || !state?.sealed || state.decoding) return value;
  return openValue(value, key);
}

/** The RecordChecksumError behind `e` (abstract-level wraps what an encoding throws), or null. */
export function recordChecksumCause(e: unknown): RecordChecksumError | null {
  for (let at = e, depth = 0; at instanceof Error && depth < 4; at = at.cause, depth++) {
    if (at instanceof RecordChecksumError) return at;
  }
  return null;
}
