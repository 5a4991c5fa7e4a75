/**
 * zcashd v6.12.2's `ScriptError` (src/script/script_error.h) and `ScriptErrorString`
 * (script_error.cpp), whose texts signrawtransaction prints per input. SCRIPT_ERR_CLEANSTACK has
 * no case there, so it prints "unknown error".
 */
export const ScriptError = {
  OK: 0,
  UNKNOWN_ERROR: 1,
  EVAL_FALSE: 2,
  OP_RETURN: 3,
  SCRIPT_SIZE: 4,
  PUSH_SIZE: 5,
  OP_COUNT: 6,
  STACK_SIZE: 7,
  SIG_COUNT: 8,
  PUBKEY_COUNT: 9,
  VERIFY: 10,
  EQUALVERIFY: 11,
  CHECKMULTISIGVERIFY: 12,
  CHECKSIGVERIFY: 13,
  NUMEQUALVERIFY: 14,
  BAD_OPCODE: 15,
  DISABLED_OPCODE: 16,
  INVALID_STACK_OPERATION: 17,
  INVALID_ALTSTACK_OPERATION: 18,
  UNBALANCED_CONDITIONAL: 19,
  NEGATIVE_LOCKTIME: 20,
  UNSATISFIED_LOCKTIME: 21,
  SIG_HASHTYPE: 22,
  SIG_DER: 23,
  MINIMALDATA: 24,
  SIG_PUSHONLY: 25,
  SIG_HIGH_S: 26,
  SIG_NULLDUMMY: 27,
  PUBKEYTYPE: 28,
  CLEANSTACK: 29,
  DISCOURAGE_UPGRADABLE_NOPS: 30,
} as const;

export type ScriptErrorCode = (typeof ScriptError)[keyof typeof ScriptError];

const TEXTS: Readonly<Partial<Record<ScriptErrorCode, string>>> = {
  [ScriptError.OK]: 'No error',
  [ScriptError.EVAL_FALSE]: 'Script evaluated without error but finished with a false/empty top stack element',
  [ScriptError.VERIFY]: 'Script failed an OP_VERIFY operation',
  [ScriptError.EQUALVERIFY]: 'Script failed an OP_EQUALVERIFY operation',
  [ScriptError.CHECKMULTISIGVERIFY]: 'Script failed an OP_CHECKMULTISIGVERIFY operation',
  [ScriptError.CHECKSIGVERIFY]: 'Script failed an OP_CHECKSIGVERIFY operation',
  [ScriptError.NUMEQUALVERIFY]: 'Script failed an OP_NUMEQUALVERIFY operation',
  [ScriptError.SCRIPT_SIZE]: 'Script is too big',
  [ScriptError.PUSH_SIZE]: 'Push value size limit exceeded',
  [ScriptError.OP_COUNT]: 'Operation limit exceeded',
  [ScriptError.STACK_SIZE]: 'Stack size limit exceeded',
  [ScriptError.SIG_COUNT]: 'Signature count negative or greater than pubkey count',
  [ScriptError.PUBKEY_COUNT]: 'Pubkey count negative or limit exceeded',
  [ScriptError.BAD_OPCODE]: 'Opcode missing or not understood',
  [ScriptError.DISABLED_OPCODE]: 'Attempted to use a disabled opcode',
  [ScriptError.INVALID_STACK_OPERATION]: 'Operation not valid with the current stack size',
  [ScriptError.INVALID_ALTSTACK_OPERATION]: 'Operation not valid with the current altstack size',
  [ScriptError.OP_RETURN]: 'OP_RETURN was encountered',
  [ScriptError.UNBALANCED_CONDITIONAL]: 'Invalid OP_IF construction',
  [ScriptError.NEGATIVE_LOCKTIME]: 'Negative locktime',
  [ScriptError.UNSATISFIED_LOCKTIME]: 'Locktime requirement not satisfied',
  [ScriptError.SIG_HASHTYPE]: 'Signature hash type missing or not understood',
  [ScriptError.SIG_DER]: 'Non-canonical DER signature',
  [ScriptError.MINIMALDATA]: 'Data push larger than necessary',
  [ScriptError.SIG_PUSHONLY]: 'Only non-push operators allowed in signatures',
  [ScriptError.SIG_HIGH_S]: 'Non-canonical signature: S value is unnecessarily high',
  [ScriptError.SIG_NULLDUMMY]: 'Dummy CHECKMULTISIG argument must be zero',
  [ScriptError.DISCOURAGE_UPGRADABLE_NOPS]: 'NOPx reserved for soft-fork upgrades',
  [ScriptError.PUBKEYTYPE]: 'Public key is neither compressed or uncompressed',
};

/** `ScriptErrorString`. */
export function scriptErrorString(error: ScriptErrorCode): string {
  return TEXTS[error] ?? 'unknown error';
}
