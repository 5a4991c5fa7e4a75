/**
 * gettxoutsetinfo's statistics of the unspent transparent outputs, as zcashd v6.12.2 computes
 * them over its coins database (txdb.cpp CCoinsViewDB::GetStats): one CCoins entry per
 * transaction with an unspent output, in the database's key order (txid bytes, internal order).
 *
 * - `hash_serialized` is SHA-256d of the best block hash, then per transaction each unspent
 *   output as VARINT(index + 1) ‖ CTxOut (i64 value, CompactSize script) in index order, then
 *   VARINT(0); the txid, version and height are not hashed.
 * - `bytes_serialized` counts 32 per transaction plus the size of its CCoins record as zcashd
 *   stores it (coins.h CCoins::Serialize): VARINT(version), VARINT(header code), the spentness
 *   bitmask, each unspent output compressed (compressor.h: VARINT(CompressAmount(value)) and the
 *   script in its 21- or 33-byte special form or VARINT(size + 6) ‖ script), VARINT(height).
 *   The transaction version is not kept per coin here: every version zcashd v6.12.2 accepts is
 *   below 128, so its VARINT is one byte whatever it is.
 */
import { isFullyValidPubkey } from '../crypto/secp256k1.js';
import { sha256dStream, type Sha256dStream } from '../crypto/hash.js';

export interface UtxoStats {
  transactions: number;
  txouts: number;
  bytesSerialized: number;
  /** SHA-256d, internal order. */
  hashSerialized: Uint8Array;
  /** Zatoshis (a bigint: a corrupt coins view could sum past 2^53, which zcashd's int64 still prints). */
  totalAmount: bigint;
}

/** One unspent output as the coins view holds it. */
export interface UtxoEntry {
  n: number;
  value: number;
  height: number;
  coinbase: boolean;
  scriptPubKey: Uint8Array;
}

const OP_DUP = 0x76;
const OP_HASH160 = 0xa9;
const OP_EQUAL = 0x87;
const OP_EQUALVERIFY = 0x88;
const OP_CHECKSIG = 0xac;
/** CScriptCompressor::nSpecialScripts. */
const SPECIAL_SCRIPTS = 6;

/** Bytes of serialize.h's VARINT (base-128, each continuation byte one less). */
export function varIntLength(n: number): number {
  let len = 1;
  while (n > 0x7f) {
    n = Math.floor(n / 128) - 1;
    len++;
  }
  return len;
}

/** serialize.h's WriteVarInt into `out` at `at`; returns the position after it. */
export function writeVarInt(out: Buffer, at: number, n: number): number {
  const tmp: number[] = [];
  for (;;) {
    tmp.push((n % 128) | (tmp.length ? 0x80 : 0));
    if (n <= 0x7f) break;
    n = Math.floor(n / 128) - 1;
  }
  for (let i = tmp.length - 1; i >= 0; i--) out[at++] = tmp[i]!;
  return at;
}

/** CTxOutCompressor::CompressAmount. */
export function compressAmount(value: number): bigint {
  let n = BigInt(value);
  if (n === 0n) return 0n;
  let e = 0n;
  while (n % 10n === 0n && e < 9n) {
    n /= 10n;
    e++;
  }
  if (e < 9n) {
    const d = n % 10n;
    n /= 10n;
    return 1n + (n * 9n + d - 1n) * 10n + e;
  }
  return 1n + (n - 1n) * 10n + 9n;
}

/** VARINT length of a compressed amount (values below 2^53 in Number, larger ones in BigInt). */
function compressedAmountLength(value: number): number {
  // Below 9e14 the compressed value stays below 2^53: Number arithmetic is exact.
  if (value < 9e14) {
    if (value === 0) return 1;
    let n = value;
    let e = 0;
    while (n % 10 === 0 && e < 9) {
      n /= 10;
      e++;
    }
    if (e < 9) {
      const d = n % 10;
      n = (n - d) / 10;
      return varIntLength(1 + (n * 9 + d - 1) * 10 + e);
    }
    return varIntLength(1 + (n - 1) * 10 + 9);
  }
  let x = compressAmount(value);
  let len = 1;
  while (x > 0x7fn) {
    x = x / 128n - 1n;
    len++;
  }
  return len;
}

