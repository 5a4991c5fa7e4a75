/**
 * zcashd v6.12.2's `CombineSignatures` (src/script/sign.cpp): merges two scriptSigs of one input
 * — each first run as a script (STRICTENC, no signature checker) to get the elements it
 * pushes. P2PK and P2PKH keep the first that has a signature, nonstandard scripts the longer
 * stack, P2SH combines what precedes the redeem script under the redeem script's own rules, and
 * multisig keeps one valid signature per key, in key order, padded with empty elements up to
 * the number required.
 */
import { toHex } from '../hex.js';
import type { SignatureChecker } from '../script/checker.js';
import { NO_SIGNATURE_CHECKER, evalScript } from '../script/interpreter.js';
import { SCRIPT_VERIFY_STRICTENC } from '../script/signature-encoding.js';
import { scriptSolutions } from '../script/solver.js';
import { pushAll } from './transparent-signing.js';

/** std::vector<unsigned char>'s ordering, which std::set<valtype> iterates in. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function combineMultisig(
  scriptPubKey: Uint8Array,
  checker: SignatureChecker,
  solutions: readonly Uint8Array[],
  sigs1: readonly Uint8Array[],
  sigs2: readonly Uint8Array[],
  branchId: number,
): Uint8Array[] {
  const unique = new Map<string, Uint8Array>();
  for (const v of [...sigs1, ...sigs2]) if (v.length > 0) unique.set(toHex(v), v);
  const allSigs = [...unique.values()].sort(compareBytes);
  const required = solutions[0]![0]!;
  const keys = solutions.slice(1, solutions.length - 1);
  const sigByKey = new Map<string, Uint8Array>();
  for (const sig of allSigs) {
    for (const key of keys) {
      const id = toHex(key);
      if (sigByKey.has(id)) continue;
      if (checker.checkSig(sig, key, scriptPubKey, branchId)) {
        sigByKey.set(id, sig);
        break;
      }
    }
  }
  // The element CHECKMULTISIG pops beyond its arguments.
  const result: Uint8Array[] = [new Uint8Array(0)];
  let have = 0;
  for (const key of keys) {
    if (have >= required) break;
    const sig = sigByKey.get(toHex(key));
    if (sig) {
      result.push(sig);
      have++;
    }
  }
  for (let i = have; i < required; i++) result.push(new Uint8Array(0));
  return result;
}

function combineStacks(
  scriptPubKey: Uint8Array,
  checker: SignatureChecker,
  sigs1: Uint8Array[],
  sigs2: Uint8Array[],
  branchId: number,
): Uint8Array[] {
  const solved = scriptSolutions(scriptPubKey);
  switch (solved?.type ?? 'nonstandard') {
    case 'nonstandard':
    case 'nulldata':
      return sigs1.length >= sigs2.length ? sigs1 : sigs2;
    case 'pubkey':
    case 'pubkeyhash':
      return sigs1.length === 0 || sigs1[0]!.length === 0 ? sigs2 : sigs1;
    case 'scripthash': {
      const last1 = sigs1[sigs1.length - 1];
      const last2 = sigs2[sigs2.length - 1];
      if (last1 === undefined || last1.length === 0) return sigs2;
      if (last2 === undefined || last2.length === 0) return sigs1;
      // Both carry a redeem script: the first one's rules combine the rest.
      const combined = combineStacks(last1, checker, sigs1.slice(0, -1), sigs2.slice(0, -1), branchId);
      return [...combined, last1];
    }
    default:
      return combineMultisig(scriptPubKey, checker, solved!.solutions, sigs1, sigs2, branchId);
  }
}

/** The elements a scriptSig pushes (`Stacks(SignatureData)`), as far as it runs. */
function scriptSigStack(scriptSig: Uint8Array, branchId: number): Uint8Array[] {
  const stack: Uint8Array[] = [];
  evalScript(stack, scriptSig, SCRIPT_VERIFY_STRICTENC, NO_SIGNATURE_CHECKER, branchId);
  return stack;
}

/** `CombineSignatures(scriptPubKey, checker, scriptSig1, scriptSig2, consensusBranchId)`: the merged scriptSig. */
export function combineSignatures(
  scriptPubKey: Uint8Array,
  checker: SignatureChecker,
  scriptSig1: Uint8Array,
  scriptSig2: Uint8Array,
  branchId: number,
): Uint8Array {
  const stack = combineStacks(scriptPubKey, checker, scriptSigStack(scriptSig1, branchId), scriptSigStack(scriptSig2, branchId), branchId);
  return pushAll(stack);
}
