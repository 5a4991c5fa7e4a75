/**
 * The hash function of each note-commitment tree, fastest available first: Sapling and Orchard
 * in WebAssembly (pure TypeScript when ZECRPC_PURE_TREES=1 or the module cannot load), Sprout's
 * SHA-256 compression natively.
 */
import { defaultOrchardHasher } from '../crypto/orchard/index.js';
import { defaultSaplingHasher } from '../crypto/sapling/index.js';
import type { PoolHashers } from './chain-state.js';
import { lazyHasher } from './trees/lazy-hasher.js';
import { SPROUT_HASHER } from './trees/sprout.js';

let hashers: PoolHashers | undefined;

export function defaultPoolHashers(): PoolHashers {
  hashers ??= {
    sprout: SPROUT_HASHER,
    sapling: lazyHasher(32, () => defaultSaplingHasher().hasher),
    orchard: lazyHasher(32, () => defaultOrchardHasher().hasher),
  };
  return hashers;
}
