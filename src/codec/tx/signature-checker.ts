/**
 * zcashd v6.12.2's `TransactionSignatureChecker` (src/script/interpreter.cpp) and the signature
 * hash it checks against, by the transaction's format (`SignatureHashVersion`): Bitcoin's
 * original scheme before Overwinter (sighash-sprout.ts), ZIP 143/243 for v3 and v4, ZIP 244 for
 * v5, which commits to every input's spent output.
 */
import { toHex } from '../hex.js';
import type { SignatureChecker } from '../script/checker.js';
import { verifyDerNormalized } from '../../crypto/secp256k1.js';
import { SIGHASH_ANYONECANPAY, SIGHASH_SINGLE, zip243SignatureHash, zip244SignatureHash, type SpentOutput } from './sighash.js';
import { sproutSignatureHash } from './sighash-sprout.js';
import type { TransactionData } from './types.js';

const LOCKTIME_THRESHOLD = 500_000_000;
const SEQUENCE_FINAL = 0xffffffff;

/** The input a signature is for: its index, the amount it spends, and (v5) every input's spent output. */
export interface SigningInput {
  index: number;
  /** zatoshis */
  amount: number;
  /** v5: the outputs all inputs spend, in input order; ignored before v5. */
  spent: readonly SpentOutput[];
}

/**
 * `SignatureHash(scriptCode, tx, nIn, nHashType, amount, consensusBranchId)`, or null where
 * zcashd throws a logic_error (SIGHASH_SINGLE without a matching output under ZIP 244 and before
 * Overwinter, an undefined ZIP 244 hash type), which checking and signing both take as failure.
 */
export function transparentSignatureHash(
  tx: TransactionData,
  input: SigningInput,
  scriptCode: Uint8Array,
  hashType: number,
  branchId: number,
): Uint8Array | null {
  if (!tx.overwintered) return sproutSignatureHash(tx, input.index, scriptCode, hashType);
  if (tx.format === 'v5') {
    if ((hashType & ~SIGHASH_ANYONECANPAY) === SIGHASH_SINGLE && input.index >= tx.vout.length) return null;
    try {
      return zip244SignatureHash(tx, { index: input.index, scriptCode, value: input.amount }, hashType, input.spent);
    } catch {
      return null;
    }
  }
  if (tx.format === 'v3' || tx.format === 'v4') {
    return zip243SignatureHash(tx, { index: input.index, scriptCode, value: input.amount }, hashType, branchId);
  }
  throw new Error(`no transparent signature hash for ${tx.format} transactions`);
}

/** `CPubKey(vch).IsValid()`: the length the first byte names. */
function isValidPubkeySize(key: Uint8Array): boolean {
  if (key.length === 0) return false;
  const prefix = key[0]!;
  if (prefix === 0x02 || prefix === 0x03) return key.length === 33;
  if (prefix === 0x04 || prefix === 0x06 || prefix === 0x07) return key.length === 65;
  return false;
}

/** The checker of one input of `tx`. */
export class TransactionSignatureChecker implements SignatureChecker {
  /** The hashes already computed: merging multisig signatures checks each against every key. */
  private readonly hashes = new Map<string, Uint8Array | null>();

  constructor(
    private readonly tx: TransactionData,
    private readonly input: SigningInput,
  ) {}

  checkSig(sig: Uint8Array, pubkey: Uint8Array, scriptCode: Uint8Array, branchId: number): boolean {
    if (!isValidPubkeySize(pubkey) || sig.length === 0) return false;
    const hashType = sig[sig.length - 1]!;
    const key = `${hashType} ${branchId} ${toHex(scriptCode)}`;
    let hash = this.hashes.get(key);
    if (hash === undefined) {
      hash = transparentSignatureHash(this.tx, this.input, scriptCode, hashType, branchId);
      this.hashes.set(key, hash);
    }
    return hash !== null && verifyDerNormalized(hash, sig.subarray(0, sig.length - 1), pubkey);
  }

  checkLockTime(lockTime: number): boolean {
    const txLockTime = this.tx.lockTime;
    // Height against height or time against time, not yet past the transaction's, on an input that is not final.
    if (txLockTime < LOCKTIME_THRESHOLD !== lockTime < LOCKTIME_THRESHOLD) return false;
    if (lockTime > txLockTime) return false;
    return this.tx.vin[this.input.index]!.sequence !== SEQUENCE_FINAL;
  }
}
