/**
 * Bounds-checked little-endian reader and growable writer over Uint8Array.
 *
 * Hand-written on purpose: it is the hot path of every decoder and the exact error
 * behaviour (which message, at which offset) is part of the product. Slices are views
 * (`subarray`), never copies.
 */
import { DecodeError, END_OF_DATA, IOS_SUFFIX, InnerRustError } from './errors.js';

/** zcashd's MAX_SIZE: the largest CompactSize value and the largest serialized object. */
export const MAX_SIZE = 0x02000000;

/** Which of zcashd's two CompactSize readers is emulated (they report different texts). */
export type CompactSizeFlavour = 'cpp' | 'rust';

/**
 * The little-endian int32 at `at` of `b` (the caller has checked bounds). Byte reads rather than
 * a DataView, which would have to be made per buffer; `>>> 0` gives the uint32.
 */
export function int32LE(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24);
}

/**
 * A plain Uint8Array view of `b[start, end)`. A Node Buffer's own `subarray` goes through its
 * species constructor (slower, and it makes Buffers); a plain Uint8Array's takes V8's builtin.
 */
export function viewOf(b: Uint8Array, start: number, end: number): Uint8Array {
  if (b.constructor === Uint8Array) return b.subarray(start, end);
  return new Uint8Array(b.buffer, b.byteOffset + start, end - start);
}

/** Reads little-endian integers, CompactSizes and byte ranges from a buffer, throwing a DecodeError past its end. */
export class ByteReader {
  /**
   * The bytes being read. A Buffer is replaced by a plain Uint8Array view of the same memory,
   * except for a reader made with `keepBuffer` (see the constructor).
   */
  readonly buf: Uint8Array;
  pos: number;
  readonly end: number;
  /**
   * Set by readVout when an output value is outside MoneyRange: zcashd's C++ parse accepts it
   * and its second (Rust) parse rejects the transaction afterwards, so readTransaction reports
   * it only once the whole transaction has been read.
   */
  outputValueOutOfRange = false;
  /** `buf` as a plain Uint8Array, made on the first `view` when `buf` is a Buffer. */
  private plain: Uint8Array | undefined;

  /**
   * Subarrays of a Buffer are slower and are Buffers, so a Buffer is normally viewed as a plain
   * Uint8Array up front (measured: Buffer subarrays were a quarter of decoding a small
   * transaction). With `keepBuffer` that view is only made by the first `view`/`bytes` call:
   * a transparent transaction decoded on its own needs none, and making it (`.buffer` on a
   * Buffer is a C++ getter) was a quarter of decoding a small one.
   */
  constructor(buf: Uint8Array, start = 0, end = buf.length, keepBuffer = false) {
    if (buf.constructor === Uint8Array) this.plain = buf;
    else if (!keepBuffer) this.plain = buf = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }

