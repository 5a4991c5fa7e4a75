/**
 * Transaction decoding, encoding and ids, with zcashd v6.12.2's decode-time validation.
 */
import { KNOWN_BRANCH_IDS } from '../../chain/upgrades.js';
import { ByteReader, ByteWriter, viewOf } from '../bytes.js';
import { DecodeError, IOS_SUFFIX } from '../errors.js';
import { hexToBytesStrict, toHexReversed } from '../hex.js';
import { selectFormat, type TxCapabilities, type TxFormat } from './formats/index.js';
import { isMoneyRange } from './money.js';
import { isCoinbase } from './transparent.js';
import type { JoinSplit, TransactionData } from './types.js';

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

  /** ZIP-244 auth digest (v5) or 32 × 0xff, internal order. */
  /** What the transaction's wire format carries (Sapling, Orchard, JoinSplit fields, a branch id). */
  get carries(): TxCapabilities {
    return this.formatImpl.carries;
  }

  get authDigest(): Uint8Array {
    return (this.authCache ??= this.formatImpl.authDigest(this.data, this.wire()));
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
 * Throws DecodeError with zcashd's message on any failure.
 */
export function readTransaction(r: ByteReader): Transaction {
  const start = r.pos;
  const rawHeader = r.u32();
  const overwintered = rawHeader >>> 31 === 1;
  const version = rawHeader & 0x7fffffff;
  const versionGroupId = overwintered ? r.u32() : 0;
  const header = { overwintered, version, versionGroupId };
  const format = selectFormat(header, start);
  r.outputValueOutOfRange = false;
  const data = format.read(r, header);
  checkRustReparse(data, r.outputValueOutOfRange, start);
  return new Transaction(data, r.buf, start, r.pos, format);
}

/**
 * The rules only zcashd's second, Rust parse enforces (inside UpdateHash), all reported with
 * the same message, after the whole C++ parse succeeded. Output values were checked as they
 * were read (`badOutputValue`): a second pass over the outputs, with the branch-id Set lookup
 * below, was a quarter of decoding a transparent v5 transaction.
 */
function checkRustReparse(tx: TransactionData, badOutputValue: boolean, offset: number): void {
  const bad =
    badOutputValue ||
    (!tx.overwintered && tx.version === 0) ||
    tx.format === 'zfuture' ||
    (tx.consensusBranchId !== null && !isKnownBranchId(tx.consensusBranchId)) ||
    !vpubsInMoneyRange(tx.joinSplits);
  if (bad) throw new DecodeError('invalid-tx-format', offset, INVALID_FORMAT);
}

/**
 * KNOWN_BRANCH_IDS as int32s, scanned: a Set lookup of a number above 2^31 (every branch id
 * since Overwinter) hashes a heap number in C++ on each decode.
 */
const KNOWN_BRANCH_IDS_I32 = Int32Array.from(KNOWN_BRANCH_IDS, (id) => id | 0);

/** `id` is a decoded uint32, so `id | 0` identifies it. */
function isKnownBranchId(id: number): boolean {
  const x = id | 0;
  for (let i = 0; i < KNOWN_BRANCH_IDS_I32.length; i++) if (KNOWN_BRANCH_IDS_I32[i] === x) return true;
  return false;
}

/** Every JoinSplit vpub in MoneyRange. */
function vpubsInMoneyRange(joinSplits: readonly JoinSplit[]): boolean {
  for (const js of joinSplits) if (!isMoneyRange(js.vpubOld) || !isMoneyRange(js.vpubNew)) return false;
  return true;
}

/** Decodes a transaction from bytes; trailing bytes are ignored like zcashd does. */
export function decodeTransaction(bytes: Uint8Array): Transaction {
  return readTransaction(new ByteReader(bytes, 0, bytes.length, true));
}

/** zcashd's DecodeHexTx: hex validation then decode. */
export function decodeTransactionHex(hex: string): Transaction {
  const bytes = hexToBytesStrict(hex);
  if (!bytes) throw new DecodeError('invalid-hex', 0, `not a valid hex string${IOS_SUFFIX}`);
  return decodeTransaction(bytes);
}

export function writeTransaction(w: ByteWriter, tx: TransactionData): void {
  const format = selectFormat(tx, 0);
  w.u32(((tx.overwintered ? 0x80000000 : 0) | tx.version) >>> 0);
  if (tx.overwintered) w.u32(tx.versionGroupId);
  format.write(w, tx);
}

export function encodeTransaction(tx: TransactionData): Uint8Array {
  const w = new ByteWriter(1024);
  writeTransaction(w, tx);
  return w.finish();
}
