/**
 * MerkleHasher implementations for the Orchard note commitment tree (depth 32, Uncommitted = 2).
 * ORCHARD_HASHER is the reference (straight from the Sinsemilla definition) and the fallback;
 * FastOrchardHasher (WebAssembly tables) gives the same bytes for every input.
 */
import { computeEmptyRoots, type MerkleHasher } from '../merkle-hasher.js';
import { merkleCrhAtHeight, ORCHARD_MERKLE_DEPTH, ORCHARD_UNCOMMITTED } from './merkle-crh.js';
import { WasmMerkleEngine } from './merkle-wasm.js';

function checkHeight(height: number): void {
  if (!Number.isInteger(height) || height < 0 || height >= ORCHARD_MERKLE_DEPTH) {
    throw new RangeError(`Orchard tree height must be an integer in [0, ${ORCHARD_MERKLE_DEPTH}), got ${height}`);
  }
}

function checkNodes(left: Uint8Array, right: Uint8Array): void {
  if (left.length !== 32 || right.length !== 32) throw new RangeError('Orchard tree nodes are 32 bytes');
}

function checkPairs(pairs: Uint8Array, count: number): void {
  if (!Number.isInteger(count) || count < 0 || pairs.length < 64 * count) {
    throw new RangeError(`combineMany needs ${count} × 64 bytes of pairs, got ${pairs.length}`);
  }
}

/** The reference hasher: Sinsemilla evaluated chunk by chunk with incomplete additions (slow; the WebAssembly hasher is tested against it). */
export const ORCHARD_HASHER: MerkleHasher = (() => {
  let empty: readonly Uint8Array[] | undefined;
  const hasher: MerkleHasher = {
    depth: ORCHARD_MERKLE_DEPTH,
    get emptyRoots(): readonly Uint8Array[] {
      empty ??= Object.freeze(computeEmptyRoots(ORCHARD_MERKLE_DEPTH, ORCHARD_UNCOMMITTED, merkleCrhAtHeight));
      return empty;
    },
    combine(height, left, right) {
      checkHeight(height);
      checkNodes(left, right);
      return merkleCrhAtHeight(height, left, right);
    },
    combineMany(height, pairs, count) {
      checkHeight(height);
      checkPairs(pairs, count);
      const out = new Uint8Array(32 * count);
      for (let n = 0; n < count; n++) {
        const at = 64 * n;
        out.set(merkleCrhAtHeight(height, pairs.subarray(at, at + 32), pairs.subarray(at + 32, at + 64)), 32 * n);
      }
      return out;
    },
  };
  return hasher;
})();

/**
 * MerkleCRH^Orchard in WebAssembly with precomputed Sinsemilla tables (built on first use,
 * ≈ 1 s, ≈ 4 MB). combineMany shares one field inversion per addition step across the batch.
 */
export class FastOrchardHasher implements MerkleHasher {
  readonly depth = ORCHARD_MERKLE_DEPTH;
  private engine: WasmMerkleEngine | undefined;
  private empty: readonly Uint8Array[] | undefined;

  /** Instantiates the module and builds the tables now rather than on the first hash. */
  ready(): this {
    this.module();
    return this;
  }

  /** Seconds the module instantiation and table build took (builds them if needed). */
  get tableBuildSeconds(): number {
    return this.module().buildSeconds;
  }

  get emptyRoots(): readonly Uint8Array[] {
    this.empty ??= Object.freeze(computeEmptyRoots(ORCHARD_MERKLE_DEPTH, ORCHARD_UNCOMMITTED, (h, l, r) => this.module().combine(h, l, r)));
    return this.empty;
  }

  combine(height: number, left: Uint8Array, right: Uint8Array): Uint8Array {
    checkHeight(height);
    checkNodes(left, right);
    // A root pads the frontier with empty subtrees: that operand's chunks are summed once.
    const empty = this.empty?.[height];
    if (empty !== undefined) return this.module().combineWithFixedRight(height, left, right, empty);
    return this.module().combine(height, left, right);
  }

  combineMany(height: number, pairs: Uint8Array, count: number): Uint8Array {
    checkHeight(height);
    checkPairs(pairs, count);
    return this.module().combineMany(height, pairs, count);
  }

  private module(): WasmMerkleEngine {
    this.engine ??= new WasmMerkleEngine();
    return this.engine;
  }
}

/** Which implementation defaultOrchardHasher() chose, and why. */
export interface OrchardHasherChoice {
  hasher: MerkleHasher;
  kind: 'wasm' | 'pure';
  /** Set when the WebAssembly hasher was wanted but could not be loaded. */
  fallbackReason?: string;
}

let choice: OrchardHasherChoice | undefined;

/**
 * The Orchard hasher to use: FastOrchardHasher (tables built here), or the reference
 * ORCHARD_HASHER when ZECRPC_PURE_TREES=1 or the module cannot be loaded. Decided once per process.
 */
export function defaultOrchardHasher(): OrchardHasherChoice {
  if (choice !== undefined) return choice;
  if (process.env.ZECRPC_PURE_TREES === '1') {
    choice = { hasher: ORCHARD_HASHER, kind: 'pure' };
    return choice;
  }
  try {
    choice = { hasher: new FastOrchardHasher().ready(), kind: 'wasm' };
  } catch (err) {
    choice = { hasher: ORCHARD_HASHER, kind: 'pure', fallbackReason: err instanceof Error ? err.message : String(err) };
  }
  return choice;
}
