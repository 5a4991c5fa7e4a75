/**
 * MerkleCRH^Orchard in WebAssembly (assembly/pallas.ts) by the table method of merkle-tables.ts.
 * The tables (51 × 1024 points, ≈ 3.8 MB) are built in the module from S(0..1023), which are
 * computed here by GroupHash^P. Results equal the reference merkleCrhAtHeight() for every input:
 * the rare hash the module reports as exceptional is recomputed by it.
 */
import { bigintToLeBytes, PALLAS_P } from '../pallas.js';
import { instantiateWasm } from '../../wasm-module.js';
import { montgomeryConstants } from '../sapling/wasm-field.js';
import { merkleCrhAtHeight } from './merkle-crh.js';
import { CHUNK_VALUES, levelConstant, sinsemillaSAffine } from './merkle-tables.js';

interface PallasExports {
  memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  constantsBytes(): number;
  init(constants: number): void;
  buildTables(sPoints: number): void;
  setLevel(height: number, point: number): void;
  reserve(count: number): void;
  pairsPtr(): number;
  outPtr(): number;
  flagsPtr(): number;
  combineMany(height: number, count: number): void;
  setPadded?(height: number): number;
  combinePadded(height: number): void;
}

/** Largest batch handed to the module in one call (bounds its scratch memory, ≈ 0.4 KB per pair). */
const MAX_BATCH = 1 << 14;

export class WasmMerkleEngine {
  private readonly x: PallasExports;
  private readonly levelsSet = new Uint8Array(CHUNK_VALUES);
  /**
   * Per height, the right operand whose chunks the module has summed once (setPadded), null
   * where the sum hit an exceptional addition; absent until first asked.
   */
  private readonly paddedRight = new Map<number, Uint8Array | null>();
  /** 64 bytes where a level constant is handed over. */
  private readonly staging: number;
  /** Seconds spent instantiating the module and building the tables. */
  readonly buildSeconds: number;

  constructor() {
    const started = performance.now();
    const x = instantiateWasm('pallas') as unknown as PallasExports;
    this.x = x;
    const size = x.constantsBytes();
    const constants = x.alloc(size);
    this.bytes(constants, size).set(montgomeryConstants(PALLAS_P, size));
    x.init(constants);

    const s = sinsemillaSAffine();
    const sPtr = x.alloc(64 * CHUNK_VALUES);
    const sBytes = this.bytes(sPtr, 64 * CHUNK_VALUES);
    for (let m = 0; m < CHUNK_VALUES; m++) {
      sBytes.set(bigintToLeBytes(s.x[m]!), 64 * m);
      sBytes.set(bigintToLeBytes(s.y[m]!), 64 * m + 32);
    }
    x.buildTables(sPtr);
    this.staging = x.alloc(64);
    x.reserve(64);
    this.buildSeconds = (performance.now() - started) / 1000;
  }

  /** A fresh view: growing the memory detaches earlier ones. */
  private bytes(at: number, length: number): Uint8Array {
    return new Uint8Array(this.x.memory.buffer, at, length);
  }

  /** Installs C_h in the module on the first use of a height. */
  private level(height: number): void {
    if (this.levelsSet[height] === 1) return;
    const c = levelConstant(height);
    this.bytes(this.staging, 32).set(bigintToLeBytes(c.x));
    this.bytes(this.staging + 32, 32).set(bigintToLeBytes(c.y));
    this.x.setLevel(height, this.staging);
    this.levelsSet[height] = 1;
  }

  combine(height: number, left: Uint8Array, right: Uint8Array): Uint8Array {
    this.level(height);
    const pairs = this.x.pairsPtr();
    this.bytes(pairs, 32).set(left);
    this.bytes(pairs + 32, 32).set(right);
    this.x.combineMany(height, 1);
    if (this.bytes(this.x.flagsPtr(), 1)[0] === 1) return merkleCrhAtHeight(height, left, right);
    return this.bytes(this.x.outPtr(), 32).slice();
  }

  /**
   * combine() where `right` may be `recurring`, the one right operand of `height` that comes
   * back hash after hash (the empty subtree a tree's root is padded with): its chunks are summed
   * once, so each such hash adds only the left operand's. Any other right operand takes combine().
   * The first call at a height fixes that height's recurring operand.
   */
  combineWithFixedRight(height: number, left: Uint8Array, right: Uint8Array, recurring: Uint8Array): Uint8Array {
    let fixed = this.paddedRight.get(height);
    if (fixed === undefined) {
      this.level(height);
      const pairs = this.x.pairsPtr();
      this.bytes(pairs, 32).fill(0);
      this.bytes(pairs + 32, 32).set(recurring);
      // A module built before setPadded existed (src/crypto/wasm is built at install) lacks it.
      fixed = typeof this.x.setPadded === 'function' && this.x.setPadded(height) ? recurring.slice() : null;
      this.paddedRight.set(height, fixed);
    }
    if (fixed === null || !sameBytes(fixed, right)) return this.combine(height, left, right);
    const pairs = this.x.pairsPtr();
    this.bytes(pairs, 32).set(left);
    this.bytes(pairs + 32, 32).set(right);
    this.x.combinePadded(height);
    if (this.bytes(this.x.flagsPtr(), 1)[0] === 1) return merkleCrhAtHeight(height, left, right);
    return this.bytes(this.x.outPtr(), 32).slice();
  }

  combineMany(height: number, pairs: Uint8Array, count: number): Uint8Array {
    const out = new Uint8Array(32 * count);
    this.level(height);
    for (let done = 0; done < count;) {
      const n = Math.min(MAX_BATCH, count - done);
      this.x.reserve(n);
      this.bytes(this.x.pairsPtr(), 64 * n).set(pairs.subarray(64 * done, 64 * (done + n)));
      this.x.combineMany(height, n);
      out.set(this.bytes(this.x.outPtr(), 32 * n), 32 * done);
      const flags = this.bytes(this.x.flagsPtr(), n);
      for (let k = 0; k < n; k++) {
        if (flags[k] !== 1) continue;
        const at = 64 * (done + k);
        out.set(merkleCrhAtHeight(height, pairs.subarray(at, at + 32), pairs.subarray(at + 32, at + 64)), 32 * (done + k));
      }
      done += n;
    }
    return out;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
