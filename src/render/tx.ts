/**
 * zcashd's TxToJSON (src/rpc/rawtransaction.cpp, v6.12.2): the transaction object of
 * `decoderawtransaction`, `getblock` verbosity 2 and `getrawtransaction` verbose, member for
 * member, in zcashd's order and byte order.
 */
import type { NetworkParams } from '../chain/network.js';
import { hexInt } from '../codec/hex.js';
import type { Transaction } from '../codec/tx/transaction.js';
import type { JoinSplit, OrchardAction, OrchardBundle, SaplingBundle } from '../codec/tx/types.js';
import { isCoinbase } from '../codec/tx/transparent.js';
import { JsonFragment } from '../json/fragment.js';
import { JsonWriter } from '../json/writer.js';
import { AsmIntoWriter } from './asm-sinks.js';
import { renderToBytes } from './scratch-output.js';
import type { TxSpentFields } from './spent-fields.js';
import { inputRunWriter, releaseHeldTransaction } from './input-wasm.js';
import { writeVin } from './tx-vin.js';
import { writeVout } from './tx-vout.js';

/** Members getrawtransaction adds around TxToJSON (rpc-http-json.md §7.7). */
export interface TxJsonExtras {
  /** getrawtransaction adds `hex` first; TxToJSON's later `hex` then replaces it in place. */
  leadingHex?: boolean;
  /** Printed first, only when the caller passed a non-zero block hash. */
  inActiveChain?: boolean;
  /**
   * The containing block. The `notIndexed` form is a block that is known but not on the active
   * chain (zcashd then prints `height` -1 and `confirmations` 0).
   */
  block?: { hash: Uint8Array; height: number; confirmations: number; time: number } | { hash: Uint8Array; notIndexed: true };
  /**
   * The spent index's records, when the node keeps it (-insightexplorer): zcashd then adds an
   * input's `value`, `valueSat` and `address`, and an output's `spentTxId`, `spentIndex` and
   * `spentHeight`, where the index has an entry.
   */
  spent?: TxSpentFields;
}

function writeJoinSplits(w: JsonWriter, joinSplits: readonly JoinSplit[]): void {
  w.key('vjoinsplit').beginArray();
  for (const js of joinSplits) {
    w.beginObject();
    w.key('vpub_old').amount(js.vpubOld);
    w.key('vpub_oldZat').int(js.vpubOld);
    w.key('vpub_new').amount(js.vpubNew);
    w.key('vpub_newZat').int(js.vpubNew);
    w.key('anchor').hexStrReversed(js.anchor);
    w.key('nullifiers').beginArray().hexStrReversed(js.nullifiers[0]).hexStrReversed(js.nullifiers[1]).endArray();
    w.key('commitments').beginArray().hexStrReversed(js.commitments[0]).hexStrReversed(js.commitments[1]).endArray();
    w.key('onetimePubKey').hexStrReversed(js.ephemeralKey);
    w.key('randomSeed').hexStrReversed(js.randomSeed);
    w.key('macs').beginArray().hexStrReversed(js.macs[0]).hexStrReversed(js.macs[1]).endArray();
    w.key('proof').hexStr(js.proof);
    w.key('ciphertexts').beginArray().hexStr(js.ciphertexts[0]).hexStr(js.ciphertexts[1]).endArray();
    w.endObject();
  }
  w.endArray();
}

