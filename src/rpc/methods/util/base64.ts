/**
 * zcashd's `DecodeBase64(p, &fInvalid)` (src/util/strencodings.cpp), which verifymessage reads
 * signatures with: the string as a C string, the longest run of Base64 characters, then only
 * '=' to the end; valid when the run's bits regroup into bytes with zero padding, the text up
 * to the end is a multiple of 4 long and there are at most 3 '='.
 */
import { convertBits } from '../../../codec/address/bech32.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The decoded bytes, or null where zcashd sets fInvalid. */
export function decodeBase64Zcashd(text: string): Uint8Array | null {
  const nul = text.indexOf('\0');
  const end = nul < 0 ? text.length : nul;
  const values: number[] = [];
  let p = 0;
  for (; p < end; p++) {
    const v = ALPHABET.indexOf(text[p]!);
    if (v < 0) break;
    values.push(v);
  }
  const bytes = convertBits(values, 6, 8, false);
  if (bytes === null) return null;
  const padStart = p;
  while (p < end) {
    if (text.charCodeAt(p) !== 0x3d) return null;
    p++;
  }
  // Lengths count UTF-8 bytes in zcashd; every character counted here is ASCII.
  if (p % 4 !== 0 || p - padStart >= 4) return null;
  return bytes;
}
