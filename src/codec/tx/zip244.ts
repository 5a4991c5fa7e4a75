/**
 * ZIP-244 transaction identifier and authorizing-data commitment for v5 transactions.
 * Digests are returned in internal byte order (RPC prints them reversed).
 *
 * Given the transaction's serialized bytes, the whole digest tree is computed in one call into
 * WebAssembly (src/crypto/zip244-wasm.ts). The field-by-field path below is the fallback
 * (ZECRPC_PURE_TXID=1, no module, or no bytes) and gives the same digests; tests check both.
 * The nodes v6 keeps unchanged (ZIP 229) are exported for `zip229.ts`.
 */
import { ByteWriter, compactSizeLength } from '../bytes.js';
import { blake2b256, blake2b256Of, personalization } from '../../crypto/hash.js';
import { wasmZip244AuthDigest, wasmZip244Digests, wasmZip244TxId } from '../../crypto/zip244-wasm.js';
import { requireBranchId, requirePart, type SaplingOutput, type TransactionData } from './types.js';
import { gatherPrevoutsAndSequences, outputsWireBytes } from './transparent.js';

/** A 16-byte BLAKE2b personalization from its ASCII tag. */
export const P = (tag: string) => personalization(tag);
const P_HEADERS = P('ZTxIdHeadersHash');
const P_TRANSPARENT = P('ZTxIdTranspaHash');
const P_PREVOUTS = P('ZTxIdPrevoutHash');
const P_SEQUENCE = P('ZTxIdSequencHash');
const P_OUTPUTS = P('ZTxIdOutputsHash');
export const P_SAPLING = P('ZTxIdSaplingHash');
export const P_SSPENDS = P('ZTxIdSSpendsHash');
export const P_SSPEND_C = P('ZTxIdSSpendCHash');
const P_SSPEND_N = P('ZTxIdSSpendNHash');
export const P_SOUTPUTS = P('ZTxIdSOutputHash');
const P_SOUT_C = P('ZTxIdSOutC__Hash');
const P_SOUT_M = P('ZTxIdSOutM__Hash');
const P_SOUT_N = P('ZTxIdSOutN__Hash');
const P_ORCHARD = P('ZTxIdOrchardHash');
export const P_ORC_C = P('ZTxIdOrcActCHash');
export const P_ORC_M = P('ZTxIdOrcActMHash');
export const P_ORC_N = P('ZTxIdOrcActNHash');
const P_AUTH_TRANS = P('ZTxAuthTransHash');
const P_AUTH_SAPLING = P('ZTxAuthSapliHash');
const P_AUTH_ORCHARD = P('ZTxAuthOrchaHash');

/**
 * Digests of empty input, computed once: most transactions have an empty Sapling and/or
 * Orchard part, and these sub-digests are only ever fed into other hashes (never mutated).
 */
const emptyDigests = new Map<Uint8Array, Uint8Array>();
export function emptyDigest(personal: Uint8Array): Uint8Array {
  let d = emptyDigests.get(personal);
  if (!d) emptyDigests.set(personal, (d = blake2b256Of(personal)));
  return d;
}

/**
 * A value balance (a safe integer, |v| ≤ MAX_MONEY) as 8 little-endian two's-complement bytes.
 * Split into 32-bit halves rather than going through BigInt, which showed in per-tx profiles.
 */
export function le64(v: number): Uint8Array {
  const b = new Uint8Array(8);
  const hi = Math.floor(v / 0x100000000);
  const lo = v - hi * 0x100000000;
  const d = new DataView(b.buffer);
  d.setUint32(0, lo >>> 0, true);
  d.setUint32(4, hi >>> 0, true);
  return b;
}

/** v5's and v6's first 20 wire bytes are exactly T.1's input (header, group, branch, lock_time, expiry). */
const HEADER_BYTES = 20;

