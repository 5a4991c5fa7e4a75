/** Transparent inputs and outputs (CTxIn / CTxOut), read by zcashd's C++ code. */
import { compactSizeLength, int32LE, type ByteReader, type ByteWriter } from '../bytes.js';
import type { OutPoint, TxIn, TxOut } from './types.js';

/**
 * A decoded input that keeps offsets and makes its byte views on access. Decoding a block
 * mostly needs the bytes' boundaries (txids hash the whole transaction), and creating
 * `subarray` views for every prevout and script of a 2 MB block cost more than finding them.
 */
export class WireTxIn implements TxIn {
  constructor(
    readonly buf: Uint8Array,
    /** Offset of the prevout in `buf`. */
    readonly at: number,
    private readonly scriptLength: number,
    readonly sequence: number,
  ) {}

  get prevout(): OutPoint {
    const b = this.buf;
    const i = this.at + 32;
    return { hash: b.subarray(this.at, i), index: int32LE(b, i) >>> 0 };
  }

  get scriptSig(): Uint8Array {
    const start = this.at + 36 + compactSizeLength(this.scriptLength);
    return this.buf.subarray(start, start + this.scriptLength);
  }

  /** `prevout.index` without building the prevout object (getblock reads it for every input). */
  get prevoutIndex(): number {
    return int32LE(this.buf, this.at + 32) >>> 0;
  }
}

/** A decoded output: the value eagerly (range-checked after decoding), the script on access. */
class WireTxOut implements TxOut {
  constructor(
    readonly buf: Uint8Array,
    readonly scriptAt: number,
    readonly scriptLength: number,
    readonly value: number,
  ) {}

  get scriptPubKey(): Uint8Array {
    return this.buf.subarray(this.scriptAt, this.scriptAt + this.scriptLength);
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
  const start = first.scriptAt - compactSizeLength(first.scriptLength) - 8;
  return first.buf.subarray(start, last.scriptAt + last.scriptLength);
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

export function readVin(r: ByteReader): TxIn[] {
  const n = r.compactSize();
  const vin: TxIn[] = [];
  // Positions are tracked locally and the reader is only consulted for the rare cases (a script
  // length of 253+ bytes, or too few bytes left): v1 transactions average 36 inputs and the
  // per-field reader calls were most of their decoding. A shortfall anywhere in an input is
  // zcashd's one end-of-data error, so checking the script and sequence together is exact.
  const buf = r.buf;
  const end = r.end;
  let pos = r.pos;
  for (let i = 0; i < n; i++) {
    const at = pos;
    let scriptLength: number;
    if (end - pos >= 37 && buf[pos + 36]! < 0xfd) {
      scriptLength = buf[pos + 36]!;
      pos += 37;
    } else {
      r.pos = pos;
      r.skip(36); // prevout hash and index
      scriptLength = r.compactSize();
      pos = r.pos;
    }
    if (end - pos < scriptLength + 4) {
      r.pos = pos;
      r.need(scriptLength + 4); // throws end-of-data
    }
    pos += scriptLength;
    const sequence = int32LE(buf, pos) >>> 0;
    pos += 4;
    vin.push(new WireTxIn(buf, at, scriptLength, sequence));
  }
  r.pos = pos;
  return vin;
}

export function readVout(r: ByteReader): TxOut[] {
  const n = r.compactSize();
  const vout: TxOut[] = [];
  for (let i = 0; i < n; i++) {
    const raw = r.i64();
    // Out-of-range values are rejected later (zcashd's Rust re-parse, "Group B"); keep a
    // sentinel that fails that check without losing the decode position.
    const value = typeof raw === 'bigint' ? Number.NaN : raw;
    const scriptLength = r.compactSize();
    const scriptAt = r.pos;
    r.skip(scriptLength);
    vout.push(new WireTxOut(r.buf, scriptAt, scriptLength, value));
  }
  return vout;
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

const NULL_HASH_BYTES = 32;

/** zcashd's IsCoinBase: exactly one input whose prevout is null (zero hash, index 0xffffffff). */
export function isCoinbase(vin: readonly TxIn[]): boolean {
  if (vin.length !== 1) return false;
  const p = vin[0]!.prevout;
  if (p.index !== 0xffffffff) return false;
  for (let i = 0; i < NULL_HASH_BYTES; i++) if (p.hash[i] !== 0) return false;
  return true;
}