function writeSapling(w: JsonWriter, s: SaplingBundle | null): void {
  const valueBalance = s?.valueBalance ?? 0;
  w.key('valueBalance').amount(valueBalance);
  w.key('valueBalanceZat').int(valueBalance);
  w.key('vShieldedSpend').beginArray();
  for (const sp of s?.spends ?? []) {
    w.beginObject();
    w.key('cv').hexStrReversed(sp.cv);
    w.key('anchor').hexStrReversed(sp.anchor);
    w.key('nullifier').hexStrReversed(sp.nullifier);
    w.key('rk').hexStrReversed(sp.rk);
    w.key('proof').hexStr(sp.zkproof);
    w.key('spendAuthSig').hexStr(sp.spendAuthSig);
    w.endObject();
  }
  w.endArray();
  w.key('vShieldedOutput').beginArray();
  for (const o of s?.outputs ?? []) {
    w.beginObject();
    w.key('cv').hexStrReversed(o.cv);
    w.key('cmu').hexStrReversed(o.cmu);
    w.key('ephemeralKey').hexStrReversed(o.ephemeralKey);
    w.key('encCiphertext').hexStr(o.encCiphertext);
    w.key('outCiphertext').hexStr(o.outCiphertext);
    w.key('proof').hexStr(o.zkproof);
    w.endObject();
  }
  w.endArray();
  if (s && s.bindingSig) w.key('bindingSig').hexStr(s.bindingSig);
}

/**
 * The flags bits TxToJSON names: v5's two, and from v6 (ZIP 229) enableCrossAddress as well, in
 * bit order. A v5 bundle never prints the third: its bit is reserved there.
 */
const V5_ORCHARD_FLAGS = ['enableSpends', 'enableOutputs'] as const;
const V6_ORCHARD_FLAGS = ['enableSpends', 'enableOutputs', 'enableCrossAddress'] as const;

const ACTION_CV = new JsonFragment('{"cv":"');
const ACTION_NULLIFIER = new JsonFragment('","nullifier":"');
const ACTION_RK = new JsonFragment('","rk":"');
const ACTION_CMX = new JsonFragment('","cmx":"');
const ACTION_EPHEMERAL_KEY = new JsonFragment('","ephemeralKey":"');
const ACTION_ENC_CIPHERTEXT = new JsonFragment('","encCiphertext":"');
const ACTION_OUT_CIPHERTEXT = new JsonFragment('","outCiphertext":"');
const ACTION_SPEND_AUTH_SIG = new JsonFragment('","spendAuthSig":"');
const ACTION_END = new JsonFragment('"}');

/**
 * An Orchard action for byte output, from fixed fragments around its eight hex fields (each a
 * copy of the transaction's `hex`, written before it): the member-by-member writer's keys and
 * states cost more than the copies. Text output writes the same members one by one, and the
 * vector tests compare the two.
 */
function writeOrchardAction(w: JsonWriter, a: OrchardAction): void {
  w.beginPieces()
    .piece(ACTION_CV)
    .pieceHex(a.cv, 0, a.cv.length)
    .piece(ACTION_NULLIFIER)
    .pieceHex(a.nullifier, 0, a.nullifier.length)
    .piece(ACTION_RK)
    .pieceHex(a.rk, 0, a.rk.length)
    .piece(ACTION_CMX)
    .pieceHex(a.cmx, 0, a.cmx.length)
    .piece(ACTION_EPHEMERAL_KEY)
    .pieceHex(a.ephemeralKey, 0, a.ephemeralKey.length)
    .piece(ACTION_ENC_CIPHERTEXT)
    .pieceHex(a.encCiphertext, 0, a.encCiphertext.length)
    .piece(ACTION_OUT_CIPHERTEXT)
    .pieceHex(a.outCiphertext, 0, a.outCiphertext.length)
    .piece(ACTION_SPEND_AUTH_SIG)
    .pieceHex(a.spendAuthSig, 0, a.spendAuthSig.length)
    .piece(ACTION_END)
    .endPieces();
}

/**
 * An Orchard-protocol component (v5's and v6's `orchard`, v6's `ironwood`): zcashd's Orchard
 * object, member for member. Every field is printed raw (HexStr), unlike Sapling and Sprout.
 */
