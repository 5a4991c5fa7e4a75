/** The `V` record's reader (its writer, encodeVersionRecord, is in index.ts). */
import { CHECKSUM_BYTES, hasValidChecksum } from '../record-checksums.js';

/**
 * The schema version and network a `V` value holds. It is read before anything says whether the
 * store's values carry checksums (version 7 on; a store of an older version written into by hand
 * may have one too), so a trailing checksum is removed when it matches.
 */
export function decodeVersionRecord(v: Buffer): { version: number; network: string } {
  const body = v.length >= 4 + CHECKSUM_BYTES && hasValidChecksum(v) ? v.subarray(0, v.length - CHECKSUM_BYTES) : v;
  if (body.length < 4) throw new Error(`corrupt schema version record (${v.length} bytes)`);
  return { version: body.readUInt32LE(0), network: body.subarray(4).toString('utf8') };
}
