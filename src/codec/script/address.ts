/**
 * Transparent (t-) addresses: Base58Check of a 2-byte network prefix and a 20-byte hash
 * (zcashd v6.12.2 `KeyIO::EncodeDestination` / `DecodeDestination`, src/key_io.cpp).
 */
import { Buffer } from 'node:buffer';
import bs58check from 'bs58check';
import type { NetworkParams } from '../../chain/network.js';
import {
  ADDRESS_PAYLOAD_BYTES,
  ADDRESS_TEXT_AT,
  ADDRESS_TEXT_RECORD,
  addressChecksums,
  addressTexts,
} from '../../crypto/address-checksums.js';
import { base58EncodeInto } from './base58.js';
import type { DestinationKind } from './solver.js';

const HASH_SIZE = 20;
const PREFIX_SIZE = 2;

/**
 * Encoded addresses, memoized: blocks and their neighbours repeat addresses (pool payouts,
 * change, founders' and funding-stream outputs). One direct-mapped table per prefix: a hash's
 * first two bytes (a hash160 is uniform) choose its slot, and the slot, one 64-byte cache line,
 * keeps the 20 bytes, to confirm a hit, and the address as ASCII bytes, which byte output
 * copies without a string. A lookup builds nothing and a miss encodes into the slot, at once
 * (slotOf) or with others (request, flush). A Map keyed by the hash as latin1 text cost
 * ≈ 450 ns per miss (the key string, hashing, growth, wholesale clearing) plus the garbage
 * collection of its surviving keys and texts: on a block of fresh addresses, as much as
 * encoding them. Hashes that share a slot evict each other; crafted ones can only make every
 * lookup a miss, i.e. an encode.
 */
export class AddressTable {
  /** One slot per value of a hash's first two bytes. */
  private static readonly SLOTS = 0x10000;
  /** A slot: the hash, the text's length (0 while empty, QUEUED while requested), the text (at most 36 characters: Base58Check of 22 bytes). */
  private static readonly SLOT_BYTES = 64;
  private static readonly LENGTH_AT = HASH_SIZE;
  private static readonly TEXT_AT = HASH_SIZE + 1;
  /** Misses requested and not yet encoded: at most this many, then they are encoded. */
  private static readonly BATCH = 1024;

  /** Every slot (SLOT_BYTES each); a slot's text is `slots[textStart(slot), + textLength(slot))`. */
  readonly slots = Buffer.alloc(AddressTable.SLOTS * AddressTable.SLOT_BYTES);
  private readonly slotsView = new DataView(this.slots.buffer, this.slots.byteOffset, this.slots.length);
  private readonly payload = new Uint8Array(PREFIX_SIZE + HASH_SIZE);
  /** Requested misses: their payloads (22 bytes apart), slots and, once computed, checksums. */
  private readonly pendingPayloads = new Uint8Array(AddressTable.BATCH * ADDRESS_PAYLOAD_BYTES);
  private readonly pendingSlots = new Int32Array(AddressTable.BATCH);
  private readonly checksums = new Uint8Array(4 * AddressTable.BATCH);
  private pending = 0;

  constructor(private readonly prefix: Uint8Array) {
    this.payload.set(prefix, 0);
  }

  textStart(slot: number): number {
    return slot * AddressTable.SLOT_BYTES + AddressTable.TEXT_AT;
  }

  textLength(slot: number): number {
    return this.slots[slot * AddressTable.SLOT_BYTES + AddressTable.LENGTH_AT]!;
  }

  private setTextLength(slot: number, length: number): void {
    this.slots[slot * AddressTable.SLOT_BYTES + AddressTable.LENGTH_AT] = length;
  }

  /** The text of a slot slotOf returned, as a string. */
  textOf(slot: number): string {
    const start = this.textStart(slot);
    return this.slots.toString('latin1', start, start + this.textLength(slot));
  }

