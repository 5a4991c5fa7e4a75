/**
 * zcashd's TxToJSON (src/rpc/rawtransaction.cpp, v6.12.2): the transaction object of
 * `decoderawtransaction`, `getblock` verbosity 2 and `getrawtransaction` verbose, member for
 * member, in zcashd's order and byte order.
 */
import type { NetworkParams } from '../chain/network.js';
import { scriptToAsm } from '../codec/script/asm.js';
import { encodeTransparentAddress } from '../codec/script/address.js';
import { solveScript } from '../codec/script/solver.js';
import { hexInt, toHex, toHexReversed, toHexReversedAt } from '../codec/hex.js';
import type { Transaction } from '../codec/tx/transaction.js';
import type { JoinSplit, OrchardBundle, SaplingBundle, TxIn, TxOut } from '../codec/tx/types.js';
import { isCoinbase, WireTxIn } from '../codec/tx/transparent.js';
import { formatInteger, JsonWriter } from '../json/writer.js';

/**
 * Hex of a transaction's byte fields as substrings of the transaction's own hex, which is
 * rendered anyway for the `hex` member. Decoded fields are views into the transaction's bytes,
 * so a field's hex is exactly a slice of that string, and V8 makes a slice of 13+ characters
 * in O(1) (a SlicedString sharing the parent's characters). Hex-encoding each proof,
 * ciphertext and script a second time was most of TxToJSON's cost. A field that is not a view
 * of these bytes (a transaction built in code) is encoded on its own.
 */
class TxHex {
  private readonly buffer: ArrayBufferLike;
  private readonly base: number;
  private readonly length: number;

  constructor(
    /** toHex(bytes) */
    readonly hex: string,
    bytes: Uint8Array,
  ) {
    this.buffer = bytes.buffer;
    this.base = bytes.byteOffset;
    this.length = bytes.length;
  }

  /** `HexStr(field)`. */
  of(field: Uint8Array): string {
    if (field.buffer === this.buffer) {
      const off = field.byteOffset - this.base;
      const end = off + field.length;
      if (off >= 0 && end <= this.length) return this.hex.slice(2 * off, 2 * end);
    }
    return toHex(field);
  }
}

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
   * `HexStr(tx.bytes)` when the caller already holds it (decoderawtransaction's own lowercase
   * input), saving the encoding of the whole transaction. Must equal toHex(tx.bytes).
   */
  hex?: string;
}

function writeVin(w: JsonWriter, h: TxHex, vin: readonly TxIn[], coinbase: boolean): void {
  w.key('vin').beginArray();
  for (const input of vin) {
    if (coinbase) {
      w.beginObject();
      w.key('coinbase').plainStr(h.of(input.scriptSig));
      w.key('sequence').int(input.sequence);
      w.endObject();
      continue;
    }
    // One piece of text per input instead of a dozen writer calls, and no prevout object:
    // getblock of a large block renders thousands of inputs, and that bookkeeping showed in
    // its profile. Same members, order and number formatting as the writer calls.
    let txid: string;
    let index: number;
    if (input instanceof WireTxIn) {
      txid = toHexReversedAt(input.buf, input.at, 32);
      index = input.prevoutIndex;
    } else {
      const prevout = input.prevout;
      txid = toHexReversed(prevout.hash);
      index = prevout.index;
    }
    const script = input.scriptSig;
    const scriptHex = h.of(script);
    w.plainRaw(
      '{"txid":"' +
        txid +
        '","vout":' +
        formatInteger(index) +
        ',"scriptSig":{"asm":"' +
        scriptToAsm(script, true, scriptHex) +
        '","hex":"' +
        scriptHex +
        '"},"sequence":' +
        formatInteger(input.sequence) +
        '}',
    );
  }
  w.endArray();
}

