/**
 * Transaction decoding, encoding and ids, with zcashd v6.12.2's decode-time validation.
 */
import { ByteReader, ByteWriter, int32LE, viewOf } from '../bytes.js';
import { DecodeError, IOS_SUFFIX } from '../errors.js';
import { hexBytesToBytesNotingCase, hexToBytesStrict, toHexReversed } from '../hex.js';
import { ZCASHD_6_12_2_ACCEPTANCE, type TxAcceptance } from './acceptance.js';
import { selectFormat, type TxCapabilities, type TxFormat, type TxHeader } from './formats/index.js';
import { v1Format, v2Format } from './formats/legacy.js';
import { v5Format } from './formats/nu5.js';
import { v6Format } from './formats/nu6-3.js';
import { v3Format } from './formats/overwinter.js';
import { v4Format } from './formats/sapling.js';
import { isMoneyRange } from './money.js';
import { newJoinSplitList } from './sprout.js';
import { transactionData } from './transaction-data.js';
import { isCoinbase, MIN_INPUT_BYTES, MIN_OUTPUT_BYTES, WireTxIn, WireTxOut } from './transparent.js';
import {
  NU5_VERSION_GROUP_ID,
  NU6_3_VERSION_GROUP_ID,
  OVERWINTER_VERSION_GROUP_ID,
  SAPLING_VERSION_GROUP_ID,
  type JoinSplit,
  type TransactionData,
  type TransparentPart,
  type TxIn,
  type TxOut,
} from './types.js';

const INVALID_FORMAT = `CTransaction::UpdateHash: Invalid transaction format${IOS_SUFFIX}`;

/** A decoded transaction: its fields, its exact bytes, and lazily computed ids. */
export class Transaction {
  readonly data: TransactionData;
  /** Where the transaction was read from: `source[start, end)` are exactly its bytes. */
  private readonly source: Uint8Array;
  private readonly start: number;
  private readonly end: number;
  private readonly formatImpl: TxFormat;
  private bytesCache: Uint8Array | undefined;
  private txidCache: Uint8Array | undefined;
  private authCache: Uint8Array | undefined;

  constructor(data: TransactionData, source: Uint8Array, start: number, end: number, format: TxFormat) {
    this.data = data;
    this.source = source;
    this.start = start;
    this.end = end;
    this.formatImpl = format;
  }

  /**
   * Exactly the serialized bytes: a plain Uint8Array view into the decoded buffer, made on first
   * use (a transaction that is only hashed needs none).
   */
  get bytes(): Uint8Array {
    return (this.bytesCache ??= viewOf(this.source, this.start, this.end));
  }

  get size(): number {
    return this.end - this.start;
  }

  /** The bytes to hash: the decoded buffer itself when the transaction is all of it (no view to make). */
  private wire(): Uint8Array {
    return this.start === 0 && this.end === this.source.length ? this.source : this.bytes;
  }

  /** txid in internal byte order. */
  get txid(): Uint8Array {
    return (this.txidCache ??= this.formatImpl.txid(this.data, this.wire()));
  }

  /** txid as zcashd prints it. */
  get txidHex(): string {
    return toHexReversed(this.txid);
  }

  /** What the transaction's wire format carries (Sapling, Orchard, Ironwood, JoinSplit fields, a branch id). */
  get carries(): TxCapabilities {
    return this.formatImpl.carries;
  }

  /** Auth digest (ZIP 244 for v5, ZIP 229 for v6) or 32 × 0xff, internal order. */
  get authDigest(): Uint8Array {
    return (this.authCache ??= this.formatImpl.authDigest(this.data, this.wire()));
  }

  /**
   * Computes the txid and the auth digest together, where the format hashes both in one walk
   * over the bytes (v5, v6), for a caller about to ask for both (TxToJSON). Otherwise, or when
   * either is known already, each is computed when first asked for: a block's txids alone
   * (getblock 1) must not pay for auth digests.
   */
  computeDigests(): void {
    const both = this.formatImpl.digests;
    if (both === undefined || this.txidCache !== undefined || this.authCache !== undefined) return;
    const d = both(this.data, this.wire());
    this.txidCache = d.txid;
    this.authCache = d.authDigest;
  }

  get isCoinbase(): boolean {
    return isCoinbase(this.data.vin);
  }

  /** Re-serializes from the fields (equal to `bytes` for anything this codec decoded). */
  serialize(): Uint8Array {
    return encodeTransaction(this.data);
  }
}

