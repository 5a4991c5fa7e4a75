/**
 * Where a serialized transaction ends, found from its counts and lengths without building it:
 * getrawtransaction steps over the transactions before the listed one in its block, and
 * building each of them (an object per input and output) cost more than reading the lengths.
 *
 * It answers only where readTransaction would read the same transaction without error and end
 * at the same byte: the common transparent layouts with one-byte or canonical three-byte
 * CompactSizes and output values inside MoneyRange, with nothing shielded after them or only
 * Sprout JoinSplits (v2–v4, their proofs' lead bytes and vpub values checked as the decoder
 * checks them). Everything else (Sapling and Orchard parts, whose points the decoder checks,
 * long CompactSizes, anything short or malformed) is -1, and the caller reads the transaction
 * with readTransaction, which gives zcashd's answer, error included.
 */
import { int32LE } from '../bytes.js';
import type { TxAcceptance } from './acceptance.js';
import { isMoneyRange } from './money.js';
import { isZero, smallCompactSize } from './transaction.js';
import { GROTH16_PROOF_SIZE, NOTE_CIPHERTEXT_SIZE, PHGR_PROOF_SIZE } from './sprout.js';
import { MIN_INPUT_BYTES, MIN_OUTPUT_BYTES } from './transparent.js';
import { NU5_VERSION_GROUP_ID, NU6_3_VERSION_GROUP_ID, OVERWINTER_VERSION_GROUP_ID, SAPLING_VERSION_GROUP_ID } from './types.js';

/** A JoinSplit before its proof: vpub_old, vpub_new, anchor, two nullifiers, two commitments, ephemeral key, random seed, two MACs. */
const JOINSPLIT_BEFORE_PROOF = 8 + 8 + 32 + 64 + 64 + 32 + 32 + 64;
/** After the proof: the two note ciphertexts. */
const JOINSPLIT_AFTER_PROOF = 2 * NOTE_CIPHERTEXT_SIZE;
/** joinSplitPubKey and joinSplitSig, after a non-empty JoinSplit list. */
const JOINSPLIT_KEY_AND_SIG = 32 + 64;
/** Offsets of the PHGR proof's eight points' lead bytes: G1, G1, then the G2 point (65 bytes), then five G1. */
const PHGR_LEADS = [0, 33, 66, 131, 164, 197, 230, 263] as const;

/**
 * The offset just past the transaction at `b[start]` (read no further than `end`), or -1 where
 * readTransaction must decide. `acceptance` as for readTransaction.
 */
export function transactionEnd(b: Uint8Array, start: number, end: number, acceptance: TxAcceptance): number {
  if (start < 0 || end > b.length || end - start < 8) return -1;
  const rawHeader = int32LE(b, start) >>> 0;
  const overwintered = rawHeader >>> 31 === 1;
  const version = rawHeader & 0x7fffffff;
  if (!overwintered) {
    // Version 0 is read and then refused; versions 2 and up carry JoinSplits with PHGR proofs.
    if (version === 0) return -1;
    const pos = transparentEnd(b, start + 4, end);
    if (pos < 0 || end - pos < 4) return -1;
    return version === 1 ? pos + 4 : joinSplitsEnd(b, pos + 4, end, true);
  }
  const versionGroupId = int32LE(b, start + 4) >>> 0;
  if ((version === 5 && versionGroupId === NU5_VERSION_GROUP_ID) || (version === 6 && versionGroupId === NU6_3_VERSION_GROUP_ID)) {
    if (!acceptance.acceptsFormat(version, versionGroupId) || end - start < 20) return -1;
    if (!acceptance.acceptsBranchId(int32LE(b, start + 8) >>> 0)) return -1;
    const pos = transparentEnd(b, start + 20, end);
    // Sapling's two counts and Orchard's (v6: and Ironwood's) action count, all zero.
    const empty = version === 5 ? 3 : 4;
    return pos >= 0 && isZero(b, pos, pos + empty, end) ? pos + empty : -1;
  }
  const v3 = version === 3 && versionGroupId === OVERWINTER_VERSION_GROUP_ID;
  const v4 = version === 4 && versionGroupId === SAPLING_VERSION_GROUP_ID;
  if (!(v3 || v4) || !acceptance.acceptsFormat(version, versionGroupId)) return -1;
  let pos = transparentEnd(b, start + 8, end);
  if (pos < 0 || end - pos < 8) return -1; // lock time, expiry height
  pos += 8;
  if (v3) return joinSplitsEnd(b, pos, end, true);
  // v4: no Sapling spends or outputs and a zero value balance, then JoinSplits with Groth16 proofs.
  if (!isZero(b, pos, pos + 10, end)) return -1;
  return joinSplitsEnd(b, pos + 10, end, false);
}