function writeVout(w: JsonWriter, h: TxHex, vout: readonly TxOut[], network: NetworkParams): void {
  w.key('vout').beginArray();
  vout.forEach((out, n) => {
    w.beginObject();
    w.key('value').amount(out.value);
    w.key('valueZat').int(out.value);
    w.key('valueSat').int(out.value);
    w.key('n').int(n);
    w.key('scriptPubKey').beginObject();
    const script = out.scriptPubKey;
    const scriptHex = h.of(script);
    w.key('asm').plainStr(scriptToAsm(script, false, scriptHex));
    w.key('hex').plainStr(scriptHex);
    const solved = solveScript(script);
    if (solved.reqSigs === undefined || !solved.destinations) {
      w.key('type').plainStr(solved.type);
    } else {
      w.key('reqSigs').int(solved.reqSigs);
      w.key('type').plainStr(solved.type);
      w.key('addresses').beginArray();
      for (const d of solved.destinations) w.plainStr(encodeTransparentAddress(d.kind, d.hash, network));
      w.endArray();
    }
    w.endObject();
    w.endObject();
  });
  w.endArray();
}

function writeJoinSplits(w: JsonWriter, h: TxHex, joinSplits: readonly JoinSplit[]): void {
  w.key('vjoinsplit').beginArray();
  for (const js of joinSplits) {
    w.beginObject();
    w.key('vpub_old').amount(js.vpubOld);
    w.key('vpub_oldZat').int(js.vpubOld);
    w.key('vpub_new').amount(js.vpubNew);
    w.key('vpub_newZat').int(js.vpubNew);
    w.key('anchor').plainStr(toHexReversed(js.anchor));
    w.key('nullifiers').beginArray().plainStr(toHexReversed(js.nullifiers[0])).plainStr(toHexReversed(js.nullifiers[1])).endArray();
    w.key('commitments').beginArray().plainStr(toHexReversed(js.commitments[0])).plainStr(toHexReversed(js.commitments[1])).endArray();
    w.key('onetimePubKey').plainStr(toHexReversed(js.ephemeralKey));
    w.key('randomSeed').plainStr(toHexReversed(js.randomSeed));
    w.key('macs').beginArray().plainStr(toHexReversed(js.macs[0])).plainStr(toHexReversed(js.macs[1])).endArray();
    w.key('proof').plainStr(h.of(js.proof));
    w.key('ciphertexts').beginArray().plainStr(h.of(js.ciphertexts[0])).plainStr(h.of(js.ciphertexts[1])).endArray();
    w.endObject();
  }
  w.endArray();
}

function writeSapling(w: JsonWriter, h: TxHex, s: SaplingBundle | null): void {
  const valueBalance = s?.valueBalance ?? 0;
  w.key('valueBalance').amount(valueBalance);
  w.key('valueBalanceZat').int(valueBalance);
  w.key('vShieldedSpend').beginArray();
  for (const sp of s?.spends ?? []) {
    w.beginObject();
    w.key('cv').plainStr(toHexReversed(sp.cv));
    w.key('anchor').plainStr(toHexReversed(sp.anchor));
    w.key('nullifier').plainStr(toHexReversed(sp.nullifier));
    w.key('rk').plainStr(toHexReversed(sp.rk));
    w.key('proof').plainStr(h.of(sp.zkproof));
    w.key('spendAuthSig').plainStr(h.of(sp.spendAuthSig));
    w.endObject();
  }
  w.endArray();
  w.key('vShieldedOutput').beginArray();
  for (const o of s?.outputs ?? []) {
    w.beginObject();
    w.key('cv').plainStr(toHexReversed(o.cv));
    w.key('cmu').plainStr(toHexReversed(o.cmu));
    w.key('ephemeralKey').plainStr(toHexReversed(o.ephemeralKey));
    w.key('encCiphertext').plainStr(h.of(o.encCiphertext));
    w.key('outCiphertext').plainStr(h.of(o.outCiphertext));
    w.key('proof').plainStr(h.of(o.zkproof));
    w.endObject();
  }
  w.endArray();
  if (s && s.bindingSig) w.key('bindingSig').plainStr(h.of(s.bindingSig));
}

