/**
 * zcashd v6.12.2's script interpreter, `EvalScript` (src/script/interpreter.cpp): every opcode
 * zcashd executes, its disabled opcodes and limits (520-byte pushes, 201 operations, 1,000 stack
 * elements, 10,000-byte scripts) and the error each failure sets. Signatures are checked through
 * a `SignatureChecker` (the transaction's, codec/tx/signature-checker.ts, or none).
 */
import { NO_SIGNATURE_CHECKER, type SignatureChecker } from './checker.js';
import { MAX_OPS_PER_SCRIPT, OP, binaryOp, checkEncodings, checkMultisig, hashOp, unaryOp } from './interpreter-ops.js';
import { MAX_SCRIPT_SIZE, OP_16, OP_PUSHDATA4, newScriptOp, readScriptOp } from './opcodes.js';
import { ScriptError, type ScriptErrorCode } from './script-error.js';
import { ScriptNumError, scriptNumBytes, scriptNumFrom, scriptNumInt } from './script-num.js';
import {
  SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY,
  SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_NOPS,
  SCRIPT_VERIFY_MINIMALDATA,
  castToBool,
  isMinimalPush,
} from './signature-encoding.js';

export const MAX_SCRIPT_ELEMENT_SIZE = 520;
const MAX_STACK_SIZE = 1000;
const LOCKTIME_MAX_NUM_SIZE = 5;

const TRUE = Uint8Array.of(1);
const FALSE = new Uint8Array(0);

/** OP_CAT … OP_RSHIFT's bitwise and arithmetic ops and OP_CODESEPARATOR: failing even unexecuted. */
const DISABLED = new Set([0x7e, 0x7f, 0x80, 0x81, 0x83, 0x84, 0x85, 0x86, 0x8d, 0x8e, 0x95, 0x96, 0x97, 0x98, 0x99, 0xab]);

/** Thrown inside the loop to leave it with an error, as zcashd's `return set_error(...)`. */
class ScriptFailure extends Error {
  constructor(readonly error: ScriptErrorCode) {
    super('script failure');
  }
}

