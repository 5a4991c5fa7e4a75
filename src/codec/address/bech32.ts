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
 * The alphabet and the checksum are @scure/base's. What it does not decide the same way as
 * zcashd is decided here, before or after it: which characters may appear at all (it lets a
 * lower-case string's HRP hold any character), the HRP's length and case as returned, which of
 * the two variants a string is (it checks one it is told), and the last 5-bit group (rust-bech32
 * drops an incomplete last byte whatever its bits; @scure/base refuses non-zero padding).
 */
import { bech32, bech32m } from '@scure/base';

/** zcashd's `bech32::Decode` refuses longer strings. */
const ZCASHD_MAX_LENGTH = 1023;
/** rust-bech32's `Hrp::parse` bound. */
const MAX_HRP_LENGTH = 83;

export type Bech32Variant = 'bech32' | 'bech32m';

const CODECS = { bech32, bech32m } as const;

/** Encodes 5-bit `data` under a lower-case `hrp` with the variant's checksum. */
export function encodeBech32(hrp: string, data: ArrayLike<number>, variant: Bech32Variant): string {
  return CODECS[variant].encode(hrp, Uint8Array.from(data), false);
}

export interface Bech32Decoded {
  variant: Bech32Variant;
  hrp: string;
  /** 5-bit values, checksum removed. */
  data: Uint8Array;
}

/** True when every character is printable ASCII (33–126), as both decoders require of the HRP. */
function isPrintableAscii(str: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = str.charCodeAt(i);
    if (c < 33 || c > 126) return false;
  }
  return true;
}

/** The checksum-verified 5-bit groups of `str` under `variant`, or null. */
function checkedWords(str: string, variant: Bech32Variant, limit: number): { prefix: string; words: number[] } | null {
  return CODECS[variant].decodeUnsafe(str, limit) ?? null;
}

/** zcashd's `bech32::Decode`: null where it returns an empty result. */
export function decodeBech32Zcashd(str: string): Bech32Decoded | null {
  // zcashd refuses a non-printable character anywhere, the HRP included.
  if (str.length > ZCASHD_MAX_LENGTH || !isPrintableAscii(str, 0, str.length)) return null;
  for (const variant of ['bech32', 'bech32m'] as const) {
    const decoded = checkedWords(str, variant, ZCASHD_MAX_LENGTH);
    if (decoded !== null) return { variant, hrp: decoded.prefix, data: Uint8Array.from(decoded.words) };
  }
  return null;
}

/**
 * rust-bech32 0.11's `CheckedHrpstring::new::<Ck>(s)` for the variant `variant` and a checksum
 * whose code length is `codeLength` (it bounds the whole string, HRP and separator included),
 * then its `byte_iter()`. Null when the string is not that variant's valid encoding.
 */
export function decodeBech32Strict(str: string, variant: Bech32Variant, codeLength: number): { hrp: string; bytes: Uint8Array } | null {
  // A string with non-ASCII characters fails below anyway, so UTF-16 units count its bytes here.
  if (str.length > codeLength) return null;
  const pos = str.lastIndexOf('1');
  if (pos <= 0 || pos > MAX_HRP_LENGTH || !isPrintableAscii(str, 0, pos)) return null;
  const decoded = checkedWords(str, variant, codeLength);
  if (decoded === null) return null;
  return { hrp: str.slice(0, pos), bytes: wholeBytes(decoded.words) };
}

/** 5-bit groups as bytes, the incomplete last byte dropped whatever its bits (rust-bech32's `byte_iter`). */
function wholeBytes(words: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(Math.floor((words.length * 5) / 8));
  let acc = 0;
  let bits = 0;
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    acc = ((acc << 5) | words[i]!) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (acc >> bits) & 0xff;
    }
  }
  return bytes;
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
