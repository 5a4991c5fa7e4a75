/**
 * A cache of finished read-method replies, valid for one chain tip.
 *
 * A block's bytes never change, and everything chain-dependent in getblock / getblockheader
 * (confirmations, nextblockhash, which block a height names) is a function of the active
 * chain, which the tip hash determines. So a reply computed while the tip was T is exactly
 * right for every later request made while the tip is still T. When the tip moves, the whole
 * cache is dropped. A scope is the tip's hash with the store's count of tip changes
 * (`tipScope`): a reply whose reads straddled T → T' → T has equal hashes before and after, and
 * may hold T''s next block, but not equal counts. Serving a hot block from the LevelDB store costs several index/file reads
 * per request, which otherwise dominate the HTTP cost.
 *
 * Entries are evicted least-recently-used once the total text size passes the budget.
 */
import type { ChainStoreReader, ChainTip } from '../../../store/types.js';
import { markRetained } from '../../retained-replies.js';

/** The tip and the scope a reply computed now belongs to: the tip's hash and the store's count of tip changes. */
export interface TipScope {
  tip: ChainTip | null;
  scope: string;
  /** The store's count of tip changes the scope was read with. */
  changes: number;
}

/**
 * The current tip's scope. The count is read in the same synchronous step as the tip (a store's
 * `tip()` reads it before its first await), so no tip change can fall between the two.
 */
export async function tipScope(store: ChainStoreReader): Promise<TipScope> {
  const changes = store.tipChanges?.() ?? 0;
  const tip = await store.tip();
  return { tip, scope: tip ? `${Buffer.from(tip.hash).toString('hex')}:${changes}` : `:${changes}`, changes };
}

/** A cached reply: JSON text, or its UTF-8 bytes (large getblock results). */
type Reply = string | Buffer;

export class TipScopedReplyCache {
  private tip = '';
  /** The count of tip changes in `tip`, when it was set from a TipScope. */
  private tipChanges: number | null = null;
  private readonly entries = new Map<string, Reply>();
  /** The key inserted last (the most recently used), which a hit need not move. */
  private newest: string | undefined;
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
    this.newest = undefined;
  }

  /** The reply cached for `key` while the tip was `tip`, or undefined. */
  get<T extends Reply = string>(tip: string, key: string): T | undefined {
    if (tip !== this.tip) return undefined;
    const value = this.entries.get(key);
    if (value !== undefined && key !== this.newest) {
      // Re-insert to mark it most recently used (Map keeps insertion order).
      this.entries.delete(key);
      this.entries.set(key, value);
      this.newest = key;
    }
    return value as T | undefined;
  }

  /**
   * The reply cached for `key`, read without waiting for the tip: `changes` is the store's count
   * of tip changes now (ChainStoreReader.tipChanges). Every tip change counts, so while the count
   * is the one the cache's scope was read with, the tip is still that scope's. A store that does
   * not count must be asked with `get`: its scope's count is always 0.
   */
  getAtChanges<T extends Reply = string>(changes: number, key: string): T | undefined {
    return changes === this.tipChanges ? this.get<T>(this.tip, key) : undefined;
  }

  /**
   * Remembers `value` for `key`, provided the scope was `tipBefore` when computing started and
   * is still the same now (`tipAfter`), so a reply that straddled a tip change is never kept.
   */
  set(tipBefore: string | TipScope, tipAfter: string | TipScope, key: string, value: Reply): void {
    const before = typeof tipBefore === 'string' ? tipBefore : tipBefore.scope;
    const after = typeof tipAfter === 'string' ? tipAfter : tipAfter.scope;
    if (before !== after || value.length > this.maxChars / 4) return;
    if (after !== this.tip) {
      this.entries.clear();
      this.chars = 0;
      this.tip = after;
      this.tipChanges = typeof tipAfter === 'string' ? null : tipAfter.changes;
    }
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.chars -= old.length;
    }
    const kept = typeof value === 'string' ? value : keptReply(value);
    this.entries.set(key, kept);
    this.newest = key;
    this.chars += kept.length;
    for (const [k, v] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(k);
      this.chars -= v.length;
    }
  }
}

/**
 * `reply` in memory of its own. A small Buffer is usually a slice of Node's shared 8 KiB pool,
 * and a rendered reply may be a view of a larger scratch buffer: kept in the cache, such a slice
 * would hold its whole backing store alive while the budget counts only the slice.
 */
export function ownMemory(reply: Buffer): Buffer {
  if (reply.byteOffset === 0 && reply.buffer.byteLength === reply.length) return reply;
  const own = Buffer.allocUnsafeSlow(reply.length);
  reply.copy(own);
  return own;
}

/**
 * `reply` as a cache keeps it: in memory of its own (ownMemory), marked as retained, so that a
 * reply sending it is not counted as garbage once written (retained-replies.ts).
 */
export function keptReply(reply: Buffer): Buffer {
  const kept = ownMemory(reply);
  markRetained(kept);
  return kept;
}
