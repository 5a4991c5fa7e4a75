import type { MerkleHasher } from '../merkle-hasher.js';
import { FastSaplingHasher } from './fast-hasher.js';
import { SAPLING_HASHER } from './pure-hasher.js';

export { SAPLING_HASHER, saplingUncommittedLeaf, withTreeDepth } from './pure-hasher.js';
export { FastSaplingHasher, DEFAULT_WINDOW_CHUNKS } from './fast-hasher.js';
export { saplingMerkleHash, saplingMerkleMessage, SAPLING_TREE_DEPTH } from './merkle-crh.js';
export { saplingMerkleHashByChunks } from './chunk-table-hash.js';
export { pedersenHashToPoint } from './pedersen-hash.js';
export { pedersenBase } from './generators.js';

/** Which implementation defaultSaplingHasher() chose, and why. */
export interface SaplingHasherChoice {
  hasher: MerkleHasher;
  kind: 'wasm' | 'pure';
  /** Set when the WebAssembly hasher was wanted but could not be loaded. */
  fallbackReason?: string;
}

/**
 * Picks the Sapling hasher: the WebAssembly one (its tables are built here: ≈ 0.5 s, 54 MB of
 * WebAssembly memory), or the pure BigInt SAPLING_HASHER when `env.ZECRPC_PURE_TREES` is "1" or
 * the module cannot be loaded.
 */
export function chooseSaplingHasher(env: NodeJS.ProcessEnv = process.env): SaplingHasherChoice {
  if (env.ZECRPC_PURE_TREES === '1') return { hasher: SAPLING_HASHER, kind: 'pure' };
  try {
    return { hasher: new FastSaplingHasher().ready(), kind: 'wasm' };
  } catch (err) {
    return { hasher: SAPLING_HASHER, kind: 'pure', fallbackReason: err instanceof Error ? err.message : String(err) };
  }
}

let choice: SaplingHasherChoice | undefined;

/** chooseSaplingHasher() for this process, decided once. */
export function defaultSaplingHasher(): SaplingHasherChoice {
  choice ??= chooseSaplingHasher();
  return choice;
}
