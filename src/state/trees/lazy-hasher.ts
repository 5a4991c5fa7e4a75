/**
 * A hasher built on first use. The WebAssembly Sapling and Orchard hashers build their tables
 * when created (≈ 0.1 s and ≈ 0.9 s); a chain whose blocks never touch a tree (pre-Sapling
 * history, regtest without upgrades) should not pay that at start-up.
 */
import type { MerkleHasher } from './hasher.js';

export function lazyHasher(depth: number, build: () => MerkleHasher): MerkleHasher {
  let real: MerkleHasher | undefined;
  const get = (): MerkleHasher => {
    if (!real) {
      real = build();
      if (real.depth !== depth) throw new Error(`lazy hasher: built a depth-${real.depth} hasher, expected ${depth}`);
    }
    return real;
  };
  // The tree only checks the length up front; reading an element builds the hasher.
  const emptyRoots = new Proxy(new Array<Uint8Array>(depth + 1), {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && /^\d+$/.test(prop)) return get().emptyRoots[Number(prop)];
      return Reflect.get(target, prop, receiver);
    },
  });
  return {
    depth,
    emptyRoots,
    combine: (height, left, right) => get().combine(height, left, right),
    combineMany: (height, pairs, count) => get().combineMany(height, pairs, count),
  };
}
