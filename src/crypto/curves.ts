/**
 * The curve-point and field-element checks zcashd's Rust parsers run while decoding
 * Sapling and Orchard data (sapling-crypto 0.5 / jubjub 0.10 / pasta_curves 0.5 / orchard 0.11).
 *
 * Decoding only has to decide *whether* an encoding is canonical and on the curve, so it
 * needs a quadratic-residue test, not a square root: a fraction num/den is a square iff
 * num·den is (den ≠ 0). That test is a Jacobi symbol (binary algorithm, faster in BigInt than
 * Euler's criterion by modular exponentiation).
 * Small-order detection (Sapling cv) is a lookup: canonical encodings are unique, so a point
 * has order dividing 8 iff its encoding is one of the 8 torsion-point encodings.
 *
 * The point checks run in WebAssembly (curves-wasm.ts, much faster) when the module loads;
 * the BigInt versions here are the fallback (module missing, or ZECRPC_PURE_CURVES=1) and the
 * reference the WebAssembly verdicts are tested against.
 */
import { Buffer } from 'node:buffer';
import { loadWasmPointChecks } from './curves-wasm.js';
import { PointVerdicts } from './point-verdicts.js';

/** BLS12-381 scalar field = Jubjub base field. */
export const JUBJUB_Q = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
/** Jubjub Edwards d. */
export const JUBJUB_D = 0x2a9318e74bfa2b48f5fd9207e6bd7fd4292d7f6d37579d2601065fd6d6343eb1n;
/** Pallas base field. */
export const PALLAS_P = 0x40000000000000000000000000000000224698fc094cf91b992d30ed00000001n;

/**
 * Jacobi symbol (a/n) for odd n > 0; for a prime n it is the Legendre symbol. Binary algorithm:
 * strip factors of two (flipping the sign when n ≡ 3, 5 mod 8), then swap by quadratic
 * reciprocity (flipping when both are ≡ 3 mod 4) and reduce.
 */
function jacobi(a: bigint, n: bigint): number {
  a %= n;
  let t = 1;
  while (a !== 0n) {
    let low = Number(a & 0xffffffffn);
    while (low === 0) {
      a >>= 32n;
      low = Number(a & 0xffffffffn);
    }
    const twos = 31 - Math.clz32(low & -low);
    if (twos > 0) {
      a >>= BigInt(twos);
      const r = Number(n & 7n);
      if ((twos & 1) === 1 && (r === 3 || r === 5)) t = -t;
    }
    const swap = a;
    a = n;
    n = swap;
    if (Number(a & 3n) === 3 && Number(n & 3n) === 3) t = -t;
    a %= n;
  }
  return n === 1n ? t : 0;
}

/** True iff `x` is 0 or a quadratic residue mod the odd prime `p`. */
function isSquareOrZero(x: bigint, p: bigint): boolean {
  return jacobi(x, p) !== -1;
}

/** Little-endian 32 bytes as a bigint, optionally clearing bit 255. */
function leToBigint(b: Uint8Array, clearTopBit = false): bigint {
  // Native hex encoding of the reversed bytes beats building the string byte by byte.
  const be = Buffer.allocUnsafe(32);
  for (let i = 0; i < 32; i++) be[i] = b[31 - i]!;
  if (clearTopBit) be[0]! &= 0x7f;
  return BigInt('0x' + be.toString('hex'));
}

/** Fast `LE integer < modulus` check without BigInt for the common case. */
function leLessThan(b: Uint8Array, modulusLe: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) {
    if (b[i]! < modulusLe[i]!) return true;
    if (b[i]! > modulusLe[i]!) return false;
  }
  return false;
}

