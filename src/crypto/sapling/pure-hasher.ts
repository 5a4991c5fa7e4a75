import { computeEmptyRoots, type MerkleHasher } from '../merkle-hasher.js';
import { saplingMerkleHashByChunks } from './chunk-table-hash.js';
import { SAPLING_TREE_DEPTH } from './merkle-crh.js';

/** Uncommitted^Sapling: the field element 1 as 32 little-endian bytes. */
export function saplingUncommittedLeaf(): Uint8Array {
  const leaf = new Uint8Array(32);
  leaf[0] = 1;
  return leaf;
}

/** Splits `count` 64-byte (left ‖ right) pairs and runs `combine` on each. */
export function combineEach(
  combine: (height: number, left: Uint8Array, right: Uint8Array) => Uint8Array,
  height: number,
  pairs: Uint8Array,
  count: number,
): Uint8Array {
  if (!Number.isInteger(count) || count < 0 || pairs.length < 64 * count) {
    throw new RangeError(`combineMany needs ${count} × 64 bytes of pairs, got ${pairs.length}`);
  }
  const out = new Uint8Array(32 * count);
  for (let i = 0; i < count; i++) {
    const at = 64 * i;
    out.set(combine(height, pairs.subarray(at, at + 32), pairs.subarray(at + 32, at + 64)), 32 * i);
  }
  return out;
}

function pureCombine(height: number, left: Uint8Array, right: Uint8Array): Uint8Array {
  return saplingMerkleHashByChunks(SAPLING_TREE_DEPTH - 1 - height, left, right);
}

let emptyRootsCache: readonly Uint8Array[] | undefined;

/**
 * Sapling's MerkleCRH in plain BigInt arithmetic (one point addition per 3-bit chunk): the fallback when WebAssembly is unavailable, and the pure TypeScript reference
 * for trees. Empty roots are computed on first access.
 */
export const SAPLING_HASHER: MerkleHasher = {
  depth: SAPLING_TREE_DEPTH,
  get emptyRoots(): readonly Uint8Array[] {
    emptyRootsCache ??= Object.freeze(computeEmptyRoots(SAPLING_TREE_DEPTH, saplingUncommittedLeaf(), pureCombine));
    return emptyRootsCache;
  },
  combine: pureCombine,
  combineMany(height: number, pairs: Uint8Array, count: number): Uint8Array {
    return combineEach(pureCombine, height, pairs, count);
  },
};

/**
 * The same hash over a shallower tree (zcashd's depth-4 testing trees): combine is unchanged, since
 * MerkleCRH^Sapling encodes the children's height, not the tree's depth.
 */
export function withTreeDepth(hasher: MerkleHasher, depth: number): MerkleHasher {
  if (!Number.isInteger(depth) || depth < 1 || depth > SAPLING_TREE_DEPTH) {
    throw new RangeError(`Sapling tree depth must be 1..${SAPLING_TREE_DEPTH}, got ${depth}`);
  }
  return {
    depth,
    get emptyRoots(): readonly Uint8Array[] {
      return hasher.emptyRoots.slice(0, depth + 1);
    },
    combine: (height, left, right) => hasher.combine(height, left, right),
    combineMany: (height, pairs, count) => hasher.combineMany(height, pairs, count),
  };
}
