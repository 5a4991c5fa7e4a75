/**
 * Transparent (t-) addresses: Base58Check of a 2-byte network prefix and a 20-byte hash
 * (zcashd v6.12.2 `KeyIO::EncodeDestination` / `DecodeDestination`, src/key_io.cpp).
 */
import bs58check from 'bs58check';
import type { NetworkParams } from '../../chain/network.js';
import { base58CheckEncode } from './base58.js';
import type { DestinationKind } from './solver.js';

const HASH_SIZE = 20;
const PREFIX_SIZE = 2;

/**
 * Encoded addresses, memoized: blocks and their neighbours repeat addresses (pool payouts,
 * change, founders' and funding-stream outputs). One direct-mapped table per prefix: a hash's
 * first two bytes (a hash160 is uniform) choose its slot and the slot keeps the 20 bytes to
 * confirm a hit, so a lookup builds nothing and a miss stores the bytes and the text. A Map
 * keyed by the hash as latin1 text cost ≈ 450 ns per miss (the key string, hashing, growth,
 * wholesale clearing) plus the garbage collection of its surviving keys: on a block of fresh
 * addresses, as much as encoding them. Hashes that share a slot evict each other; crafted ones
 * can only make every lookup a miss, i.e. an encode.
 */
/** One slot per value of a hash's first two bytes. */
const SLOTS = 0x10000;

class AddressTable {
  /** Each slot's hash; its text is '' while the slot is empty (no address is ''). */
  private readonly hashes = new Uint8Array(SLOTS * HASH_SIZE);
  private readonly texts = new Array<string>(SLOTS).fill('');

  constructor(private readonly prefix: Uint8Array) {}

  encode(hash20: Uint8Array): string {
    const slot = hash20[0]! | (hash20[1]! << 8);
    const at = slot * HASH_SIZE;
    const hashes = this.hashes;
    const known = this.texts[slot]!;
    if (known !== '') {
      let same = true;
      for (let i = 0; i < HASH_SIZE; i++) {
        if (hashes[at + i] !== hash20[i]) {
          same = false;
          break;
        }
      }
      if (same) return known;
    }
    encodePayload.set(this.prefix, 0);
    encodePayload.set(hash20, PREFIX_SIZE);
    const text = base58CheckEncode(encodePayload);
    hashes.set(hash20, at);
    this.texts[slot] = text;
    return text;
  }
}

/** The prefix and hash being encoded (encoding copies it out before returning). */
const encodePayload = new Uint8Array(PREFIX_SIZE + HASH_SIZE);
/** One table per prefix array (i.e. per network and kind), made when first used. */
const tables = new WeakMap<Uint8Array, AddressTable>();

function prefixFor(kind: DestinationKind, network: NetworkParams): Uint8Array {
  return kind === 'p2pkh' ? network.p2pkhPrefix : network.p2shPrefix;
}

/** Base58Check(prefix ‖ hash20) with the network's P2PKH or P2SH prefix. */
export function encodeTransparentAddress(kind: DestinationKind, hash20: Uint8Array, network: NetworkParams): string {
  if (hash20.length !== HASH_SIZE) {
    throw new RangeError(`transparent address hash must be ${HASH_SIZE} bytes, got ${hash20.length}`);
  }
  const prefix = prefixFor(kind, network);
  let table = tables.get(prefix);
  if (table === undefined) tables.set(prefix, (table = new AddressTable(prefix)));
  return table.encode(hash20);
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
