import { JUBJUB_D, JUBJUB_Q, pedersenBase } from './generators.js';
import { SAPLING_TREE_DEPTH, bigintToLe32 } from './merkle-crh.js';
import { computeEmptyRoots, type MerkleHasher } from '../merkle-hasher.js';
import { saplingUncommittedLeaf } from './pure-hasher.js';
import { instantiateWasm } from '../../wasm-module.js';
import { montgomeryConstants } from './wasm-field.js';

/**
 * Chunks per fixed-base window: 34 windows of 2^14 points (51 MB). Fewer chunks per window make
 * smaller tables, built faster, for more time per hash (bench/trees.ts gives the per-node cost).
 */
export const DEFAULT_WINDOW_CHUNKS = 5;

interface SaplingExports {
  memory: WebAssembly.Memory;
  CONSTANTS_BYTES: WebAssembly.Global;
  MAX_BATCH: WebAssembly.Global;
  alloc(bytes: number): number;
  setModulus(constants: number): void;
  init(curve: number, chunks: number): void;
  setEmptyRoots(roots: number): void;
  hashMany(height: number, pairs: number, out: number, count: number): void;
}

/** The instantiated module with its tables built. */
class SaplingWasm {
  private readonly exports: SaplingExports;
  readonly maxBatch: number;
  private readonly pairsPtr: number;
  private readonly outPtr: number;
  private heap = new Uint8Array(0);
  /** Seconds spent building the tables. */
  readonly buildSeconds: number;
  /** E_0 … E_32. */
  readonly emptyRoots: readonly Uint8Array[];

  constructor(windowChunks: number) {
    const started = performance.now();
    const x = instantiateWasm('sapling') as unknown as SaplingExports;
    this.exports = x;
    const constantsBytes = x.CONSTANTS_BYTES.value as number;
    const constants = x.alloc(constantsBytes);
    this.bytes(constants, constantsBytes).set(montgomeryConstants(JUBJUB_Q, constantsBytes));
    x.setModulus(constants);

    const curve = x.alloc(32 * 7);
    const curveBytes = new Uint8Array(32 * 7);
    curveBytes.set(bigintToLe32((2n * JUBJUB_D) % JUBJUB_Q), 0);
    for (let i = 0; i < 3; i++) {
      const { x: u, y: v } = pedersenBase(i + 1).toAffine();
      curveBytes.set(bigintToLe32(u), 32 + 64 * i);
      curveBytes.set(bigintToLe32(v), 64 + 64 * i);
    }
    this.bytes(curve, curveBytes.length).set(curveBytes);
    x.init(curve, windowChunks);

    this.maxBatch = x.MAX_BATCH.value as number;
    this.pairsPtr = x.alloc(64 * this.maxBatch);
    this.outPtr = x.alloc(32 * this.maxBatch);

    // The module shortcuts combine(h, left, E_h) (most of a root computation) once it knows E_h.
    const empty = computeEmptyRoots(SAPLING_TREE_DEPTH, saplingUncommittedLeaf(), (h, l, r) => this.hashOne(h, l, r));
    const roots = x.alloc(32 * SAPLING_TREE_DEPTH);
    empty.slice(0, SAPLING_TREE_DEPTH).forEach((root, h) => this.bytes(roots + 32 * h, 32).set(root));
    x.setEmptyRoots(roots);
    this.emptyRoots = Object.freeze(empty);
    this.buildSeconds = (performance.now() - started) / 1000;
  }

  /** A fresh view: growing the memory detaches earlier ones. */
  private bytes(at: number, length: number): Uint8Array {
    return new Uint8Array(this.exports.memory.buffer, at, length);
  }

  /** The whole memory, re-viewed only after the memory grew (tables are built before hashing). */
  private heapView(): Uint8Array {
    if (this.heap.buffer !== this.exports.memory.buffer) this.heap = new Uint8Array(this.exports.memory.buffer);
    return this.heap;
  }

  hashOne(height: number, left: Uint8Array, right: Uint8Array): Uint8Array {
    const heap = this.heapView();
    heap.set(left, this.pairsPtr);
    heap.set(right, this.pairsPtr + 32);
    this.exports.hashMany(height, this.pairsPtr, this.outPtr, 1);
    return heap.slice(this.outPtr, this.outPtr + 32);
  }

  hashMany(height: number, pairs: Uint8Array, count: number): Uint8Array {
    const out = new Uint8Array(32 * count);
    for (let done = 0; done < count;) {
      const n = Math.min(this.maxBatch, count - done);
      const heap = this.heapView();
      heap.set(pairs.subarray(64 * done, 64 * (done + n)), this.pairsPtr);
      this.exports.hashMany(height, this.pairsPtr, this.outPtr, n);
      out.set(heap.subarray(this.outPtr, this.outPtr + 32 * n), 32 * done);
      done += n;
    }
    return out;
  }
}

/**
 * MerkleCRH^Sapling in WebAssembly with fixed-base window tables (built on first use). Produces
 * the same bytes as SAPLING_HASHER for every input.
 */
export class FastSaplingHasher implements MerkleHasher {
  readonly depth = SAPLING_TREE_DEPTH;
  private wasm: SaplingWasm | undefined;

  constructor(private readonly windowChunks: number = DEFAULT_WINDOW_CHUNKS) {
    if (!Number.isInteger(windowChunks) || windowChunks < 1 || windowChunks > 5) {
      throw new RangeError(`window must be 1..5 chunks, got ${windowChunks}`);
    }
  }

  /** Instantiates the module and builds the tables now rather than on the first hash. */
  ready(): this {
    this.module();
    return this;
  }

  /** Seconds the table build took (builds it if needed). */
  get tableBuildSeconds(): number {
    return this.module().buildSeconds;
  }

  get emptyRoots(): readonly Uint8Array[] {
    return this.module().emptyRoots;
  }

  combine(height: number, left: Uint8Array, right: Uint8Array): Uint8Array {
    checkHeight(height);
    if (left.length !== 32 || right.length !== 32) throw new RangeError('Sapling tree nodes are 32 bytes');
    return this.module().hashOne(height, left, right);
  }

  combineMany(height: number, pairs: Uint8Array, count: number): Uint8Array {
    checkHeight(height);
    if (!Number.isInteger(count) || count < 0 || pairs.length < 64 * count) {
      throw new RangeError(`combineMany needs ${count} × 64 bytes of pairs, got ${pairs.length}`);
    }
    return this.module().hashMany(height, pairs, count);
  }

  private module(): SaplingWasm {
    this.wasm ??= new SaplingWasm(this.windowChunks);
    return this.wasm;
  }
}

function checkHeight(height: number): void {
  if (!Number.isInteger(height) || height < 0 || height >= SAPLING_TREE_DEPTH) {
    throw new RangeError(`Sapling tree height must be an integer in [0, ${SAPLING_TREE_DEPTH}), got ${height}`);
  }
}
