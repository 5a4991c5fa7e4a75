// Decode-time curve-point checks in WebAssembly: is a 32-byte encoding a canonical Jubjub point
// (ZIP-216 strict) or a valid Pallas point? Mirrors src/crypto/curves.ts verdict for verdict.
//
// One instance serves one curve: the host instantiates this module once with Jubjub's base
// field and d, once with Pallas' base field and b = 5, and calls the matching check.
//
// Deciding membership needs only a quadratic-residue test (num/den is a square iff num·den is),
// done as a Jacobi symbol by the binary algorithm on 64-bit words: a few hundred short
// subtract-and-shift steps for a 255-bit input (≈ 1 µs per check with the host call), where
// Euler's criterion would chain ≈ 300 dependent field multiplications. The field arithmetic
// around it (a handful of products) is ./field/mont29.

import {
  add, CONSTANTS_BYTES, ELEMENT_BYTES, fromBytes, mul, pack, reduce, setModulus, sub,
} from './field/mont29';

const E: usize = ELEMENT_BYTES;

let constants: usize = 0;
/** The 32 bytes the host writes an encoding into before each check. */
let input: usize = 0;
/** Curve constant in Montgomery form: Jubjub's d or Pallas' b. */
let curveConstant: usize = 0;
/** R mod p: Montgomery form of 1 (inside the constants block). */
let one: usize = 0;
let scratch: usize = 0;
// The modulus as four little-endian 64-bit words.
let N0: u64 = 0; let N1: u64 = 0; let N2: u64 = 0; let N3: u64 = 0;

/** Raw allocation for the host (the constants block and the curve constant). */
export function alloc(bytes: usize): usize {
  return heap.alloc(bytes);
}

export function constantsBytes(): usize {
  return CONSTANTS_BYTES;
}

/**
 * Installs the field (`constantsPtr`: the mont29 constants block) and the curve constant
 * (`curveConstantPtr`: 32 little-endian bytes, below the modulus).
 */
export function init(constantsPtr: usize, curveConstantPtr: usize): void {
  constants = heap.alloc(CONSTANTS_BYTES);
  memory.copy(constants, constantsPtr, CONSTANTS_BYTES);
  setModulus(constants);
  one = constants + 2 * E;
  input = heap.alloc(32);
  scratch = heap.alloc(8 * E);
  curveConstant = heap.alloc(E);
  fromBytes(curveConstant, curveConstantPtr);
  const bytes = scratch;
  pack(bytes, constants);
  N0 = load<u64>(bytes, 0); N1 = load<u64>(bytes, 8); N2 = load<u64>(bytes, 16); N3 = load<u64>(bytes, 24);
}

export function inputPtr(): usize {
  return input;
}

@inline function tmp(i: usize): usize { return scratch + i * E; }

/** Four words (bit 255 already cleared) below the modulus. */
@inline
function belowModulus(w0: u64, w1: u64, w2: u64, w3: u64): bool {
  if (w3 != N3) return w3 < N3;
  if (w2 != N2) return w2 < N2;
  if (w1 != N1) return w1 < N1;
  return w0 < N0;
}

/**
 * Whether the Montgomery-form element at `a` is a square or zero.
 *
 * The Jacobi symbol of aR equals that of a: R = 2^261 and both moduli are ≡ 1 (mod 8), so 2,
 * hence R, is a square. The canonical Montgomery representative is therefore tested directly.
 */
function isSquareOrZero(a: usize): bool {
  const t = tmp(7);
  reduce(t, a);
  pack(t, t);
  return jacobi(load<u64>(t, 0), load<u64>(t, 8), load<u64>(t, 16), load<u64>(t, 24)) >= 0;
}

/** Borrow out of the word subtraction a − b − borrowIn, given its result d. */
@inline
function borrowOut(a: u64, b: u64, d: u64): u64 {
  return ((~a & b) | (~(a ^ b) & d)) >> 63;
}

/**
 * Jacobi symbol (a / N) for a < N, N the installed odd modulus: strip factors of two (each
 * flips the sign when n ≡ 3, 5 mod 8), then repeatedly replace the larger of the two odd values
 * by their difference, swapping them by reciprocity (a flip when both are ≡ 3 mod 4), until
 * they are equal (their gcd).
 *
 * Which one is larger is a coin toss on random inputs, so each step is branch-free: it
 * subtracts, and the borrow selects the swapped outcome with masks instead of a mispredicted
 * branch. The larger value only shrinks, so once both fit in fewer words the loop continues
 * on fewer words (jacobi2, jacobi1): shorter carry chains for the second half of the steps.
 */
