/**
 * The Sapling and Orchard note-commitment trees as library classes: leaves and roots are raw
 * 32-byte little-endian values (as in transactions), tree states are zcashd's `finalState` hex
 * as z_gettreestate prints it. Hashing uses the WebAssembly hashers (pure TypeScript when
 * ZECRPC_PURE_TREES=1 or WebAssembly is unavailable).
 */
import { defaultOrchardHasher } from '../../crypto/orchard/index.js';
import { defaultSaplingHasher } from '../../crypto/sapling/index.js';
import type { MerkleHasher } from './hasher.js';
import { IncrementalMerkleTree } from './incremental.js';
import { POOL_TREE_STATE_LAYOUT, type ParentsLayout } from './tree-state.js';

abstract class NoteCommitmentTree {
  protected constructor(
    protected readonly tree: IncrementalMerkleTree,
    private readonly layout: ParentsLayout,
  ) {}

  /** Appends one leaf (a Sapling `cmu` or an Orchard `cmx`). */
  append(leaf: Uint8Array): void {
    this.tree.append(leaf);
  }

  /** Appends many leaves in order; cheaper than one by one (the hashing is batched per level). */
  appendMany(leaves: readonly Uint8Array[]): void {
    this.tree.appendMany(leaves);
  }

  /** The root (raw bytes; zcashd prints Sapling roots reversed, Orchard roots as they are). */
  root(): Uint8Array {
    return this.tree.root();
  }

  get size(): number {
    return this.tree.size;
  }

  /** zcashd's serialized frontier (`finalState` of z_gettreestate), hex. */
  toTreeState(): string {
    return this.tree.toTreeState(this.layout);
  }
}

/** The Sapling note-commitment tree (depth 32, Pedersen MerkleCRH), as z_gettreestate reports it. */
export class SaplingTree extends NoteCommitmentTree {
  constructor(tree?: IncrementalMerkleTree) {
    super(tree ?? new IncrementalMerkleTree(saplingHasher()), POOL_TREE_STATE_LAYOUT.sapling);
  }

  static fromTreeState(hex: string): SaplingTree {
    return new SaplingTree(IncrementalMerkleTree.fromTreeState(saplingHasher(), hex));
  }
}

/** The Orchard note-commitment tree (depth 32, Sinsemilla MerkleCRH), as z_gettreestate reports it. */
export class OrchardTree extends NoteCommitmentTree {
  constructor(tree?: IncrementalMerkleTree) {
    super(tree ?? new IncrementalMerkleTree(orchardHasher()), POOL_TREE_STATE_LAYOUT.orchard);
  }

  static fromTreeState(hex: string): OrchardTree {
    return new OrchardTree(IncrementalMerkleTree.fromTreeState(orchardHasher(), hex));
  }
}

const saplingHasher = (): MerkleHasher => defaultSaplingHasher().hasher;
const orchardHasher = (): MerkleHasher => defaultOrchardHasher().hasher;

function merkleHash(hasher: MerkleHasher, layer: number, left: Uint8Array, right: Uint8Array): Uint8Array {
  if (!Number.isInteger(layer) || layer < 0 || layer >= hasher.depth)
    throw new RangeError(`layer must be an integer from 0 to ${hasher.depth - 1}, got ${layer}`);
  if (left.length !== 32 || right.length !== 32) throw new RangeError('MerkleCRH takes two 32-byte values');
  return hasher.combine(hasher.depth - 1 - layer, left, right);
}

/** MerkleCRH^Sapling(layer, left, right) as the protocol specification defines it: two leaves combine at layer 31. */
export function saplingMerkleHash(layer: number, left: Uint8Array, right: Uint8Array): Uint8Array {
  return merkleHash(saplingHasher(), layer, left, right);
}

/** MerkleCRH^Orchard(layer, left, right): two leaves combine at layer 31. */
export function orchardMerkleHash(layer: number, left: Uint8Array, right: Uint8Array): Uint8Array {
  return merkleHash(orchardHasher(), layer, left, right);
}
