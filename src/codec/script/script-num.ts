/**
 * zcashd v6.12.2's `CScriptNum` (src/script/script.h): the little-endian sign-magnitude numbers
 * script arithmetic reads from and writes to the stack. Operands are at most 4 bytes (5 for
 * OP_CHECKLOCKTIMEVERIFY), so every value and every sum of two fits a JS number exactly.
 */

/** `scriptnum_error`: EvalScript catches it and fails with SCRIPT_ERR_UNKNOWN_ERROR. */
export class ScriptNumError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptNumError';
  }
}

export const DEFAULT_MAX_NUM_SIZE = 4;

/** `CScriptNum(vch, fRequireMinimal, nMaxNumSize)`: the value of a stack element. */
export function scriptNumFrom(vch: Uint8Array, requireMinimal: boolean, maxSize = DEFAULT_MAX_NUM_SIZE): number {
  const size = vch.length;
  if (size > maxSize) throw new ScriptNumError('script number overflow');
  if (requireMinimal && size > 0) {
    // The top byte may only be 0x00 or 0x80 when the byte below needs its sign bit free.
    if ((vch[size - 1]! & 0x7f) === 0 && (size <= 1 || (vch[size - 2]! & 0x80) === 0)) {
      throw new ScriptNumError('non-minimally encoded script number');
    }
  }
  if (size === 0) return 0;
  let result = 0;
  for (let i = 0; i < size; i++) result += vch[i]! * 2 ** (8 * i);
  const last = vch[size - 1]!;
  if (last & 0x80) return -(result - 0x80 * 2 ** (8 * (size - 1)));
  return result;
}

/** `CScriptNum::serialize`: the shortest encoding, an empty vector for 0. */
export function scriptNumBytes(value: number): Uint8Array {
  if (value === 0) return new Uint8Array(0);
  const negative = value < 0;
  let abs = Math.abs(value);
  const out: number[] = [];
  while (abs > 0) {
    out.push(abs % 256);
    abs = Math.floor(abs / 256);
  }
  // A set top bit would read as the sign: add a byte for it, else put the sign there.
  if (out[out.length - 1]! & 0x80) out.push(negative ? 0x80 : 0);
  else if (negative) out[out.length - 1]! |= 0x80;
  return Uint8Array.from(out);
}

const INT_MAX = 2147483647;
const INT_MIN = -2147483648;

/** `CScriptNum::getint`: the value clamped to a C int. */
export function scriptNumInt(value: number): number {
  return value > INT_MAX ? INT_MAX : value < INT_MIN ? INT_MIN : value;
}