function jacobi(a0: u64, a1: u64, a2: u64, a3: u64): i32 {
  if ((a0 | a1 | a2 | a3) == 0) return 0;
  let n0 = N0, n1 = N1, n2 = N2, n3 = N3;
  // Sign flips accumulate in bit 0 of `flip`.
  let flip: u64 = 0;
  // Make a odd. Whole-word shifts leave the parity of the shift count, hence the sign, unchanged.
  while (a0 == 0) { a0 = a1; a1 = a2; a2 = a3; a3 = 0; }
  let tz = ctz(a0);
  if (tz != 0) {
    const back = 64 - tz;
    a0 = (a0 >> tz) | (a1 << back); a1 = (a1 >> tz) | (a2 << back); a2 = (a2 >> tz) | (a3 << back); a3 >>= tz;
    flip ^= tz & ((n0 >> 1) ^ (n0 >> 2));
  }
  while ((a3 | n3 | a2 | n2) != 0) {
    // a and n are odd: d = a − n.
    const d0 = a0 - n0;
    let b = u64(a0 < n0);
    const d1 = a1 - n1 - b;
    b = borrowOut(a1, n1, d1);
    const d2 = a2 - n2 - b;
    b = borrowOut(a2, n2, d2);
    const d3 = a3 - n3 - b;
    b = borrowOut(a3, n3, d3);
    if ((d0 | d1 | d2 | d3) == 0) return symbolAtGcd(n0, n1 | n2 | n3, flip);
    // a < n (borrow): the pair becomes (n − a, a), with the reciprocity flip.
    const swap = 0 - b;
    flip ^= (a0 & n0 & swap) >> 1;
    n0 ^= (n0 ^ a0) & swap; n1 ^= (n1 ^ a1) & swap; n2 ^= (n2 ^ a2) & swap; n3 ^= (n3 ^ a3) & swap;
    // |d|: two's complement negation when swapping.
    a0 = (d0 ^ swap) + b;
    let c = u64(a0 < b);
    a1 = (d1 ^ swap) + c;
    c = u64(a1 < c);
    a2 = (d2 ^ swap) + c;
    c = u64(a2 < c);
    a3 = (d3 ^ swap) + c;
    // a is even and non-zero: divide out its factors of two. After a whole-word shift tz may be
    // 0, and a shift by 64 would be one by 0 in WebAssembly: the high parts move by 1, then 63 − tz.
    while (a0 == 0) { a0 = a1; a1 = a2; a2 = a3; a3 = 0; }
    tz = ctz(a0);
    const back = 63 - tz;
    a0 = (a0 >> tz) | ((a1 << 1) << back); a1 = (a1 >> tz) | ((a2 << 1) << back); a2 = (a2 >> tz) | ((a3 << 1) << back); a3 >>= tz;
    flip ^= tz & ((n0 >> 1) ^ (n0 >> 2));
  }
  return jacobi2(a0, a1, n0, n1, flip);
}

/** jacobi() continued once a and n are below 2^128. */
function jacobi2(a0: u64, a1: u64, n0: u64, n1: u64, flip: u64): i32 {
  while ((a1 | n1) != 0) {
    const d0 = a0 - n0;
    let b = u64(a0 < n0);
    const d1 = a1 - n1 - b;
    b = borrowOut(a1, n1, d1);
    if ((d0 | d1) == 0) return symbolAtGcd(n0, n1, flip);
    const swap = 0 - b;
    flip ^= (a0 & n0 & swap) >> 1;
    n0 ^= (n0 ^ a0) & swap; n1 ^= (n1 ^ a1) & swap;
    a0 = (d0 ^ swap) + b;
    a1 = (d1 ^ swap) + u64(a0 < b);
    if (a0 == 0) { a0 = a1; a1 = 0; }
    const tz = ctz(a0);
    a0 = (a0 >> tz) | ((a1 << 1) << (63 - tz)); a1 >>= tz;
    flip ^= tz & ((n0 >> 1) ^ (n0 >> 2));
  }
  return jacobi1(a0, n0, flip);
}

