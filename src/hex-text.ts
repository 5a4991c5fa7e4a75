/**
 * Bytes as lowercase hex text, with Node's native encoder: a leaf beside the folders, shared by
 * codec/ (zcashd's hex conventions, codec/hex.ts) and json/ (the writer's hex strings), which
 * has no domain knowledge and imports neither codec/ nor crypto/.
 */
import { Buffer } from 'node:buffer';

/**
 * Node's native hex encoder, callable on any Uint8Array view. Calling it directly avoids
 * wrapping every field in a Buffer object first, which matters when a 2 MB block renders
 * ~100k hex fields (getblock verbosity 2). Falls back to Buffer.from where it is missing.
 */
const nativeHexSlice = (Buffer.prototype as unknown as { hexSlice?: (start: number, end: number) => string }).hexSlice;

/** `toHex(b.subarray(start, end))` without making the view. */
export function toHexAt(b: Uint8Array, start: number, end: number): string {
  if (nativeHexSlice) return nativeHexSlice.call(b, start, end);
  return Buffer.from(b.buffer, b.byteOffset, b.length).toString('hex', start, end);
}

/** Scratch space for reversing 256-bit values; hex is produced before anyone else can use it. */
const scratch = Buffer.allocUnsafe(64);

/** `toHexReversed(b.subarray(start, start + n))` without making the view. */
export function toHexReversedAt(b: Uint8Array, start: number, n: number): string {
  const r = n <= scratch.length ? scratch : Buffer.allocUnsafe(n);
  for (let i = 0, j = start + n - 1; i < n; i++, j--) r[i] = b[j]!;
  return r.toString('hex', 0, n);
}
