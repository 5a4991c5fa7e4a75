/**
 * `ScriptToAsmStr` (zcashd v6.12.2 src/core_write.cpp): the `asm` member of scriptSig and
 * scriptPubKey objects.
 */
import { Buffer } from 'node:buffer';
import { OP_PUSHDATA4, isUnspendable, newScriptOp, opcodeName, readScriptOp } from './opcodes.js';

/** `mapSigHashTypes`: the only hash-type bytes that get a suffix. */
const SIGHASH_SUFFIX: readonly (string | undefined)[] = (() => {
  const table = new Array<string | undefined>(256).fill(undefined);
  table[0x01] = '[ALL]';
  table[0x02] = '[NONE]';
  table[0x03] = '[SINGLE]';
  table[0x81] = '[ALL|ANYONECANPAY]';
  table[0x82] = '[NONE|ANYONECANPAY]';
  table[0x83] = '[SINGLE|ANYONECANPAY]';
  return table;
})();

/** Where `writeScriptAsm` puts the pieces of a script's asm text. */
export interface ScriptAsmSink {
  /** Opcode names, numbers, separators, hash-type suffixes, `[error]`: ASCII needing no JSON escaping. */
  text(s: string): void;
  /** `HexStr(script[from, to))`: a push's data. */
  hex(script: Uint8Array, from: number, to: number): void;
}

/**
 * Renders a script the way zcashd's RPC does: pushes of ≤ 4 bytes as signed little-endian
 * numbers, longer pushes as hex, other opcodes by name, `[error]` at a truncated push.
 *
 * `attemptSighashDecode` is true only for non-coinbase scriptSigs: then a push that is a
 * strict-DER signature with a defined hash type loses its last byte and gets a suffix such as
 * `[ALL]`. Scripts that are unspendable (leading OP_RETURN, or over 10,000 bytes) are never
 * decoded, so OP_RETURN data that happens to look like a signature stays verbatim.
 *
 * The text goes to `sink` piece by piece, so a JSON writer can put it straight into its output
 * (hex pushes copied from the script's hex already written) instead of building a string.
 * `script[start, end)` is the script: a caller holding a transaction's bytes passes the range,
 * with no view made per script.
 */
export function writeScriptAsm(
  script: Uint8Array,
  attemptSighashDecode: boolean,
  sink: ScriptAsmSink,
  start = 0,
  end = script.length,
): void {
  const decodeSighash = attemptSighashDecode && !isUnspendable(script, start, end);
  const op = newScriptOp();
  let pos = start;
  while (pos < end) {
    if (pos !== start) sink.text(' ');
    pos = readScriptOp(script, pos, op, end);
    if (pos < 0) {
      sink.text('[error]');
      return;
    }
    if (op.opcode > OP_PUSHDATA4) {
      sink.text(opcodeName(op.opcode));
      continue;
    }
    const size = op.dataEnd - op.dataStart;
    if (size <= 4) {
      sink.text(scriptNumberText(script, op.dataStart, size));
    } else if (decodeSighash) {
      const suffix = sighashSuffix(script, op.dataStart, op.dataEnd);
      if (suffix === undefined) sink.hex(script, op.dataStart, op.dataEnd);
      else {
        sink.hex(script, op.dataStart, op.dataEnd - 1);
        sink.text(suffix);
      }
    } else {
      sink.hex(script, op.dataStart, op.dataEnd);
    }
  }
}

/** The asm text of a script as a string (`writeScriptAsm` into a string). */
export function scriptToAsm(script: Uint8Array, attemptSighashDecode: boolean): string {
  let out = '';
  writeScriptAsm(script, attemptSighashDecode, {
    text: (s) => {
      out += s;
    },
    hex: (bytes, from, to) => {
      out += Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString('hex');
    },
  });
  return out;
}

/**
 * `CScriptNum(vch, fRequireMinimal=false).getint()` for 0..4 bytes: little-endian magnitude
 * with the sign in the top bit of the last byte. No minimality check, so `80` is 0 ("negative
 * zero") and non-minimal encodings still print their value. |value| < 2^31, so `getint`'s
 * clamping never applies.
 */
function scriptNumberText(script: Uint8Array, start: number, size: number): string {
  if (size === 0) return '0';
  let value = 0;
  for (let i = 0; i < size; i++) value += script[start + i]! * 2 ** (8 * i);
  const last = script[start + size - 1]!;
  if (last & 0x80) value = -(value - 0x80 * 2 ** (8 * (size - 1)));
  // `-0` would print as "0" anyway, but keep the number clean.
  return value === 0 ? '0' : String(value);
}

/**
 * The suffix for a push that passes `CheckSignatureEncoding(vch, SCRIPT_VERIFY_STRICTENC)`
 * and whose last byte is in `mapSigHashTypes`; undefined otherwise. Pushes reaching here are
 * ≥ 5 bytes, so the empty-signature shortcut of CheckSignatureEncoding does not arise.
 */
function sighashSuffix(script: Uint8Array, start: number, end: number): string | undefined {
  if (!isStrictDerSignature(script, start, end - start)) return undefined;
  const hashType = script[end - 1]!;
  // IsDefinedHashtypeSignature: the type without ANYONECANPAY must be ALL, NONE or SINGLE.
  const base = hashType & ~0x80 & 0xff;
  if (base < 1 || base > 3) return undefined;
  return SIGHASH_SUFFIX[hashType];
}

/**
 * `IsValidSignatureEncoding` (BIP66): DER `30 len 02 lenR R 02 lenS S` plus one hash-type
 * byte, minimal positive integers, no low-S requirement. `s` is the offset of the signature.
 */
function isStrictDerSignature(script: Uint8Array, s: number, size: number): boolean {
  if (size < 9 || size > 73) return false;
  if (script[s] !== 0x30) return false;
  if (script[s + 1] !== size - 3) return false;
  const lenR = script[s + 3]!;
  if (5 + lenR >= size) return false;
  const lenS = script[s + 5 + lenR]!;
  if (lenR + lenS + 7 !== size) return false;
  if (script[s + 2] !== 0x02) return false;
  if (lenR === 0) return false;
  if (script[s + 4]! & 0x80) return false;
  if (lenR > 1 && script[s + 4] === 0x00 && !(script[s + 5]! & 0x80)) return false;
  if (script[s + lenR + 4] !== 0x02) return false;
  if (lenS === 0) return false;
  if (script[s + lenR + 6]! & 0x80) return false;
  if (lenS > 1 && script[s + lenR + 6] === 0x00 && !(script[s + lenR + 7]! & 0x80)) return false;
  return true;
}