/** Bytes of CScriptCompressor's serialization of `script`. */
export function compressedScriptLength(s: Uint8Array): number {
  const len = s.length;
  if (len === 25 && s[0] === OP_DUP && s[1] === OP_HASH160 && s[2] === 20 && s[23] === OP_EQUALVERIFY && s[24] === OP_CHECKSIG) return 21;
  if (len === 23 && s[0] === OP_HASH160 && s[1] === 20 && s[22] === OP_EQUAL) return 21;
  if (len === 35 && s[0] === 33 && s[34] === OP_CHECKSIG && (s[1] === 0x02 || s[1] === 0x03)) return 33;
  // An uncompressed key is compressed only when it is a point of the curve (IsFullyValid).
  if (len === 67 && s[0] === 65 && s[66] === OP_CHECKSIG && s[1] === 0x04 && isFullyValidPubkey(s.subarray(1, 66))) return 33;
  return varIntLength(len + SPECIAL_SCRIPTS) + len;
}

/** Bytes of the CCoins record of one transaction's unspent outputs (sorted by index). */
export function coinsRecordLength(outs: readonly UtxoEntry[], coinbase: boolean, height: number): number {
  let first = false;
  let second = false;
  let maskBytes = 0;
  let nonzeroMaskBytes = 0;
  let lastByte = -1;
  let body = 0;
  for (const o of outs) {
    if (o.n === 0) first = true;
    else if (o.n === 1) second = true;
    else {
      const b = Math.floor((o.n - 2) / 8);
      if (b !== lastByte) {
        nonzeroMaskBytes++;
        lastByte = b;
      }
      maskBytes = b + 1;
    }
    body += compressedAmountLength(o.value) + compressedScriptLength(o.scriptPubKey);
  }
  const code = 8 * (nonzeroMaskBytes - (first || second ? 0 : 1)) + (coinbase ? 1 : 0) + (first ? 2 : 0) + (second ? 4 : 0);
  return 1 + varIntLength(code) + maskBytes + body + varIntLength(height);
}

/** Hashed bytes are gathered up to this size before each update of the hash. */
const HASH_CHUNK_BYTES = 64 * 1024;

/**
 * Accumulates the statistics over coins handed in key order: all outputs of one transaction
 * together (`transaction`), transactions in the coins view's order.
 */
export class UtxoStatsAccumulator {
  private readonly hash: Sha256dStream;
  private buffer = Buffer.allocUnsafe(HASH_CHUNK_BYTES);
  private used = 0;
  private transactions = 0;
  private txouts = 0;
  private bytesSerialized = 0;
  private totalAmount = 0n;

  constructor(bestBlock: Uint8Array) {
    this.hash = sha256dStream();
    this.hash.update(bestBlock);
  }

  /** One transaction's unspent outputs, in any order (they are hashed by index). */
  transaction(outs: UtxoEntry[]): void {
    if (outs.length === 0) return;
    outs.sort((a, b) => a.n - b.n);
    this.transactions++;
    let amount = 0;
    for (const o of outs) {
      this.txouts++;
      amount += o.value;
      const script = o.scriptPubKey;
      this.reserve(5 + 8 + 9 + script.length);
      let at = writeVarInt(this.buffer, this.used, o.n + 1);
      writeInt64LE(this.buffer, at, o.value);
      at += 8;
      at = writeCompactSize(this.buffer, at, script.length);
      this.buffer.set(script, at);
      this.used = at + script.length;
    }
    this.totalAmount += BigInt(amount);
    this.reserve(1);
    this.buffer[this.used++] = 0; // VARINT(0)
    const head = outs[0]!;
    this.bytesSerialized += 32 + coinsRecordLength(outs, head.coinbase, head.height);
  }

  finish(): UtxoStats {
    this.flush();
    return {
      transactions: this.transactions,
      txouts: this.txouts,
      bytesSerialized: this.bytesSerialized,
      hashSerialized: this.hash.digest(),
      totalAmount: this.totalAmount,
    };
  }

  private reserve(bytes: number): void {
    if (this.used + bytes <= this.buffer.length) return;
    this.flush();
    if (bytes > this.buffer.length) this.buffer = Buffer.allocUnsafe(bytes);
  }

  private flush(): void {
    if (this.used) this.hash.update(this.buffer.subarray(0, this.used));
    this.used = 0;
  }
}

function writeCompactSize(out: Buffer, at: number, n: number): number {
  if (n < 0xfd) {
    out[at] = n;
    return at + 1;
  }
  if (n <= 0xffff) {
    out[at] = 0xfd;
    out.writeUInt16LE(n, at + 1);
    return at + 3;
  }
  out[at] = 0xfe;
  out.writeUInt32LE(n, at + 1);
  return at + 5;
}

/** An int64 LE of a safe integer, without a BigInt for the common non-negative case. */
function writeInt64LE(out: Buffer, at: number, value: number): void {
  if (value >= 0) {
    out.writeUInt32LE(value % 0x100000000, at);
    out.writeUInt32LE(Math.floor(value / 0x100000000), at + 4);
  } else out.writeBigInt64LE(BigInt(value), at);
}
