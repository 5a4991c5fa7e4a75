/**
 * The hash function of each note-commitment tree, fastest available first: the registered pools'
 * (Sapling and Orchard in WebAssembly, pure TypeScript when ZECRPC_PURE_TREES=1 or the module
 * cannot load), built on first use, and Sprout's SHA-256 compression natively.
 */
import type { PoolHashers } from './chain-state.js';
import { SHIELDED_POOL_ENTRIES, type ShieldedPoolEntry } from './pools.js';
import type { MerkleHasher } from './trees/hasher.js';
import { lazyHasher } from './trees/lazy-hasher.js';
import { SPROUT_HASHER } from './trees/sprout.js';

const built = new Map<ShieldedPoolEntry, MerkleHasher>();
let hashers: PoolHashers | undefined;

export function defaultPoolHashers(): PoolHashers {
  // Rebuilt only when the registry changed (a test registering a pool).
  if (hashers && built.size === SHIELDED_POOL_ENTRIES.length && SHIELDED_POOL_ENTRIES.every((p) => built.has(p))) return hashers;
  const out: Record<string, MerkleHasher> = { sprout: SPROUT_HASHER };
  for (const entry of SHIELDED_POOL_ENTRIES) {
    let hasher = built.get(entry);
    if (!hasher) built.set(entry, (hasher = lazyHasher(entry.treeDepth, entry.hasher)));
    out[entry.id] = hasher;
  }
  for (const entry of [...built.keys()]) if (!SHIELDED_POOL_ENTRIES.includes(entry)) built.delete(entry);
  hashers = out as PoolHashers;
  return hashers;
}