function writeOrchardShaped(w: JsonWriter, member: 'orchard' | 'ironwood', o: OrchardBundle | null, flagNames: readonly string[]): void {
  w.key(member).beginObject();
  w.key('actions').beginArray();
  for (const a of o?.actions ?? []) {
    if (w.writesBytes) {
      writeOrchardAction(w, a);
      continue;
    }
    w.beginObject();
    w.key('cv').hexStr(a.cv);
    w.key('nullifier').hexStr(a.nullifier);
    w.key('rk').hexStr(a.rk);
    w.key('cmx').hexStr(a.cmx);
    w.key('ephemeralKey').hexStr(a.ephemeralKey);
    w.key('encCiphertext').hexStr(a.encCiphertext);
    w.key('outCiphertext').hexStr(a.outCiphertext);
    w.key('spendAuthSig').hexStr(a.spendAuthSig);
    w.endObject();
  }
  w.endArray();
  const valueBalance = o?.valueBalance ?? 0;
  w.key('valueBalance').amount(valueBalance);
  w.key('valueBalanceZat').int(valueBalance);
  if (o) {
    w.key('flags').beginObject();
    for (let bit = 0; bit < flagNames.length; bit++) w.key(flagNames[bit]!).bool((o.flags & (1 << bit)) !== 0);
    w.endObject();
    w.key('anchor').hexStr(o.anchor);
    w.key('proof').hexStr(o.proof);
    w.key('bindingSig').hexStr(o.bindingSig);
  }
  w.endObject();
}

/**
 * The `hex` member: `hexText` copied when given; written in place by the inputs module when the
 * output is one of its reply slots (./input-wasm.ts), which saves copying the hex out of a
 * module's memory, and leaves the transaction in the module for its inputs' runs (until
 * writeTxJsonWithHex ends); else encoded by the writer.
 */
function writeHexMember(w: JsonWriter, bytes: Uint8Array, hexText: Uint8Array | undefined): void {
  w.key('hex');
  if (hexText === undefined && w.writesBytes) w.sharedHexStrEncodedBy(bytes, encodeInSlot);
  else w.sharedHexStr(bytes, hexText);
}

function encodeInSlot(bytes: Uint8Array, output: Buffer, at: number): boolean {
  const module = inputRunWriter();
  return module !== null && output.buffer === module.memory && module.encodeHexAt(bytes, output.byteOffset + at);
}

/**
 * Appends the TxToJSON object for `tx` to `w`. A v6 transaction (ZIP 229), which no zcashd
 * release prints, extends v5's object: its Orchard flags name enableCrossAddress, and an
 * `ironwood` object shaped as `orchard` follows it (docs/compatibility.md, v6 transactions).
 */
export function writeTxJson(w: JsonWriter, tx: Transaction, network: NetworkParams, extras: TxJsonExtras = {}): void {
  writeTxJsonWithHex(w, tx, network, extras, undefined);
}

/**
 * writeTxJson with `hexText`, when given, copied as the `hex` member instead of `tx.bytes`
 * encoded again: it must be HexStr(tx.bytes) character for character, as the decoder vouches
 * for decoderawtransaction's lowercase parameter (decodeTransactionHexBytesKeepingText). Kept
 * out of the library's TxJsonExtras, so no caller's unchecked text can stand for the bytes.
 */
function writeTxJsonWithHex(
  w: JsonWriter,
  tx: Transaction,
  network: NetworkParams,
  extras: TxJsonExtras,
  hexText: Uint8Array | undefined,
): void {
  try {
    writeTxMembers(w, tx, network, extras, hexText);
  } finally {
    // The inputs module holds the bytes encodeInSlot copied only while this rendering reads them:
    // they are the caller's memory, which may hold another transaction afterwards.
    releaseHeldTransaction();
  }
}

