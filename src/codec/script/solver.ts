/**
 * Output classification: zcashd v6.12.2 `Solver` and `ExtractDestinations`
 * (src/script/standard.cpp), which decide the `type`, `reqSigs` and `addresses` members of a
 * scriptPubKey object.
 */
import { hash160 } from '../../crypto/hash.js';
import {
  OP_CHECKMULTISIG,
  OP_CHECKSIG,
  OP_DUP,
  OP_EQUAL,
  OP_EQUALVERIFY,
  OP_HASH160,
  OP_RETURN,
  OP_16,
  decodeSmallInteger,
  isSmallInteger,
  newScriptOp,
  readScriptOp,
} from './opcodes.js';

/** `GetTxnOutputType` names. */
export type TxOutType = 'nonstandard' | 'pubkey' | 'pubkeyhash' | 'scripthash' | 'multisig' | 'nulldata';

export type DestinationKind = 'p2pkh' | 'p2sh';

/** zcashd's CScript::ScriptType, the script kinds its address and spent indexes store. */
export const SCRIPT_UNKNOWN = 0;
export const SCRIPT_P2PKH = 1;
export const SCRIPT_P2SH = 2;

/** DestFromAddressHash: the destination an index's script type names, or null for none. */
export function destinationKindOf(scriptType: number): DestinationKind | null {
  return scriptType === SCRIPT_P2PKH ? 'p2pkh' : scriptType === SCRIPT_P2SH ? 'p2sh' : null;
}

export interface Destination {
  kind: DestinationKind;
  /** 20-byte key hash or script hash. */
  hash: Uint8Array;
}

/** What zcashd's Solver and ExtractDestinations make of an output script. */
export interface SolvedScript {
  type: TxOutType;
  /** Present exactly when zcashd prints `reqSigs` and `addresses` (ExtractDestinations succeeded). */
  reqSigs?: number;
  destinations?: Destination[];
}

const NONSTANDARD: SolvedScript = Object.freeze({ type: 'nonstandard' });
const NULLDATA: SolvedScript = Object.freeze({ type: 'nulldata' });

const COMPRESSED_PUBKEY_SIZE = 33;
const PUBKEY_SIZE = 65;

/**
 * Classifies a scriptPubKey, trying the patterns in zcashd's order: P2SH, OP_RETURN data,
 * P2PK, P2PKH, bare multisig, else nonstandard. Results for nulldata and nonstandard are
 * shared frozen objects; treat every result as read-only.
 */
export function solveScript(script: Uint8Array): SolvedScript {
  const size = script.length;
  if (isPayToScriptHash(script)) {
    return { type: 'scripthash', reqSigs: 1, destinations: [{ kind: 'p2sh', hash: script.subarray(2, 22) }] };
  }
  if (size >= 1 && script[0] === OP_RETURN && isPushOnlyFrom(script, 1)) return NULLDATA;
  const pubkey = matchPayToPubkey(script);
  if (pubkey) {
    return { type: 'pubkey', reqSigs: 1, destinations: [{ kind: 'p2pkh', hash: hash160(pubkey) }] };
  }
  if (isPayToPubkeyHash(script)) {
    return { type: 'pubkeyhash', reqSigs: 1, destinations: [{ kind: 'p2pkh', hash: script.subarray(3, 23) }] };
  }
  const multisig = matchMultisig(script);
  if (multisig) {
    // ExtractDestinations keeps every key (in script order, duplicates included): keys that
    // pass ValidSize are always CPubKey::IsValid, so none is skipped.
    return {
      type: 'multisig',
      reqSigs: multisig.required,
      destinations: multisig.keys.map((key) => ({ kind: 'p2pkh' as const, hash: hash160(key) })),
    };
  }
  return NONSTANDARD;
}

/** `CScript::IsPayToScriptHash`: exactly `a9 14 <20 bytes> 87`. */
export function isPayToScriptHash(script: Uint8Array): boolean {
  return script.length === 23 && script[0] === OP_HASH160 && script[1] === 0x14 && script[22] === OP_EQUAL;
}

/** `MatchPayToPubkeyHash`: exactly `76 a9 14 <20 bytes> 88 ac`. */
export function isPayToPubkeyHash(script: Uint8Array): boolean {
  return (
    script.length === 25 &&
    script[0] === OP_DUP &&
    script[1] === OP_HASH160 &&
    script[2] === 0x14 &&
    script[23] === OP_EQUALVERIFY &&
    script[24] === OP_CHECKSIG
  );
}

