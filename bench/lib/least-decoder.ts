/**
 * The least a conforming decoder can do for the transparent-only v1, v3, v4 and v5 transactions
 * bench/decode.ts compares with utxo-lib: a reference for how much of the txid hashing ceiling
 * any decoder returning this codec's `Transaction` can keep, one call each.
 *
 * Each version has its own function, so nothing is dispatched: the header is compared with one
 * constant, and the layout is known. Each still does what the API and zcashd's errors require:
 *
 * - every CompactSize canonical and every element inside the data (zcashd's end-of-data and
 *   non-canonical errors), every output value inside MoneyRange (its top two bytes zero), the
 *   empty shielded counts (and v4's zero value balance) read as zero, a v5 branch id known;
 * - the objects the API returns: one `WireTxIn`/`WireTxOut` per element (offsets only), the
 *   `vin`/`vout` arrays, the `TransactionData` and the `Transaction`.
 *
 * Anything else throws: this is not a decoder, only a measuring stick. bench/decode.ts checks it
 * against the real decoder on every transaction it times. `leastAnyVersion` puts the four behind
 * a version dispatch, as a decoder of every version needs.
 */
import { int32LE } from '../../src/codec/bytes.js';
import { BRANCH_IDS } from '../../src/chain/upgrades.js';
import { v1Format } from '../../src/codec/tx/formats/legacy.js';
import { v5Format } from '../../src/codec/tx/formats/nu5.js';
import { v3Format } from '../../src/codec/tx/formats/overwinter.js';
import { v4Format } from '../../src/codec/tx/formats/sapling.js';
import { Transaction } from '../../src/codec/tx/transaction.js';
import { MIN_INPUT_BYTES, MIN_OUTPUT_BYTES, WireTxIn, WireTxOut } from '../../src/codec/tx/transparent.js';
import {
  NU5_VERSION_GROUP_ID,
  OVERWINTER_VERSION_GROUP_ID,
  SAPLING_VERSION_GROUP_ID,
  type TransactionData,
  type TxIn,
  type TxOut,
} from '../../src/codec/tx/types.js';

const refuse = (): never => {
  throw new Error('outside what the least decoder reads');
};

/** A canonical one- or three-byte CompactSize inside the data. */
function compactSize(b: Uint8Array, at: number, end: number): number {
  if (at >= end) return refuse();
  const first = b[at]!;
  if (first < 0xfd) return first;
  if (first !== 0xfd || end - at < 3) return refuse();
  const value = b[at + 1]! | (b[at + 2]! << 8);
  return value < 0xfd ? refuse() : value;
}

/** Where the last `inputs`/`outputs` call stopped: a module variable, as a returned pair would allocate. */
let stoppedAt = 0;

function inputs(b: Uint8Array, pos: number, end: number): TxIn[] {
  const n = compactSize(b, pos, end);
  if (n > (end - pos) / MIN_INPUT_BYTES) refuse();
  pos += n < 0xfd ? 1 : 3;
  const vin = new Array<TxIn>(n);
  for (let i = 0; i < n; i++) {
    const at = pos;
    const scriptLength = compactSize(b, pos + 36, end);
    pos += 36 + (scriptLength < 0xfd ? 1 : 3) + scriptLength + 4; // prevout, script, sequence
    if (pos > end) refuse();
    vin[i] = new WireTxIn(b, at, scriptLength);
  }
  stoppedAt = pos;
  return vin;
}

function outputs(b: Uint8Array, pos: number, end: number): TxOut[] {
  const n = compactSize(b, pos, end);
  if (n > (end - pos) / MIN_OUTPUT_BYTES) refuse();
  pos += n < 0xfd ? 1 : 3;
  const vout = new Array<TxOut>(n);
  for (let i = 0; i < n; i++) {
    const at = pos;
    const scriptLength = compactSize(b, pos + 8, end);
    if (b[at + 7] !== 0 || b[at + 6] !== 0) refuse(); // below 2^48 zatoshis, inside MoneyRange
    pos += 8 + (scriptLength < 0xfd ? 1 : 3) + scriptLength; // value, script
    if (pos > end) refuse();
    vout[i] = new WireTxOut(b, at, scriptLength);
  }
  stoppedAt = pos;
  return vout;
}

/** `count` zero bytes at `pos`, inside the data (four at a time, as the real decoder reads them). */
function zeros(b: Uint8Array, pos: number, count: number, end: number): void {
  const to = pos + count;
  if (to > end) refuse();
  let bits = 0;
  let i = pos;
  for (; i + 4 <= to; i += 4) bits |= int32LE(b, i);
  for (; i < to; i++) bits |= b[i]!;
  if (bits !== 0) refuse();
}

