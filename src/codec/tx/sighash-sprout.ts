/**
 * The signature hash of a transaction before Overwinter (v1, v2): zcashd v6.12.2
 * script/interpreter.cpp `SignatureHash` for SIGVERSION_SPROUT, Bitcoin's original scheme.
 * SHA-256d of the transaction as `CTransactionSignatureSerializer` writes it — the input signed
 * carries the script code and the others an empty script, ANYONECANPAY keeps only the input
 * signed, NONE drops the outputs and SINGLE keeps those up to the input's index (the earlier
 * ones nulled), NONE and SINGLE zero the other inputs' sequences; v2 adds its JoinSplits with
 * the JoinSplit signature zeroed — followed by the hash type.
 */
import { ByteWriter, compactSizeLength } from '../bytes.js';
import { sha256d } from '../../crypto/hash.js';
import { joinSplitBytes, SIGHASH_ANYONECANPAY, SIGHASH_NONE, SIGHASH_SINGLE } from './sighash.js';
import type { TransactionData } from './types.js';

const JOINSPLIT_SIG_SIZE = 64;

/**
 * The hash `input` signs with `scriptCode`, or null where zcashd throws (SINGLE without an
 * output at the input's index).
 */
export function sproutSignatureHash(tx: TransactionData, index: number, scriptCode: Uint8Array, hashType: number): Uint8Array | null {
  if (tx.overwintered) throw new Error('Sprout signature hashes are for transactions before Overwinter');
  if (!(Number.isInteger(index) && index >= 0 && index < tx.vin.length)) throw new RangeError(`input ${index} is out of range`);
  const anyoneCanPay = (hashType & SIGHASH_ANYONECANPAY) !== 0;
  const single = (hashType & 0x1f) === SIGHASH_SINGLE;
  const none = (hashType & 0x1f) === SIGHASH_NONE;
  if (single && index >= tx.vout.length) return null;

  let size = 64 + scriptCode.length + 41 * tx.vin.length;
  for (const o of tx.vout) size += 9 + compactSizeLength(o.scriptPubKey.length) + o.scriptPubKey.length;
  size += tx.joinSplits.length * 1900 + 100;
  const w = new ByteWriter(size);
  w.u32(tx.version >>> 0);
  const inputs = anyoneCanPay ? [index] : tx.vin.map((_, i) => i);
  w.compactSize(inputs.length);
  for (const i of inputs) {
    const txin = tx.vin[i]!;
    w.bytes(txin.prevout.hash).u32(txin.prevout.index);
    w.varBytes(i === index ? scriptCode : new Uint8Array(0));
    w.u32(i !== index && (single || none) ? 0 : txin.sequence);
  }
  const outputs = none ? 0 : single ? index + 1 : tx.vout.length;
  w.compactSize(outputs);
  for (let n = 0; n < outputs; n++) {
    // CTxOut()'s null output: value -1 and an empty script.
    if (single && n !== index) w.i64(-1).compactSize(0);
    else w.i64(tx.vout[n]!.value).varBytes(tx.vout[n]!.scriptPubKey);
  }
  w.u32(tx.lockTime >>> 0);
  if (tx.version >= 2) {
    w.compactSize(tx.joinSplits.length);
    for (const js of tx.joinSplits) joinSplitBytes(w, js);
    if (tx.joinSplits.length > 0) w.bytes(tx.joinSplitPubKey!).bytes(new Uint8Array(JOINSPLIT_SIG_SIZE));
  }
  w.u32(hashType >>> 0);
  return sha256d(w.finish());
}
