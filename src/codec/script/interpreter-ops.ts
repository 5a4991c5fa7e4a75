/**
 * The opcode values zcashd v6.12.2's interpreter executes (src/script/script.h), and the bodies
 * of its arithmetic, hashing and OP_CHECKMULTISIG cases (src/script/interpreter.cpp `EvalScript`).
 */
import { hash160, ripemd160Of, sha1Of, sha256, sha256d } from '../../crypto/hash.js';
import type { SignatureChecker } from './checker.js';
import { ScriptError, type ScriptErrorCode } from './script-error.js';
import { scriptNumFrom, scriptNumInt } from './script-num.js';
import { SCRIPT_VERIFY_NULLDUMMY, checkPubKeyEncoding, checkSignatureEncoding } from './signature-encoding.js';

export const MAX_OPS_PER_SCRIPT = 201;
const MAX_PUBKEYS_PER_MULTISIG = 20;

// Opcodes by value (script.h); OP_NOP2 is OP_CHECKLOCKTIMEVERIFY.
export const OP = {
  NOP: 0x61, IF: 0x63, NOTIF: 0x64, ELSE: 0x67, ENDIF: 0x68, VERIFY: 0x69, RETURN: 0x6a,
  TOALTSTACK: 0x6b, FROMALTSTACK: 0x6c, DROP2: 0x6d, DUP2: 0x6e, DUP3: 0x6f, OVER2: 0x70, ROT2: 0x71,
  SWAP2: 0x72, IFDUP: 0x73, DEPTH: 0x74, DROP: 0x75, DUP: 0x76, NIP: 0x77, OVER: 0x78, PICK: 0x79,
  ROLL: 0x7a, ROT: 0x7b, SWAP: 0x7c, TUCK: 0x7d, SIZE: 0x82, EQUAL: 0x87, EQUALVERIFY: 0x88,
  ADD1: 0x8b, SUB1: 0x8c, NEGATE: 0x8f, ABS: 0x90, NOT: 0x91, NOTEQUAL0: 0x92, ADD: 0x93, SUB: 0x94,
  BOOLAND: 0x9a, BOOLOR: 0x9b, NUMEQUAL: 0x9c, NUMEQUALVERIFY: 0x9d, NUMNOTEQUAL: 0x9e, LESSTHAN: 0x9f,
  GREATERTHAN: 0xa0, LESSTHANOREQUAL: 0xa1, GREATERTHANOREQUAL: 0xa2, MIN: 0xa3, MAX: 0xa4, WITHIN: 0xa5,
  RIPEMD160: 0xa6, SHA1: 0xa7, SHA256: 0xa8, HASH160: 0xa9, HASH256: 0xaa,
  CHECKSIG: 0xac, CHECKSIGVERIFY: 0xad, CHECKMULTISIG: 0xae, CHECKMULTISIGVERIFY: 0xaf,
  NOP1: 0xb0, CHECKLOCKTIMEVERIFY: 0xb1, NOP3: 0xb2, NOP10: 0xb9, NEGATE1: 0x4f, N1: 0x51,
} as const; // prettier-ignore

export function unaryOp(opcode: number, n: number): number {
  switch (opcode) {
    case OP.ADD1:
      return n + 1;
    case OP.SUB1:
      return n - 1;
    case OP.NEGATE:
      return -n;
    case OP.ABS:
      return Math.abs(n);
    case OP.NOT:
      return n === 0 ? 1 : 0;
    default:
      return n !== 0 ? 1 : 0;
  }
}

export function binaryOp(opcode: number, a: number, b: number): number {
  switch (opcode) {
    case OP.ADD:
      return a + b;
    case OP.SUB:
      return a - b;
    case OP.BOOLAND:
      return a !== 0 && b !== 0 ? 1 : 0;
    case OP.BOOLOR:
      return a !== 0 || b !== 0 ? 1 : 0;
    case OP.NUMEQUAL:
    case OP.NUMEQUALVERIFY:
      return a === b ? 1 : 0;
    case OP.NUMNOTEQUAL:
      return a !== b ? 1 : 0;
    case OP.LESSTHAN:
      return a < b ? 1 : 0;
    case OP.GREATERTHAN:
      return a > b ? 1 : 0;
    case OP.LESSTHANOREQUAL:
      return a <= b ? 1 : 0;
    case OP.GREATERTHANOREQUAL:
      return a >= b ? 1 : 0;
    case OP.MIN:
      return Math.min(a, b);
    default:
      return Math.max(a, b);
  }
}

export function hashOp(opcode: number, data: Uint8Array): Uint8Array {
  switch (opcode) {
    case OP.RIPEMD160:
      return ripemd160Of(data);
    case OP.SHA1:
      return sha1Of(data);
    case OP.SHA256:
      return sha256(data);
    case OP.HASH160:
      return hash160(data);
    default:
      return sha256d(data);
  }
}

export function checkEncodings(sig: Uint8Array, pubkey: Uint8Array, flags: number): ScriptErrorCode {
  const error = checkSignatureEncoding(sig, flags);
  return error !== ScriptError.OK ? error : checkPubKeyEncoding(pubkey, flags);
}

/**
 * OP_CHECKMULTISIG's body: pops the key count, keys, signature count, signatures and the dummy
 * element, matching signatures to keys in order. Returns the verdict and the operation count
 * (each key counts), or the error.
 */
export function checkMultisig(
  stack: Uint8Array[],
  script: Uint8Array,
  flags: number,
  checker: SignatureChecker,
  branchId: number,
  requireMinimal: boolean,
  opCountBefore: number,
): { ok: boolean; opCount: number } | { error: ScriptErrorCode } {
  const top = (i: number): Uint8Array => stack[stack.length - i]!;
  let i = 1;
  if (stack.length < i) return { error: ScriptError.INVALID_STACK_OPERATION };
  let keys = scriptNumInt(scriptNumFrom(top(i), requireMinimal));
  if (keys < 0 || keys > MAX_PUBKEYS_PER_MULTISIG) return { error: ScriptError.PUBKEY_COUNT };
  const opCount = opCountBefore + keys;
  if (opCount > MAX_OPS_PER_SCRIPT) return { error: ScriptError.OP_COUNT };
  let keyAt = ++i;
  i += keys;
  if (stack.length < i) return { error: ScriptError.INVALID_STACK_OPERATION };
  let sigs = scriptNumInt(scriptNumFrom(top(i), requireMinimal));
  if (sigs < 0 || sigs > keys) return { error: ScriptError.SIG_COUNT };
  let sigAt = ++i;
  i += sigs;
  if (stack.length < i) return { error: ScriptError.INVALID_STACK_OPERATION };
  let ok = true;
  while (ok && sigs > 0) {
    const sig = top(sigAt);
    const pubkey = top(keyAt);
    const encoding = checkEncodings(sig, pubkey, flags);
    if (encoding !== ScriptError.OK) return { error: encoding };
    if (checker.checkSig(sig, pubkey, script, branchId)) {
      sigAt++;
      sigs--;
    }
    keyAt++;
    keys--;
    // More signatures left than keys: it cannot succeed.
    if (sigs > keys) ok = false;
  }
  // Everything but the dummy element, which zcashd's off-by-one leaves to check below.
  stack.length -= i - 1;
  if (stack.length < 1) return { error: ScriptError.INVALID_STACK_OPERATION };
  if (flags & SCRIPT_VERIFY_NULLDUMMY && stack[stack.length - 1]!.length > 0) return { error: ScriptError.SIG_NULLDUMMY };
  stack.pop();
  return { ok, opCount };
}