  /** A plain Uint8Array view of `buf[start, end)` (no copy). */
  view(start: number, end: number): Uint8Array {
    return (this.plain ??= new Uint8Array(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength)).subarray(start, end);
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  /** Throws zcashd's end-of-data error unless `n` more bytes exist. */
  need(n: number): void {
    if (this.end - this.pos < n) endOfData(this.end);
  }

  // The fixed-size readers are kept small (bounds check, byte reads, no helper calls) so V8
  // inlines them into the decoders, which are big enough to use up its inlining budget.

  u8(): number {
    const at = this.pos;
    if (at >= this.end) endOfData(this.end);
    this.pos = at + 1;
    return this.buf[at]!;
  }

  u16(): number {
    const at = this.pos;
    if (this.end - at < 2) endOfData(this.end);
    this.pos = at + 2;
    return this.buf[at]! | (this.buf[at + 1]! << 8);
  }

  u32(): number {
    const at = this.pos;
    if (this.end - at < 4) endOfData(this.end);
    this.pos = at + 4;
    return int32LE(this.buf, at) >>> 0;
  }

  i32(): number {
    const at = this.pos;
    if (this.end - at < 4) endOfData(this.end);
    this.pos = at + 4;
    return int32LE(this.buf, at);
  }

  /**
   * A signed 64-bit integer as a JS number when it is exactly representable
   * (|v| ≤ 2^53), otherwise as a bigint. Money values are always far inside that range;
   * callers range-check and reject the rest.
   */
  i64(): number | bigint {
    const at = this.pos;
    if (this.end - at < 8) endOfData(this.end);
    this.pos = at + 8;
    const lo = int32LE(this.buf, at) >>> 0;
    const hi = int32LE(this.buf, at + 4);
    if (hi >= -0x200000 && hi < 0x200000) return hi * 0x100000000 + lo;
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  u64(): bigint {
    const at = this.pos;
    if (this.end - at < 8) endOfData(this.end);
    this.pos = at + 8;
    const lo = int32LE(this.buf, at) >>> 0;
    const hi = int32LE(this.buf, at + 4) >>> 0;
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  /** A view of the next `n` bytes (no copy). */
  bytes(n: number): Uint8Array {
    this.need(n);
    const out = this.view(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  skip(n: number): void {
    this.need(n);
    this.pos += n;
  }

  /**
   * CompactSize with zcashd's canonical-encoding rule (checked first) and MAX_SIZE limit.
   * `flavour` picks the C++ or the Rust (zcash_encoding) error text.
   */
  compactSize(flavour: CompactSizeFlavour = 'cpp'): number {
    const start = this.pos;
    const first = this.u8();
    let value: number;
    if (first < 0xfd) return first;
    if (first === 0xfd) {
      value = this.u16();
      if (value < 0xfd) return nonCanonical(flavour, start);
    } else if (first === 0xfe) {
      value = this.u32();
      if (value < 0x10000) return nonCanonical(flavour, start);
    } else {
      const big = this.u64();
      if (big < 0x100000000n) return nonCanonical(flavour, start);
      return tooLarge(flavour, start);
    }
    if (value > MAX_SIZE) return tooLarge(flavour, start);
    return value;
  }

  /** CompactSize length followed by that many bytes (a view). */
  varBytes(flavour: CompactSizeFlavour = 'cpp'): Uint8Array {
    const n = this.compactSize(flavour);
    return this.bytes(n);
  }
}

function endOfData(offset: number): never {
  throw new DecodeError('end-of-data', offset, END_OF_DATA);
}

function nonCanonical(flavour: CompactSizeFlavour, offset: number): never {
  if (flavour === 'rust') throw new InnerRustError('non-canonical-compactsize', offset, 'non-canonical CompactSize');
  throw new DecodeError('non-canonical-compactsize', offset, `non-canonical ReadCompactSize()${IOS_SUFFIX}`);
}

function tooLarge(flavour: CompactSizeFlavour, offset: number): never {
  if (flavour === 'rust') throw new InnerRustError('compactsize-too-large', offset, 'CompactSize too large');
  throw new DecodeError('compactsize-too-large', offset, `ReadCompactSize(): size too large${IOS_SUFFIX}`);
}

/** Number of bytes CompactSize(n) takes. */
export function compactSizeLength(n: number): number {
  return n < 0xfd ? 1 : n <= 0xffff ? 3 : n <= 0xffffffff ? 5 : 9;
}

/**
 * Writes little-endian integers, CompactSizes and bytes into a buffer that grows as needed.
 * Integers up to 32 bits, and the halves of an `i64` given as a number, are stored byte by byte,
 * and a DataView is made only for BigInts: the import makes several writers a block (history
 * nodes, the chain-state records), and a DataView for each would be a measurable part of a
 * block's fixed cost.
 */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView | null = null;
  pos = 0;

  constructor(initial = 256) {
    this.buf = new Uint8Array(initial);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    // max(…, 64): a writer created with capacity 0 would otherwise double 0 forever.
    let size = Math.max(this.buf.length * 2, 64);
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = null;
  }

  private dataView(): DataView {
    return (this.view ??= new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength));
  }

  /** The low 32 bits of `v`, little-endian (two's complement for negative values). */
  private put32(v: number): void {
    const b = this.buf;
    const p = this.pos;
    b[p] = v;
    b[p + 1] = v >>> 8;
    b[p + 2] = v >>> 16;
    b[p + 3] = v >>> 24;
    this.pos = p + 4;
  }

  u8(v: number): this {
    this.ensure(1);
    this.buf[this.pos++] = v;
    return this;
  }

  u16(v: number): this {
    this.ensure(2);
    this.buf[this.pos] = v;
    this.buf[this.pos + 1] = v >>> 8;
    this.pos += 2;
    return this;
  }

  u32(v: number): this {
    this.ensure(4);
    this.put32(v);
    return this;
  }

  i32(v: number): this {
    this.ensure(4);
    this.put32(v);
    return this;
  }

  i64(v: number | bigint): this {
    this.ensure(8);
    if (typeof v === 'number' && Number.isSafeInteger(v)) {
      // Two 32-bit halves (two's complement via floor division) avoid a BigInt per amount.
      const hi = Math.floor(v / 0x100000000);
      this.put32(v - hi * 0x100000000);
      this.put32(hi);
    } else {
      this.dataView().setBigInt64(this.pos, BigInt(v), true);
      this.pos += 8;
    }
    return this;
  }

  u64(v: bigint): this {
    this.ensure(8);
    this.dataView().setBigUint64(this.pos, v, true);
    this.pos += 8;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this;
  }

  compactSize(n: number): this {
    if (n < 0xfd) return this.u8(n);
    if (n <= 0xffff) return this.u8(0xfd).u16(n);
    if (n <= 0xffffffff) return this.u8(0xfe).u32(n);
    return this.u8(0xff).u64(BigInt(n));
  }

  varBytes(b: Uint8Array): this {
    return this.compactSize(b.length).bytes(b);
  }

  /** The written bytes (a copy trimmed to length). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}