/**
 * Reads one transaction at `r.pos`. Trailing bytes are left unread, as zcashd leaves them.
 * Throws DecodeError with zcashd's message on any failure. `acceptance` says which formats and
 * branch ids are read (zcashd v6.12.2's by default).
 */
export function readTransaction(r: ByteReader, acceptance: TxAcceptance = ZCASHD_6_12_2_ACCEPTANCE): Transaction {
  const start = r.pos;
  const quick = readQuickly(r.buf, start, r.end, r, acceptance);
  if (quick === null) return readFieldByField(r, acceptance);
  r.pos = start + quick.size;
  return quick;
}

/** `readTransaction` through the general readers only. */
function readFieldByField(r: ByteReader, acceptance: TxAcceptance): Transaction {
  const start = r.pos;
  const rawHeader = r.u32();
  const overwintered = rawHeader >>> 31 === 1;
  const version = rawHeader & 0x7fffffff;
  const versionGroupId = overwintered ? r.u32() : 0;
  const header = { overwintered, version, versionGroupId };
  const format = selectFormat(header, start, acceptance);
  r.outputValueOutOfRange = false;
  const data = format.read(r, header);
  checkRustReparse(data, r.outputValueOutOfRange, start, acceptance);
  return new Transaction(data, r.buf, start, r.pos, format);
}

/**
 * Reads a v1 to v6 transaction at `b[start]` without the general readers when its transparent
 * part is the common case: every CompactSize one byte or a canonical three, every output value
 * below 2^48 zatoshis (its top two bytes zero, so inside MoneyRange), nothing short. Anything
 * else (version 0, unknown formats, zfuture) returns null, and the caller reads the transaction
 * field by field, with zcashd's errors. When shielded parts follow (v2's and v3's JoinSplits
 * too), the format's reader takes over after the transparent part (which is not read twice).
 * `reader`, when given, is the caller's reader over `b`, used for shielded parts.
 *
 * It is faster than the general readers on every transparent version, and loses less when
 * decoding alternates with hashing (bench/decode.ts): no reader object for a transaction decoded
 * on its own. Shielded transactions decode as fast as through the general readers. v5 and v6 have a function of their own (see
 * readQuicklyV5). A format `acceptance` does not take is left to the general readers, which
 * refuse it with zcashd's error.
 */
function readQuickly(b: Uint8Array, start: number, end: number, reader: ByteReader | null, acceptance: TxAcceptance): Transaction | null {
  if (end - start >= 8) {
    const header = int32LE(b, start);
    if (header === V5_HEADER && int32LE(b, start + 4) >>> 0 === NU5_VERSION_GROUP_ID)
      return acceptance.acceptsFormat(5, NU5_VERSION_GROUP_ID) ? readQuicklyV5(b, start, end, reader, acceptance, v5Format) : null;
    if (header === V6_HEADER && int32LE(b, start + 4) >>> 0 === NU6_3_VERSION_GROUP_ID)
      return acceptance.acceptsFormat(6, NU6_3_VERSION_GROUP_ID) ? readQuicklyV5(b, start, end, reader, acceptance, v6Format) : null;
  }
  return readQuicklyBeforeV5(b, start, end, reader, acceptance);
}

const V5_HEADER = 0x80000005 | 0;
const V6_HEADER = 0x80000006 | 0;

