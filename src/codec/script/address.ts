/**
 * Transparent (t-) addresses: Base58Check of a 2-byte network prefix and a 20-byte hash
 * (zcashd v6.12.2 `KeyIO::EncodeDestination` / `DecodeDestination`, src/key_io.cpp).
 */
import { Buffer } from 'node:buffer';
import bs58check from 'bs58check';
import type { NetworkParams } from '../../chain/network.js';
import type { DestinationKind } from './solver.js';

const HASH_SIZE = 20;
const PREFIX_SIZE = 2;

/**
 * Encoded addresses by prefix+hash. Blocks repeat the same addresses (pool payouts, change,
 * founders' and funding-stream outputs), and Base58 is the most expensive part of rendering a
 * vout, so results are memoized. Bounded: cleared wholesale when full, which keeps memory flat
 * without LRU bookkeeping on the hot path.
 */
const CACHE_LIMIT = 50_000;
/** One cache per prefix array (i.e. per network and kind), keyed by the hash as latin1 text. */
const caches = new WeakMap<Uint8Array, Map<string, string>>();

function prefixFor(kind: DestinationKind, network: NetworkParams): Uint8Array {
  return kind === 'p2pkh' ? network.p2pkhPrefix : network.p2shPrefix;
}

/** Base58Check(prefix ‖ hash20) with the network's P2PKH or P2SH prefix. */
export function encodeTransparentAddress(kind: DestinationKind, hash20: Uint8Array, network: NetworkParams): string {
  if (hash20.length !== HASH_SIZE) {
    throw new RangeError(`transparent address hash must be ${HASH_SIZE} bytes, got ${hash20.length}`);
  }
  const prefix = prefixFor(kind, network);
  let cache = caches.get(prefix);
  if (cache === undefined) caches.set(prefix, (cache = new Map()));
  // The hash as a latin1 string is a cheap exact key; no payload is built for a known address.
  const key = Buffer.from(hash20.buffer, hash20.byteOffset, HASH_SIZE).toString('latin1');
  let address = cache.get(key);
  if (address === undefined) {
    const payload = new Uint8Array(PREFIX_SIZE + HASH_SIZE);
    payload.set(prefix, 0);
    payload.set(hash20, PREFIX_SIZE);
    address = bs58check.encode(payload);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, address);
  }
  return address;
}

/** C `isspace` in the "C" locale: what zcashd's DecodeBase58 skips around the string. */
function isCSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/**
 * Parses a t-address for `network`; null when it is not valid Base58Check, has the wrong
 * length, or carries another network's (or an unknown) prefix. Like zcashd, surrounding
 * whitespace is ignored and the string ends at the first NUL (it is read as a C string).
 */
export function decodeTransparentAddress(addr: string, network: NetworkParams): { kind: DestinationKind; hash: Uint8Array } | null {
  if (typeof addr !== 'string') return null;
  const nul = addr.indexOf('\0');
  let end = nul < 0 ? addr.length : nul;
  let start = 0;
  while (start < end && isCSpace(addr.charCodeAt(start))) start++;
  while (end > start && isCSpace(addr.charCodeAt(end - 1))) end--;
  // A 22-byte payload plus checksum is at most 36 characters; longer input cannot be an
  // address, and rejecting it early keeps the big-number decode from ever running on junk.
  if (end - start > 64) return null;
  let payload: Uint8Array | undefined;
  try {
    payload = bs58check.decodeUnsafe(addr.slice(start, end));
  } catch {
    return null;
  }
  if (!payload || payload.length !== PREFIX_SIZE + HASH_SIZE) return null;
  for (const kind of ['p2pkh', 'p2sh'] as const) {
    const prefix = prefixFor(kind, network);
    if (payload[0] === prefix[0] && payload[1] === prefix[1]) {
      return { kind, hash: Uint8Array.from(payload.subarray(PREFIX_SIZE)) };
    }
  }
  return null;
}
