/**
 * The signature hash a transparent input's signature signs (zcashd v6.12.2
 * script/interpreter.cpp `SignatureHash`), for the formats signrawtransaction signs:
 *
 * - v3 and v4 (ZIP 143, ZIP 243): BLAKE2b-256 personalized "ZcashSigHash" ‖ branch id over the
 *   header, the prevouts, sequences, outputs, JoinSplits and (v4) Sapling spends and outputs
 *   digests, the lock time, expiry height, (v4) value balance, hash type and the input signed.
 * - v5 (ZIP 244 §S.2): the txid's tree with the transparent node replaced by one that commits
 *   to the hash type, every input's amount and scriptPubKey and the input signed. Signing it
 *   therefore needs every spent output (`SpentOutput`), which zcashd requires too.
 *
 * `input` null is zcashd's NOT_AN_INPUT: the hash the shielded parts sign.
 */
import { ByteWriter, compactSizeLength } from '../bytes.js';
import { blake2b256Of, personalization } from '../../crypto/hash.js';
import type { JoinSplit, TransactionData, TxOut } from './types.js';
import { headerDigest, orchardDigest, P, saplingDigest, transparentDigest } from './zip244.js';

export const SIGHASH_ALL = 1;
export const SIGHASH_NONE = 2;
export const SIGHASH_SINGLE = 3;
export const SIGHASH_ANYONECANPAY = 0x80;

/** The output an input spends: what a v5 signature commits to for every input. */
export interface SpentOutput {
  /** zatoshis */
  value: number;
  scriptPubKey: Uint8Array;
}

/** The input being signed: its index, the script the signature covers, and the amount it spends. */
export interface SignedInput {
  index: number;
  /** The scriptPubKey, or for P2SH the redeem script (zcashd's scriptCode). */
  scriptCode: Uint8Array;
  value: number;
}

const ZERO32: Uint8Array = new Uint8Array(32);

/**
 * The digests every input's signature hash of one transaction shares (zcashd's
 * PrecomputedTransactionData), computed once per transaction object: without them signing or
 * checking n inputs would hash the whole transaction n times. A transaction's fields are not
 * changed once decoded, which keying by the object relies on.
 */
const shared = new WeakMap<TransactionData, Map<string, Uint8Array>>();

/** Likewise the digests of the outputs the inputs spend, per list the caller passes. */
const sharedSpent = new WeakMap<readonly SpentOutput[], Map<string, Uint8Array>>();

function onceForSpent(spent: readonly SpentOutput[], name: string, compute: () => Uint8Array): Uint8Array {
  let digests = sharedSpent.get(spent);
  if (!digests) sharedSpent.set(spent, (digests = new Map()));
  let digest = digests.get(name);
  if (!digest) digests.set(name, (digest = compute()));
  return digest;
}

function once(tx: TransactionData, name: string, compute: () => Uint8Array): Uint8Array {
  let digests = shared.get(tx);
  if (!digests) shared.set(tx, (digests = new Map()));
  let digest = digests.get(name);
  if (!digest) digests.set(name, (digest = compute()));
  return digest;
}

export function outputsBytes(vout: readonly TxOut[]): Uint8Array {
  let size = 0;
  for (const o of vout) size += 8 + compactSizeLength(o.scriptPubKey.length) + o.scriptPubKey.length;
  const w = new ByteWriter(size);
  for (const o of vout) w.i64(o.value).varBytes(o.scriptPubKey);
  return w.finish();
}

function prevoutsBytes(tx: TransactionData): Uint8Array {
  const w = new ByteWriter(36 * tx.vin.length);
  for (const i of tx.vin) w.bytes(i.prevout.hash).u32(i.prevout.index);
  return w.finish();
}

function sequencesBytes(tx: TransactionData): Uint8Array {
  const w = new ByteWriter(4 * tx.vin.length);
  for (const i of tx.vin) w.u32(i.sequence);
  return w.finish();
}

/** A JSDescription as the transaction serializes it. */
export function joinSplitBytes(w: ByteWriter, js: JoinSplit): void {
  w.i64(js.vpubOld).i64(js.vpubNew).bytes(js.anchor);
  w.bytes(js.nullifiers[0]).bytes(js.nullifiers[1]).bytes(js.commitments[0]).bytes(js.commitments[1]);
  w.bytes(js.ephemeralKey).bytes(js.randomSeed).bytes(js.macs[0]).bytes(js.macs[1]);
  w.bytes(js.proof).bytes(js.ciphertexts[0]).bytes(js.ciphertexts[1]);
}

