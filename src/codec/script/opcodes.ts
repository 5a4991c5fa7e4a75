/**
 * Script opcodes, their zcashd names, and the tokenizer (`CScript::GetOp`).
 *
 * Names follow zcashd v6.12.2 `GetOpName` (src/script/script.cpp). Two quirks matter for
 * byte-exact output: 0xB1 is printed `OP_NOP2` (zcashd never renamed it
 * OP_CHECKLOCKTIMEVERIFY), and every byte without a case prints `OP_UNKNOWN`.
 */

export const OP_0 = 0x00;
export const OP_PUSHDATA1 = 0x4c;
export const OP_PUSHDATA2 = 0x4d;
export const OP_PUSHDATA4 = 0x4e;
export const OP_1NEGATE = 0x4f;
export const OP_RESERVED = 0x50;
export const OP_1 = 0x51;
export const OP_16 = 0x60;
export const OP_RETURN = 0x6a;
export const OP_DUP = 0x76;
export const OP_EQUAL = 0x87;
export const OP_EQUALVERIFY = 0x88;
export const OP_HASH160 = 0xa9;
export const OP_CHECKSIG = 0xac;
export const OP_CHECKSIGVERIFY = 0xad;
export const OP_CHECKMULTISIG = 0xae;
export const OP_CHECKMULTISIGVERIFY = 0xaf;
export const OP_INVALIDOPCODE = 0xff;

/** `MAX_SCRIPT_SIZE`: scripts longer than this are "unspendable" (`CScript::IsUnspendable`). */
export const MAX_SCRIPT_SIZE = 10_000;

/**
 * `CScript::IsUnspendable` of `script[start, end)` (the whole script by default): an OP_RETURN
 * output or an over-long script, which the coins view never holds.
 */
export function isUnspendable(script: Uint8Array, start = 0, end = script.length): boolean {
  return (end > start && script[start] === OP_RETURN) || end - start > MAX_SCRIPT_SIZE;
}

// Names of the non-push opcodes 0x61..0xB9, in byte order. Pushes (0x00..0x4E) never reach
// GetOpName from ScriptToAsmStr, but zcashd's table names them too, so they are filled below.
const NAMED_FROM_0x61 = [
  'OP_NOP',
  'OP_VER',
  'OP_IF',
  'OP_NOTIF',
  'OP_VERIF',
  'OP_VERNOTIF',
  'OP_ELSE',
  'OP_ENDIF',
  'OP_VERIFY',
  'OP_RETURN',
  'OP_TOALTSTACK',
  'OP_FROMALTSTACK',
  'OP_2DROP',
  'OP_2DUP',
  'OP_3DUP',
  'OP_2OVER',
  'OP_2ROT',
  'OP_2SWAP',
  'OP_IFDUP',
  'OP_DEPTH',
  'OP_DROP',
  'OP_DUP',
  'OP_NIP',
  'OP_OVER',
  'OP_PICK',
  'OP_ROLL',
  'OP_ROT',
  'OP_SWAP',
  'OP_TUCK',
  'OP_CAT',
  'OP_SUBSTR',
  'OP_LEFT',
  'OP_RIGHT',
  'OP_SIZE',
  'OP_INVERT',
  'OP_AND',
  'OP_OR',
  'OP_XOR',
  'OP_EQUAL',
  'OP_EQUALVERIFY',
  'OP_RESERVED1',
  'OP_RESERVED2',
  'OP_1ADD',
  'OP_1SUB',
  'OP_2MUL',
  'OP_2DIV',
  'OP_NEGATE',
  'OP_ABS',
  'OP_NOT',
  'OP_0NOTEQUAL',
  'OP_ADD',
  'OP_SUB',
  'OP_MUL',
  'OP_DIV',
  'OP_MOD',
  'OP_LSHIFT',
  'OP_RSHIFT',
  'OP_BOOLAND',
  'OP_BOOLOR',
  'OP_NUMEQUAL',
  'OP_NUMEQUALVERIFY',
  'OP_NUMNOTEQUAL',
  'OP_LESSTHAN',
  'OP_GREATERTHAN',
  'OP_LESSTHANOREQUAL',
  'OP_GREATERTHANOREQUAL',
  'OP_MIN',
  'OP_MAX',
  'OP_WITHIN',
  'OP_RIPEMD160',
  'OP_SHA1',
  'OP_SHA256',
  'OP_HASH160',
  'OP_HASH256',
  'OP_CODESEPARATOR',
  'OP_CHECKSIG',
  'OP_CHECKSIGVERIFY',
  'OP_CHECKMULTISIG',
  'OP_CHECKMULTISIGVERIFY',
  'OP_NOP1',
  'OP_NOP2',
  'OP_NOP3',
  'OP_NOP4',
  'OP_NOP5',
  'OP_NOP6',
  'OP_NOP7',
  'OP_NOP8',
  'OP_NOP9',
  'OP_NOP10',
] as const;

