/**
 * Transaction decoding, encoding and ids, with zcashd v6.12.2's decode-time validation.
 */
import { KNOWN_BRANCH_IDS } from '../../chain/upgrades.js';
import { ByteReader, ByteWriter } from '../bytes.js';
import { DecodeError, IOS_SUFFIX } from '../errors.js';
import { hexToBytesStrict, toHexReversed } from '../hex.js';
import { selectFormat, type TxCapabilities, type TxFormat } from './formats/index.js';
import { isMoneyRange } from './money.js';
import { isCoinbase } from './transparent.js';
import type { TransactionData } from './types.js';

const INVALID_FORMAT = `CTransaction::UpdateHash: Invalid transaction format${IOS_SUFFIX}`;

/** A decoded transaction: its fields, its exact bytes, and lazily computed ids. */
export class Transaction {
  readonly data: TransactionData;
  /** Exactly the serialized bytes (a view into the decoded buffer). */
  readonly bytes: Uint8Array;
  private readonly formatImpl: TxFormat;
  private txidCache: Uint8Array | undefined;
  private authCache: Uint8Array | undefined;

  constructor(data: TransactionData, bytes: Uint8Array, format: TxFormat) {
    this.data = data;
    this.bytes = bytes;
    this.formatImpl = format;
  }

  get size(): number {
    return this.bytes.length;
  }

  /** txid in internal byte order. */
  get txid(): Uint8Array {
    return (this.txidCache ??= this.formatImpl.txid(this.data, this.bytes));
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
    return (this.authCache ??= this.formatImpl.authDigest(this.data, this.bytes));
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
  const format = selectFormat({ overwintered, version, versionGroupId }, start);
  const data = format.read(r, { overwintered, version, versionGroupId });
  const bytes = r.buf.subarray(start, r.pos);
  checkRustReparse(data, start);
  return new Transaction(data, bytes, format);
}

/**
 * The rules only zcashd's second, Rust parse enforces (inside UpdateHash), all reported with
 * the same message, after the whole C++ parse succeeded.
 */
function checkRustReparse(tx: TransactionData, offset: number): void {
  const bad =
    (!tx.overwintered && tx.version === 0) ||
    tx.format === 'zfuture' ||
    (tx.consensusBranchId !== null && !KNOWN_BRANCH_IDS.has(tx.consensusBranchId)) ||
    !valuesInMoneyRange(tx);
  if (bad) throw new DecodeError('invalid-tx-format', offset, INVALID_FORMAT);
}

/** Every output value and JoinSplit vpub in MoneyRange (plain loops: this runs per decode). */
function valuesInMoneyRange(tx: TransactionData): boolean {
  for (const o of tx.vout) if (!isMoneyRange(o.value)) return false;
  for (const js of tx.joinSplits) if (!isMoneyRange(js.vpubOld) || !isMoneyRange(js.vpubNew)) return false;
  return true;
}

/** Decodes a transaction from bytes; trailing bytes are ignored like zcashd does. */
export function decodeTransaction(bytes: Uint8Array): Transaction {
  return readTransaction(new ByteReader(bytes));
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
