/**
 * A cache of finished read-method replies, valid for one chain tip.
 *
 * A block's bytes never change, and everything chain-dependent in getblock / getblockheader
 * (confirmations, nextblockhash, which block a height names) is a function of the active
 * chain, which the tip hash determines. So a reply computed while the tip was T is exactly
 * right for every later request made while the tip is still T. When the tip moves, the whole
 * cache is dropped. Serving a hot block from the LevelDB store costs several index/file reads
 * per request, which otherwise dominate the HTTP cost.
 *
 * Entries are evicted least-recently-used once the total text size passes the budget.
 */
/** A cached reply: JSON text, or its UTF-8 bytes (large getblock results). */
type Reply = string | Buffer;

export class TipScopedReplyCache {
  private tip = '';
  private readonly entries = new Map<string, Reply>();
  private chars = 0;

  /** @param maxChars total reply size kept, characters or bytes (replies above a quarter of it are not cached). */
  constructor(private readonly maxChars: number) {}

  /** Characters and bytes of the replies kept. */
  get size(): number {
    return this.chars;
  }

  /** Drops every reply (the server going idle); the tip is kept, so later replies are cached again. */
  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }

  /** The reply cached for `key` while the tip was `tip`, or undefined. */
  get<T extends Reply = string>(tip: string, key: string): T | undefined {
    if (tip !== this.tip) return undefined;
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Re-insert to mark it most recently used (Map keeps insertion order).
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value as T | undefined;
  }

  /**
   * Remembers `value` for `key`, provided the tip was `tipBefore` when computing started and
   * is still the same now (`tipAfter`), so a reply that straddled a tip change is never kept.
   */
  set(tipBefore: string, tipAfter: string, key: string, value: Reply): void {
    if (tipBefore !== tipAfter || value.length > this.maxChars / 4) return;
    if (tipAfter !== this.tip) {
      this.entries.clear();
      this.chars = 0;
      this.tip = tipAfter;
    }
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.chars -= old.length;
    }
    this.entries.set(key, value);
    this.chars += value.length;
    for (const [k, v] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(k);
      this.chars -= v.length;
    }
  }
}