export function headerDigest(tx: TransactionData, wire?: Uint8Array): Uint8Array {
  if (wire !== undefined && wire.length >= HEADER_BYTES) return blake2b256Of(P_HEADERS, wire.subarray(0, HEADER_BYTES));
  const b = new Uint8Array(HEADER_BYTES);
  const v = new DataView(b.buffer);
  v.setUint32(0, (tx.version | 0x80000000) >>> 0, true);
  v.setUint32(4, tx.versionGroupId >>> 0, true);
  v.setUint32(8, requireBranchId(tx) >>> 0, true);
  v.setUint32(12, tx.lockTime >>> 0, true);
  v.setUint32(16, tx.expiryHeight >>> 0, true);
  return blake2b256Of(P_HEADERS, b);
}

export function transparentDigest(tx: TransactionData): Uint8Array {
  if (tx.vin.length === 0 && tx.vout.length === 0) return emptyDigest(P_TRANSPARENT);
  // Each sub-digest's input is one exactly-sized buffer hashed with a single update: per-field
  // updates and small allocations cost more than the hashing itself. The outputs are hashed
  // straight from the transaction's own bytes (their serialization is exactly the digest input).
  const n = tx.vin.length;
  const prevouts = new Uint8Array(36 * n);
  const sequences = new Uint8Array(4 * n);
  gatherPrevoutsAndSequences(tx.vin, prevouts, sequences);
  let outputs = outputsWireBytes(tx.vout);
  if (outputs === null) {
    let size = 0;
    for (const o of tx.vout) size += 8 + compactSizeLength(o.scriptPubKey.length) + o.scriptPubKey.length;
    const w = new ByteWriter(size);
    for (const o of tx.vout) w.i64(o.value).varBytes(o.scriptPubKey);
    outputs = w.finish();
  }
  return blake2b256Of(
    P_TRANSPARENT,
    blake2b256Of(P_PREVOUTS, prevouts),
    blake2b256Of(P_SEQUENCE, sequences),
    blake2b256Of(P_OUTPUTS, outputs),
  );
}

/** T.3, the Sapling digest (also the signature digest's Sapling part, S.3). */
export function saplingDigest(tx: TransactionData): Uint8Array {
  return saplingDigestWith(tx, P_SSPEND_N, true);
}

/**
 * The Sapling digest with the spends' non-compact part hashed under `nonCompact`, with each
 * spend's anchor (v5) or without it (v6, ZIP 229: the anchor is authorizing data there).
 */
export function saplingDigestWith(tx: TransactionData, nonCompact: Uint8Array, anchorInTxid: boolean): Uint8Array {
  const s = tx.sapling;
  if (!s || s.spends.length + s.outputs.length === 0) return emptyDigest(P_SAPLING);
  let spendsDigest: Uint8Array;
  if (s.spends.length === 0) {
    spendsDigest = emptyDigest(P_SSPENDS);
  } else {
    const c = blake2b256(P_SSPEND_C);
    const n = blake2b256(nonCompact);
    for (const sp of s.spends) {
      c.update(sp.nullifier);
      n.update(sp.cv);
      if (anchorInTxid) n.update(sp.anchor);
      n.update(sp.rk);
    }
    spendsDigest = blake2b256Of(P_SSPENDS, c.digest(), n.digest());
  }
  return blake2b256Of(P_SAPLING, spendsDigest, saplingOutputsDigest(s.outputs), le64(s.valueBalance));
}

/** T.3b, the Sapling outputs digest (the same in v5 and v6). */
export function saplingOutputsDigest(outputs: readonly SaplingOutput[]): Uint8Array {
  if (outputs.length === 0) return emptyDigest(P_SOUTPUTS);
  const c = blake2b256(P_SOUT_C);
  const m = blake2b256(P_SOUT_M);
  const n = blake2b256(P_SOUT_N);
  for (const o of outputs) {
    c.update(o.cmu).update(o.ephemeralKey).update(o.encCiphertext.subarray(0, 52));
    m.update(o.encCiphertext.subarray(52, 564));
    n.update(o.cv).update(o.encCiphertext.subarray(564, 580)).update(o.outCiphertext);
  }
  return blake2b256Of(P_SOUTPUTS, c.digest(), m.digest(), n.digest());
}