function writeOrchard(w: JsonWriter, h: TxHex, o: OrchardBundle | null): void {
  // Every Orchard field is printed raw (HexStr), unlike Sapling and Sprout.
  w.key('orchard').beginObject();
  w.key('actions').beginArray();
  for (const a of o?.actions ?? []) {
    w.beginObject();
    w.key('cv').plainStr(h.of(a.cv));
    w.key('nullifier').plainStr(h.of(a.nullifier));
    w.key('rk').plainStr(h.of(a.rk));
    w.key('cmx').plainStr(h.of(a.cmx));
    w.key('ephemeralKey').plainStr(h.of(a.ephemeralKey));
    w.key('encCiphertext').plainStr(h.of(a.encCiphertext));
    w.key('outCiphertext').plainStr(h.of(a.outCiphertext));
    w.key('spendAuthSig').plainStr(h.of(a.spendAuthSig));
    w.endObject();
  }
  w.endArray();
  const valueBalance = o?.valueBalance ?? 0;
  w.key('valueBalance').amount(valueBalance);
  w.key('valueBalanceZat').int(valueBalance);
  if (o) {
    w.key('flags').beginObject();
    w.key('enableSpends').bool((o.flags & 1) !== 0);
    w.key('enableOutputs').bool((o.flags & 2) !== 0);
    w.endObject();
    w.key('anchor').plainStr(h.of(o.anchor));
    w.key('proof').plainStr(h.of(o.proof));
    w.key('bindingSig').plainStr(h.of(o.bindingSig));
  }
  w.endObject();
}

/** Appends the TxToJSON object for `tx` to `w`. */
export function writeTxJson(w: JsonWriter, tx: Transaction, network: NetworkParams, extras: TxJsonExtras = {}): void {
  const d = tx.data;
  const h = new TxHex(extras.hex ?? toHex(tx.bytes), tx.bytes);
  const hex = h.hex;
  w.beginObject();
  if (extras.inActiveChain !== undefined) w.key('in_active_chain').bool(extras.inActiveChain);
  if (extras.leadingHex) w.key('hex').plainStr(hex);
  w.key('txid').plainStr(tx.txidHex);
  w.key('authdigest').plainStr(toHexReversed(tx.authDigest));
  w.key('size').int(tx.size);
  w.key('overwintered').bool(d.overwintered);
  w.key('version').int(d.version);
  if (d.overwintered) w.key('versiongroupid').plainStr(hexInt(d.versionGroupId));
  w.key('locktime').int(d.lockTime);
  if (d.overwintered) w.key('expiryheight').int(d.expiryHeight);
  if (!extras.leadingHex) w.key('hex').plainStr(hex);
  writeVin(w, h, d.vin, isCoinbase(d.vin));
  writeVout(w, h, d.vout, network);
  writeJoinSplits(w, h, d.joinSplits);
  if (tx.carries.sapling) writeSapling(w, h, d.sapling);
  if (tx.carries.orchard) writeOrchard(w, h, d.orchard);
  if (d.joinSplits.length > 0 && d.joinSplitPubKey && d.joinSplitSig) {
    // zcashd copies joinSplitPubKey into a uint256, so it prints reversed; the signature is raw.
    w.key('joinSplitPubKey').plainStr(toHexReversed(d.joinSplitPubKey));
    w.key('joinSplitSig').plainStr(h.of(d.joinSplitSig));
  }
  const b = extras.block;
  if (b) {
    w.key('blockhash').plainStr(toHexReversed(b.hash));
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

/** The compact TxToJSON text of `tx` (what decoderawtransaction returns as its result). */
export function txToJson(tx: Transaction, network: NetworkParams, extras?: Pick<TxJsonExtras, 'hex'>): string {
  const w = new JsonWriter();
  writeTxJson(w, tx, network, extras);
  return w.toString();
}