/**
 * The offset after the inputs and outputs that begin at `pos`, or -1: as readTransaction's quick
 * path reads them, with the same refusals (a long or non-canonical CompactSize, an output value
 * at or above 2^48, a count the remaining bytes could not hold, anything short).
 */
function transparentEnd(b: Uint8Array, pos: number, end: number): number {
  let n = smallCompactSize(b, pos, end);
  if (n < 0 || n > (end - pos) / MIN_INPUT_BYTES) return -1;
  pos += n < 0xfd ? 1 : 3;
  for (let i = 0; i < n; i++) {
    const scriptLength = smallCompactSize(b, pos + 36, end);
    if (scriptLength < 0) return -1;
    pos += 36 + (scriptLength < 0xfd ? 1 : 3) + scriptLength + 4; // prevout, script, sequence
    if (pos > end) return -1;
  }
  n = smallCompactSize(b, pos, end);
  if (n < 0 || n > (end - pos) / MIN_OUTPUT_BYTES) return -1;
  pos += n < 0xfd ? 1 : 3;
  for (let i = 0; i < n; i++) {
    const scriptLength = smallCompactSize(b, pos + 8, end);
    if (scriptLength < 0 || b[pos + 7] !== 0 || b[pos + 6] !== 0) return -1;
    pos += 8 + (scriptLength < 0xfd ? 1 : 3) + scriptLength; // value, script
    if (pos > end) return -1;
  }
  return pos;
}

/** The offset after a JoinSplit list at `pos` (with its key and signature when not empty), or -1. */
function joinSplitsEnd(b: Uint8Array, pos: number, end: number, phgr: boolean): number {
  const size = JOINSPLIT_BEFORE_PROOF + (phgr ? PHGR_PROOF_SIZE : GROTH16_PROOF_SIZE) + JOINSPLIT_AFTER_PROOF;
  const n = smallCompactSize(b, pos, end);
  if (n < 0) return -1;
  pos += n < 0xfd ? 1 : 3;
  if (n === 0) return pos;
  if (n > (end - pos - JOINSPLIT_KEY_AND_SIG) / size) return -1;
  for (let i = 0; i < n; i++, pos += size) {
    if (!isMoneyRange(uint64At(b, pos)) || !isMoneyRange(uint64At(b, pos + 8))) return -1;
    if (phgr && !phgrLeadBytesValid(b, pos + JOINSPLIT_BEFORE_PROOF)) return -1;
  }
  return pos + JOINSPLIT_KEY_AND_SIG;
}

/** The little-endian uint64 at `at` when below 2^53, else NaN (outside MoneyRange either way). */
function uint64At(b: Uint8Array, at: number): number {
  const hi = int32LE(b, at + 4) >>> 0;
  return hi < 0x200000 ? hi * 0x100000000 + (int32LE(b, at) >>> 0) : Number.NaN;
}

function phgrLeadBytesValid(b: Uint8Array, proof: number): boolean {
  for (let i = 0; i < PHGR_LEADS.length; i++) {
    const lead = b[proof + PHGR_LEADS[i]!]!;
    if (i === 2 ? lead !== 0x0a && lead !== 0x0b : lead !== 0x02 && lead !== 0x03) return false;
  }
  return true;
}
