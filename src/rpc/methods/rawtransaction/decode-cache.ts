/**
 * decoderawtransaction's results by scope (network and profile) and hex, the hex as its bytes:
 * a long hex parameter arrives as a range of the request's body (json/lazy-strings.ts), and a
 * JavaScript string of it made only to look it up would cost more than the lookup saves.
 *
 * Entries are found through a fingerprint of the hex (its length and bytes sampled across it)
 * and then compared whole, natively; entries whose fingerprints collide (or that hold the same
 * hex for another scope) share a bucket of at most BUCKET_ENTRIES (the oldest leaves first), so
 * crafted collisions cost a bounded number of comparisons. Bounded by total size, oldest entries
 * dropped first; only successful decodes are kept, as their UTF-8 bytes, so a hit needs no
 * re-encoding.
 *
 * Only hex that decoded is kept, so every entry's hex is hex digits: the cache is a source of
 * plain strings for the request reader (json/known-strings.ts). The first time a request repeats
 * a kept hex, the cache makes that hex a string and keeps it (counted in its size) for as long
 * as an entry keeps the hex; the reader puts that very string in the parameter's slot, and the
 * method's lookup (`heldCopyOf`) knows it by identity, without reading it.
 *
 * A hex (or string) of a length no kept hex has is no hit, and one of a length only one kept hex
 * has is compared with that one alone: only lengths that several kept hex share need the
 * fingerprint, whose bytes are sampled far apart (a cache miss each, in a server whose replies
 * evict them from the processor's caches).
 */
import { Buffer } from 'node:buffer';
import type { PlainStringSource } from '../../../json/known-strings.js';
import { keptReply } from '../blockchain/reply-cache.js';

/** Entries sharing one fingerprint at most. */
const BUCKET_ENTRIES = 8;

/**
 * Bytes sampled for the fingerprint, evenly spaced over the hex: a fingerprint only picks a
 * bucket, whose entries are compared whole, and it is computed at every request.
 */
const SAMPLES = 256;

/** Lengths of repeated hex plainStringFrom tries at most. */
const MAX_TRIED_LENGTHS = 8;

const QUOTE = 0x22;

interface Entry {
  readonly bucket: string;
  readonly scope: string;
  /** The hex, in memory of the entry's own. */
  readonly hex: Buffer;
  readonly result: Buffer;
}

/**
 * The hex's length and a 64-bit mix of sampled bytes: equal hex gives equal keys, as bytes or as
 * a string (hex is ASCII, one byte a character).
 */
function bucketKey(hex: Uint8Array | string): string {
  const n = hex.length;
  const at = typeof hex === 'string' ? (i: number) => hex.charCodeAt(i) : (i: number) => hex[i]!;
  const step = Math.max(1, Math.floor(n / SAMPLES));
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < n; i += step) {
    a = Math.imul(a ^ at(i), 0x01000193);
    b = Math.imul(b ^ at(i), 0x85ebca6b) ^ (b >>> 13);
  }
  // The last bytes too, which a step may pass over.
  for (let i = Math.max(0, n - 64); i < n; i++) a = Math.imul(a ^ at(i), 0x01000193);
  return `${n}:${(a >>> 0).toString(36)}:${(b >>> 0).toString(36)}`;
}

export class DecodeCache implements PlainStringSource {
  private readonly buckets = new Map<string, Entry[]>();
  /** Every entry, oldest first. */
  private readonly order = new Set<Entry>();
  /** The bucket of each hex copy the entries keep (shared by the entries of every scope). */
  private readonly keptBuckets = new Map<Uint8Array, string>();
  /** The hex copies the entries keep, by length. */
  private readonly keptByLength = new Map<number, Set<Buffer>>();
  /** The kept copies a request has repeated, as strings (counted in `size`). */
  private readonly texts = new Map<Uint8Array, string>();
  /** How many of those strings have each length. */
  private readonly textLengths = new Map<number, number>();
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  get bytes(): number {
    return this.size;
  }

  clear(): void {
    this.buckets.clear();
    this.order.clear();
    this.keptBuckets.clear();
    this.keptByLength.clear();
    this.texts.clear();
    this.textLengths.clear();
    this.size = 0;
  }

  /** The result kept for `hex` in `scope`; a kept copy itself (heldCopyOf) is known without a comparison. */
  get(scope: string, hex: Uint8Array): Buffer | undefined {
    let kept: Uint8Array | undefined = hex;
    let key = this.keptBuckets.get(hex);
    if (key === undefined) {
      kept = this.keptEqualTo(hex);
      if (kept === undefined) return undefined;
      key = this.keptBuckets.get(kept)!;
    }
    for (const e of this.buckets.get(key)!) if (e.scope === scope && e.hex === kept) return e.result;
    return undefined;
  }