  /**
   * The slot holding the address of the hash at `bytes[at, at + 20)` (an output script's push,
   * read in place), encoded into it first when it is not there; valid until a later lookup
   * evicts it.
   */
  slotOf(bytes: Uint8Array, at: number): number {
    const slot = slotFor(bytes, at);
    const length = this.textLength(slot);
    if (length !== 0 && length !== QUEUED && this.sameHash(slot, bytes, at)) return slot;
    this.takeSlot(slot, bytes, at);
    for (let i = 0; i < HASH_SIZE; i++) this.payload[PREFIX_SIZE + i] = bytes[at + i]!;
    // One checksum in WebAssembly costs a fraction of node:crypto's two calls. This serves every
    // address encoded outside a batch (encodeTransparentAddress, non-standard outputs, spent-index
    // inputs) and a transaction's outputs whose hashes share a slot, which evict each other
    // between request() and their writing.
    addressChecksums(this.payload, 1, this.checksums);
    this.setTextLength(
      slot,
      base58EncodeInto(this.payload, 0, ADDRESS_PAYLOAD_BYTES, this.checksums, 0, 4, this.slots, this.textStart(slot)),
    );
    return slot;
  }

  /**
   * Asks for the address of the hash at `bytes[at, at + 20)` to be in the table by the next
   * flush(): a miss is queued, so that many are encoded together (their checksums four at a
   * time, crypto/address-checksums.ts). Until then slotOf treats it as a miss (and so it stays,
   * correctly if more slowly, should the flush never come).
   */
  request(bytes: Uint8Array, at: number): void {
    const slot = slotFor(bytes, at);
    // Known, or already queued (a transaction often pays one address twice).
    if (this.textLength(slot) !== 0 && this.sameHash(slot, bytes, at)) return;
    this.takeSlot(slot, bytes, at);
    this.setTextLength(slot, QUEUED);
    const p = this.pending * ADDRESS_PAYLOAD_BYTES;
    this.pendingPayloads.set(this.prefix, p);
    for (let i = 0; i < HASH_SIZE; i++) this.pendingPayloads[p + PREFIX_SIZE + i] = bytes[at + i]!;
    this.pendingSlots[this.pending++] = slot;
    if (this.pending === AddressTable.BATCH) this.flush();
  }

  /** Encodes the queued misses into their slots (one a later lookup took over is skipped: slotOf encodes it then). */
  flush(): void {
    const count = this.pending;
    if (count === 0) return;
    this.pending = 0;
    const payloads = this.pendingPayloads;
    // Checksums and Base58 together in WebAssembly: Base58 in JavaScript cost more than the checksums.
    const texts = addressTexts(payloads, count);
    if (texts !== null) {
      // Each text as nine words, its slot's whole text area (the bytes past the text are not read).
      const records = new DataView(texts.buffer, texts.byteOffset, texts.length);
      const slots = this.slotsView;
      for (let k = 0; k < count; k++) {
        const slot = this.pendingSlots[k]!;
        if (!this.sameHash(slot, payloads, k * ADDRESS_PAYLOAD_BYTES + PREFIX_SIZE)) continue;
        const r = k * ADDRESS_TEXT_RECORD;
        const from = r + ADDRESS_TEXT_AT;
        const at = this.textStart(slot);
        for (let i = 0; i < MAX_TEXT; i += 4) slots.setUint32(at + i, records.getUint32(from + i, true), true);
        this.setTextLength(slot, texts[r]!);
      }
      return;
    }
    addressChecksums(payloads, count, this.checksums);
    for (let k = 0; k < count; k++) {
      const slot = this.pendingSlots[k]!;
      const p = k * ADDRESS_PAYLOAD_BYTES;
      if (!this.sameHash(slot, payloads, p + PREFIX_SIZE)) continue;
      const length = base58EncodeInto(payloads, p, ADDRESS_PAYLOAD_BYTES, this.checksums, 4 * k, 4, this.slots, this.textStart(slot));
      this.setTextLength(slot, length);
    }
  }

