/**
 * Signature-operation counts (zcashd v6.12.2 src/script/script.cpp `CScript::GetSigOpCount`),
 * which bound how much signature checking a block can demand (MAX_BLOCK_SIGOPS).
 */
import { isPayToScriptHash } from './solver.js';
import {
  isSmallInteger,
  newScriptOp,
  OP_1,
  OP_16,
  OP_CHECKMULTISIG,
  OP_CHECKMULTISIGVERIFY,
  OP_CHECKSIG,
  OP_CHECKSIGVERIFY,
  OP_INVALIDOPCODE,
  readScriptOp,
} from './opcodes.js';

/** MAX_PUBKEYS_PER_MULTISIG: what an uncounted CHECKMULTISIG is charged. */
const MAX_PUBKEYS_PER_MULTISIG = 20;

/**
 * `GetSigOpCount(fAccurate)`: one per CHECKSIG(VERIFY); a CHECKMULTISIG(VERIFY) counts the OP_n
 * before it when `accurate`, 20 otherwise. Counting stops at the first op that runs past the end.
 */
export function sigOpCount(script: Uint8Array, accurate: boolean): number {
  return sigOpCountIn(script, 0, script.length, accurate);
}

const scratchOp = newScriptOp();

/** `sigOpCount` of the script `bytes[start, end)`, read in place (a transaction's own bytes). */
export function sigOpCountIn(bytes: Uint8Array, start: number, end: number, accurate: boolean): number {
  const op = scratchOp;
  let n = 0;
  let last = OP_INVALIDOPCODE;
  for (let pos = start; pos < end;) {
    pos = readScriptOp(bytes, pos, op, end);
    if (pos < 0) break;
    const c = op.opcode;
    if (c === OP_CHECKSIG || c === OP_CHECKSIGVERIFY) n++;
    else if (c === OP_CHECKMULTISIG || c === OP_CHECKMULTISIGVERIFY)
      n += accurate && isSmallInteger(last) ? last - OP_1 + 1 : MAX_PUBKEYS_PER_MULTISIG;
    last = c;
  }
  return n;
}

/**
 * `GetSigOpCount(scriptSig)` of a scriptPubKey: for P2SH, the accurate count of the redeem script
 * (the last item the scriptSig pushes; 0 when the scriptSig is not push-only or runs past its
 * end); for anything else its own accurate count.
 */
export function spendSigOpCount(scriptPubKey: Uint8Array, scriptSig: Uint8Array): number {
  if (!isPayToScriptHash(scriptPubKey)) return sigOpCount(scriptPubKey, true);
  const op = newScriptOp();
  let dataStart = 0;
  let dataEnd = 0;
  for (let pos = 0; pos < scriptSig.length;) {
    pos = readScriptOp(scriptSig, pos, op);
    if (pos < 0 || op.opcode > OP_16) return 0;
    dataStart = op.dataStart;
    dataEnd = op.dataEnd;
  }
  return sigOpCount(scriptSig.subarray(dataStart, dataEnd), true);
}
