export type { MerkleHasher } from './hasher.js';
export { computeEmptyRoots } from '../../crypto/merkle-hasher.js';
export {
  IncrementalMerkleTree,
  TRACKED_SUBTREE_HEIGHT,
  TreeFullError,
  type CompletedSubtree,
  type IncrementalMerkleTreeOptions,
} from './incremental.js';
export {
  SPROUT_HASHER,
  SPROUT_TESTING_HASHER,
  SPROUT_TREE_DEPTH,
  TESTING_TREE_DEPTH,
  createSproutHasher,
  sha256Compress,
} from './sprout.js';
export {
  POOL_TREE_STATE_LAYOUT,
  TreeStateError,
  decodeTreeState,
  encodeTreeState,
  encodeTreeStateHex,
  type FrontierParts,
  type ParentsLayout,
  type TreeStateErrorReason,
} from './tree-state.js';
