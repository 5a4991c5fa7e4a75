/**
 * ZIP-244 transaction identifier and authorizing-data commitment for v5 transactions.
 * Digests are returned in internal byte order (RPC prints them reversed).
 */
import { ByteWriter } from '../bytes.js';
import { blake2b256, blake2b256Of, personalization } from '../hash.js';
import type { TransactionData } from './types.js';

const P = (tag: string) => personalization(tag);
const P_HEADERS = P('ZTxIdHeadersHash');
const P_TRANSPARENT = P('ZTxIdTranspaHash');
const P_PREVOUTS = P('ZTxIdPrevoutHash');
const P_SEQUENCE = P('ZTxIdSequencHash');
const P_OUTPUTS = P('ZTxIdOutputsHash');
const P_SAPLING = P('ZTxIdSaplingHash');
const P_SSPENDS = P('ZTxIdSSpendsHash');
const P_SSPEND_C = P('ZTxIdSSpendCHash');
const P_SSPEND_N = P('ZTxIdSSpendNHash');
const P_SOUTPUTS = P('ZTxIdSOutputHash');
const P_SOUT_C = P('ZTxIdSOutC__Hash');
const P_SOUT_M = P('ZTxIdSOutM__Hash');
const P_SOUT_N = P('ZTxIdSOutN__Hash');
const P_ORCHARD = P('ZTxIdOrchardHash');
const P_ORC_C = P('ZTxIdOrcActCHash');
const P_ORC_M = P('ZTxIdOrcActMHash');
const P_ORC_N = P('ZTxIdOrcActNHash');
const P_AUTH_TRANS = P('ZTxAuthTransHash');
const P_AUTH_SAPLING = P('ZTxAuthSapliHash');
const P_AUTH_ORCHARD = P('ZTxAuthOrchaHash');

function le32(v: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v >>> 0, true);
  return b;
}

function le64(v: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigInt64(0, BigInt(v), true);
  return b;
}

function headerDigest(tx: TransactionData): Uint8Array {
  const b = new Uint8Array(20);
  const v = new DataView(b.buffer);
  v.setUint32(0, (tx.version | 0x80000000) >>> 0, true);
  v.setUint32(4, tx.versionGroupId >>> 0, true);
  v.setUint32(8, tx.consensusBranchId! >>> 0, true);
  v.setUint32(12, tx.lockTime >>> 0, true);
  v.setUint32(16, tx.expiryHeight >>> 0, true);
  return blake2b256Of(P_HEADERS, b);
}

function transparentDigest(tx: TransactionData): Uint8Array {
  if (tx.vin.length === 0 && tx.vout.length === 0) return blake2b256Of(P_TRANSPARENT);
  const prevouts = blake2b256(P_PREVOUTS);
  const sequence = blake2b256(P_SEQUENCE);
  for (const i of tx.vin) {
    prevouts.update(i.prevout.hash).update(le32(i.prevout.index));
    sequence.update(le32(i.sequence));
  }
  const w = new ByteWriter(256);
  for (const o of tx.vout) w.i64(o.value).varBytes(o.scriptPubKey);
  const outputs = blake2b256Of(P_OUTPUTS, w.finish());
  return blake2b256Of(P_TRANSPARENT, prevouts.digest(), sequence.digest(), outputs);
}

function saplingDigest(tx: TransactionData): Uint8Array {
  const s = tx.sapling;
  if (!s || s.spends.length + s.outputs.length === 0) return blake2b256Of(P_SAPLING);
  let spendsDigest: Uint8Array;
  if (s.spends.length === 0) {
    spendsDigest = blake2b256Of(P_SSPENDS);
  } else {
    const c = blake2b256(P_SSPEND_C);
    const n = blake2b256(P_SSPEND_N);
    for (const sp of s.spends) {
      c.update(sp.nullifier);
      n.update(sp.cv).update(sp.anchor).update(sp.rk);
    }
    spendsDigest = blake2b256Of(P_SSPENDS, c.digest(), n.digest());
  }
  let outputsDigest: Uint8Array;
  if (s.outputs.length === 0) {
    outputsDigest = blake2b256Of(P_SOUTPUTS);
  } else {
    const c = blake2b256(P_SOUT_C);
    const m = blake2b256(P_SOUT_M);
    const n = blake2b256(P_SOUT_N);
    for (const o of s.outputs) {
      c.update(o.cmu).update(o.ephemeralKey).update(o.encCiphertext.subarray(0, 52));
      m.update(o.encCiphertext.subarray(52, 564));
      n.update(o.cv).update(o.encCiphertext.subarray(564, 580)).update(o.outCiphertext);
    }
    outputsDigest = blake2b256Of(P_SOUTPUTS, c.digest(), m.digest(), n.digest());
  }
  return blake2b256Of(P_SAPLING, spendsDigest, outputsDigest, le64(s.valueBalance));
}

function orchardDigest(tx: TransactionData): Uint8Array {
  const o = tx.orchard;
  if (!o) return blake2b256Of(P_ORCHARD);
  const c = blake2b256(P_ORC_C);
  const m = blake2b256(P_ORC_M);
  const n = blake2b256(P_ORC_N);
  for (const a of o.actions) {
    c.update(a.nullifier).update(a.cmx).update(a.ephemeralKey).update(a.encCiphertext.subarray(0, 52));
    m.update(a.encCiphertext.subarray(52, 564));
    n.update(a.cv).update(a.rk).update(a.encCiphertext.subarray(564, 580)).update(a.outCiphertext);
  }
  return blake2b256Of(P_ORCHARD, c.digest(), m.digest(), n.digest(), Uint8Array.of(o.flags), le64(o.valueBalance), o.anchor);
}

export function zip244TxId(tx: TransactionData): Uint8Array {
  return blake2b256Of(
    personalization('ZcashTxHash_', tx.consensusBranchId!),
    headerDigest(tx),
    transparentDigest(tx),
    saplingDigest(tx),
    orchardDigest(tx),
  );
}

export function zip244AuthDigest(tx: TransactionData): Uint8Array {
  const t = blake2b256(P_AUTH_TRANS);
  const w = new ByteWriter(128);
  for (const i of tx.vin) w.varBytes(i.scriptSig);
  t.update(w.finish());
  const s = tx.sapling;
  let saplingAuth: Uint8Array;
  if (!s || s.spends.length + s.outputs.length === 0) {
    saplingAuth = blake2b256Of(P_AUTH_SAPLING);
  } else {
    const h = blake2b256(P_AUTH_SAPLING);
    for (const sp of s.spends) h.update(sp.zkproof);
    for (const sp of s.spends) h.update(sp.spendAuthSig);
    for (const o of s.outputs) h.update(o.zkproof);
    h.update(s.bindingSig!);
    saplingAuth = h.digest();
  }
  const o = tx.orchard;
  let orchardAuth: Uint8Array;
  if (!o) {
    orchardAuth = blake2b256Of(P_AUTH_ORCHARD);
  } else {
    const h = blake2b256(P_AUTH_ORCHARD);
    h.update(o.proof);
    for (const a of o.actions) h.update(a.spendAuthSig);
    h.update(o.bindingSig);
    orchardAuth = h.digest();
  }
  return blake2b256Of(personalization('ZTxAuthHash_', tx.consensusBranchId!), t.digest(), saplingAuth, orchardAuth);
}