/**
 * `CPubKey::ValidSize`: the length implied by the first byte matches. Only the prefix is
 * checked — the point need not be on the curve, and hybrid (06/07) keys count.
 */
function isValidPubkeySize(script: Uint8Array, start: number, size: number): boolean {
  if (size === 0) return false;
  const prefix = script[start]!;
  if (prefix === 0x02 || prefix === 0x03) return size === COMPRESSED_PUBKEY_SIZE;
  if (prefix === 0x04 || prefix === 0x06 || prefix === 0x07) return size === PUBKEY_SIZE;
  return false;
}

/** `MatchPayToPubkey`: a direct 65- or 33-byte key push followed by OP_CHECKSIG, nothing else. */
function matchPayToPubkey(script: Uint8Array): Uint8Array | null {
  const size = script.length;
  if (size !== PUBKEY_SIZE + 2 && size !== COMPRESSED_PUBKEY_SIZE + 2) return null;
  const keySize = size - 2;
  if (script[0] !== keySize || script[size - 1] !== OP_CHECKSIG) return null;
  return isValidPubkeySize(script, 1, keySize) ? script.subarray(1, 1 + keySize) : null;
}

/** `CScript::IsPushOnly(pc)`: every remaining opcode tokenizes and is ≤ OP_16. */
export function isPushOnlyFrom(script: Uint8Array, pos: number): boolean {
  const op = newScriptOp();
  while (pos < script.length) {
    pos = readScriptOp(script, pos, op);
    if (pos < 0 || op.opcode > OP_16) return false;
  }
  return true;
}

/**
 * `MatchMultisig`: `OP_m <key>… OP_n OP_CHECKMULTISIG` where keys may use any push form,
 * n equals the number of keys and n ≥ m. Keys are read while tokens are valid-size pushes;
 * the token that ends the run must be OP_n (a failed read counts as OP_INVALIDOPCODE, as
 * zcashd's GetOp reports) and exactly one byte — the final OP_CHECKMULTISIG — may follow it.
 */
function matchMultisig(script: Uint8Array): { required: number; keys: Uint8Array[] } | null {
  const size = script.length;
  if (size < 1 || script[size - 1] !== OP_CHECKMULTISIG) return null;
  const op = newScriptOp();
  let pos = readScriptOp(script, 0, op);
  if (pos < 0 || !isSmallInteger(op.opcode)) return null;
  const required = decodeSmallInteger(op.opcode);
  const keys: Uint8Array[] = [];
  for (;;) {
    if (pos >= size) return null;
    pos = readScriptOp(script, pos, op);
    if (pos < 0) return null;
    // Non-push opcodes carry no data, so they fail the size test and end the run.
    if (!isValidPubkeySize(script, op.dataStart, op.dataEnd - op.dataStart)) break;
    keys.push(script.subarray(op.dataStart, op.dataEnd));
  }
  if (!isSmallInteger(op.opcode)) return null;
  const count = decodeSmallInteger(op.opcode);
  if (keys.length !== count || count < required) return null;
  return pos + 1 === size ? { required, keys } : null;
}

/**
 * `Solver`'s solutions (standard.cpp), which signing and combining read: P2SH and P2PKH their
 * 20-byte hash, P2PK its key, multisig [m] ‖ keys ‖ [n], OP_RETURN data none; null for a
 * nonstandard script (Solver's false).
 */
export function scriptSolutions(script: Uint8Array): { type: TxOutType; solutions: Uint8Array[] } | null {
  if (isPayToScriptHash(script)) return { type: 'scripthash', solutions: [script.subarray(2, 22)] };
  if (script.length >= 1 && script[0] === OP_RETURN && isPushOnlyFrom(script, 1)) return { type: 'nulldata', solutions: [] };
  const pubkey = matchPayToPubkey(script);
  if (pubkey) return { type: 'pubkey', solutions: [pubkey] };
  if (isPayToPubkeyHash(script)) return { type: 'pubkeyhash', solutions: [script.subarray(3, 23)] };
  const multisig = matchMultisig(script);
  if (multisig) {
    return { type: 'multisig', solutions: [Uint8Array.of(multisig.required), ...multisig.keys, Uint8Array.of(multisig.keys.length)] };
  }
  return null;
}