  plainStringEqualTo(bytes: Uint8Array): string | undefined {
    const kept = this.keptEqualTo(bytes);
    if (kept === undefined) return undefined;
    let text = this.texts.get(kept);
    if (text === undefined) {
      text = kept.toString('latin1');
      this.texts.set(kept, text);
      this.textLengths.set(kept.length, (this.textLengths.get(kept.length) ?? 0) + 1);
      this.size += kept.length;
      // Room for the string may take the oldest entries, even this one: the string is still the
      // hex's, and the method's lookup then misses.
      this.evictOldest();
    }
    return text;
  }

  plainStringFrom(bytes: Uint8Array, start: number, minLength: number): string | undefined {
    // Only hex a request has repeated is tried (its length is then known), and only a few
    // lengths: past them a caller's search for the closing quote costs less than the tries.
    if (this.textLengths.size > MAX_TRIED_LENGTHS) return undefined;
    for (const length of this.textLengths.keys()) {
      const end = start + length;
      if (length < minLength || end >= bytes.length || bytes[end] !== QUOTE) continue;
      // A kept hex holds no quote, so an equal run ends at the quote after it.
      const text = this.plainStringEqualTo(bytes.subarray(start, end));
      if (text !== undefined) return text;
    }
    return undefined;
  }

  /**
   * The kept copy of `hex` when `hex` is a string this cache answered plainStringEqualTo with
   * (or one equal to it): the string is then not encoded to be looked up. Undefined otherwise.
   */
  heldCopyOf(hex: string): Buffer | undefined {
    // A length no string has is no held string: the hex, found by its bytes in get(), then pays
    // the fingerprint once, not here too.
    if (!this.textLengths.has(hex.length)) return undefined;
    const sameLength = this.keptByLength.get(hex.length)!;
    // The string the reader was given is this very one, so `===` is a pointer comparison; an
    // equal string that is another object is compared by content, the same hex either way.
    if (sameLength.size === 1) for (const kept of sameLength) return this.texts.get(kept) === hex ? kept : undefined;
    const bucket = this.buckets.get(bucketKey(hex));
    if (bucket === undefined) return undefined;
    for (const e of bucket) if (this.texts.get(e.hex) === hex) return e.hex;
    return undefined;
  }

  /** The hex copy an entry keeps equal to `hex`, or undefined. */
  private keptEqualTo(hex: Uint8Array): Buffer | undefined {
    const sameLength = this.keptByLength.get(hex.length);
    if (sameLength === undefined) return undefined;
    if (sameLength.size === 1) for (const kept of sameLength) return kept.equals(hex) ? kept : undefined;
    const bucket = this.buckets.get(bucketKey(hex));
    if (bucket === undefined) return undefined;
    for (const e of bucket) if (e.hex.equals(hex)) return e.hex;
    return undefined;
  }

  /** Keeps `result` for `hex` (both copied into memory of the entry's own when they are views). */
  set(scope: string, hex: Uint8Array, result: Buffer): void {
    const cost = hex.length + result.length;
    if (cost > this.maxBytes / 8) return;
    const key = bucketKey(hex);
    const bucket = this.buckets.get(key);
    const same = bucket?.find((e) => e.scope === scope && e.hex.equals(hex));
    if (same !== undefined) this.remove(same);
    else if (bucket !== undefined && bucket.length >= BUCKET_ENTRIES) this.remove(bucket[0]!);
    // The same hex in another scope shares the copy already kept.
    const kept = bucket?.find((e) => e.hex.equals(hex))?.hex ?? Buffer.from(hex);
    const entry: Entry = { bucket: key, scope, hex: kept, result: keptReply(result) };
    // The removal above may have emptied the bucket and dropped it.
    const entries = this.buckets.get(key);
    if (entries === undefined) this.buckets.set(key, [entry]);
    else entries.push(entry);
    this.keptBuckets.set(kept, key);
    const sameLength = this.keptByLength.get(kept.length);
    if (sameLength === undefined) this.keptByLength.set(kept.length, new Set([kept]));
    else sameLength.add(kept);
    this.order.add(entry);
    this.size += cost;
    this.evictOldest();
  }

  /** Drops the oldest entries while more than maxBytes are kept. */
  private evictOldest(): void {
    for (const oldest of this.order) {
      if (this.size <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  private remove(entry: Entry): void {
    this.order.delete(entry);
    this.size -= entry.hex.length + entry.result.length;
    const bucket = this.buckets.get(entry.bucket)!;
    bucket.splice(bucket.indexOf(entry), 1);
    // Entries sharing a hex copy (other scopes) share its bucket.
    if (!bucket.some((e) => e.hex === entry.hex)) this.forget(entry.hex);
    if (bucket.length === 0) this.buckets.delete(entry.bucket);
  }

  /** Forgets a hex copy no entry keeps any longer, with its string. */
  private forget(kept: Buffer): void {
    this.keptBuckets.delete(kept);
    const sameLength = this.keptByLength.get(kept.length)!;
    sameLength.delete(kept);
    if (sameLength.size === 0) this.keptByLength.delete(kept.length);
    if (!this.texts.delete(kept)) return;
    this.size -= kept.length;
    const left = this.textLengths.get(kept.length)! - 1;
    if (left === 0) this.textLengths.delete(kept.length);
    else this.textLengths.set(kept.length, left);
  }
}
