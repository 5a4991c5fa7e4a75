/**
 * The contract between an incremental note-commitment tree and its hash function
 * (zcashd src/zcash/IncrementalMerkleTree.*: SHA256Compress for Sprout, Pedersen for Sapling,
 * Sinsemilla for Orchard). All values are raw 32-byte strings in internal (wire) order.
 */
export interface MerkleHasher {
  /** Tree depth: 29 for Sprout, 32 for Sapling and Orchard (4 for zcashd's testing trees). */
  readonly depth: number;
  /**
   * E_0 … E_depth: the root of an empty subtree of each height. E_0 is the uncommitted leaf and
   * E_{d+1} = combine(d, E_d, E_d).
   */
  readonly emptyRoots: readonly Uint8Array[];
  /**
   * The parent of two children whose height is `height` (0 = two leaves). For Sapling and
   * Orchard this is MerkleCRH(layer = 31 − height, left, right).
   */
  combine(height: number, left: Uint8Array, right: Uint8Array): Uint8Array;
  /**
   * `count` independent combines at one height: `pairs` holds count × (left ‖ right), 64 bytes
   * each; the result holds count × 32 bytes in the same order. A fast hasher shares work across
   * a whole tree level here (one batched inversion, one call into WebAssembly).
   */
  combineMany(height: number, pairs: Uint8Array, count: number): Uint8Array;
}

/**
 * E_0 … E_depth for a tree hash: E_0 is the uncommitted leaf, E_{h+1} = combine(h, E_h, E_h).
 * Shared by every `MerkleHasher` so that each one derives its table the same way.
 */
export function computeEmptyRoots(
  depth: number,
  uncommitted: Uint8Array,
  combine: (height: number, left: Uint8Array, right: Uint8Array) => Uint8Array,
): Uint8Array[] {
  const roots: Uint8Array[] = [uncommitted];
  for (let h = 0; h < depth; h++) roots.push(combine(h, roots[h]!, roots[h]!));
  return roots;
}
