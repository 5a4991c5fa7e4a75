/**
 * Bech32 (BIP 173) and Bech32m (BIP 350), in the two flavours zcashd v6.12.2 decodes with:
 *
 * - `decodeBech32Zcashd`: zcashd's own C++ `bech32::Decode` (src/bech32.cpp), which reads
 *   Sapling addresses: at most 1023 characters, all-upper or all-lower case, the HRP returned
 *   lower-cased.
 * - `decodeBech32Strict`: the rust-bech32 0.11 `CheckedHrpstring` that zcash_address uses for
 *   unified and TEX addresses: a whole-string case check, an HRP of 1–83 printable characters
 *   kept as written, a whole string of at most the checksum's code length, and 5-bit groups
 *   turned into bytes with the incomplete last byte dropped.
 *
 * Written here rather than taken from a general-purpose codec such as @scure/base because which
 * strings are accepted is the product: the two flavours differ from each other and from such a
 * codec in case handling, length bounds and the last 5-bit group (rust-bech32 drops an incomplete
 * last byte whatever its bits; @scure/base refuses non-zero padding), and a valid-address answer
 * must be zcashd's.
 */
import { Buffer } from 'node:buffer';

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const CHARSET_CODES = Uint8Array.from(CHARSET, (c) => c.charCodeAt(0));
const CHARSET_REV: Int8Array = (() => {
  const rev = new Int8Array(128).fill(-1);
  for (let i = 0; i < CHARSET.length; i++) {
    rev[CHARSET.charCodeAt(i)] = i;
    rev[CHARSET.toUpperCase().charCodeAt(i)] = i;
  }
  return rev;
})();

const CHECKSUM_LENGTH = 6;
const BECH32_CONST = 1;
const BECH32M_CONST = 0x2bc830a3;

export type Bech32Variant = 'bech32' | 'bech32m';

function polymodStep(chk: number, value: number): number {
  const top = chk >>> 25;
  let c = ((chk & 0x1ffffff) << 5) ^ value;
  if (top & 1) c ^= 0x3b6a57b2;
  if (top & 2) c ^= 0x26508e6d;
  if (top & 4) c ^= 0x1ea119fa;
  if (top & 8) c ^= 0x3d4233dd;
  if (top & 16) c ^= 0x2a1462b3;
  return c >>> 0;
}

/** The checksum residue of `hrp` (as given) and 5-bit `values` (data and checksum). */
function polymod(hrp: string, values: ArrayLike<number>, count = values.length): number {
  let chk = 1;
  for (let i = 0; i < hrp.length; i++) chk = polymodStep(chk, hrp.charCodeAt(i) >> 5);
  chk = polymodStep(chk, 0);
  for (let i = 0; i < hrp.length; i++) chk = polymodStep(chk, hrp.charCodeAt(i) & 31);
  for (let i = 0; i < count; i++) chk = polymodStep(chk, values[i]!);
  return chk;
}

function variantOf(residue: number): Bech32Variant | null {
  return residue === BECH32_CONST ? 'bech32' : residue === BECH32M_CONST ? 'bech32m' : null;
}

/** Encodes 5-bit `data` under a lower-case `hrp` with the variant's checksum. */
export function encodeBech32(hrp: string, data: ArrayLike<number>, variant: Bech32Variant): string {
  let chk = polymod(hrp, data);
  for (let i = 0; i < CHECKSUM_LENGTH; i++) chk = polymodStep(chk, 0);
  const residue = chk ^ (variant === 'bech32' ? BECH32_CONST : BECH32M_CONST);
  const text = Buffer.alloc(hrp.length + 1 + data.length + CHECKSUM_LENGTH);
  text.write(hrp + '1', 'latin1');
  let at = hrp.length + 1;
  for (let i = 0; i < data.length; i++) text[at++] = CHARSET_CODES[data[i]!]!;
  for (let i = 0; i < CHECKSUM_LENGTH; i++) text[at++] = CHARSET_CODES[(residue >>> (5 * (5 - i))) & 31]!;
  return text.toString('latin1');
}

export interface Bech32Decoded {
  variant: Bech32Variant;
  hrp: string;
  /** 5-bit values, checksum removed. */
  data: Uint8Array;
}