/** jacobi() continued once a and n are below 2^64. */
function jacobi1(a: u64, n: u64, flip: u64): i32 {
  while (a != n) {
    const d = a - n;
    const swap = 0 - u64(a < n);
    flip ^= (a & n & swap) >> 1;
    n ^= (n ^ a) & swap;
    a = (d ^ swap) - swap;
    const tz = ctz(a);
    a >>= tz;
    flip ^= tz & ((n >> 1) ^ (n >> 2));
  }
  return symbolAtGcd(n, 0, flip);
}

/** The symbol once the gcd n is reached (n0 its low word, nHigh the other words or'ed): 0 unless n = 1. */
@inline
function symbolAtGcd(n0: u64, nHigh: u64, flip: u64): i32 {
  if (n0 != 1 || nHigh != 0) return 0;
  return (flip & 1) != 0 ? -1 : 1;
}

/**
 * `jubjub::AffinePoint::from_bytes` as decided in curves.ts: v (bit 255 cleared) < q, and
 * u² = (v² − 1)/(d·v² + 1) a square; when u = 0 (v = ±1) only the encoding without the sign
 * bit is canonical. d·v² + 1 never vanishes (d is not a square, −1 is).
 */
export function checkJubjubPoint(): bool {
  const w0 = load<u64>(input, 0), w1 = load<u64>(input, 8), w2 = load<u64>(input, 16), w3r = load<u64>(input, 24);
  const sign = w3r >> 63;
  const w3 = w3r & 0x7fffffffffffffff;
  if (!belowModulus(w0, w1, w2, w3)) return false;
  // v = 1 or v = q − 1 (q − 1 differs from q only in the lowest word).
  if ((w1 | w2 | w3) == 0 && w0 == 1) return sign == 0;
  if (w3 == N3 && w2 == N2 && w1 == N1 && w0 == N0 - 1) return sign == 0;
  const v = tmp(0), v2 = tmp(1), num = tmp(2), den = tmp(3);
  store<u64>(v, w3, 24);
  store<u64>(v, w0, 0); store<u64>(v, w1, 8); store<u64>(v, w2, 16);
  fromBytes(v, v);
  mul(v2, v, v);
  sub(num, v2, one); // < 2^256 + 4p < 2^258
  mul(den, v2, curveConstant);
  add(den, den, one); // < 2^256 + p
  mul(num, num, den);
  return isSquareOrZero(num);
}

/**
 * `pasta_curves::pallas::Affine::from_bytes` as decided in curves.ts: x (bit 255 cleared) < p;
 * x = 0 and x³ + 5 = 0 are accepted only without the sign bit (the identity, and the y = 0
 * points); otherwise x³ + 5 must be a square.
 */
export function checkPallasPoint(): bool {
  const w0 = load<u64>(input, 0), w1 = load<u64>(input, 8), w2 = load<u64>(input, 16), w3r = load<u64>(input, 24);
  const sign = w3r >> 63;
  const w3 = w3r & 0x7fffffffffffffff;
  if (!belowModulus(w0, w1, w2, w3)) return false;
  if ((w0 | w1 | w2 | w3) == 0) return sign == 0;
  const x = tmp(0), rhs = tmp(1), t = tmp(7);
  store<u64>(x, w0, 0); store<u64>(x, w1, 8); store<u64>(x, w2, 16); store<u64>(x, w3, 24);
  fromBytes(x, x);
  mul(rhs, x, x);
  mul(rhs, rhs, x);
  add(rhs, rhs, curveConstant); // < 2^256 + p
  reduce(t, rhs);
  pack(t, t);
  const r0 = load<u64>(t, 0), r1 = load<u64>(t, 8), r2 = load<u64>(t, 16), r3 = load<u64>(t, 24);
  if ((r0 | r1 | r2 | r3) == 0) return sign == 0;
  return jacobi(r0, r1, r2, r3) >= 0;
}

/**
 * The Legendre symbol (−1, 0 or 1) of the value at the input (below the modulus): jacobi()
 * exposed so tests can aim at its word-boundary cases directly.
 */
export function legendreOfInput(): i32 {
  return jacobi(load<u64>(input, 0), load<u64>(input, 8), load<u64>(input, 16), load<u64>(input, 24));
}
