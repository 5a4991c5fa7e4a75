/**
 * Writes accepted but not yet in LevelDB: the group commit of an import (chain-db.ts) and the
 * planning overlay of reorganizations and replays (overlay.ts). Operations
 * of many blocks are folded per key — the last write of a key wins — so a value rewritten by
 * every block (the tip, the chain state, the block-file cursor) reaches LevelDB once per group,
 * and a coin created and spent within the group only as a deletion.
 *
 * Why the rows are bytes in one arena and not a Map of Buffers: a group holds tens of thousands of
 * rows (the address index alone writes several per transparent input and output) for as long as
 * 128 blocks take to validate, so they outlive the young-generation collections that run
 * meanwhile, and every collection copied each of them: as a Map entry a row was four heap objects
 * (its latin1 key text, the operation, the key and value Buffers), and collecting them cost more
 * than writing them. Here keys and values are copied into one growing Buffer and found through an
 * open-addressing hash table of row numbers in typed arrays, so a pending row is no heap object
 * at all. Values are appended, never overwritten, so a Buffer `lookup` returned keeps its bytes.
 */
import type { BatchOp, PlainOp } from './block-data.js';
import { rowSourceOps } from './write-batch.js';
import {
  PACKED_HEADER_BYTES,
  packedIsFresh,
  packedIsPut,
  packedIsUnique,
  packedKeyLength,
  packedValueLength,
  type PackedOps,
} from './packed-ops.js';

const EMPTY = -1;
/** Value length of a deleted key. */
const DELETED = -1;
/** Per row: key offset, key length, value offset, value length, absent (1: the key was not in the store before this group). */
const ROW = 5;
/** Above this many bytes copyIn copies natively. */
const NATIVE_COPY_BYTES = 256;

/**
 * MurmurHash3's 32-bit mixing over every byte of the key, four at a time. Every byte counts: keys
 * that differ only in bytes a partial hash skips (a nullifier whose distinguishing bytes lead, a
 * row whose tail is shared) would all share a slot chain, and each lookup would then walk every
 * earlier such key, quadratic in the group's size.
 */