function checkInput(tx: TransactionData, input: SignedInput | null): void {
  if (input !== null && !(Number.isInteger(input.index) && input.index >= 0 && input.index < tx.vin.length)) {
    throw new RangeError(`input ${input.index} is not one of the transaction's ${tx.vin.length} inputs`);
  }
}

/** ZIP 143 (v3) and ZIP 243 (v4) signature hash under consensus branch `branchId`. */
export function zip243SignatureHash(tx: TransactionData, input: SignedInput | null, hashType: number, branchId: number): Uint8Array {
  if (tx.format !== 'v3' && tx.format !== 'v4') throw new Error(`ZIP 243 signs v3 and v4 transactions, not ${tx.format}`);
  checkInput(tx, input);
  const v4 = tx.format === 'v4';
  const base = hashType & 0x1f;
  const anyoneCanPay = (hashType & SIGHASH_ANYONECANPAY) !== 0;
  const personal = (tag: string) => P(tag);
  const hashPrevouts = anyoneCanPay
    ? ZERO32
    : once(tx, '243 prevouts', () => blake2b256Of(personal('ZcashPrevoutHash'), prevoutsBytes(tx)));
  const hashSequence =
    anyoneCanPay || base === SIGHASH_SINGLE || base === SIGHASH_NONE
      ? ZERO32
      : once(tx, '243 sequences', () => blake2b256Of(personal('ZcashSequencHash'), sequencesBytes(tx)));
  let hashOutputs = ZERO32;
  if (base !== SIGHASH_SINGLE && base !== SIGHASH_NONE) {
    hashOutputs = once(tx, '243 outputs', () => blake2b256Of(personal('ZcashOutputsHash'), outputsBytes(tx.vout)));
  } else if (base === SIGHASH_SINGLE && input !== null && input.index < tx.vout.length) {
    hashOutputs = blake2b256Of(personal('ZcashOutputsHash'), outputsBytes([tx.vout[input.index]!]));
  }
  let hashJoinSplits = ZERO32;
  if (tx.joinSplits.length > 0) {
    hashJoinSplits = once(tx, '243 joinsplits', () => {
      const w = new ByteWriter(1700 * tx.joinSplits.length + 32);
      for (const js of tx.joinSplits) joinSplitBytes(w, js);
      w.bytes(tx.joinSplitPubKey!);
      return blake2b256Of(personal('ZcashJSplitsHash'), w.finish());
    });
  }
  const w = new ByteWriter(512);
  w.u32((tx.version | 0x80000000) >>> 0).u32(tx.versionGroupId >>> 0);
  w.bytes(hashPrevouts).bytes(hashSequence).bytes(hashOutputs).bytes(hashJoinSplits);
  if (v4) {
    const spends = tx.sapling?.spends ?? [];
    const outputs = tx.sapling?.outputs ?? [];
    let hashSpends = ZERO32;
    if (spends.length > 0) {
      hashSpends = once(tx, '243 spends', () => {
        const s = new ByteWriter(384 * spends.length);
        for (const sp of spends) s.bytes(sp.cv).bytes(sp.anchor).bytes(sp.nullifier).bytes(sp.rk).bytes(sp.zkproof);
        return blake2b256Of(personal('ZcashSSpendsHash'), s.finish());
      });
    }
    let hashOutputsShielded = ZERO32;
    if (outputs.length > 0) {
      hashOutputsShielded = once(tx, '243 shielded outputs', () => {
        const s = new ByteWriter(948 * outputs.length);
        for (const o of outputs)
          s.bytes(o.cv).bytes(o.cmu).bytes(o.ephemeralKey).bytes(o.encCiphertext).bytes(o.outCiphertext).bytes(o.zkproof);
        return blake2b256Of(personal('ZcashSOutputHash'), s.finish());
      });
    }
    w.bytes(hashSpends).bytes(hashOutputsShielded);
  }
  w.u32(tx.lockTime >>> 0).u32(tx.expiryHeight >>> 0);
  if (v4) w.i64(tx.sapling?.valueBalance ?? 0);
  w.u32(hashType >>> 0);
  if (input !== null) {
    const txin = tx.vin[input.index]!;
    w.bytes(txin.prevout.hash).u32(txin.prevout.index).varBytes(input.scriptCode).i64(input.value).u32(txin.sequence);
  }
  return blake2b256Of(personalization('ZcashSigHash', branchId), w.finish());
}