/** All 256 names, built once so rendering is a single array lookup per opcode. */
const OPCODE_NAMES: readonly string[] = (() => {
  const names = new Array<string>(256).fill('OP_UNKNOWN');
  names[OP_0] = '0';
  names[OP_PUSHDATA1] = 'OP_PUSHDATA1';
  names[OP_PUSHDATA2] = 'OP_PUSHDATA2';
  names[OP_PUSHDATA4] = 'OP_PUSHDATA4';
  names[OP_1NEGATE] = '-1';
  names[OP_RESERVED] = 'OP_RESERVED';
  for (let n = 1; n <= 16; n++) names[OP_1 + n - 1] = String(n);
  NAMED_FROM_0x61.forEach((name, i) => (names[0x61 + i] = name));
  names[OP_INVALIDOPCODE] = 'OP_INVALIDOPCODE';
  return names;
})();

/** zcashd `GetOpName`. Direct pushes 0x01..0x4B have no case there and also give `OP_UNKNOWN`. */
export function opcodeName(opcode: number): string {
  return OPCODE_NAMES[opcode & 0xff]!;
}

/** OP_1..OP_16 (`IsSmallInteger`); OP_0 is deliberately excluded, as in zcashd. */
export function isSmallInteger(opcode: number): boolean {
  return opcode >= OP_1 && opcode <= OP_16;
}

/** `CScript::DecodeOP_N` for OP_1..OP_16. */
export function decodeSmallInteger(opcode: number): number {
  return opcode - (OP_1 - 1);
}

/**
 * One tokenized opcode. The tokenizer fills a caller-owned instance instead of allocating,
 * because it runs for every script of every transaction a block returns.
 */
export interface ScriptOp {
  opcode: number;
  /** Push data is script[dataStart, dataEnd); empty for non-push opcodes. */
  dataStart: number;
  dataEnd: number;
}

export function newScriptOp(): ScriptOp {
  return { opcode: OP_INVALIDOPCODE, dataStart: 0, dataEnd: 0 };
}

/**
 * `CScript::GetOp`: reads the opcode at `pos` into `op` and returns the position after it,
 * or -1 when the push length or the pushed data runs past the end (zcashd's `false`).
 * The script ends at `end` (a script inside a transaction's bytes); `pos` must be < end.
 */
export function readScriptOp(script: Uint8Array, pos: number, op: ScriptOp, end = script.length): number {
  const opcode = script[pos++]!;
  op.opcode = opcode;
  if (opcode > OP_PUSHDATA4) {
    op.dataStart = op.dataEnd = pos;
    return pos;
  }
  let size: number;
  if (opcode < OP_PUSHDATA1) {
    size = opcode;
  } else if (opcode === OP_PUSHDATA1) {
    if (end - pos < 1) return -1;
    size = script[pos]!;
    pos += 1;
  } else if (opcode === OP_PUSHDATA2) {
    if (end - pos < 2) return -1;
    size = script[pos]! | (script[pos + 1]! << 8);
    pos += 2;
  } else {
    if (end - pos < 4) return -1;
    // >>> 0 keeps lengths ≥ 2^31 positive so they fail the bounds check below.
    size = (script[pos]! | (script[pos + 1]! << 8) | (script[pos + 2]! << 16) | (script[pos + 3]! << 24)) >>> 0;
    pos += 4;
  }
  if (end - pos < size) return -1;
  op.dataStart = pos;
  op.dataEnd = pos + size;
  return pos + size;
}
