/**
 * zcashd's TxToJSON (src/rpc/rawtransaction.cpp, v6.12.2): the transaction object of
 * `decoderawtransaction`, `getblock` verbosity 2 and `getrawtransaction` verbose, member for
 * member, in zcashd's order and byte order.
 */
import type { NetworkParams } from '../chain/network.js';
import { scriptToAsm } from '../codec/script/asm.js';
import { encodeTransparentAddress } from '../codec/script/address.js';
import { solveScript } from '../codec/script/solver.js';
import { hexInt, toHex, toHexReversed } from '../codec/hex.js';
import type { Transaction } from '../codec/tx/transaction.js';
import type { JoinSplit, OrchardBundle, SaplingBundle, TxIn, TxOut } from '../codec/tx/types.js';
import { isCoinbase } from '../codec/tx/transparent.js';
import { JsonWriter } from './writer.js';

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
}

function writeVin(w: JsonWriter, vin: readonly TxIn[], coinbase: boolean): void {
  w.key('vin').beginArray();
  for (const input of vin) {
    w.beginObject();
    if (coinbase) {
      w.key('coinbase').plainStr(toHex(input.scriptSig));
    } else {
      w.key('txid').plainStr(toHexReversed(input.prevout.hash));
      w.key('vout').int(input.prevout.index);
      w.key('scriptSig').beginObject();
      w.key('asm').plainStr(scriptToAsm(input.scriptSig, true));
      w.key('hex').plainStr(toHex(input.scriptSig));
      w.endObject();
    }
    w.key('sequence').int(input.sequence);
    w.endObject();
  }
  w.endArray();
}

function writeVout(w: JsonWriter, vout: readonly TxOut[], network: NetworkParams): void {
  w.key('vout').beginArray();
  vout.forEach((out, n) => {
    w.beginObject();
    w.key('value').amount(out.value);
    w.key('valueZat').int(out.value);
    w.key('valueSat').int(out.value);
    w.key('n').int(n);
    w.key('scriptPubKey').beginObject();
    w.key('asm').plainStr(scriptToAsm(out.scriptPubKey, false));
    w.key('hex').plainStr(toHex(out.scriptPubKey));
    const solved = solveScript(out.scriptPubKey);
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

function writeJoinSplits(w: JsonWriter, joinSplits: readonly JoinSplit[]): void {
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
    w.key('proof').plainStr(toHex(js.proof));
    w.key('ciphertexts').beginArray().plainStr(toHex(js.ciphertexts[0])).plainStr(toHex(js.ciphertexts[1])).endArray();
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
    w.key('cv').plainStr(toHexReversed(sp.cv));
    w.key('anchor').plainStr(toHexReversed(sp.anchor));
    w.key('nullifier').plainStr(toHexReversed(sp.nullifier));
    w.key('rk').plainStr(toHexReversed(sp.rk));
    w.key('proof').plainStr(toHex(sp.zkproof));
    w.key('spendAuthSig').plainStr(toHex(sp.spendAuthSig));
    w.endObject();
  }
  w.endArray();
  w.key('vShieldedOutput').beginArray();
  for (const o of s?.outputs ?? []) {
    w.beginObject();
    w.key('cv').plainStr(toHexReversed(o.cv));
    w.key('cmu').plainStr(toHexReversed(o.cmu));
    w.key('ephemeralKey').plainStr(toHexReversed(o.ephemeralKey));
    w.key('encCiphertext').plainStr(toHex(o.encCiphertext));
    w.key('outCiphertext').plainStr(toHex(o.outCiphertext));
    w.key('proof').plainStr(toHex(o.zkproof));
    w.endObject();
  }
  w.endArray();
  if (s && s.bindingSig) w.key('bindingSig').plainStr(toHex(s.bindingSig));
}

function writeOrchard(w: JsonWriter, o: OrchardBundle | null): void {
  // Every Orchard field is printed raw (HexStr), unlike Sapling and Sprout.
  w.key('orchard').beginObject();
  w.key('actions').beginArray();
  for (const a of o?.actions ?? []) {
    w.beginObject();
    w.key('cv').plainStr(toHex(a.cv));
    w.key('nullifier').plainStr(toHex(a.nullifier));
    w.key('rk').plainStr(toHex(a.rk));
    w.key('cmx').plainStr(toHex(a.cmx));
    w.key('ephemeralKey').plainStr(toHex(a.ephemeralKey));
    w.key('encCiphertext').plainStr(toHex(a.encCiphertext));
    w.key('outCiphertext').plainStr(toHex(a.outCiphertext));
    w.key('spendAuthSig').plainStr(toHex(a.spendAuthSig));
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
    w.key('anchor').plainStr(toHex(o.anchor));
    w.key('proof').plainStr(toHex(o.proof));
    w.key('bindingSig').plainStr(toHex(o.bindingSig));
  }
  w.endObject();
}

/** Appends the TxToJSON object for `tx` to `w`. */
export function writeTxJson(w: JsonWriter, tx: Transaction, network: NetworkParams, extras: TxJsonExtras = {}): void {
  const d = tx.data;
  const hex = toHex(tx.bytes);
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
  writeVin(w, d.vin, isCoinbase(d.vin));
  writeVout(w, d.vout, network);
  writeJoinSplits(w, d.joinSplits);
  if (d.overwintered && d.version >= 4) writeSapling(w, d.sapling);
  if (d.overwintered && d.version >= 5) writeOrchard(w, d.orchard);
  if (d.version >= 2 && d.joinSplits.length > 0) {
    // zcashd copies joinSplitPubKey into a uint256, so it prints reversed; the signature is raw.
    w.key('joinSplitPubKey').plainStr(toHexReversed(d.joinSplitPubKey!));
    w.key('joinSplitSig').plainStr(toHex(d.joinSplitSig!));
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
export function txToJson(tx: Transaction, network: NetworkParams): string {
  const w = new JsonWriter();
  writeTxJson(w, tx, network);
  return w.toString();
}
