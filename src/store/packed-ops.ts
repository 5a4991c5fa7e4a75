/**
 * Many puts and deletions held in one Buffer: what an indexer that writes thousands of rows a
 * block (the address index: several per transparent input and output) returns instead of an
 * operation object, a key Buffer and a value Buffer per row. Group commit copies the rows from
 * here into its own arena (pending-writes.ts) and LevelDB's batch takes them from here
 * (write-batch.ts), so a row never becomes heap objects of its own; during an import those
 * objects, and collecting them, were most of what the address index added to the main thread.
 *
 * Record: kind (1 byte: del, put, fresh put, unique put) ‖ key length (1 byte) ‖ value length (u32 LE) ‖ key ‖ value.
 */
const DEL = 0;
const PUT = 1;
const FRESH_PUT = 2;
const UNIQUE_PUT = 3;
/** Bytes before a record's key. */
export const PACKED_HEADER_BYTES = 6;

/** A record's kind, at `at` in bytes laid out as PackedOps writes them: put (fresh or not) or deletion. */
export function packedIsPut(b: Uint8Array, at: number): boolean {
  return b[at] !== DEL;
}

export function packedIsFresh(b: Uint8Array, at: number): boolean {
  return b[at] === FRESH_PUT || b[at] === UNIQUE_PUT;
}

/** See `PackedOps.unique`. */
export function packedIsUnique(b: Uint8Array, at: number): boolean {
  return b[at] === UNIQUE_PUT;
}

export function packedKeyLength(b: Uint8Array, at: number): number {
  return b[at + 1]!;
}

export function packedValueLength(b: Uint8Array, at: number): number {
  return (b[at + 2]! | (b[at + 3]! << 8) | (b[at + 4]! << 16)) + b[at + 5]! * 0x100_0000;
}

/**
 * Buffers up to SLAB_BYTES / 16 are cut from a shared slab, as Node cuts Buffers under 4 kB
 * from its pool: an indexer makes one PackedOps of several kB per block, and a fresh
 * ArrayBuffer per block (external memory V8 must account for and collect) showed in an import's
 * profile as allocation and extra garbage collection.
 */
const SLAB_BYTES = 1 << 20;
let slab: Buffer | null = null;
let slabUsed = 0;

function allocate(size: number): Buffer {
  if (size > SLAB_BYTES / 16) return Buffer.allocUnsafe(size);
  if (!slab || slabUsed + size > SLAB_BYTES) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabUsed = 0;
  }
  const b = slab.subarray(slabUsed, slabUsed + size);
  slabUsed += (size + 7) & ~7;
  return b;
}

export class PackedOps {
  private bytes: Buffer;
  private used = 0;
  /** Rows written. */
  count = 0;

  constructor(capacity = 4096) {
    this.bytes = allocate(Math.max(64, capacity));
  }

  /** The buffer to write the reserved key and value into (valid until the next put or del). */
  get buffer(): Buffer {
    return this.bytes;
  }

  /** Bytes of the records written: `buffer[0, length)`, walked with the `packed*` readers above. */
  get length(): number {
    return this.used;
  }

  /**
   * Reserves a put; returns the offset of its key in `buffer`, its value following right after.
   * `fresh`: the put creates a key the store cannot hold yet (see BatchOp).
   */
  put(keyLength: number, valueLength: number, fresh = false): number {
    return this.reserve(fresh ? FRESH_PUT : PUT, keyLength, valueLength);
  }

  /**
   * Reserves a fresh put of a key that no other operation of a group commit writes or reads: a
   * row of a new output or spend that only a disconnect ever deletes (a group holds only blocks
   * that extend the tip). Group commit writes such rows without folding them (pending-writes.ts).
   */
  unique(keyLength: number, valueLength: number): number {
    return this.reserve(UNIQUE_PUT, keyLength, valueLength);
  }

  /** Reserves a deletion; returns the offset of its key in `buffer`. */
  del(keyLength: number): number {
    return this.reserve(DEL, keyLength, 0);
  }

  /** Calls `row` with each record's kind and where its key and value are in `bytes`, in order. */
  forEach(row: (bytes: Buffer, put: boolean, fresh: boolean, keyAt: number, keyLength: number, valueLength: number) => void): void {
    const b = this.bytes;
    for (let at = 0; at < this.used;) {
      const keyLength = packedKeyLength(b, at);
      const valueLength = packedValueLength(b, at);
      row(b, packedIsPut(b, at), packedIsFresh(b, at), at + PACKED_HEADER_BYTES, keyLength, valueLength);
      at += PACKED_HEADER_BYTES + keyLength + valueLength;
    }
  }

  private reserve(kind: number, keyLength: number, valueLength: number): number {
    if (keyLength > 255) throw new RangeError(`packed row key of ${keyLength} bytes (at most 255)`);
    const need = this.used + PACKED_HEADER_BYTES + keyLength + valueLength;
    if (need > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.bytes.length, need));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    const b = this.bytes;
    const at = this.used;
    b[at] = kind;
    b[at + 1] = keyLength;
    b.writeUInt32LE(valueLength, at + 2);
    this.used = need;
    this.count++;
    return at + PACKED_HEADER_BYTES;
  }
}
