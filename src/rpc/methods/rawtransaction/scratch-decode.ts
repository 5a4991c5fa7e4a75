/**
 * decoderawtransaction's hex decoded into memory reused from one request to the next, for a
 * transaction whose reply is rendered before the method returns and that nothing keeps. Decoded
 * into fresh memory, each request's transaction was a new ArrayBuffer of its own (tens of
 * kilobytes, outside V8's pooled small allocations), written cold and then read by the parse and
 * the render, and garbage a moment later; the same bytes in one warm buffer cost neither the
 * allocation nor the collector's work for it.
 *
 * The buffer is overwritten by the next request's decode, so the transaction, and every view of
 * its bytes, must be garbage once the caller's reply is built: the caller renders it at once into
 * bytes of the reply's own (render/tx.ts copies every byte it shows) and keeps nothing of it.
 */
import { decodeTransaction, type Transaction } from '../../../codec/tx/transaction.js';
import type { TxAcceptance } from '../../../codec/tx/acceptance.js';
import { LOWERCASE_HEX, NOT_HEX, wasmHexDecodeCased } from '../../../json/hex-wasm.js';

/**
 * Transactions up to this size are decoded into the reused buffer, which grows to at most this;
 * larger ones (rare) into memory of their own.
 */
export const SCRATCH_DECODE_MAX_BYTES = 256 * 1024;

let scratch: ArrayBuffer | null = null;

/**
 * decodeTransactionHexBytesKeepingText (codec/tx/transaction.ts) of `hex`, decoded into the
 * reused buffer; null, having decoded nothing that counts, when the hex is not even-length hex
 * of at most SCRATCH_DECODE_MAX_BYTES bytes or the WebAssembly decoder is unavailable: the caller
 * then decodes it the ordinary way, which also gives every error. A transaction that does not
 * parse throws the codec's DecodeError, as the ordinary way does for the same bytes.
 */
export function decodeTransactionHexInScratch(
  hex: Uint8Array,
  acceptance: TxAcceptance,
): { tx: Transaction; hexText: Uint8Array | null } | null {
  const size = hex.length >>> 1;
  if (hex.length === 0 || (hex.length & 1) !== 0 || size > SCRATCH_DECODE_MAX_BYTES) return null;
  if (scratch === null || scratch.byteLength < size)
    scratch = new ArrayBuffer(Math.min(SCRATCH_DECODE_MAX_BYTES, Math.max(size, 2 * (scratch?.byteLength ?? 0))));
  // A plain Uint8Array, as the codec's own decode hands over.
  const bytes = new Uint8Array(scratch, 0, size);
  const found = wasmHexDecodeCased(hex, bytes);
  if (found === null || found === NOT_HEX) return null;
  const tx = decodeTransaction(bytes, acceptance);
  // As the codec: the transaction is a prefix of the bytes, and lowercase hex spells it.
  const prefix = tx.bytes.buffer === bytes.buffer && tx.bytes.byteOffset === bytes.byteOffset;
  return { tx, hexText: found === LOWERCASE_HEX && prefix ? hex.subarray(0, 2 * tx.bytes.length) : null };
}
