/**
 * The encoding rules zcashd v6.12.2's interpreter (src/script/interpreter.cpp) holds signatures,
 * public keys and pushes to: strict DER (BIP 66, always enforced), low S and a defined hash type
 * (flags), compressed or uncompressed keys (STRICTENC), minimal pushes (MINIMALDATA), and
 * `CastToBool`.
 */
import { OP_0, OP_1, OP_1NEGATE, OP_PUSHDATA1, OP_PUSHDATA2 } from './opcodes.js';
import { ScriptError, type ScriptErrorCode } from './script-error.js';

/** Script verification flags (interpreter.h). */
export const SCRIPT_VERIFY_P2SH = 1 << 0;
export const SCRIPT_VERIFY_STRICTENC = 1 << 1;
export const SCRIPT_VERIFY_LOW_S = 1 << 3;
export const SCRIPT_VERIFY_NULLDUMMY = 1 << 4;
export const SCRIPT_VERIFY_SIGPUSHONLY = 1 << 5;
export const SCRIPT_VERIFY_MINIMALDATA = 1 << 6;
export const SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_NOPS = 1 << 7;
export const SCRIPT_VERIFY_CLEANSTACK = 1 << 8;
export const SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY = 1 << 9;

/** policy.h's STANDARD_SCRIPT_VERIFY_FLAGS: the mandatory P2SH and every standardness rule. */
export const STANDARD_SCRIPT_VERIFY_FLAGS =
  SCRIPT_VERIFY_P2SH |
  SCRIPT_VERIFY_STRICTENC |
  SCRIPT_VERIFY_MINIMALDATA |
  SCRIPT_VERIFY_NULLDUMMY |
  SCRIPT_VERIFY_DISCOURAGE_UPGRADABLE_NOPS |
  SCRIPT_VERIFY_CLEANSTACK |
  SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY |
  SCRIPT_VERIFY_LOW_S;

const HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/** `CastToBool`: any non-zero byte, except a lone sign bit at the end (negative zero). */
export function castToBool(vch: Uint8Array): boolean {
  for (let i = 0; i < vch.length; i++) {
    if (vch[i] !== 0) return !(i === vch.length - 1 && vch[i] === 0x80);
  }
  return false;
}

/** `IsValidSignatureEncoding`: 0x30 len 0x02 lenR R 0x02 lenS S hashtype, both integers positive and minimal. */
export function isValidSignatureEncoding(sig: Uint8Array): boolean {
  const size = sig.length;
  if (size < 9 || size > 73) return false;
  if (sig[0] !== 0x30 || sig[1] !== size - 3) return false;
  const lenR = sig[3]!;
  if (5 + lenR >= size) return false;
  const lenS = sig[5 + lenR]!;
  if (lenR + lenS + 7 !== size) return false;
  if (sig[2] !== 0x02 || lenR === 0 || sig[4]! & 0x80) return false;
  if (lenR > 1 && sig[4] === 0 && !(sig[5]! & 0x80)) return false;
  if (sig[lenR + 4] !== 0x02 || lenS === 0 || sig[lenR + 6]! & 0x80) return false;
  if (lenS > 1 && sig[lenR + 6] === 0 && !(sig[lenR + 7]! & 0x80)) return false;
  return true;
}

/**
 * `CPubKey::CheckLowS` of a strictly encoded signature: S at most half the order. An S too
 * large for the curve is zeroed by libsecp256k1's parser, which then counts it as low.
 */
function hasLowS(sig: Uint8Array): boolean {
  const lenR = sig[3]!;
  const lenS = sig[5 + lenR]!;
  let s = 0n;
  for (let i = 6 + lenR; i < 6 + lenR + lenS; i++) s = (s << 8n) | BigInt(sig[i]!);
  return s >= 2n * HALF_ORDER + 1n || s <= HALF_ORDER;
}

/** `IsDefinedHashtypeSignature`: ALL, NONE or SINGLE, with or without ANYONECANPAY. */
function isDefinedHashType(sig: Uint8Array): boolean {
  if (sig.length === 0) return false;
  const base = sig[sig.length - 1]! & ~0x80;
  return base >= 1 && base <= 3;
}

/**
 * `CheckSignatureEncoding`: OK, or the error. The empty signature is allowed (a compact failing
 * signature). A high S fails without an error of its own: zcashd's IsLowDERSignature returns
 * false without setting one, so the script's error stays SCRIPT_ERR_UNKNOWN_ERROR.
 */
export function checkSignatureEncoding(sig: Uint8Array, flags: number): ScriptErrorCode {
  if (sig.length === 0) return ScriptError.OK;
  if (!isValidSignatureEncoding(sig)) return ScriptError.SIG_DER;
  if (flags & SCRIPT_VERIFY_LOW_S && !hasLowS(sig)) return ScriptError.UNKNOWN_ERROR;
  if (flags & SCRIPT_VERIFY_STRICTENC && !isDefinedHashType(sig)) return ScriptError.SIG_HASHTYPE;
  return ScriptError.OK;
}

/** `CheckPubKeyEncoding`: with STRICTENC, a 33-byte 02/03 key or a 65-byte 04 key. */
export function checkPubKeyEncoding(key: Uint8Array, flags: number): ScriptErrorCode {
  if (!(flags & SCRIPT_VERIFY_STRICTENC)) return ScriptError.OK;
  const ok = key.length >= 33 && (key[0] === 0x04 ? key.length === 65 : (key[0] === 0x02 || key[0] === 0x03) && key.length === 33);
  return ok ? ScriptError.OK : ScriptError.PUBKEYTYPE;
}

/** `CheckMinimalPush`: the data could not have been pushed with a shorter opcode. */
export function isMinimalPush(data: Uint8Array, opcode: number): boolean {
  const size = data.length;
  if (size === 0) return opcode === OP_0;
  if (size === 1 && data[0]! >= 1 && data[0]! <= 16) return opcode === OP_1 + (data[0]! - 1);
  if (size === 1 && data[0] === 0x81) return opcode === OP_1NEGATE;
  if (size <= 75) return opcode === size;
  if (size <= 255) return opcode === OP_PUSHDATA1;
  if (size <= 65535) return opcode === OP_PUSHDATA2;
  return true;
}