/** T.4, the Orchard digest (also the signature digest's Orchard part, S.4). */
export function orchardDigest(tx: TransactionData): Uint8Array {
  const o = tx.orchard;
  if (!o) return emptyDigest(P_ORCHARD);
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

/**
 * The ZIP-244 txid. `wire`, when given, must be exactly the v5 serialization `tx` was decoded
 * from: the digests are then computed from those bytes.
 */
export function zip244TxId(tx: TransactionData, wire?: Uint8Array): Uint8Array {
  return (wire !== undefined ? wasmZip244TxId(wire) : null) ?? zip244TxIdFromFields(tx, wire);
}

/** The ZIP-244 auth digest; `wire` as for zip244TxId. */
export function zip244AuthDigest(tx: TransactionData, wire?: Uint8Array): Uint8Array {
  return (wire !== undefined ? wasmZip244AuthDigest(wire) : null) ?? zip244AuthDigestFromFields(tx);
}

/** Both digests; with `wire`, from a single walk over the bytes. */
export function zip244Digests(tx: TransactionData, wire?: Uint8Array): { txid: Uint8Array; authDigest: Uint8Array } {
  return (
    (wire !== undefined ? wasmZip244Digests(wire) : null) ?? {
      txid: zip244TxIdFromFields(tx, wire),
      authDigest: zip244AuthDigestFromFields(tx),
    }
  );
}

/** The txid from the decoded fields (header fields hashed in place when `wire` is given). */
export function zip244TxIdFromFields(tx: TransactionData, wire?: Uint8Array): Uint8Array {
  return blake2b256Of(
    personalization('ZcashTxHash_', requireBranchId(tx)),
    headerDigest(tx, wire),
    transparentDigest(tx),
    saplingDigest(tx),
    orchardDigest(tx),
  );
}

/** The auth digest from the decoded fields. */
export function zip244AuthDigestFromFields(tx: TransactionData): Uint8Array {
  const transparentAuth = transparentAuthDigest(tx);
  const s = tx.sapling;
  let saplingAuth: Uint8Array;
  if (!s || s.spends.length + s.outputs.length === 0) {
    saplingAuth = emptyDigest(P_AUTH_SAPLING);
  } else {
    const h = blake2b256(P_AUTH_SAPLING);
    for (const sp of s.spends) h.update(sp.zkproof);
    for (const sp of s.spends) h.update(sp.spendAuthSig);
    for (const o of s.outputs) h.update(o.zkproof);
    h.update(requirePart(s.bindingSig, 'a Sapling bundle with spends or outputs', 'bindingSig'));
    saplingAuth = h.digest();
  }
  const o = tx.orchard;
  let orchardAuth: Uint8Array;
  if (!o) {
    orchardAuth = emptyDigest(P_AUTH_ORCHARD);
  } else {
    const h = blake2b256(P_AUTH_ORCHARD);
    h.update(o.proof);
    for (const a of o.actions) h.update(a.spendAuthSig);
    h.update(o.bindingSig);
    orchardAuth = h.digest();
  }
  return blake2b256Of(personalization('ZTxAuthHash_', requireBranchId(tx)), transparentAuth, saplingAuth, orchardAuth);
}

/** The transparent scripts digest (CompactSize ‖ scriptSig of every input), the same in v5 and v6. */
export function transparentAuthDigest(tx: TransactionData): Uint8Array {
  let size = 0;
  for (const i of tx.vin) size += compactSizeLength(i.scriptSig.length) + i.scriptSig.length;
  const w = new ByteWriter(size);
  for (const i of tx.vin) w.varBytes(i.scriptSig);
  return blake2b256Of(P_AUTH_TRANS, w.finish());
}