/** `readQuickly` for v1 to v4: the inputs and outputs, then the lock time (and expiry height). */
function readQuicklyBeforeV5(
  b: Uint8Array,
  start: number,
  end: number,
  reader: ByteReader | null,
  acceptance: TxAcceptance,
): Transaction | null {
  if (end - start < 8) return null;
  const rawHeader = int32LE(b, start) >>> 0;
  const overwintered = rawHeader >>> 31 === 1;
  const version = rawHeader & 0x7fffffff;
  let versionGroupId = 0;
  let format: TxFormat | null;
  let pos: number;
  if (overwintered) {
    versionGroupId = int32LE(b, start + 4) >>> 0;
    // Compared here rather than looked up in the format registry: the lookup is a visible share of a transparent decode.
    format =
      version === 4 && versionGroupId === SAPLING_VERSION_GROUP_ID
        ? v4Format
        : version === 3 && versionGroupId === OVERWINTER_VERSION_GROUP_ID
          ? v3Format
          : null;
    if (format !== null && !acceptance.acceptsFormat(version, versionGroupId)) return null;
    pos = start + 8;
  } else {
    // Version 0 is read like v1 and then refused; the field-by-field path gives that error.
    format = version === 1 ? v1Format : version >= 2 ? v2Format : null;
    pos = start + 4;
  }
  if (!format) return null;

  let n = smallCompactSize(b, pos, end);
  if (n < 0 || n > (end - pos) / MIN_INPUT_BYTES) return null;
  pos += n < 0xfd ? 1 : 3;
  const vin = new Array<TxIn>(n);
  for (let i = 0; i < n; i++) {
    const at = pos;
    const scriptLength = smallCompactSize(b, pos + 36, end);
    if (scriptLength < 0) return null;
    pos += 36 + (scriptLength < 0xfd ? 1 : 3) + scriptLength + 4; // prevout, script, sequence
    if (pos > end) return null;
    vin[i] = new WireTxIn(b, at, scriptLength);
  }

  n = smallCompactSize(b, pos, end);
  if (n < 0 || n > (end - pos) / MIN_OUTPUT_BYTES) return null;
  pos += n < 0xfd ? 1 : 3;
  const vout = new Array<TxOut>(n);
  for (let i = 0; i < n; i++) {
    const at = pos;
    const scriptLength = smallCompactSize(b, pos + 8, end);
    if (scriptLength < 0 || b[at + 7] !== 0 || b[at + 6] !== 0) return null;
    pos += 8 + (scriptLength < 0xfd ? 1 : 3) + scriptLength; // value, script
    if (pos > end) return null;
    vout[i] = new WireTxOut(b, at, scriptLength);
  }

  const layout = format.transparentLayout;
  if (end - pos < 4) return null;
  const lockTime = int32LE(b, pos) >>> 0;
  pos += 4;
  let expiryHeight = 0;
  if (layout.expiryHeight) {
    if (end - pos < 4) return null;
    expiryHeight = int32LE(b, pos) >>> 0;
    pos += 4;
  }

  if (isZero(b, pos, pos + layout.emptyShieldedBytes, end)) {
    const data = transactionData(
      format.name,
      overwintered,
      version,
      versionGroupId,
      null,
      lockTime,
      expiryHeight,
      vin,
      vout,
      newJoinSplitList(),
      null,
      null,
      null,
      null,
    );
    // Nothing checkRustReparse refuses: version 0, the one non-overwintered version it refuses,
    // never reaches this point, and these versions carry no branch id.
    return new Transaction(data, b, start, pos + layout.emptyShieldedBytes, format);
  }
  // Shielded parts follow: the format's reader takes over after the transparent part.
  const t: TransparentPart = { consensusBranchId: null, lockTime, expiryHeight, vin, vout };
  const header = { overwintered, version, versionGroupId };
  return readShieldedParts(reader ?? new ByteReader(b, start, end, true), start, pos, format, header, t, acceptance);
}

/**
 * `readQuickly` for v5 and v6 (`format`), whose branch id, lock time and expiry height come
 * before the inputs. Its own function, though it reads the inputs and outputs as
 * `readQuicklyBeforeV5` does: one function for all versions, testing the layout at run time,
 * was slower for a transparent v5 transaction, and helper functions shared by both for the
 * inputs and outputs cost every version.
 */