  /** Puts the hash at `bytes[at, at + 20)` into the slot. */
  private takeSlot(slot: number, bytes: Uint8Array, at: number): void {
    const slots = this.slots;
    const h = slot * AddressTable.SLOT_BYTES;
    for (let i = 0; i < HASH_SIZE; i++) slots[h + i] = bytes[at + i]!;
  }

  private sameHash(slot: number, bytes: Uint8Array, at: number): boolean {
    const slots = this.slots;
    const h = slot * AddressTable.SLOT_BYTES;
    let i = 0;
    while (i < HASH_SIZE && slots[h + i] === bytes[at + i]) i++;
    return i === HASH_SIZE;
  }
}

/** A hash's slot: its first two bytes. */
function slotFor(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8);
}

/** The longest address text: Base58Check of 22 bytes. */
const MAX_TEXT = 36;

/** A slot's text length while its address is queued (a real one is at most 36). */
const QUEUED = 0xff;

/** One table per prefix (regtest shares testnet's), made when first used. */
const tables = new Map<number, AddressTable>();

function prefixFor(kind: DestinationKind, network: NetworkParams): Uint8Array {
  return kind === 'p2pkh' ? network.p2pkhPrefix : network.p2shPrefix;
}

/** The address table of the network's P2PKH or P2SH prefix. */
export function addressTable(kind: DestinationKind, network: NetworkParams): AddressTable {
  const prefix = prefixFor(kind, network);
  const key = (prefix[0]! << 8) | prefix[1]!;
  let table = tables.get(key);
  if (table === undefined) tables.set(key, (table = new AddressTable(prefix)));
  return table;
}

/** Base58Check(prefix ‖ hash20) with the network's P2PKH or P2SH prefix. */
export function encodeTransparentAddress(kind: DestinationKind, hash20: Uint8Array, network: NetworkParams): string {
  if (hash20.length !== HASH_SIZE) {
    throw new RangeError(`transparent address hash must be ${HASH_SIZE} bytes, got ${hash20.length}`);
  }
  const table = addressTable(kind, network);
  return table.textOf(table.slotOf(hash20, 0));
}

/** C `isspace` in the "C" locale: what zcashd's DecodeBase58 skips around the string. */
function isCSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/**
 * zcashd's `DecodeBase58Check` of a string (read as a C string, surrounding C whitespace
 * skipped): the payload without its checksum, or null. `maxChars` bounds the text first, so
 * the big-number decode never runs on input longer than any payload the caller accepts.
 */
export function decodeBase58CheckText(text: string, maxChars: number): Uint8Array | null {
  if (typeof text !== 'string') return null;
  const nul = text.indexOf('\0');
  let end = nul < 0 ? text.length : nul;
  let start = 0;
  while (start < end && isCSpace(text.charCodeAt(start))) start++;
  while (end > start && isCSpace(text.charCodeAt(end - 1))) end--;
  if (end - start > maxChars) return null;
  try {
    return bs58check.decodeUnsafe(text.slice(start, end)) ?? null;
  } catch {
    return null;
  }
}

/**
 * Parses a t-address for `network`; null when it is not valid Base58Check, has the wrong
 * length, or carries another network's (or an unknown) prefix. Like zcashd, surrounding
 * whitespace is ignored and the string ends at the first NUL (it is read as a C string).
 */
export function decodeTransparentAddress(addr: string, network: NetworkParams): { kind: DestinationKind; hash: Uint8Array } | null {
  // A 22-byte payload plus checksum is at most 36 characters; longer input cannot be an
  // address, and rejecting it early keeps the big-number decode from ever running on junk.
  const payload = decodeBase58CheckText(addr, 64);
  if (!payload || payload.length !== PREFIX_SIZE + HASH_SIZE) return null;
  for (const kind of ['p2pkh', 'p2sh'] as const) {
    const prefix = prefixFor(kind, network);
    if (payload[0] === prefix[0] && payload[1] === prefix[1]) {
      return { kind, hash: Uint8Array.from(payload.subarray(PREFIX_SIZE)) };
    }
  }
  return null;
}