function bigintToLe(v: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

const JUBJUB_Q_LE = bigintToLe(JUBJUB_Q);
const PALLAS_P_LE = bigintToLe(PALLAS_P);

/** Sapling anchors and cmu: canonical element of the Jubjub base field (no bit masked). */
export function isJubjubBaseField(b: Uint8Array): boolean {
  return leLessThan(b, JUBJUB_Q_LE);
}

/** Orchard nullifier, cmx and anchor: canonical element of the Pallas base field. */
export function isPallasBaseField(b: Uint8Array): boolean {
  return leLessThan(b, PALLAS_P_LE);
}

/**
 * `jubjub::AffinePoint::from_bytes` (ZIP-216 strict): v < q, u² = (v²−1)/(d·v²+1) must be
 * a square, and the encodings of (0, ±1) with the sign bit set are rejected.
 */
export function isCanonicalJubjubPoint(b: Uint8Array): boolean {
  return cachedCheck(jubjubCache, b, (backend ?? selectBackend()).jubjub);
}

/** isCanonicalJubjubPoint in BigInt arithmetic, uncached: the fallback and the reference. */
export function isCanonicalJubjubPointBigint(b: Uint8Array): boolean {
  const sign = b[31]! >> 7;
  const top = b[31]! & 0x7f;
  // v must be < q (with bit 255 cleared). Compare with the top byte masked.
  const masked = b[31] === top ? b : Uint8Array.from(b, (x, i) => (i === 31 ? top : x));
  if (!leLessThan(masked, JUBJUB_Q_LE)) return false;
  const v = leToBigint(b, true);
  const q = JUBJUB_Q;
  const v2 = (v * v) % q;
  const num = (v2 - 1n + q) % q;
  const den = (JUBJUB_D * v2 + 1n) % q;
  if (num === 0n) return sign === 0; // u = 0: only the non-negative encoding is canonical
  return isSquareOrZero((num * den) % q, q);
}

/**
 * The canonical encodings of Jubjub's 8 torsion points: (0, 1), (0, −1), the two order-4
 * points (±√−1, 0) and four order-8 points. test/codec/curves.test.ts re-derives them as
 * r·P with @noble/curves.
 */
const SMALL_ORDER_ENCODINGS: readonly Uint8Array[] = [
  '0100000000000000000000000000000000000000000000000000000000000000',
  '0000000000000000000000000000000000000000000000000000000000000000',
  '0000000000000000000000000000000000000000000000000000000000000080',
  '00000000fffffffffe5bfeff02a4bd5305d8a10908d83933487d9d2953a7ed73',
  'dd96f4ef68200dffa1a484f390ee069166724dad3530a1162e986619b2bd58c9',
  'dd96f4ef68200dffa1a484f390ee069166724dad3530a1162e986619b2bd5849',
  '24690b1096dff2005db7790c72b5b6c29e65545cd2a7981c1ae53610a1e994aa',
  '24690b1096dff2005db7790c72b5b6c29e65545cd2a7981c1ae53610a1e9942a',
].map((h) => Uint8Array.from(Buffer.from(h, 'hex')));

/** A canonical Jubjub point whose order divides 8 (8·P = identity). */
export function isJubjubSmallOrder(b: Uint8Array): boolean {
  // Only meaningful for encodings that passed isCanonicalJubjubPoint (then encodings are unique).
  outer: for (const e of SMALL_ORDER_ENCODINGS) {
    for (let i = 0; i < 32; i++) if (b[i] !== e[i]) continue outer;
    return true;
  }
  return false;
}

/**
 * `pasta_curves::pallas::Affine::from_bytes`: x < p; x = 0 with sign 0 is the identity;
 * otherwise x³ + 5 must be a non-zero square.
 */
export function isValidPallasPoint(b: Uint8Array): boolean {
  return cachedCheck(pallasCache, b, (backend ?? selectBackend()).pallas);
}

/** isValidPallasPoint in BigInt arithmetic, uncached: the fallback and the reference. */
export function isValidPallasPointBigint(b: Uint8Array): boolean {
  const sign = b[31]! >> 7;
  const top = b[31]! & 0x7f;
  const masked = b[31] === top ? b : Uint8Array.from(b, (x, i) => (i === 31 ? top : x));
  if (!leLessThan(masked, PALLAS_P_LE)) return false;
  const x = leToBigint(b, true);
  if (x === 0n) return sign === 0;
  const p = PALLAS_P;
  const rhs = (((x * x) % p) * x + 5n) % p;
  if (rhs === 0n) return sign === 0;
  return isSquareOrZero(rhs, p);
}

export type PointCheckBackend = 'wasm' | 'bigint';

interface Backend {
  name: PointCheckBackend;
  jubjub: (b: Uint8Array) => boolean;
  pallas: (b: Uint8Array) => boolean;
}

const BIGINT_BACKEND: Backend = {
  name: 'bigint',
  jubjub: isCanonicalJubjubPointBigint,
  pallas: isValidPallasPointBigint,
};

/** Chosen on the first point check, so a decoder that never meets shielded data never loads it. */
let backend: Backend | undefined;

function wasmBackend(): Backend {
  const checks = loadWasmPointChecks({ jubjubQ: JUBJUB_Q, jubjubD: JUBJUB_D, pallasP: PALLAS_P });
  return { name: 'wasm', jubjub: checks.isCanonicalJubjubPoint, pallas: checks.isValidPallasPoint };
}

function selectBackend(): Backend {
  if (globalThis.process?.env?.['ZECRPC_PURE_CURVES'] === '1') {
    backend = BIGINT_BACKEND;
  } else {
    try {
      backend = wasmBackend();
    } catch {
      // Module not built (an install without dev dependencies) or not loadable: same verdicts, slower.
      backend = BIGINT_BACKEND;
    }
  }
  return backend;
}

/** The implementation the point checks use (selecting it if no check has run yet). */
export function pointCheckBackend(): PointCheckBackend {
  return (backend ?? selectBackend()).name;
}

/**
 * Forces an implementation (benchmarks compare both in one run); throws if the WebAssembly
 * module cannot be loaded. Clears the verdict cache.
 */
export function setPointCheckBackend(name: PointCheckBackend): void {
  backend = name === 'wasm' ? wasmBackend() : BIGINT_BACKEND;
  jubjubCache.clear();
  pallasCache.clear();
}

/**
 * Point checks are a large part of decoding a shielded transaction, even in WebAssembly. The same encodings are decoded again and again in practice (a block
 * served at verbosity 2 after it was imported, mempool transactions decoded by several clients),
 * so verdicts are memoized per curve, keyed by the 32 bytes (./point-verdicts.ts). Bounded:
 * cleared wholesale when full, which keeps memory flat (≈ 4.2 MB a curve, allocated on its first check) without LRU
 * bookkeeping on the hot path.
 */
const CHECK_CACHE_LIMIT = 65_536;
const jubjubCache = new PointVerdicts(2 * CHECK_CACHE_LIMIT, CHECK_CACHE_LIMIT);
const pallasCache = new PointVerdicts(2 * CHECK_CACHE_LIMIT, CHECK_CACHE_LIMIT);
let cacheEnabled = true;

/** Turns the verdict cache on or off (benchmarks measure the cold path with it off). */
export function setPointCheckCache(enabled: boolean): void {
  cacheEnabled = enabled;
  jubjubCache.clear();
  pallasCache.clear();
}

function cachedCheck(cache: PointVerdicts, b: Uint8Array, check: (b: Uint8Array) => boolean): boolean {
  return cacheEnabled ? cache.verdict(b, check) : check(b);
}