function readQuicklyV5(
  b: Uint8Array,
  start: number,
  end: number,
  reader: ByteReader | null,
  acceptance: TxAcceptance,
  format: TxFormat,
): Transaction | null {
  if (end - start < 20) return null;
  let pos = start + 20;
  let n = smallCompactSize(b, pos, end);
  if (n < 0 || n > (end - pos) / MIN_INPUT_BYTES) return null;
  pos += n < 0xfd ? 1 : 3;
  const vin = new Array<TxIn>(n);
  for (let i = 0; i < n; i++) {
    const at = pos;
    const scriptLength = smallCompactSize(b, pos + 36, end);
    if (scriptLength < 0) return null;
    pos += 36 + (scriptLength < 0xfd ? 1 : 3) + scriptLength + 4; // prevout, script, sequence
    if (pos > end) return null;
    vin[i] = new WireTxIn(b, at, scriptLength);
  }

  n = smallCompactSize(b, pos, end);
  if (n < 0 || n > (end - pos) / MIN_OUTPUT_BYTES) return null;
  pos += n < 0xfd ? 1 : 3;
  const vout = new Array<TxOut>(n);
  for (let i = 0; i < n; i++) {
    const at = pos;
    const scriptLength = smallCompactSize(b, pos + 8, end);
    if (scriptLength < 0 || b[at + 7] !== 0 || b[at + 6] !== 0) return null;
    pos += 8 + (scriptLength < 0xfd ? 1 : 3) + scriptLength; // value, script
    if (pos > end) return null;
    vout[i] = new WireTxOut(b, at, scriptLength);
  }

  const consensusBranchId = int32LE(b, start + 8) >>> 0;
  const lockTime = int32LE(b, start + 12) >>> 0;
  const expiryHeight = int32LE(b, start + 16) >>> 0;
  const isV6 = format === v6Format;
  const versionGroupId = isV6 ? NU6_3_VERSION_GROUP_ID : NU5_VERSION_GROUP_ID;
  const emptyShieldedBytes = format.transparentLayout.emptyShieldedBytes;
  // Sapling spends and outputs, Orchard actions (and v6's Ironwood actions): zero counts when
  // nothing shielded follows.
  if (isZero(b, pos, pos + emptyShieldedBytes, end)) {
    const version = isV6 ? 6 : 5;
    // v6 records carry an Ironwood field (null here); v5 records have none.
    const data = transactionData(
      format.name,
      true,
      version,
      versionGroupId,
      consensusBranchId,
      lockTime,
      expiryHeight,
      vin,
      vout,
      newJoinSplitList(),
      null,
      null,
      null,
      null,
      isV6 ? null : undefined,
    );
    // All checkRustReparse can find in a v5 or v6 transaction without shielded parts.
    if (!acceptance.acceptsBranchId(consensusBranchId)) throw new DecodeError('invalid-tx-format', start, INVALID_FORMAT);
    return new Transaction(data, b, start, pos + emptyShieldedBytes, format);
  }
  const t: TransparentPart = { consensusBranchId, lockTime, expiryHeight, vin, vout };
  const header = { overwintered: true, version: isV6 ? 6 : 5, versionGroupId };
  return readShieldedParts(reader ?? new ByteReader(b, start, end, true), start, pos, format, header, t, acceptance);
}

/** The rest of `readQuickly`'s transaction from `pos`, after its transparent part `t`. */
function readShieldedParts(
  r: ByteReader,
  start: number,
  pos: number,
  format: TxFormat,
  header: TxHeader,
  t: TransparentPart,
  acceptance: TxAcceptance,
): Transaction {
  r.pos = pos;
  const data = format.read(r, header, t);
  checkRustReparse(data, false, start, acceptance); // every output value was checked in range on the quick path
  return new Transaction(data, r.buf, start, r.pos, format);
}

/**
 * The CompactSize at `at` when it lies before `end` and is one byte or a canonical three
 * (0xfd and a uint16 of at least 0xfd); -1 for anything else.
 */
export function smallCompactSize(b: Uint8Array, at: number, end: number): number {
  if (at >= end) return -1;
  const first = b[at]!;
  if (first < 0xfd) return first;
  if (first !== 0xfd || end - at < 3) return -1;
  const value = b[at + 1]! | (b[at + 2]! << 8);
  return value < 0xfd ? -1 : value;
}

/**
 * `b[from, to)` all zero bytes, with `to` at most `end`. Four bytes at a time: v4's eleven
 * empty-shielded bytes byte by byte were a visible share of a transparent decode.
 */
export function isZero(b: Uint8Array, from: number, to: number, end: number): boolean {
  if (to > end) return false;
  let bits = 0;
  let i = from;
  for (; i + 4 <= to; i += 4) bits |= int32LE(b, i);
  for (; i < to; i++) bits |= b[i]!;
  return bits === 0;
}

/**
 * The rules only zcashd's second, Rust parse enforces (inside UpdateHash), all reported with
 * the same message, after the whole C++ parse succeeded. Output values were checked as they
 * were read (`badOutputValue`): a second pass over the outputs, with a branch-id Set lookup,
 * was a large share of decoding a transparent v5 transaction. Branch ids are those `acceptance`
 * takes (zcashd v6.12.2's: Sprout … NU6.1).
 */
function checkRustReparse(tx: TransactionData, badOutputValue: boolean, offset: number, acceptance: TxAcceptance): void {
  const bad =
    badOutputValue ||
    (!tx.overwintered && tx.version === 0) ||
    tx.format === 'zfuture' ||
    (tx.consensusBranchId !== null && !acceptance.acceptsBranchId(tx.consensusBranchId)) ||
    !vpubsInMoneyRange(tx.joinSplits);
  if (bad) throw new DecodeError('invalid-tx-format', offset, INVALID_FORMAT);
}

