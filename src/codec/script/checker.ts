/**
 * What a script's signature and lock-time opcodes ask of the transaction that spends it
 * (zcashd v6.12.2 src/script/interpreter.h `BaseSignatureChecker`).
 */

export interface SignatureChecker {
  /** `CheckSig(vchSig, vchPubKey, scriptCode, consensusBranchId)`: the signature (with its hash type byte) is valid. */
  checkSig(sig: Uint8Array, pubkey: Uint8Array, scriptCode: Uint8Array, branchId: number): boolean;
  /** `CheckLockTime(nLockTime)`. */
  checkLockTime(lockTime: number): boolean;
}

/** The base checker: no signature and no lock time is ever satisfied. */
export const NO_SIGNATURE_CHECKER: SignatureChecker = { checkSig: () => false, checkLockTime: () => false };