/**
 * ZIP 244 §S.2's transparent node. A transaction with no transparent inputs (or a coinbase)
 * signs the txid's transparent digest; otherwise the hash type, every spent output and the
 * input signed (none for the shielded parts' hash) are committed to.
 */
function transparentSigDigest(tx: TransactionData, input: SignedInput | null, hashType: number, spent: readonly SpentOutput[]): Uint8Array {
  const coinbase = tx.vin.length === 1 && tx.vin[0]!.prevout.hash.every((b) => b === 0) && tx.vin[0]!.prevout.index === 0xffffffff;
  if (tx.vin.length === 0 || coinbase) return transparentDigest(tx);
  if (spent.length !== tx.vin.length)
    throw new Error(`a v5 signature needs the ${tx.vin.length} outputs the inputs spend, got ${spent.length}`);
  const base = hashType & 0x03;
  const anyoneCanPay = (hashType & SIGHASH_ANYONECANPAY) !== 0;
  const empty = (tag: string) => blake2b256Of(P(tag));
  const prevouts = anyoneCanPay
    ? empty('ZTxIdPrevoutHash')
    : once(tx, '244 prevouts', () => blake2b256Of(P('ZTxIdPrevoutHash'), prevoutsBytes(tx)));
  let amounts = empty('ZTxTrAmountsHash');
  let scripts = empty('ZTxTrScriptsHash');
  if (!anyoneCanPay) {
    amounts = onceForSpent(spent, 'amounts', () => {
      const a = new ByteWriter(8 * spent.length);
      for (const s of spent) a.i64(s.value);
      return blake2b256Of(P('ZTxTrAmountsHash'), a.finish());
    });
    scripts = onceForSpent(spent, 'scripts', () => {
      const sc = new ByteWriter(64 * spent.length);
      for (const s of spent) sc.varBytes(s.scriptPubKey);
      return blake2b256Of(P('ZTxTrScriptsHash'), sc.finish());
    });
  }
  const sequences = anyoneCanPay
    ? empty('ZTxIdSequencHash')
    : once(tx, '244 sequences', () => blake2b256Of(P('ZTxIdSequencHash'), sequencesBytes(tx)));
  let outputs = empty('ZTxIdOutputsHash');
  if (base !== SIGHASH_SINGLE && base !== SIGHASH_NONE)
    outputs = once(tx, '244 outputs', () => blake2b256Of(P('ZTxIdOutputsHash'), outputsBytes(tx.vout)));
  else if (base === SIGHASH_SINGLE && input !== null && input.index < tx.vout.length) {
    outputs = blake2b256Of(P('ZTxIdOutputsHash'), outputsBytes([tx.vout[input.index]!]));
  }
  let txin = empty('Zcash___TxInHash');
  if (input !== null) {
    const i = tx.vin[input.index]!;
    const w = new ByteWriter(64 + input.scriptCode.length);
    w.bytes(i.prevout.hash).u32(i.prevout.index).i64(input.value).varBytes(input.scriptCode).u32(i.sequence);
    txin = blake2b256Of(P('Zcash___TxInHash'), w.finish());
  }
  return blake2b256Of(P('ZTxIdTranspaHash'), Uint8Array.of(hashType), prevouts, amounts, scripts, sequences, outputs, txin);
}

/** ZIP 244's hash types: the three bases, each with or without ANYONECANPAY. */
const ZIP244_HASH_TYPES = new Set([1, 2, 3, 0x81, 0x82, 0x83]);

/**
 * ZIP 244 §S.2 signature digest of a v5 transaction, for `input` (null: the shielded parts'
 * hash, which is SIGHASH_ALL), given the outputs every input spends, in input order.
 */
export function zip244SignatureHash(
  tx: TransactionData,
  input: SignedInput | null,
  hashType: number,
  spent: readonly SpentOutput[],
): Uint8Array {
  if (tx.format !== 'v5') throw new Error(`ZIP 244 signs v5 transactions, not ${tx.format}`);
  checkInput(tx, input);
  if (!ZIP244_HASH_TYPES.has(hashType)) throw new Error(`hash type ${hashType} is not one ZIP 244 defines`);
  if (input === null && hashType !== SIGHASH_ALL) throw new Error('the shielded signature hash is SIGHASH_ALL');
  return blake2b256Of(
    personalization('ZcashTxHash_', tx.consensusBranchId!),
    once(tx, '244 header', () => headerDigest(tx)),
    transparentSigDigest(tx, input, hashType, spent),
    once(tx, '244 sapling', () => saplingDigest(tx)),
    once(tx, '244 orchard', () => orchardDigest(tx)),
  );
}