function writeTxMembers(
  w: JsonWriter,
  tx: Transaction,
  network: NetworkParams,
  extras: TxJsonExtras,
  hexText: Uint8Array | undefined,
): void {
  const d = tx.data;
  const asm = new AsmIntoWriter(w);
  // The scripts repeat the transaction's bytes as hex once or twice more (hex and asm).
  w.reserve(4 * tx.size + 512);
  w.beginObject();
  if (extras.inActiveChain !== undefined) w.key('in_active_chain').bool(extras.inActiveChain);
  // Written first, so that the hex of every field after it is a copy of this output.
  if (extras.leadingHex) writeHexMember(w, tx.bytes, hexText);
  tx.computeDigests();
  w.key('txid').hexStrReversed(tx.txid);
  w.key('authdigest').hexStrReversed(tx.authDigest);
  w.key('size').int(tx.size);
  w.key('overwintered').bool(d.overwintered);
  w.key('version').int(d.version);
  if (d.overwintered) w.key('versiongroupid').plainStr(hexInt(d.versionGroupId));
  w.key('locktime').int(d.lockTime);
  if (d.overwintered) w.key('expiryheight').int(d.expiryHeight);
  if (!extras.leadingHex) writeHexMember(w, tx.bytes, hexText);
  writeVin(w, asm, d.vin, isCoinbase(d.vin), network, extras.spent);
  writeVout(w, asm, d.vout, network, d.vin.length, extras.spent);
  writeJoinSplits(w, d.joinSplits);
  if (tx.carries.sapling) writeSapling(w, d.sapling);
  if (tx.carries.ironwood) {
    writeOrchardShaped(w, 'orchard', d.orchard, V6_ORCHARD_FLAGS);
    writeOrchardShaped(w, 'ironwood', d.ironwood ?? null, V6_ORCHARD_FLAGS);
  } else if (tx.carries.orchard) {
    writeOrchardShaped(w, 'orchard', d.orchard, V5_ORCHARD_FLAGS);
  }
  if (d.joinSplits.length > 0 && d.joinSplitPubKey && d.joinSplitSig) {
    // zcashd copies joinSplitPubKey into a uint256, so it prints reversed; the signature is raw.
    w.key('joinSplitPubKey').hexStrReversed(d.joinSplitPubKey);
    w.key('joinSplitSig').hexStr(d.joinSplitSig);
  }
  const b = extras.block;
  if (b) {
    w.key('blockhash').hexStrReversed(b.hash);
    if ('notIndexed' in b) {
      w.key('height').int(-1);
      w.key('confirmations').int(0);
    } else {
      w.key('height').int(b.height);
      w.key('confirmations').int(b.confirmations);
      w.key('time').int(b.time);
      w.key('blocktime').int(b.time);
    }
  }
  w.endObject();
}

/** The compact TxToJSON text of `tx` (decoderawtransaction's result, for library use). */
export function txToJson(tx: Transaction, network: NetworkParams): string {
  const w = new JsonWriter();
  writeTxJson(w, tx, network);
  return w.toString();
}

/**
 * The same as UTF-8 bytes (TxToJSON is pure ASCII: hex, asm, base58 and fixed words): what a
 * reply sends, written as bytes from the start (see JsonWriter). `hexText` as for
 * writeTxJsonWithHex.
 */
export function txToJsonBytes(tx: Transaction, network: NetworkParams, extras: TxJsonExtras = {}, hexText?: Uint8Array): Buffer {
  return renderToBytes(txJsonSizeEstimate(tx), (w) => writeTxJsonWithHex(w, tx, network, extras, hexText));
}

/** Bytes txToJsonBytes expects a transaction's text to take, at most for nearly every transaction. */
export function txJsonSizeEstimate(tx: Transaction): number {
  return 4 * tx.size + 512;
}

/**
 * txToJsonBytes written into `output` from its start: the result is a view of it while the text
 * fits (memory of its own otherwise), so it is valid only as long as `output` is not reused.
 */
export function txToJsonBytesInto(
  output: Buffer,
  tx: Transaction,
  network: NetworkParams,
  extras: TxJsonExtras = {},
  hexText?: Uint8Array,
): Buffer {
  const w = new JsonWriter(output);
  writeTxJsonWithHex(w, tx, network, extras, hexText);
  return w.toBuffer();
}
