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