/** zcashd's `bech32::Decode`: null where it returns an empty result. */
export function decodeBech32Zcashd(str: string): Bech32Decoded | null {
  let lower = false;
  let upper = false;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) lower = true;
    else if (c >= 0x41 && c <= 0x5a) upper = true;
    else if (c < 33 || c > 126) return null;
  }
  if (lower && upper) return null;
  const pos = str.lastIndexOf('1');
  if (str.length > 1023 || pos <= 0 || pos + 7 > str.length) return null;
  const values = readValues(str, pos + 1);
  if (values === null) return null;
  const hrp = str.slice(0, pos).toLowerCase();
  const variant = variantOf(polymod(hrp, values));
  if (variant === null) return null;
  return { variant, hrp, data: values.subarray(0, values.length - CHECKSUM_LENGTH) };
}

/**
 * rust-bech32 0.11's `CheckedHrpstring::new::<Ck>(s)` for the variant `variant` and a checksum
 * whose code length is `codeLength` (it bounds the whole string, HRP and separator included),
 * then its `byte_iter()`. Null when the string is not that variant's valid encoding.
 */
export function decodeBech32Strict(str: string, variant: Bech32Variant, codeLength: number): { hrp: string; bytes: Uint8Array } | null {
  // A string with non-ASCII characters fails below anyway, so UTF-16 units count its bytes here.
  if (str.length > codeLength) return null;
  let upper = false;
  let lower = false;
  let pos = -1;
  for (let i = str.length - 1; i >= 0; i--) {
    const c = str.charCodeAt(i);
    if (c === 0x31 && pos < 0) pos = i;
    else if (pos < 0 && (c >= 128 || CHARSET_REV[c]! < 0)) return null;
    if (c >= 0x41 && c <= 0x5a) upper = true;
    else if (c >= 0x61 && c <= 0x7a) lower = true;
  }
  if ((upper && lower) || pos < 0) return null;
  const hrp = str.slice(0, pos);
  if (hrp.length === 0 || hrp.length > 83) return null;
  for (let i = 0; i < hrp.length; i++) {
    const c = hrp.charCodeAt(i);
    if (c < 33 || c > 126) return null;
  }
  if (str.length - pos - 1 < CHECKSUM_LENGTH) return null;
  // One pass over the data part: the checksum residue, and the bytes of the 5-bit groups
  // before the checksum (a maximal unified address has over four million characters).
  let chk = polymod(hrp.toLowerCase(), []);
  const groups = str.length - pos - 1 - CHECKSUM_LENGTH;
  const bytes = new Uint8Array(Math.floor((groups * 5) / 8));
  let acc = 0;
  let bits = 0;
  let at = 0;
  for (let i = pos + 1, k = 0; i < str.length; i++, k++) {
    const v = CHARSET_REV[str.charCodeAt(i)]!;
    chk = polymodStep(chk, v);
    if (k < groups) {
      acc = ((acc << 5) | v) & 0xfff;
      bits += 5;
      if (bits >= 8) {
        bits -= 8;
        bytes[at++] = (acc >> bits) & 0xff;
      }
    }
  }
  if (variantOf(chk) !== variant) return null;
  return { hrp, bytes };
}

function readValues(str: string, from: number): Uint8Array | null {
  const values = new Uint8Array(str.length - from);
  for (let i = from; i < str.length; i++) {
    const c = str.charCodeAt(i);
    const v = c < 128 ? CHARSET_REV[c]! : -1;
    if (v < 0) return null;
    values[i - from] = v;
  }
  return values;
}

/**
 * zcashd's `ConvertBits<from, to, pad>`: regroups bits; without padding, null when leftover
 * bits form a whole group or are not all zero.
 */
export function convertBits(input: ArrayLike<number>, fromBits: number, toBits: number, pad: boolean): Uint8Array | null {
  const out = new Uint8Array(Math.ceil((input.length * fromBits) / toBits));
  const maxv = (1 << toBits) - 1;
  let acc = 0;
  let bits = 0;
  let at = 0;
  for (let i = 0; i < input.length; i++) {
    acc = ((acc << fromBits) | input[i]!) & ((1 << (fromBits + toBits - 1)) - 1);
    bits += fromBits;
    while (bits >= toBits) {
      bits -= toBits;
      out[at++] = (acc >> bits) & maxv;
    }
  }
  if (pad) {
    if (bits > 0) out[at++] = (acc << (toBits - bits)) & maxv;
  } else if (bits >= fromBits || ((acc << (toBits - bits)) & maxv) !== 0) {
    return null;
  }
  return out.subarray(0, at);
}
