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
import { decodeTransactionHexBytesKeepingText, type Transaction } from '../../../codec/tx/transaction.js';
import type { TxAcceptance } from '../../../codec/tx/acceptance.js';

/**
 * Transactions up to this size are decoded into the reused buffer, which grows to at most this;
 * larger ones (rare) into memory of their own.
 */
export const SCRATCH_DECODE_MAX_BYTES = 256 * 1024;

let scratch: ArrayBuffer | null = null;

/**
 * decodeTransactionHexBytesKeepingText (codec/tx/transaction.ts) of `hex`, with the same
 * answers and errors, its bytes decoded into the reused buffer when they fit in
 * SCRATCH_DECODE_MAX_BYTES.
 */
export function decodeTransactionHexInScratch(hex: Uint8Array, acceptance: TxAcceptance): { tx: Transaction; hexText: Uint8Array | null } {
  const size = hex.length >>> 1;
  if (size <= SCRATCH_DECODE_MAX_BYTES && (scratch === null || scratch.byteLength < size))
    scratch = new ArrayBuffer(Math.min(SCRATCH_DECODE_MAX_BYTES, Math.max(size, 2 * (scratch?.byteLength ?? 0))));
  return decodeTransactionHexBytesKeepingText(hex, acceptance, scratch ?? undefined);
}
