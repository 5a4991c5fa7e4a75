/** `GetScriptForDestination` and `GetScriptForMultisig` (zcashd v6.12.2 src/script/standard.cpp). */
import { OP_1, OP_CHECKMULTISIG, OP_CHECKSIG, OP_DUP, OP_EQUAL, OP_EQUALVERIFY, OP_HASH160 } from './opcodes.js';
import type { Destination } from './solver.js';

/** P2PKH: `OP_DUP OP_HASH160 <20> OP_EQUALVERIFY OP_CHECKSIG`; P2SH: `OP_HASH160 <20> OP_EQUAL`. */
export function destinationScript(destination: Destination): Uint8Array {
  if (destination.kind === 'p2pkh') return Uint8Array.of(OP_DUP, OP_HASH160, 20, ...destination.hash, OP_EQUALVERIFY, OP_CHECKSIG);
  return Uint8Array.of(OP_HASH160, 20, ...destination.hash, OP_EQUAL);
}

/**
 * `OP_m <key>… OP_n OP_CHECKMULTISIG` for 1 ≤ m ≤ n ≤ 16 keys, each a direct push (keys are
 * 33 or 65 bytes, below OP_PUSHDATA1).
 */
export function multisigScript(required: number, keys: readonly Uint8Array[]): Uint8Array {
  const out: number[] = [OP_1 + required - 1];
  for (const key of keys) out.push(key.length, ...key);
  out.push(OP_1 + keys.length - 1, OP_CHECKMULTISIG);
  return Uint8Array.from(out);
}
