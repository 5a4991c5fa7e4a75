/**
 * Unified addresses (ZIP 316): Bech32m (without the 90-character limit) of the F4Jumble of
 * the receivers, each `typecode ‖ length ‖ data` in CompactSize, followed by the HRP padded
 * to 16 bytes. Decoding follows zcash_address 0.10.1 (`unified::Address::decode`, the parser
 * zcashd v6.12.2 calls): every rule it enforces on the encoding is enforced here, in its
 * order; the receivers' contents are checked by the caller (crypto/receivers.ts).
 */
import { F4JUMBLE_MAX_LENGTH, F4JUMBLE_MIN_LENGTH, f4jumble, f4jumbleInverse } from '../../crypto/f4jumble.js';
import { convertBits, decodeBech32Strict, encodeBech32 } from './bech32.js';

export const TYPECODE_P2PKH = 0x00;
export const TYPECODE_P2SH = 0x01;
export const TYPECODE_SAPLING = 0x02;
export const TYPECODE_ORCHARD = 0x03;
/** The largest typecode zcash_address accepts (its `Typecode::try_from`). */
const MAX_TYPECODE = 0x02000000;
/** zcash_encoding's MAX_COMPACT_SIZE. */
const MAX_COMPACT_SIZE = 0x02000000;
const PADDING_LENGTH = 16;

export interface UnifiedReceiver {
  typecode: number;
  data: Uint8Array;
}

/** The length a known typecode's data must have (unknown typecodes take any length). */
function knownLength(typecode: number): number | undefined {
  if (typecode === TYPECODE_P2PKH || typecode === TYPECODE_P2SH) return 20;
  if (typecode === TYPECODE_SAPLING || typecode === TYPECODE_ORCHARD) return 43;
  return undefined;
}

/** `CompactSize::read` of zcash_encoding: canonical encodings only, at most MAX_COMPACT_SIZE. */
function readCompactSize(bytes: Uint8Array, at: number): { value: number; next: number } | null {
  if (at >= bytes.length) return null;
  const flag = bytes[at]!;
  if (flag < 253) return { value: flag, next: at + 1 };
  const width = flag === 253 ? 2 : flag === 254 ? 4 : 8;
  if (at + 1 + width > bytes.length) return null;
  let value = 0;
  for (let i = width - 1; i >= 0; i--) value = value * 256 + bytes[at + 1 + i]!;
  const minimum = flag === 253 ? 253 : flag === 254 ? 0x10000 : 0x100000000;
  if (value < minimum || value > MAX_COMPACT_SIZE) return null;
  return { value, next: at + 1 + width };
}

function writeCompactSize(out: number[], n: number): void {
  if (n < 253) out.push(n);
  else if (n <= 0xffff) out.push(253, n & 0xff, n >> 8);
  else out.push(254, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24);
}

/**
 * The receivers of a unified address whose HRP is `hrp`, in encoding order; null when
 * zcash_address would refuse it. `encoded` is the string with surrounding whitespace removed.
 */
export function decodeUnifiedAddress(encoded: string, hrp: string): UnifiedReceiver[] | null {
  // zcash_address's Bech32mZip316 checksum has ZIP 316's ℓ^MAX_M as its code length.
  const decoded = decodeBech32Strict(encoded, 'bech32m', F4JUMBLE_MAX_LENGTH);
  if (decoded === null || decoded.hrp !== hrp) return null;
  const jumbled = decoded.bytes;
  if (jumbled.length < F4JUMBLE_MIN_LENGTH || jumbled.length > F4JUMBLE_MAX_LENGTH) return null;
  const raw = f4jumbleInverse(jumbled);
  const end = raw.length - PADDING_LENGTH;
  for (let i = 0; i < PADDING_LENGTH; i++) {
    if (raw[end + i] !== (i < hrp.length ? hrp.charCodeAt(i) : 0)) return null;
  }
  const receivers: UnifiedReceiver[] = [];
  let at = 0;
  while (at < end) {
    const typecode = readCompactSize(raw, at);
    if (typecode === null) return null;
    const length = readCompactSize(raw.subarray(0, end), typecode.next);
    if (length === null || length.next + length.value > end) return null;
    if (typecode.value > MAX_TYPECODE) return null;
    const expected = knownLength(typecode.value);
    if (expected !== undefined && expected !== length.value) return null;
    receivers.push({ typecode: typecode.value, data: raw.slice(length.next, length.next + length.value) });
    at = length.next + length.value;
  }
  // Ascending typecodes, each once, not both transparent kinds, not only transparent ones.
  let previous = -1;
  let onlyTransparent = true;
  for (const r of receivers) {
    if (r.typecode <= previous) return null;
    if (r.typecode === TYPECODE_P2SH && previous === TYPECODE_P2PKH) return null;
    previous = r.typecode;
    if (r.typecode !== TYPECODE_P2PKH && r.typecode !== TYPECODE_P2SH) onlyTransparent = false;
  }
  return onlyTransparent ? null : receivers;
}

/** The encoding of receivers (given in ascending typecode order) under `hrp`. */
export function encodeUnifiedAddress(receivers: readonly UnifiedReceiver[], hrp: string): string {
  const raw: number[] = [];
  for (const r of receivers) {
    writeCompactSize(raw, r.typecode);
    writeCompactSize(raw, r.data.length);
    for (const b of r.data) raw.push(b);
  }
  for (let i = 0; i < PADDING_LENGTH; i++) raw.push(i < hrp.length ? hrp.charCodeAt(i) : 0);
  const data = convertBits(f4jumble(Uint8Array.from(raw)), 8, 5, true)!;
  return encodeBech32(hrp, data, 'bech32m');
}
