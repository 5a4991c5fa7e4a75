/**
 * ZIP-229 transaction identifier and authorizing-data commitment for v6 transactions: ZIP 244's
 * tree with an Ironwood component after the Orchard one, and the Sapling, Orchard and Ironwood
 * anchors moved from the txid's side to the auth digest's (under new personalizations wherever
 * what a node hashes changed). Digests are returned in internal byte order.
 *
 * As for v5, the whole tree is computed in one call into WebAssembly when the serialized bytes
 * are given (assembly/zip244.ts walks both layouts); the field-by-field path below is the
 * fallback and gives the same digests (tests hold both to it).
 */
import { blake2b256, blake2b256Of, personalization } from '../../crypto/hash.js';
import { wasmZip244AuthDigest, wasmZip244Digests, wasmZip244TxId } from '../../crypto/zip244-wasm.js';
import { requireBranchId, requirePart, type OrchardBundle, type TransactionData } from './types.js';
import {
  emptyDigest,
  headerDigest,
  le64,
  P,
  P_ORC_C,
  P_ORC_M,
  P_ORC_N,
  saplingDigestWith,
  transparentAuthDigest,
  transparentDigest,
} from './zip244.js';

/** v6's Sapling spends' non-compact digest hashes (cv, rk): no anchor. */
const P_SSPEND_N_V6 = P('ZTxIdSSpendNH_v6');
/** v6's Sapling auth digest ends with the anchor. */
const P_AUTH_SAPLING_V6 = P('ZTxAuthSapliH_v6');

/** The personalizations of one Orchard-protocol component's nodes. */
interface ComponentTags {
  readonly digest: Uint8Array;
  readonly compact: Uint8Array;
  readonly memos: Uint8Array;
  readonly noncompact: Uint8Array;
  readonly auth: Uint8Array;
}

/** v6's Orchard component: the action digests keep v5's tags, the two nodes that lost or gained the anchor change. */
const ORCHARD_V6: ComponentTags = {
  digest: P('ZTxIdOrchardH_v6'),
  compact: P_ORC_C,
  memos: P_ORC_M,
  noncompact: P_ORC_N,
  auth: P('ZTxAuthOrchaH_v6'),
};

const IRONWOOD: ComponentTags = {
  digest: P('ZTxIdIronwd_H_v6'),
  compact: P('ZTxIdIrnActCH_v6'),
  memos: P('ZTxIdIrnActMH_v6'),
  noncompact: P('ZTxIdIrnActNH_v6'),
  auth: P('ZTxAuthIrnwdH_v6'),
};

/** The Sapling digest of a v6 transaction: v5's, with the spends' non-compact part hashing no anchor. */
function saplingDigestV6(tx: TransactionData): Uint8Array {
  return saplingDigestWith(tx, P_SSPEND_N_V6, false);
}

/** An Orchard-protocol component's txid digest: actions, flags and value balance (the anchor is authorizing data in v6). */
function componentDigest(b: OrchardBundle | null | undefined, tags: ComponentTags): Uint8Array {
  if (!b) return emptyDigest(tags.digest);
  const c = blake2b256(tags.compact);
  const m = blake2b256(tags.memos);
  const n = blake2b256(tags.noncompact);
  for (const a of b.actions) {
    c.update(a.nullifier).update(a.cmx).update(a.ephemeralKey).update(a.encCiphertext.subarray(0, 52));
    m.update(a.encCiphertext.subarray(52, 564));
    n.update(a.cv).update(a.rk).update(a.encCiphertext.subarray(564, 580)).update(a.outCiphertext);
  }
  return blake2b256Of(tags.digest, c.digest(), m.digest(), n.digest(), Uint8Array.of(b.flags), le64(b.valueBalance));
}

/** An Orchard-protocol component's auth digest: proof, spend signatures, binding signature, anchor. */
function componentAuthDigest(b: OrchardBundle | null | undefined, tags: ComponentTags): Uint8Array {
  if (!b) return emptyDigest(tags.auth);
  const h = blake2b256(tags.auth);
  h.update(b.proof);
  for (const a of b.actions) h.update(a.spendAuthSig);
  return h.update(b.bindingSig).update(b.anchor).digest();
}

function saplingAuthDigestV6(tx: TransactionData): Uint8Array {
  const s = tx.sapling;
  if (!s || s.spends.length + s.outputs.length === 0) return emptyDigest(P_AUTH_SAPLING_V6);
  const h = blake2b256(P_AUTH_SAPLING_V6);
  for (const sp of s.spends) h.update(sp.zkproof);
  for (const sp of s.spends) h.update(sp.spendAuthSig);
  for (const o of s.outputs) h.update(o.zkproof);
  h.update(requirePart(s.bindingSig, 'a Sapling bundle with spends or outputs', 'bindingSig'));
  // Present iff there are spends, as on the wire: every spend shares this one anchor.
  if (s.spends.length > 0) h.update(s.sharedAnchor ?? s.spends[0]!.anchor);
  return h.digest();
}

/** The ZIP-229 txid. `wire`, when given, must be exactly the v6 serialization `tx` was decoded from. */
export function zip229TxId(tx: TransactionData, wire?: Uint8Array): Uint8Array {
  return (wire !== undefined ? wasmZip244TxId(wire) : null) ?? zip229TxIdFromFields(tx, wire);
}

/** The ZIP-229 auth digest; `wire` as for zip229TxId. */
export function zip229AuthDigest(tx: TransactionData, wire?: Uint8Array): Uint8Array {
  return (wire !== undefined ? wasmZip244AuthDigest(wire) : null) ?? zip229AuthDigestFromFields(tx);
}

/** Both digests; with `wire`, from a single walk over the bytes. */
export function zip229Digests(tx: TransactionData, wire?: Uint8Array): { txid: Uint8Array; authDigest: Uint8Array } {
  return (
    (wire !== undefined ? wasmZip244Digests(wire) : null) ?? {
      txid: zip229TxIdFromFields(tx, wire),
      authDigest: zip229AuthDigestFromFields(tx),
    }
  );
}

/** The txid from the decoded fields (header fields hashed in place when `wire` is given). */
export function zip229TxIdFromFields(tx: TransactionData, wire?: Uint8Array): Uint8Array {
  return blake2b256Of(
    personalization('ZcashTxHash_', requireBranchId(tx)),
    headerDigest(tx, wire),
    transparentDigest(tx),
    saplingDigestV6(tx),
    componentDigest(tx.orchard, ORCHARD_V6),
    componentDigest(tx.ironwood, IRONWOOD),
  );
}

/** The auth digest from the decoded fields. */
export function zip229AuthDigestFromFields(tx: TransactionData): Uint8Array {
  return blake2b256Of(
    personalization('ZTxAuthHash_', requireBranchId(tx)),
    transparentAuthDigest(tx),
    saplingAuthDigestV6(tx),
    componentAuthDigest(tx.orchard, ORCHARD_V6),
    componentAuthDigest(tx.ironwood, IRONWOOD),
  );
}
