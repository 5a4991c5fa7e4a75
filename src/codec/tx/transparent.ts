/** Transparent inputs and outputs (CTxIn / CTxOut), read by zcashd's C++ code. */
import { compactSizeLength, int32LE, viewOf, type ByteReader, type ByteWriter } from '../bytes.js';
import { isMoneyRange } from './money.js';
import type { OutPoint, TransparentPart, TxIn, TxOut } from './types.js';

/**
 * A decoded input that keeps offsets and makes its byte views on access. Decoding a block
 * mostly needs the bytes' boundaries (txids hash the whole transaction), and creating
 * `subarray` views for every prevout and script of a 2 MB block cost more than finding them.
 * `buf` may be a Buffer (a transaction decoded on its own from one); the views are plain
 * Uint8Arrays either way, while readers of `buf` itself (rendering reads scripts in place)
 * get it as it is.
 */
export class WireTxIn implements TxIn {
  constructor(
    readonly buf: Uint8Array,
    /** Offset of the prevout in `buf`. */
    readonly at: number,
    readonly scriptLength: number,
  ) {}

  get prevout(): OutPoint {
    const b = this.buf;
    const i = this.at + 32;
    return { hash: viewOf(b, this.at, i), index: int32LE(b, i) >>> 0 };
  }

  get scriptSig(): Uint8Array {
    const start = this.scriptSigStart;
    return viewOf(this.buf, start, start + this.scriptLength);
  }

  /** Offset of the scriptSig in `buf`. */
  get scriptSigStart(): number {
    return this.at + 36 + compactSizeLength(this.scriptLength);
  }

  /** Read on access like the rest: a uint32 field above 2^31 (most are 0xffffffff) would box a number per input. */
  get sequence(): number {
    return int32LE(this.buf, this.scriptSigStart + this.scriptLength) >>> 0;
  }

  /** `prevout.index` without building the prevout object (getblock reads it for every input). */
  get prevoutIndex(): number {
    return int32LE(this.buf, this.at + 32) >>> 0;
  }
}

/**
 * A decoded output: offsets only, the value and script read on access (a value above 2^31
 * zatoshis stored in a field would box a number per output).
 */
export class WireTxOut implements TxOut {
  constructor(
    readonly buf: Uint8Array,
    /** Offset of the output (its value) in `buf`. */
    readonly at: number,
    readonly scriptLength: number,
  ) {}

  /**
   * zatoshis. Values beyond ±2^53 read as NaN: they are rejected after decoding (zcashd's Rust
   * re-parse, "Group B"), and NaN fails that range check as they must.
   */
  get value(): number {
    const hi = int32LE(this.buf, this.at + 4);
    return hi >= -0x200000 && hi < 0x200000 ? hi * 0x100000000 + (int32LE(this.buf, this.at) >>> 0) : Number.NaN;
  }

  get scriptPubKey(): Uint8Array {
    const start = this.scriptPubKeyStart;
    return viewOf(this.buf, start, start + this.scriptLength);
  }

  /** Offset of the scriptPubKey in `buf`. */
  get scriptPubKeyStart(): number {
    return this.at + 8 + compactSizeLength(this.scriptLength);
  }
}

/**
 * The serialized outputs (value ‖ CompactSize ‖ script, each) as one view of the decoded bytes,
 * or null when the outputs were not decoded from one buffer. ZIP-244's outputs digest hashes
 * exactly these bytes, so no re-serialization is needed.
 */
export function outputsWireBytes(vout: readonly TxOut[]): Uint8Array | null {
  if (vout.length === 0) return new Uint8Array(0);
  const first = vout[0];
  const last = vout[vout.length - 1];
  if (!(first instanceof WireTxOut) || !(last instanceof WireTxOut)) return null;
  for (const o of vout) if (!(o instanceof WireTxOut) || o.buf !== first.buf) return null;
  return viewOf(first.buf, first.at, last.at + 8 + compactSizeLength(last.scriptLength) + last.scriptLength);
}

/**
 * Writes every input's 36-byte prevout into `prevouts` and 4-byte sequence into `sequences`
 * (ZIP-244's prevouts and sequence digests), copying from the wire bytes when possible.
 */