function data(
  format: TransactionData['format'],
  version: number,
  groupId: number,
  branchId: number | null,
  lockTime: number,
  expiryHeight: number,
  vin: TxIn[],
  vout: TxOut[],
): TransactionData {
  return {
    format,
    overwintered: version >= 3,
    version,
    versionGroupId: groupId,
    consensusBranchId: branchId,
    lockTime,
    expiryHeight,
    vin,
    vout,
    joinSplits: [],
    joinSplitPubKey: null,
    joinSplitSig: null,
    sapling: null,
    orchard: null,
  };
}

export function leastV1(b: Uint8Array): Transaction {
  const end = b.length;
  if (end < 4 || int32LE(b, 0) !== 1) refuse();
  const vin = inputs(b, 4, end);
  const vout = outputs(b, stoppedAt, end);
  const pos = stoppedAt;
  if (end - pos < 4) refuse();
  const lockTime = int32LE(b, pos) >>> 0;
  return new Transaction(data('v1', 1, 0, null, lockTime, 0, vin, vout), b, 0, pos + 4, v1Format);
}

export function leastV3(b: Uint8Array): Transaction {
  const end = b.length;
  if (end < 8 || int32LE(b, 0) >>> 0 !== 0x80000003 || int32LE(b, 4) >>> 0 !== OVERWINTER_VERSION_GROUP_ID) refuse();
  const vin = inputs(b, 8, end);
  const vout = outputs(b, stoppedAt, end);
  const pos = stoppedAt;
  zeros(b, pos + 8, 1, end); // no JoinSplits
  const t = data('v3', 3, OVERWINTER_VERSION_GROUP_ID, null, int32LE(b, pos) >>> 0, int32LE(b, pos + 4) >>> 0, vin, vout);
  return new Transaction(t, b, 0, pos + 9, v3Format);
}

export function leastV4(b: Uint8Array): Transaction {
  const end = b.length;
  if (end < 8 || int32LE(b, 0) >>> 0 !== 0x80000004 || int32LE(b, 4) >>> 0 !== SAPLING_VERSION_GROUP_ID) refuse();
  const vin = inputs(b, 8, end);
  const vout = outputs(b, stoppedAt, end);
  const pos = stoppedAt;
  zeros(b, pos + 8, 11, end); // value balance, no spends, outputs or JoinSplits
  const t = data('v4', 4, SAPLING_VERSION_GROUP_ID, null, int32LE(b, pos) >>> 0, int32LE(b, pos + 4) >>> 0, vin, vout);
  return new Transaction(t, b, 0, pos + 19, v4Format);
}

const NU5 = BRANCH_IDS.NU5 | 0;
const NU6 = BRANCH_IDS.NU6 | 0;
const NU6_1 = BRANCH_IDS['NU6.1'] | 0;

export function leastV5(b: Uint8Array): Transaction {
  const end = b.length;
  if (end < 20 || int32LE(b, 0) >>> 0 !== 0x80000005 || int32LE(b, 4) >>> 0 !== NU5_VERSION_GROUP_ID) refuse();
  // Only the branch ids a v5 transaction can carry: fewer comparisons than zcashd's whole list.
  const branch = int32LE(b, 8);
  if (branch !== NU5 && branch !== NU6 && branch !== NU6_1) refuse();
  const vin = inputs(b, 20, end);
  const vout = outputs(b, stoppedAt, end);
  zeros(b, stoppedAt, 3, end);
  const t = data('v5', 5, NU5_VERSION_GROUP_ID, branch >>> 0, int32LE(b, 12) >>> 0, int32LE(b, 16) >>> 0, vin, vout);
  return new Transaction(t, b, 0, stoppedAt + 3, v5Format);
}

const V1 = 1;
const V3 = 0x80000003 | 0;
const V4 = 0x80000004 | 0;
const V5 = 0x80000005 | 0;

/**
 * The least decoders behind the one thing a decoder of every version must add: choosing the
 * version's reader from the header. Measured warm on all four versions, as a general decoder
 * runs, it is the fairer bound for one: its share is what choosing the version costs on top.
 */
export function leastAnyVersion(b: Uint8Array): Transaction {
  if (b.length < 4) return refuse();
  switch (int32LE(b, 0)) {
    case V1:
      return leastV1(b);
    case V3:
      return leastV3(b);
    case V4:
      return leastV4(b);
    case V5:
      return leastV5(b);
    default:
      return refuse();
  }
}

/** The least decoder for a version bench/decode.ts compares (v1, v3, v4, v5), or null. */
export function leastDecoderFor(version: string): ((b: Uint8Array) => Transaction) | null {
  return ({ v1: leastV1, v3: leastV3, v4: leastV4, v5: leastV5 } as Record<string, (b: Uint8Array) => Transaction>)[version] ?? null;
}
