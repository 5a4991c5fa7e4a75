/**
 * Lowercase hex written into byte output from 256- and 65,536-entry tables: the JSON writer's
 * encoder for hex too short for WebAssembly (./hex-wasm.ts) and for reversed hashes.
 */

const HEX_DIGITS = '0123456789abcdef';
/** The two hex characters of a byte, as the little-endian uint16 that stores them in order. */
const HEX_OF_BYTE = new Uint16Array(256);
for (let b = 0; b < 256; b++) HEX_OF_BYTE[b] = HEX_DIGITS.charCodeAt(b >> 4) | (HEX_DIGITS.charCodeAt(b & 15) << 8);
/**
 * The four hex characters of two bytes (index: first byte | second byte << 8), as the
 * little-endian uint32 that stores them in order. 256 KB, but one table lookup and one store
 * per two bytes, faster than Node's native hex encoder plus the copy of its string into the
 * buffer.
 */
const HEX_OF_PAIR = new Uint32Array(65536);
for (let v = 0; v < 65536; v++) HEX_OF_PAIR[v] = HEX_OF_BYTE[v & 255]! | (HEX_OF_BYTE[v >> 8]! << 16);

/** The hex of `bytes[start, end)` at `p` in `view` (room ensured by the caller); returns the position after it. */
export function writeHexAt(view: DataView, p: number, bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  for (; i + 1 < end; i += 2) {
    view.setUint32(p, HEX_OF_PAIR[bytes[i]! | (bytes[i + 1]! << 8)]!, true);
    p += 4;
  }
  if (i < end) {
    view.setUint16(p, HEX_OF_BYTE[bytes[i]!]!, true);
    p += 2;
  }
  return p;
}

/**
 * `uint256::GetHex` of `bytes[start, start + n)` (the bytes reversed) at `p` in `view` (room
 * ensured by the caller); returns the position after it. A byte at a time from the 512-byte
 * table: these are short (hashes), written between long runs of other output that push the
 * 256 KB pair table out of the cache.
 */
export function writeHexReversedAt(view: DataView, p: number, bytes: Uint8Array, start: number, n: number): number {
  for (let j = start + n - 1; j >= start; j--) {
    view.setUint16(p, HEX_OF_BYTE[bytes[j]!]!, true);
    p += 2;
  }
  return p;
}