export function gatherPrevoutsAndSequences(vin: readonly TxIn[], prevouts: Uint8Array, sequences: Uint8Array): void {
  for (let k = 0; k < vin.length; k++) {
    const i = vin[k]!;
    if (i instanceof WireTxIn) {
      const b = i.buf;
      const p = i.at;
      for (let j = 0; j < 36; j++) prevouts[36 * k + j] = b[p + j]!;
    } else {
      prevouts.set(i.prevout.hash, 36 * k);
      const idx = i.prevout.index >>> 0;
      prevouts[36 * k + 32] = idx & 0xff;
      prevouts[36 * k + 33] = (idx >>> 8) & 0xff;
      prevouts[36 * k + 34] = (idx >>> 16) & 0xff;
      prevouts[36 * k + 35] = idx >>> 24;
    }
    const seq = i.sequence >>> 0;
    sequences[4 * k] = seq & 0xff;
    sequences[4 * k + 1] = (seq >>> 8) & 0xff;
    sequences[4 * k + 2] = (seq >>> 16) & 0xff;
    sequences[4 * k + 3] = seq >>> 24;
  }
}

/** The smallest serialized input (prevout, empty script, sequence) and output (value, empty script). */
export const MIN_INPUT_BYTES = 41;
export const MIN_OUTPUT_BYTES = 9;

/**
 * An array for `n` decoded elements: sized up front when the remaining bytes could hold them
 * (growing by push showed in profiles), empty otherwise, so a forged count fails at the end of
 * the data instead of allocating for it.
 */
function listFor<T>(n: number, remaining: number, minBytes: number): T[] {
  return n <= remaining / minBytes ? new Array<T>(n) : [];
}

/**
 * Steps over one input or output: `fixed` bytes, a CompactSize script length, the script, then
 * `tail` bytes; returns the script length with `r.pos` after the element. The bytes are read
 * directly and the reader is only asked for a length of 253+ or a shortfall (v1 transactions
 * average 36 inputs, and per-field reader calls were most of their decoding). A shortfall
 * anywhere in the element is zcashd's one end-of-data error, so checking the script and tail
 * together is exact.
 */
function stepOverScripted(r: ByteReader, fixed: number, tail: number): number {
  const buf = r.buf;
  let pos = r.pos;
  let scriptLength: number;
  if (r.end - pos > fixed && buf[pos + fixed]! < 0xfd) {
    scriptLength = buf[pos + fixed]!;
    pos += fixed + 1;
  } else {
    r.skip(fixed);
    scriptLength = r.compactSize();
    pos = r.pos;
  }
  if (r.end - pos < scriptLength + tail) {
    r.pos = pos;
    r.need(scriptLength + tail); // throws end-of-data
  }
  r.pos = pos + scriptLength + tail;
  return scriptLength;
}

export function readVin(r: ByteReader): TxIn[] {
  const n = r.compactSize();
  const vin = listFor<TxIn>(n, r.remaining, MIN_INPUT_BYTES);
  for (let i = 0; i < n; i++) {
    const at = r.pos;
    vin[i] = new WireTxIn(r.buf, at, stepOverScripted(r, 36, 4)); // prevout, script, sequence
  }
  return vin;
}

export function readVout(r: ByteReader): TxOut[] {
  const n = r.compactSize();
  const vout = listFor<TxOut>(n, r.remaining, MIN_OUTPUT_BYTES);
  const buf = r.buf;
  let outOfRange = false;
  for (let i = 0; i < n; i++) {
    const at = r.pos;
    vout[i] = new WireTxOut(buf, at, stepOverScripted(r, 8, 0)); // value, script
    // The value's 8 bytes are known to be there. With its top two bytes zero it is below 2^48
    // (< MAX_MONEY); otherwise the full value decides (beyond ±2^53 the sum is inexact but still
    // negative or far above MAX_MONEY, so the verdict is exact).
    if (buf[at + 7] !== 0 || buf[at + 6] !== 0) {
      if (!isMoneyRange(int32LE(buf, at + 4) * 0x100000000 + (int32LE(buf, at) >>> 0))) outOfRange = true;
    }
  }
  if (outOfRange) r.outputValueOutOfRange = true;
  return vout;
}

/**
 * The transparent part of a transaction (after its header), read field by field with zcashd's
 * errors, in its format's layout; the expiry height reads as 0 where the layout has none.
 */