export function hashKey(key: Uint8Array, start = 0, length = key.length - start): number {
  let h = length ^ 0x9e3779b9;
  const end = start + length;
  let i = start;
  for (; i + 4 <= end; i += 4) {
    h ^= mixWord(key[i]! | (key[i + 1]! << 8) | (key[i + 2]! << 16) | (key[i + 3]! << 24));
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let tail = 0;
  for (let shift = 0; i < end; i++, shift += 8) tail |= key[i]! << shift;
  h ^= mixWord(tail);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

function mixWord(word: number): number {
  const k = Math.imul(word, 0xcc9e2d51);
  return Math.imul((k << 15) | (k >>> 17), 0x1b873593);
}

/**
 * A quarter more than the group before held: consecutive groups are alike but not equal, and a
 * group that outgrows its start copies its whole arena into one twice as large, touching every
 * page of the new one, and keeps that double size in the coins cache (committed-coins.ts), which
 * then holds fewer groups.
 */
function withHeadroom(size: number): number {
  return Math.ceil(size * 1.25);
}

/** Where a table with no earlier group to go by starts (an import's first group, an overlay). */
const SMALL_START: PendingFootprint = { rows: 1024, bytes: 1 << 16 };

export interface PendingFootprint {
  rows: number;
  bytes: number;
}

export class PendingWrites {
  /** Blocks whose operations are in this group. */
  blocks = 0;
  /** Key and value bytes applied (before folding): what bounds the group's memory. */
  bytes = 0;
  private arena: Buffer;
  private used = 0;
  private rows: Int32Array;
  private count = 0;
  /**
   * Per slot: the key's hash and its row number (EMPTY where none), side by side so a probe reads
   * one cache line; a power of two of slots, at most half full.
   */
  private slots: Int32Array;

  /**
   * With `appendUnique`, the arena spans holding packed rows marked unique (PackedOps.unique),
   * as [start, end) pairs: such rows skip the hash table and are written after the folded ones.
   */
  private readonly uniqueSpans: number[] | null;
  private uniqueRows = 0;

  /**
   * `expected`: the footprint of a similar earlier group (consecutive groups of an import are
   * alike), so the tables start with room for it and a quarter more instead of growing by copies.
   *
   * `appendUnique` (group commit, whose groups hold only blocks that extend the tip): rows a
   * PackedOps marks unique are kept out of the hash table, since no other operation of the group
   * writes their keys. Most address-index rows are such rows, and at hundreds of blocks a group
   * the table outgrows the processor's cache: every row kept out of it saves a cache miss or two.
   * `lookup` does not see them (nothing reads them while a group is pending: the address index's
   * readers read LevelDB). Without it (reorganization plans, replays) they fold like fresh puts.
   */
  constructor(expected?: PendingFootprint, { appendUnique = false }: { appendUnique?: boolean } = {}) {
    this.uniqueSpans = appendUnique ? [] : null;
    const start = expected ? { rows: withHeadroom(expected.rows), bytes: withHeadroom(expected.bytes) } : SMALL_START;
    let rows = 1024;
    while (rows < start.rows) rows *= 2;
    this.rows = new Int32Array(ROW * rows);
    this.slots = new Int32Array(2 * 2 * rows).fill(EMPTY);
    this.arena = Buffer.allocUnsafe(Math.max(start.bytes, 1 << 16));
  }

  /** Rows and arena bytes this group holds (a size hint for the next one). */
  get footprint(): PendingFootprint {
    return { rows: this.count, bytes: this.used };
  }

  /** Memory the table holds: its arena and its two index arrays, allocated sizes. */
  get memoryBytes(): number {
    return this.arena.length + this.rows.byteLength + this.slots.byteLength;
  }

  /** Keys with a pending write. */
  get size(): number {
    return this.count + this.uniqueRows;
  }

  /**
   * The pending value of `key`: a Buffer, null when deleted, undefined when not pending. `hash`
   * is `hashKey(key)`, for a caller asking several tables.
   */
  lookup(key: Uint8Array, hash = hashKey(key)): Buffer | null | undefined {
    const row = this.slots[this.slotOf(key, 0, key.length, hash) + 1]!;
    if (row === EMPTY) return undefined;
    const length = this.rows[row * ROW + 3]!;
    if (length === DELETED) return null;
    const at = this.rows[row * ROW + 2]!;
    return this.arena.subarray(at, at + length);
  }

  /**
   * Takes the operations of one block (or, `block: false`, a record written beside blocks). Keys
   * and values are copied, so callers may reuse their buffers.
   */
  apply(ops: readonly BatchOp[], { block }: { block: boolean } = { block: true }): void {
    for (const op of ops) {
      if (op.type === 'packed') this.applyPacked(op.rows);
      else if (op.type === 'put') this.applyRow(op.key, 0, op.key.length, 0, op.value.length, op.fresh === true, op.value);
      else this.applyRow(op.key, 0, op.key.length, -1, 0, false);
    }
    if (block) this.blocks++;
  }

  /**
   * Packed rows are copied into the arena in one piece and each row points at its key and value
   * there: one native copy per block instead of a loop over every byte of every row (the address
   * index's rows are most of what a group holds).
   */
  private applyPacked(rows: PackedOps): void {
    const length = rows.length;
    this.reserve(length);
    const base = this.used;
    rows.buffer.copy(this.arena, base, 0, length);
    this.used += length;
    const arena = this.arena;
    const spans = this.uniqueSpans;
    if (spans) spans.push(base, base + length);
    for (let at = base; at < base + length;) {
      const keyAt = at + PACKED_HEADER_BYTES;
      const keyLength = packedKeyLength(arena, at);
      const valueLength = packedValueLength(arena, at);
      if (spans && packedIsUnique(arena, at)) {
        this.uniqueRows++;
        this.bytes += keyLength + valueLength;
        at = keyAt + keyLength + valueLength;
        continue;
      }
      const valueAt = packedIsPut(arena, at) ? keyAt + keyLength : -1;
      this.applyRow(arena, keyAt, keyLength, valueAt, valueLength, packedIsFresh(arena, at));
      at = keyAt + keyLength + valueLength;
    }
  }

  /**
   * One put (the value at `valueAt` in `value`, which defaults to the key's buffer) or, with
   * `valueAt` -1, one deletion. Bytes already in the arena (packed rows) are not copied again.
   */
  private applyRow(
    key: Uint8Array,
    keyAt: number,
    keyLength: number,
    valueAt: number,
    valueLength: number,
    fresh: boolean,
    value: Uint8Array = key,
  ): void {
    const hash = hashKey(key, keyAt, keyLength);
    const slot = this.slotOf(key, keyAt, keyLength, hash);
    let row = this.slots[slot + 1]!;
    const first = row === EMPTY;
    const inArena = key === this.arena;
    if (first) row = this.addRow(inArena ? keyAt : this.copyIn(key, keyAt, keyLength), keyLength, hash, slot);
    const at = valueAt < 0 ? -1 : inArena && value === key ? valueAt : this.copyIn(value, valueAt, valueLength);
    this.setValue(row, first, at, valueLength, fresh, keyLength);
  }

  /** Appends `length` bytes of `from` to the arena; returns where they are. */
  private copyIn(from: Uint8Array, at: number, length: number): number {
    this.reserve(length);
    const { arena, used } = this;
    // A JS loop beats a native call for keys and small values; an undo record (tens of kB with
    // the address index) is copied natively.
    if (length > NATIVE_COPY_BYTES) arena.set(from.subarray(at, at + length), used);
    else for (let i = 0; i < length; i++) arena[used + i] = from[at + i]!;
    this.used += length;
    return used;
  }

  /** Makes `row` a put of the arena bytes at `valueAt`, or with `valueAt` -1 a deletion. */
  private setValue(row: number, first: boolean, valueAt: number, valueLength: number, fresh: boolean, keyLength: number): void {
    const r = row * ROW;
    // A key this group creates, and deletes again before it is written, never reaches LevelDB.
    if (first) this.rows[r + 4] = valueAt >= 0 && fresh ? 1 : 0;
    if (valueAt >= 0) {
      this.rows[r + 2] = valueAt;
      this.rows[r + 3] = valueLength;
      this.bytes += keyLength + valueLength;
    } else {
      this.rows[r + 3] = DELETED;
      this.bytes += keyLength;
    }
  }

  /**
   * One operation per key, in the order keys were first written, for a single atomic batch. A key
   * first written in this group by a `fresh` put and deleted since is left out: the store never
   * had it (a coin created and spent within the group).
   */
  batch(): PlainOp[] {
    return rowSourceOps(this);
  }

  /**
   * `batch()` without an operation object per row: each row goes to `put` or `del` as views into
   * the arena (how a group reaches LevelDB's native batch, write-batch.ts). Returns the row count.
   */
  writeRows(put: (key: Buffer, value: Buffer) => void, del: (key: Buffer) => void): number {
    const { rows, arena } = this;
    let written = 0;
    for (let r = 0; r < this.count * ROW; r += ROW) {
      const length = rows[r + 3]!;
      if (length === DELETED && rows[r + 4] === 1) continue;
      const key = arena.subarray(rows[r]!, rows[r]! + rows[r + 1]!);
      if (length === DELETED) del(key);
      else put(key, arena.subarray(rows[r + 2]!, rows[r + 2]! + length));
      written++;
    }
    const spans = this.uniqueSpans ?? [];
    for (let i = 0; i < spans.length; i += 2) {
      for (let at = spans[i]!; at < spans[i + 1]!;) {
        const keyAt = at + PACKED_HEADER_BYTES;
        const valueAt = keyAt + packedKeyLength(arena, at);
        const end = valueAt + packedValueLength(arena, at);
        if (packedIsUnique(arena, at)) {
          put(arena.subarray(keyAt, valueAt), arena.subarray(valueAt, end));
          written++;
        }
        at = end;
      }
    }
    return written;
  }

  /** The slot (index of its hash in `slots`) holding the key `key[keyAt, keyAt + length)`, or the empty slot where it would go. */
  private slotOf(key: Uint8Array, keyAt: number, length: number, hash: number): number {
    const { slots, rows, arena } = this;
    const mask = slots.length - 2;
    for (let s = (hash << 1) & mask; ; s = (s + 2) & mask) {
      const row = slots[s + 1]!;
      if (row === EMPTY) return s;
      if (slots[s] !== hash || rows[row * ROW + 1] !== length) continue;
      const at = rows[row * ROW]!;
      // From the end, where keys differ.
      let i = length - 1;
      while (i >= 0 && arena[at + i] === key[keyAt + i]) i--;
      if (i < 0) return s;
    }
  }

  /** A new row for the key already in the arena at `keyAt`, in the empty `slot`. */
  private addRow(keyAt: number, length: number, hash: number, slot: number): number {
    const row = this.count++;
    if (row * ROW === this.rows.length) {
      const rows = new Int32Array(this.rows.length * 2);
      rows.set(this.rows);
      this.rows = rows;
    }
    this.rows[row * ROW] = keyAt;
    this.rows[row * ROW + 1] = length;
    this.rows[row * ROW + 3] = DELETED;
    this.slots[slot] = hash;
    this.slots[slot + 1] = row;
    if (this.count * 4 > this.slots.length) this.rehash();
    return row;
  }

  private rehash(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2).fill(EMPTY);
    const mask = slots.length - 2;
    for (let o = 0; o < old.length; o += 2) {
      if (old[o + 1] === EMPTY) continue;
      let s = (old[o]! << 1) & mask;
      while (slots[s + 1] !== EMPTY) s = (s + 2) & mask;
      slots[s] = old[o]!;
      slots[s + 1] = old[o + 1]!;
    }
    this.slots = slots;
  }

  /** Room for `n` more bytes; earlier Buffers from `lookup` keep the old arena's (unchanged) bytes. */
  private reserve(n: number): void {
    if (this.used + n <= this.arena.length) return;
    const arena = Buffer.allocUnsafe(Math.max(this.arena.length * 2, this.used + n));
    this.arena.copy(arena, 0, 0, this.used);
    this.arena = arena;
  }
}