function fail(error: ScriptErrorCode): never {
  throw new ScriptFailure(error);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * `EvalScript(stack, script, flags, checker, consensusBranchId)`: runs `script` on `stack`
 * (changed in place) and returns SCRIPT_ERR_OK or the error that stopped it.
 */
export function evalScript(
  stack: Uint8Array[],
  script: Uint8Array,
  flags: number,
  checker: SignatureChecker,
  branchId: number,
): ScriptErrorCode {
  if (script.length > MAX_SCRIPT_SIZE) return ScriptError.SCRIPT_SIZE;
  try {
    return run(stack, script, flags, checker, branchId);
  } catch (e) {
    if (e instanceof ScriptFailure) return e.error;
    // scriptnum_error and the like: zcashd's catch (...).
    if (e instanceof ScriptNumError) return ScriptError.UNKNOWN_ERROR;
    throw e;
  }
}

function run(stack: Uint8Array[], script: Uint8Array, flags: number, checker: SignatureChecker, branchId: number): ScriptErrorCode {
  const requireMinimal = (flags & SCRIPT_VERIFY_MINIMALDATA) !== 0;
  const altstack: Uint8Array[] = [];
  const exec: boolean[] = [];
  let falseBranches = 0;
  let opCount = 0;
  const op = newScriptOp();
  let pc = 0;

  const need = (n: number): void => {
    if (stack.length < n) fail(ScriptError.INVALID_STACK_OPERATION);
  };
  const top = (i: number): Uint8Array => stack[stack.length + i]!;
  const num = (i: number): number => scriptNumFrom(top(i), requireMinimal);
  const swap = (i: number, j: number): void => {
    const a = stack.length + i;
    const b = stack.length + j;
    [stack[a], stack[b]] = [stack[b]!, stack[a]!];
  };

  while (pc < script.length) {
    const executing = falseBranches === 0;
    pc = readScriptOp(script, pc, op);
    if (pc < 0) return ScriptError.BAD_OPCODE;
    const opcode = op.opcode;
    if (op.dataEnd - op.dataStart > MAX_SCRIPT_ELEMENT_SIZE) return ScriptError.PUSH_SIZE;
    // OP_RESERVED and the pushes do not count towards the operation limit.
    if (opcode > OP_16 && ++opCount > MAX_OPS_PER_SCRIPT) return ScriptError.OP_COUNT;
    if (DISABLED.has(opcode)) return ScriptError.DISABLED_OPCODE;

    if (executing && opcode <= OP_PUSHDATA4) {
      const data = script.slice(op.dataStart, op.dataEnd);
      if (requireMinimal && !isMinimalPush(data, opcode)) return ScriptError.MINIMALDATA;
      stack.push(data);
    } else if (executing || (opcode >= OP.IF && opcode <= OP.ENDIF)) {
      switch (opcode) {
        case OP.NEGATE1:
          stack.push(scriptNumBytes(-1));
          break;
        case OP.NOP:
          break;
        case OP.CHECKLOCKTIMEVERIFY: {
          if (!(flags & SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY)) {
            if (flags & SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_NOPS) return ScriptError.DISCOURAGE_UPGRADABLE_NOPS;
            break;
          }
          need(1);
          const lockTime = scriptNumFrom(top(-1), requireMinimal, LOCKTIME_MAX_NUM_SIZE);
          if (lockTime < 0) return ScriptError.NEGATIVE_LOCKTIME;
          if (!checker.checkLockTime(lockTime)) return ScriptError.UNSATISFIED_LOCKTIME;
          break;
        }
        case OP.IF:
        case OP.NOTIF: {
          let value = false;
          if (executing) {
            if (stack.length < 1) return ScriptError.UNBALANCED_CONDITIONAL;
            value = castToBool(top(-1));
            if (opcode === OP.NOTIF) value = !value;
            stack.pop();
          }
          exec.push(value);
          if (!value) falseBranches++;
          break;
        }
        case OP.ELSE:
          if (exec.length === 0) return ScriptError.UNBALANCED_CONDITIONAL;
          falseBranches += exec[exec.length - 1] ? 1 : -1;
          exec[exec.length - 1] = !exec[exec.length - 1];
          break;
        case OP.ENDIF:
          if (exec.length === 0) return ScriptError.UNBALANCED_CONDITIONAL;
          if (!exec.pop()) falseBranches--;
          break;
        case OP.VERIFY:
          need(1);
          if (!castToBool(top(-1))) return ScriptError.VERIFY;
          stack.pop();
          break;
        case OP.RETURN:
          return ScriptError.OP_RETURN;
        case OP.TOALTSTACK:
          need(1);
          altstack.push(stack.pop()!);
          break;
        case OP.FROMALTSTACK:
          if (altstack.length < 1) return ScriptError.INVALID_ALTSTACK_OPERATION;
          stack.push(altstack.pop()!);
          break;
        case OP.DROP2:
          need(2);
          stack.length -= 2;
          break;
        case OP.DUP2:
          need(2);
          stack.push(top(-2), top(-1));
          break;
        case OP.DUP3:
          need(3);
          stack.push(top(-3), top(-2), top(-1));
          break;
        case OP.OVER2:
          need(4);
          stack.push(top(-4), top(-3));
          break;
        case OP.ROT2: {
          need(6);
          const moved = stack.splice(stack.length - 6, 2);
          stack.push(...moved);
          break;
        }
        case OP.SWAP2:
          need(4);
          swap(-4, -2);
          swap(-3, -1);
          break;
        case OP.IFDUP:
          need(1);
          if (castToBool(top(-1))) stack.push(top(-1));
          break;
        case OP.DEPTH:
          stack.push(scriptNumBytes(stack.length));
          break;
        case OP.DROP:
          need(1);
          stack.pop();
          break;
        case OP.DUP:
          need(1);
          stack.push(top(-1));
          break;
        case OP.NIP:
          need(2);
          stack.splice(stack.length - 2, 1);
          break;
        case OP.OVER:
          need(2);
          stack.push(top(-2));
          break;
        case OP.PICK:
        case OP.ROLL: {
          need(2);
          const n = scriptNumInt(num(-1));
          stack.pop();
          if (n < 0 || n >= stack.length) return ScriptError.INVALID_STACK_OPERATION;
          const value = top(-n - 1);
          if (opcode === OP.ROLL) stack.splice(stack.length - n - 1, 1);
          stack.push(value);
          break;
        }
        case OP.ROT:
          need(3);
          swap(-3, -2);
          swap(-2, -1);
          break;
        case OP.SWAP:
          need(2);
          swap(-2, -1);
          break;
        case OP.TUCK:
          need(2);
          stack.splice(stack.length - 2, 0, top(-1));
          break;
        case OP.SIZE:
          need(1);
          stack.push(scriptNumBytes(top(-1).length));
          break;
        case OP.EQUAL:
        case OP.EQUALVERIFY: {
          need(2);
          const equal = equalBytes(top(-2), top(-1));
          stack.length -= 2;
          stack.push(equal ? TRUE : FALSE);
          if (opcode === OP.EQUALVERIFY) {
            if (!equal) return ScriptError.EQUALVERIFY;
            stack.pop();
          }
          break;
        }
        case OP.ADD1:
        case OP.SUB1:
        case OP.NEGATE:
        case OP.ABS:
        case OP.NOT:
        case OP.NOTEQUAL0: {
          need(1);
          const result = unaryOp(opcode, num(-1));
          stack.pop();
          stack.push(scriptNumBytes(result));
          break;
        }
        case OP.ADD:
        case OP.SUB:
        case OP.BOOLAND:
        case OP.BOOLOR:
        case OP.NUMEQUAL:
        case OP.NUMEQUALVERIFY:
        case OP.NUMNOTEQUAL:
        case OP.LESSTHAN:
        case OP.GREATERTHAN:
        case OP.LESSTHANOREQUAL:
        case OP.GREATERTHANOREQUAL:
        case OP.MIN:
        case OP.MAX: {
          need(2);
          const result = binaryOp(opcode, num(-2), num(-1));
          stack.length -= 2;
          stack.push(scriptNumBytes(result));
          if (opcode === OP.NUMEQUALVERIFY) {
            if (!castToBool(top(-1))) return ScriptError.NUMEQUALVERIFY;
            stack.pop();
          }
          break;
        }
        case OP.WITHIN: {
          need(3);
          const [x, min, max] = [num(-3), num(-2), num(-1)];
          stack.length -= 3;
          stack.push(min <= x && x < max ? TRUE : FALSE);
          break;
        }
        case OP.RIPEMD160:
        case OP.SHA1:
        case OP.SHA256:
        case OP.HASH160:
        case OP.HASH256:
          need(1);
          stack.push(hashOp(opcode, stack.pop()!));
          break;
        case OP.CHECKSIG:
        case OP.CHECKSIGVERIFY: {
          need(2);
          const sig = top(-2);
          const pubkey = top(-1);
          const encoding = checkEncodings(sig, pubkey, flags);
          if (encoding !== ScriptError.OK) return encoding;
          const ok = checker.checkSig(sig, pubkey, script, branchId);
          stack.length -= 2;
          stack.push(ok ? TRUE : FALSE);
          if (opcode === OP.CHECKSIGVERIFY) {
            if (!ok) return ScriptError.CHECKSIGVERIFY;
            stack.pop();
          }
          break;
        }
        case OP.CHECKMULTISIG:
        case OP.CHECKMULTISIGVERIFY: {
          const outcome = checkMultisig(stack, script, flags, checker, branchId, requireMinimal, opCount);
          if ('error' in outcome) return outcome.error;
          opCount = outcome.opCount;
          stack.push(outcome.ok ? TRUE : FALSE);
          if (opcode === OP.CHECKMULTISIGVERIFY) {
            if (!outcome.ok) return ScriptError.CHECKMULTISIGVERIFY;
            stack.pop();
          }
          break;
        }
        default:
          if (opcode >= OP.N1 && opcode <= OP_16) {
            stack.push(scriptNumBytes(opcode - (OP.N1 - 1)));
            break;
          }
          if (opcode === OP.NOP1 || (opcode >= OP.NOP3 && opcode <= OP.NOP10)) {
            if (flags & SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_NOPS) return ScriptError.DISCOURAGE_UPGRADABLE_NOPS;
            break;
          }
          return ScriptError.BAD_OPCODE;
      }
    }
    if (stack.length + altstack.length > MAX_STACK_SIZE) return ScriptError.STACK_SIZE;
  }
  if (exec.length > 0) return ScriptError.UNBALANCED_CONDITIONAL;
  return ScriptError.OK;
}

export { NO_SIGNATURE_CHECKER, type SignatureChecker };