/** Every JoinSplit vpub in MoneyRange. */
function vpubsInMoneyRange(joinSplits: readonly JoinSplit[]): boolean {
  for (const js of joinSplits) if (!isMoneyRange(js.vpubOld) || !isMoneyRange(js.vpubNew)) return false;
  return true;
}

/**
 * Decodes a transaction from bytes; trailing bytes are ignored like zcashd does. `acceptance`
 * as for readTransaction.
 */
export function decodeTransaction(bytes: Uint8Array, acceptance: TxAcceptance = ZCASHD_6_12_2_ACCEPTANCE): Transaction {
  // No reader for the common case: making one per call was a noticeable share of decoding a small transaction.
  return (
    readQuickly(bytes, 0, bytes.length, null, acceptance) ?? readFieldByField(new ByteReader(bytes, 0, bytes.length, true), acceptance)
  );
}

/**
 * `readQuickly` alone: the transaction, or null where it leaves the bytes to the general readers.
 * For tests, which hold the common cases to this path: nothing else would notice it stopped
 * being taken, since both paths give the same results.
 */
export function decodeTransactionQuickly(bytes: Uint8Array, acceptance: TxAcceptance = ZCASHD_6_12_2_ACCEPTANCE): Transaction | null {
  return readQuickly(bytes, 0, bytes.length, null, acceptance);
}

/**
 * `decodeTransaction` through the general, field-by-field readers only, never `readQuickly`.
 * The two must agree on every input (test/codec/quick-read.test.ts holds them to it).
 */
export function decodeTransactionFieldByField(bytes: Uint8Array, acceptance: TxAcceptance = ZCASHD_6_12_2_ACCEPTANCE): Transaction {
  return readFieldByField(new ByteReader(bytes, 0, bytes.length, true), acceptance);
}

/** zcashd's DecodeHexTx: hex validation then decode. */
export function decodeTransactionHex(hex: string, acceptance: TxAcceptance = ZCASHD_6_12_2_ACCEPTANCE): Transaction {
  const bytes = hexToBytesStrict(hex);
  if (!bytes) throw new DecodeError('invalid-hex', 0, `not a valid hex string${IOS_SUFFIX}`);
  return decodeTransaction(bytes, acceptance);
}

/** `decodeTransactionHex` of hex text given as its bytes (ASCII), with the same answers and errors. */
export function decodeTransactionHexBytes(hex: Uint8Array, acceptance: TxAcceptance = ZCASHD_6_12_2_ACCEPTANCE): Transaction {
  return decodeTransactionHexBytesKeepingText(hex, acceptance).tx;
}

/**
 * `decodeTransactionHexBytes`, with the part of `hex` that spells the transaction when that is
 * its lowercase HexStr character for character (null otherwise): a writer copies it as the
 * reply's `hex` instead of encoding the bytes again.
 */
export function decodeTransactionHexBytesKeepingText(
  hex: Uint8Array,
  acceptance: TxAcceptance = ZCASHD_6_12_2_ACCEPTANCE,
  /** Decoded into, when the bytes fit (hexBytesToBytesNotingCase): the transaction is then a view of it. */
  memory?: ArrayBuffer,
): { tx: Transaction; hexText: Uint8Array | null } {
  const decoded = hexBytesToBytesNotingCase(hex, memory);
  if (!decoded) throw new DecodeError('invalid-hex', 0, `not a valid hex string${IOS_SUFFIX}`);
  const tx = decodeTransaction(decoded.bytes, acceptance);
  // The transaction is the decoded bytes' prefix (bytes after it are ignored, as zcashd does).
  const prefix = tx.bytes.buffer === decoded.bytes.buffer && tx.bytes.byteOffset === decoded.bytes.byteOffset;
  return { tx, hexText: decoded.lowercase && prefix ? hex.subarray(0, 2 * tx.bytes.length) : null };
}

/** Writes any format the codec knows, whatever an acceptance would read. */
export function writeTransaction(w: ByteWriter, tx: TransactionData): void {
  const format = selectFormat(tx, 0, null);
  w.u32(((tx.overwintered ? 0x80000000 : 0) | tx.version) >>> 0);
  if (tx.overwintered) w.u32(tx.versionGroupId);
  format.write(w, tx);
}

/** A transaction's wire bytes, as zcashd serializes it (decoding them gives the same transaction back). */
export function encodeTransaction(tx: TransactionData): Uint8Array {
  const w = new ByteWriter(1024);
  writeTransaction(w, tx);
  return w.finish();
}
