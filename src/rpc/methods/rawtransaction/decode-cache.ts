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
 * plain strings for the request reader (json/known-strings.ts), and a request repeating a kept
 * hex hands the method the entry's own copy, which `get` then knows without comparing it again.
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

interface Entry {
  readonly bucket: string;
  readonly scope: string;
  /** The hex, in memory of the entry's own. */
  readonly hex: Buffer;
  readonly result: Buffer;
}

/** The hex's length and a 64-bit mix of sampled bytes: equal hex gives equal keys. */
function bucketKey(hex: Uint8Array): string {
  const n = hex.length;
  const step = Math.max(1, Math.floor(n / SAMPLES));
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < n; i += step) {
    a = Math.imul(a ^ hex[i]!, 0x01000193);
    b = Math.imul(b ^ hex[i]!, 0x85ebca6b) ^ (b >>> 13);
  }
  // The last bytes too, which a step may pass over.
  for (let i = Math.max(0, n - 64); i < n; i++) a = Math.imul(a ^ hex[i]!, 0x01000193);
  return `${n}:${(a >>> 0).toString(36)}:${(b >>> 0).toString(36)}`;
}

export class DecodeCache implements PlainStringSource {
  private readonly buckets = new Map<string, Entry[]>();
  /** Every entry, oldest first. */
  private readonly order = new Set<Entry>();
  /**
   * The bucket of each hex copy the entries keep: a request repeating a kept hex hands the
   * method that copy (plainStringEqualTo), whose fingerprint is then not computed again.
   */
  private readonly keptBuckets = new Map<Uint8Array, string>();
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  get bytes(): number {
    return this.size;
  }

  clear(): void {
    this.buckets.clear();
    this.order.clear();
    this.keptBuckets.clear();
    this.size = 0;
  }

  /** The result kept for `hex` in `scope`; an entry's own hex (plainStringEqualTo) is known without a comparison. */
  get(scope: string, hex: Uint8Array): Buffer | undefined {
    const bucket = this.buckets.get(this.keptBuckets.get(hex) ?? bucketKey(hex));
    if (bucket === undefined) return undefined;
    for (const e of bucket) if (e.scope === scope && (e.hex === hex || e.hex.equals(hex))) return e.result;
    return undefined;
  }

  plainStringEqualTo(bytes: Uint8Array): Buffer | undefined {
    // An empty cache answers without the fingerprint's pass over the string.
    if (this.size === 0) return undefined;
    const bucket = this.buckets.get(bucketKey(bytes));
    if (bucket === undefined) return undefined;
    for (const e of bucket) if (e.hex.equals(bytes)) return e.hex;
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
    this.order.add(entry);
    this.size += cost;
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
    if (!bucket.some((e) => e.hex === entry.hex)) this.keptBuckets.delete(entry.hex);
    if (bucket.length === 0) this.buckets.delete(entry.bucket);
  }
}
