/**
 * zcashd v6.12.2's `VerifyScript` (src/script/interpreter.cpp): the scriptSig runs, then the
 * scriptPubKey on what it left; a P2SH output then runs the redeem script the scriptSig pushed
 * on the stack the scriptSig left; CLEANSTACK wants exactly one element at the end.
 */
import type { SignatureChecker } from './checker.js';
import { evalScript } from './interpreter.js';
import { ScriptError, type ScriptErrorCode } from './script-error.js';
import { isPayToScriptHash, isPushOnlyFrom } from './solver.js';
import { SCRIPT_VERIFY_CLEANSTACK, SCRIPT_VERIFY_P2SH, SCRIPT_VERIFY_SIGPUSHONLY, castToBool } from './signature-encoding.js';

/** SCRIPT_ERR_OK, or why `scriptSig` does not spend `scriptPubKey`. */
export function verifyScript(
  scriptSig: Uint8Array,
  scriptPubKey: Uint8Array,
  flags: number,
  checker: SignatureChecker,
  branchId: number,
): ScriptErrorCode {
  const pushOnly = isPushOnlyFrom(scriptSig, 0);
  if (flags & SCRIPT_VERIFY_SIGPUSHONLY && !pushOnly) return ScriptError.SIG_PUSHONLY;
  let stack: Uint8Array[] = [];
  let error = evalScript(stack, scriptSig, flags, checker, branchId);
  if (error !== ScriptError.OK) return error;
  const afterScriptSig = flags & SCRIPT_VERIFY_P2SH ? stack.slice() : [];
  error = evalScript(stack, scriptPubKey, flags, checker, branchId);
  if (error !== ScriptError.OK) return error;
  if (stack.length === 0 || !castToBool(stack[stack.length - 1]!)) return ScriptError.EVAL_FALSE;

  if (flags & SCRIPT_VERIFY_P2SH && isPayToScriptHash(scriptPubKey)) {
    if (!pushOnly) return ScriptError.SIG_PUSHONLY;
    stack = afterScriptSig;
    // Not empty: the scriptPubKey's OP_HASH160 needed an element, and the scriptSig only pushes.
    const redeemScript = stack.pop()!;
    error = evalScript(stack, redeemScript, flags, checker, branchId);
    if (error !== ScriptError.OK) return error;
    if (stack.length === 0 || !castToBool(stack[stack.length - 1]!)) return ScriptError.EVAL_FALSE;
  }

  if (flags & SCRIPT_VERIFY_CLEANSTACK && stack.length !== 1) return ScriptError.CLEANSTACK;
  return ScriptError.OK;
}