export function readTransparentPart(
  r: ByteReader,
  layout: { readonly branchIdFirst: boolean; readonly expiryHeight: boolean },
): TransparentPart {
  if (layout.branchIdFirst) {
    const consensusBranchId = r.u32();
    const lockTime = r.u32();
    const expiryHeight = r.u32();
    const vin = readVin(r);
    const vout = readVout(r);
    return { consensusBranchId, lockTime, expiryHeight, vin, vout };
  }
  const vin = readVin(r);
  const vout = readVout(r);
  const lockTime = r.u32();
  const expiryHeight = layout.expiryHeight ? r.u32() : 0;
  return { consensusBranchId: null, lockTime, expiryHeight, vin, vout };
}

export function writeVin(w: ByteWriter, vin: readonly TxIn[]): void {
  w.compactSize(vin.length);
  for (const i of vin) {
    w.bytes(i.prevout.hash).u32(i.prevout.index).varBytes(i.scriptSig).u32(i.sequence);
  }
}

export function writeVout(w: ByteWriter, vout: readonly TxOut[]): void {
  w.compactSize(vout.length);
  for (const o of vout) w.i64(o.value).varBytes(o.scriptPubKey);
}

/** zcashd's IsCoinBase: exactly one input whose prevout is null (zero hash, index 0xffffffff). */
export function isCoinbase(vin: readonly TxIn[]): boolean {
  return vin.length === 1 && spendsNullPrevout(vin[0]!);
}

/** Inputs `a` and `b` spend the same prevout (txid and index). */
function samePrevout(a: TxIn, b: TxIn): boolean {
  if (a instanceof WireTxIn && b instanceof WireTxIn) {
    for (let k = 0; k < 36; k++) if (a.buf[a.at + k] !== b.buf[b.at + k]) return false;
    return true;
  }
  const pa = a.prevout;
  const pb = b.prevout;
  if (pa.index !== pb.index) return false;
  for (let k = 0; k < 32; k++) if (pa.hash[k] !== pb.hash[k]) return false;
  return true;
}

/** A number equal prevouts share: the txid's first four bytes (uniform) mixed with the index. */
function prevoutKey(i: TxIn): number {
  if (i instanceof WireTxIn) return (int32LE(i.buf, i.at) ^ Math.imul(int32LE(i.buf, i.at + 32), 0x9e3779b1)) | 0;
  const p = i.prevout;
  return (int32LE(p.hash, 0) ^ Math.imul(p.index | 0, 0x9e3779b1)) | 0;
}

/** Open-addressing table for firstDuplicateInput: input index + 1 per slot, 0 for empty. */
let slots = new Int32Array(1024);

/**
 * The first input that spends the same prevout as an earlier one (zcashd's std::set check in
 * CheckTransaction), or -1. A hash table of input indexes keyed by four txid bytes and the index,
 * probed linearly and compared in full: hex keys in a Set were most of the transaction rules'
 * cost on input-heavy blocks, and a Map of numbers still half.
 */
export function firstDuplicateInput(vin: readonly TxIn[]): number {
  const n = vin.length;
  if (n < 2) return -1;
  let size = 1024;
  while (size < 2 * n) size *= 2;
  if (slots.length < size) slots = new Int32Array(size);
  const table = slots;
  table.fill(0, 0, size);
  const mask = size - 1;
  for (let i = 0; i < n; i++) {
    for (let at = prevoutKey(vin[i]!) & mask; ; at = (at + 1) & mask) {
      const j = table[at]!;
      if (j === 0) {
        table[at] = i + 1;
        break;
      }
      if (samePrevout(vin[i]!, vin[j - 1]!)) return i;
    }
  }
  return -1;
}

/** `COutPoint::IsNull`: a zero txid and index 0xffffffff (read in place for decoded inputs). */
export function spendsNullPrevout(i: TxIn): boolean {
  if (i instanceof WireTxIn) {
    if (int32LE(i.buf, i.at + 32) !== -1) return false;
    for (let k = 0; k < 32; k++) if (i.buf[i.at + k] !== 0) return false;
    return true;
  }
  const p = i.prevout;
  return p.index === 0xffffffff && p.hash.every((b) => b === 0);
}
