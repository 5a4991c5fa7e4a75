/**
 * The curve-point checks of curves.ts in WebAssembly (assembly/points.ts): same verdicts, about
 * a tenth of the BigInt time. One module instance per curve, each with its own field installed;
 * a check copies the 32 bytes into the instance's memory and makes one call.
 */
import { instantiateWasm } from '../wasm-module.js';
import { loadWasmModule, montgomeryConstants } from './sapling/wasm-field.js';

interface PointsExports {
  memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  constantsBytes(): number;
  init(constants: number, curveConstant: number): void;
  inputPtr(): number;
  checkJubjubPoint(): number;
  checkPallasPoint(): number;
  legendreOfInput(): number;
}

export interface WasmPointChecks {
  /** Same verdict as curves.ts `isCanonicalJubjubPoint` (uncached). */
  isCanonicalJubjubPoint(b: Uint8Array): boolean;
  /** Same verdict as curves.ts `isValidPallasPoint` (uncached). */
  isValidPallasPoint(b: Uint8Array): boolean;
  /**
   * The Legendre symbol (−1, 0, 1) of the little-endian value `b`, which must be below the
   * field's modulus: the module's quadratic-residue test on its own, for tests.
   */
  legendre(field: 'jubjub' | 'pallas', b: Uint8Array): number;
}

export interface PointCurveParameters {
  /** Jubjub's base field modulus (BLS12-381's scalar field). */
  jubjubQ: bigint;
  /** Jubjub's Edwards d. */
  jubjubD: bigint;
  /** Pallas' base field modulus. */
  pallasP: bigint;
}

/** Pallas: y² = x³ + 5. */
const PALLAS_B = 5n;

function le32(v: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}

/** One instance of points.wasm with the field of modulus `p` and the curve constant `c` (< p). */
function instantiate(module: WebAssembly.Module, p: bigint, c: bigint): { x: PointsExports; input: Uint8Array } {
  const x = instantiateWasm('points', module) as unknown as PointsExports;
  const size = x.constantsBytes();
  const constants = x.alloc(size);
  const curveConstant = x.alloc(32);
  new Uint8Array(x.memory.buffer, constants, size).set(montgomeryConstants(p, size));
  new Uint8Array(x.memory.buffer, curveConstant, 32).set(le32(c));
  x.init(constants, curveConstant);
  // The checks allocate nothing, so the memory never grows and this view stays attached.
  return { x, input: new Uint8Array(x.memory.buffer, x.inputPtr(), 32) };
}

/** An encoding is exactly 32 bytes: a shorter one would leave the previous check's bytes behind. */
function first32(b: Uint8Array): Uint8Array {
  if (b.length < 32) throw new RangeError(`a point encoding is 32 bytes, got ${b.length}`);
  return b.subarray(0, 32);
}

/** Compiles and instantiates the module; throws if it is missing or does not load. */
export function loadWasmPointChecks(params: PointCurveParameters): WasmPointChecks {
  const module = loadWasmModule('points');
  const jubjub = instantiate(module, params.jubjubQ, params.jubjubD);
  const pallas = instantiate(module, params.pallasP, PALLAS_B);
  const jubjubInput = jubjub.input;
  const pallasInput = pallas.input;
  const checkJubjub = jubjub.x.checkJubjubPoint;
  const checkPallas = pallas.x.checkPallasPoint;
  return {
    isCanonicalJubjubPoint(b: Uint8Array): boolean {
      jubjubInput.set(b.length === 32 ? b : first32(b));
      return checkJubjub() !== 0;
    },
    isValidPallasPoint(b: Uint8Array): boolean {
      pallasInput.set(b.length === 32 ? b : first32(b));
      return checkPallas() !== 0;
    },
    legendre(field: 'jubjub' | 'pallas', b: Uint8Array): number {
      const { x, input } = field === 'jubjub' ? jubjub : pallas;
      input.set(b.length === 32 ? b : first32(b));
      return x.legendreOfInput();
    },
  };
}
