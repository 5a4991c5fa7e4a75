// Arithmetic modulo a prime p < 2^255 in Montgomery form, for WebAssembly.
//
// An element is 9 little-endian limbs of 29 bits, each stored as a u32 (36 bytes), with
// R = 2^261. 29-bit limbs keep every 29×29-bit product below 2^58, so a whole column of a
// product-scanning multiplication (up to 18 products) sums in a u64 without carry handling
// per product; with 32-bit limbs every product would need its own carry.
//
// Lazy reduction: mul() accepts inputs below 2^258 and returns a value below 2^256 (not fully
// reduced), add() and sub() do not reduce at all. Callers keep to these bounds (see add()
// and sub()), and reduce() gives the canonical value when one is needed (output, comparisons).
//
// The modulus is not compiled in: an entry file calls setModulus() once with constants the host
// computed for its own prime, so one copy of this code serves Jubjub's base field and Pallas'
// alike. Both primes are ≡ 1 (mod 2^32), which mul() exploits (see setModulus()).

export const LIMBS: i32 = 9;
export const LIMB_BITS: u64 = 29;
export const MASK: u64 = 0x1fffffff;
/** Bytes of one element in memory. */
export const ELEMENT_BYTES: usize = 36;
/** invert()'s shift count k is below 2·255 + 2; the host tabulates 2^(−k)·R³ for k < 512. */
export const INVERSE_SHIFTS: i32 = 512;

// p, then 4p (the offset that keeps sub() non-negative for subtrahends below 4p), as limbs.
let P0: u64 = 0; let P1: u64 = 0; let P2: u64 = 0; let P3: u64 = 0; let P4: u64 = 0;
let P5: u64 = 0; let P6: u64 = 0; let P7: u64 = 0; let P8: u64 = 0;
let Q0: i64 = 0; let Q1: i64 = 0; let Q2: i64 = 0; let Q3: i64 = 0; let Q4: i64 = 0;
let Q5: i64 = 0; let Q6: i64 = 0; let Q7: i64 = 0; let Q8: i64 = 0;
// Constants the host passes as elements: R mod p (one), R² mod p (to enter Montgomery form),
// R³ mod p (to return to it after a plain inversion).
let P_PTR: usize = 0;
let ONE_PTR: usize = 0;
let R2_PTR: usize = 0;
let R3_PTR: usize = 0;
// 2^(−k)·R³ mod p for k = 0 … INVERSE_SHIFTS − 1: invert()'s final correction.
let TWO_POW_NEG_K: usize = 0;
let SCRATCH: usize = 0;
// p as four 64-bit words, for the binary GCD.
let PW0: u64 = 0; let PW1: u64 = 0; let PW2: u64 = 0; let PW3: u64 = 0;

/**
 * Installs the modulus. `constants` points at: p (36 bytes, limbs), 4p (36), R mod p (36),
 * R² mod p (36), R³ mod p (36), −p⁻¹ mod 2^29 (u32), 3 × 36 bytes of scratch this module may
 * use, then 2^(−k)·R³ mod p for k = 0 … INVERSE_SHIFTS − 1 (36 bytes each). The block must stay
 * in place for the module's lifetime. p must be ≡ 1 (mod 2^29).
 */
export function setModulus(constants: usize): void {
  P0 = load<u32>(constants, 0); P1 = load<u32>(constants, 4); P2 = load<u32>(constants, 8);
  P3 = load<u32>(constants, 12); P4 = load<u32>(constants, 16); P5 = load<u32>(constants, 20);
  P6 = load<u32>(constants, 24); P7 = load<u32>(constants, 28); P8 = load<u32>(constants, 32);
  const q = constants + 36;
  Q0 = load<u32>(q, 0); Q1 = load<u32>(q, 4); Q2 = load<u32>(q, 8);
  Q3 = load<u32>(q, 12); Q4 = load<u32>(q, 16); Q5 = load<u32>(q, 20);
  Q6 = load<u32>(q, 24); Q7 = load<u32>(q, 28); Q8 = load<u32>(q, 32);
  P_PTR = constants;
  ONE_PTR = constants + 72;
  R2_PTR = constants + 108;
  R3_PTR = constants + 144;
  // mul() relies on p ≡ 1 (mod 2^29), true of Jubjub's q and Pallas' p (both ≡ 1 mod 2^32):
  // then −p⁻¹ ≡ −1 and each reduction digit is just −acc mod 2^29, no multiplications.
  if (load<u32>(constants, 180) != <u32>MASK || P0 != 1) unreachable();
  SCRATCH = constants + 184;
  TWO_POW_NEG_K = constants + 184 + 3 * ELEMENT_BYTES;
  pack(SCRATCH, P_PTR);
  PW0 = load<u64>(SCRATCH, 0); PW1 = load<u64>(SCRATCH, 8); PW2 = load<u64>(SCRATCH, 16); PW3 = load<u64>(SCRATCH, 24);
}

/** Size of the block setModulus() expects. */
export const CONSTANTS_BYTES: usize = 184 + 3 * 36 + <usize>INVERSE_SHIFTS * 36;

/** r = a·b·R⁻¹ mod p (not fully reduced: < 2^256 for a, b < 2^258). r may alias a or b. */
export function mul(r: usize, a: usize, b: usize): void {
  const a0 = <u64>load<u32>(a, 0);
  const a1 = <u64>load<u32>(a, 4);
  const a2 = <u64>load<u32>(a, 8);
  const a3 = <u64>load<u32>(a, 12);
  const a4 = <u64>load<u32>(a, 16);
  const a5 = <u64>load<u32>(a, 20);
  const a6 = <u64>load<u32>(a, 24);
  const a7 = <u64>load<u32>(a, 28);
  const a8 = <u64>load<u32>(a, 32);
  const b0 = <u64>load<u32>(b, 0);
  const b1 = <u64>load<u32>(b, 4);
  const b2 = <u64>load<u32>(b, 8);
  const b3 = <u64>load<u32>(b, 12);
  const b4 = <u64>load<u32>(b, 16);
  const b5 = <u64>load<u32>(b, 20);
  const b6 = <u64>load<u32>(b, 24);
  const b7 = <u64>load<u32>(b, 28);
  const b8 = <u64>load<u32>(b, 32);
  const p0 = P0;
  const p1 = P1;
  const p2 = P2;
  const p3 = P3;
  const p4 = P4;
  const p5 = P5;
  const p6 = P6;
  const p7 = P7;
  const p8 = P8;
  let acc: u64 = 0;
  acc += a0 * b0;
  const m0 = (0 - acc) & MASK;
  acc = (acc + m0) >> LIMB_BITS;
  acc += a0 * b1 + a1 * b0 + m0 * p1;
  const m1 = (0 - acc) & MASK;
  acc = (acc + m1) >> LIMB_BITS;
  acc += a0 * b2 + a1 * b1 + a2 * b0 + m0 * p2 + m1 * p1;
  const m2 = (0 - acc) & MASK;
  acc = (acc + m2) >> LIMB_BITS;
  acc += a0 * b3 + a1 * b2 + a2 * b1 + a3 * b0 + m0 * p3 + m1 * p2 + m2 * p1;
  const m3 = (0 - acc) & MASK;
  acc = (acc + m3) >> LIMB_BITS;
  acc += a0 * b4 + a1 * b3 + a2 * b2 + a3 * b1 + a4 * b0 + m0 * p4 + m1 * p3 + m2 * p2 + m3 * p1;
  const m4 = (0 - acc) & MASK;
  acc = (acc + m4) >> LIMB_BITS;
  acc += a0 * b5 + a1 * b4 + a2 * b3 + a3 * b2 + a4 * b1 + a5 * b0 + m0 * p5 + m1 * p4 + m2 * p3 + m3 * p2 + m4 * p1;
  const m5 = (0 - acc) & MASK;
  acc = (acc + m5) >> LIMB_BITS;
  acc += a0 * b6 + a1 * b5 + a2 * b4 + a3 * b3 + a4 * b2 + a5 * b1 + a6 * b0 + m0 * p6 + m1 * p5 + m2 * p4 + m3 * p3 + m4 * p2 + m5 * p1;
  const m6 = (0 - acc) & MASK;
  acc = (acc + m6) >> LIMB_BITS;
  acc += a0 * b7 + a1 * b6 + a2 * b5 + a3 * b4 + a4 * b3 + a5 * b2 + a6 * b1 + a7 * b0 + m0 * p7 + m1 * p6 + m2 * p5 + m3 * p4 + m4 * p3 + m5 * p2 + m6 * p1;
  const m7 = (0 - acc) & MASK;
  acc = (acc + m7) >> LIMB_BITS;
  acc += a0 * b8 + a1 * b7 + a2 * b6 + a3 * b5 + a4 * b4 + a5 * b3 + a6 * b2 + a7 * b1 + a8 * b0 + m0 * p8 + m1 * p7 + m2 * p6 + m3 * p5 + m4 * p4 + m5 * p3 + m6 * p2 + m7 * p1;
  const m8 = (0 - acc) & MASK;
  acc = (acc + m8) >> LIMB_BITS;
  acc += a1 * b8 + a2 * b7 + a3 * b6 + a4 * b5 + a5 * b4 + a6 * b3 + a7 * b2 + a8 * b1 + m1 * p8 + m2 * p7 + m3 * p6 + m4 * p5 + m5 * p4 + m6 * p3 + m7 * p2 + m8 * p1;
  store<u32>(r, <u32>(acc & MASK), 0);
  acc >>= LIMB_BITS;
  acc += a2 * b8 + a3 * b7 + a4 * b6 + a5 * b5 + a6 * b4 + a7 * b3 + a8 * b2 + m2 * p8 + m3 * p7 + m4 * p6 + m5 * p5 + m6 * p4 + m7 * p3 + m8 * p2;
  store<u32>(r, <u32>(acc & MASK), 4);
  acc >>= LIMB_BITS;
  acc += a3 * b8 + a4 * b7 + a5 * b6 + a6 * b5 + a7 * b4 + a8 * b3 + m3 * p8 + m4 * p7 + m5 * p6 + m6 * p5 + m7 * p4 + m8 * p3;
  store<u32>(r, <u32>(acc & MASK), 8);
  acc >>= LIMB_BITS;
  acc += a4 * b8 + a5 * b7 + a6 * b6 + a7 * b5 + a8 * b4 + m4 * p8 + m5 * p7 + m6 * p6 + m7 * p5 + m8 * p4;
  store<u32>(r, <u32>(acc & MASK), 12);
  acc >>= LIMB_BITS;
  acc += a5 * b8 + a6 * b7 + a7 * b6 + a8 * b5 + m5 * p8 + m6 * p7 + m7 * p6 + m8 * p5;
  store<u32>(r, <u32>(acc & MASK), 16);
  acc >>= LIMB_BITS;
  acc += a6 * b8 + a7 * b7 + a8 * b6 + m6 * p8 + m7 * p7 + m8 * p6;
  store<u32>(r, <u32>(acc & MASK), 20);
  acc >>= LIMB_BITS;
  acc += a7 * b8 + a8 * b7 + m7 * p8 + m8 * p7;
  store<u32>(r, <u32>(acc & MASK), 24);
  acc >>= LIMB_BITS;
  acc += a8 * b8 + m8 * p8;
  store<u32>(r, <u32>(acc & MASK), 28);
  acc >>= LIMB_BITS;
  store<u32>(r, <u32>acc, 32);
}

/** r = a + b, limbs normalized, no reduction (bounds add: a + b < 2^258 is the caller's job). */
@inline
export function add(r: usize, a: usize, b: usize): void {
  let c: u64 = <u64>load<u32>(a, 0) + <u64>load<u32>(b, 0);
  store<u32>(r, <u32>(c & MASK), 0); c >>= LIMB_BITS;
  c += <u64>load<u32>(a, 4) + <u64>load<u32>(b, 4);
  store<u32>(r, <u32>(c & MASK), 4); c >>= LIMB_BITS;
  c += <u64>load<u32>(a, 8) + <u64>load<u32>(b, 8);
  store<u32>(r, <u32>(c & MASK), 8); c >>= LIMB_BITS;
  c += <u64>load<u32>(a, 12) + <u64>load<u32>(b, 12);
  store<u32>(r, <u32>(c & MASK), 12); c >>= LIMB_BITS;
  c += <u64>load<u32>(a, 16) + <u64>load<u32>(b, 16);
  store<u32>(r, <u32>(c & MASK), 16); c >>= LIMB_BITS;
  c += <u64>load<u32>(a, 20) + <u64>load<u32>(b, 20);
  store<u32>(r, <u32>(c & MASK), 20); c >>= LIMB_BITS;
  c += <u64>load<u32>(a, 24) + <u64>load<u32>(b, 24);
  store<u32>(r, <u32>(c & MASK), 24); c >>= LIMB_BITS;
  c += <u64>load<u32>(a, 28) + <u64>load<u32>(b, 28);
  store<u32>(r, <u32>(c & MASK), 28); c >>= LIMB_BITS;
  c += <u64>load<u32>(a, 32) + <u64>load<u32>(b, 32);
  store<u32>(r, <u32>c, 32);
}

/**
 * r = a − b + 4p, limbs normalized: non-negative for any b < 4p (every mul() output and every
 * value below 2^256 qualifies). No reduction.
 */
@inline
export function sub(r: usize, a: usize, b: usize): void {
  let c: i64 = <i64>load<u32>(a, 0) - <i64>load<u32>(b, 0) + Q0;
  store<u32>(r, <u32>(c & <i64>MASK), 0); c >>= <i64>LIMB_BITS;
  c += <i64>load<u32>(a, 4) - <i64>load<u32>(b, 4) + Q1;
  store<u32>(r, <u32>(c & <i64>MASK), 4); c >>= <i64>LIMB_BITS;
  c += <i64>load<u32>(a, 8) - <i64>load<u32>(b, 8) + Q2;
  store<u32>(r, <u32>(c & <i64>MASK), 8); c >>= <i64>LIMB_BITS;
  c += <i64>load<u32>(a, 12) - <i64>load<u32>(b, 12) + Q3;
  store<u32>(r, <u32>(c & <i64>MASK), 12); c >>= <i64>LIMB_BITS;
  c += <i64>load<u32>(a, 16) - <i64>load<u32>(b, 16) + Q4;
  store<u32>(r, <u32>(c & <i64>MASK), 16); c >>= <i64>LIMB_BITS;
  c += <i64>load<u32>(a, 20) - <i64>load<u32>(b, 20) + Q5;
  store<u32>(r, <u32>(c & <i64>MASK), 20); c >>= <i64>LIMB_BITS;
  c += <i64>load<u32>(a, 24) - <i64>load<u32>(b, 24) + Q6;
  store<u32>(r, <u32>(c & <i64>MASK), 24); c >>= <i64>LIMB_BITS;
  c += <i64>load<u32>(a, 28) - <i64>load<u32>(b, 28) + Q7;
  store<u32>(r, <u32>(c & <i64>MASK), 28); c >>= <i64>LIMB_BITS;
  c += <i64>load<u32>(a, 32) - <i64>load<u32>(b, 32) + Q8;
  store<u32>(r, <u32>c, 32);
}

/** r = a. */
@inline
export function copy(r: usize, a: usize): void {
  memory.copy(r, a, ELEMENT_BYTES);
}

/** Sets r to the Montgomery form of 1. */
export function setOne(r: usize): void {
  copy(r, ONE_PTR);
}

/** Sets r to 0. */
export function setZero(r: usize): void {
  memory.fill(r, 0, ELEMENT_BYTES);
}

/** r = a mod p, fully reduced, for any normalized a < 2^261. */
export function reduce(r: usize, a: usize): void {
  copy(r, a);
  while (!lessThanP(r)) subtractP(r);
}

function lessThanP(a: usize): bool {
  // Compare from the top limb down.
  for (let i = LIMBS - 1; i >= 0; i--) {
    const x = load<u32>(a + (<usize>i << 2));
    const y = load<u32>(P_PTR + (<usize>i << 2));
    if (x != y) return x < y;
  }
  return false;
}

function subtractP(a: usize): void {
  let c: i64 = 0;
  for (let i = 0; i < LIMBS; i++) {
    const at = a + (<usize>i << 2);
    c += <i64>load<u32>(at) - <i64>load<u32>(P_PTR + (<usize>i << 2));
    store<u32>(at, <u32>(c & <i64>MASK));
    c >>= <i64>LIMB_BITS;
  }
}

/** r = Montgomery form of the 32-byte little-endian integer at `bytes` (which must be < 2^256). */
export function fromBytes(r: usize, bytes: usize): void {
  unpack(r, bytes);
  mul(r, r, R2_PTR);
}

/** Writes the canonical value of a (Montgomery form) as 32 little-endian bytes. */
export function toBytes(bytes: usize, a: usize): void {
  const t = SCRATCH;
  // Multiplying by the plain integer 1 leaves Montgomery form; the result is ≤ p.
  memory.fill(t + ELEMENT_BYTES, 0, ELEMENT_BYTES);
  store<u32>(t + ELEMENT_BYTES, 1);
  mul(t, a, t + ELEMENT_BYTES);
  reduce(t, t);
  pack(bytes, t);
}

/** Limbs of the 256-bit little-endian integer at `bytes`. */
export function unpack(r: usize, bytes: usize): void {
  const w0 = load<u64>(bytes, 0), w1 = load<u64>(bytes, 8), w2 = load<u64>(bytes, 16), w3 = load<u64>(bytes, 24);
  store<u32>(r, <u32>(w0 & MASK), 0);
  store<u32>(r, <u32>((w0 >> 29) & MASK), 4);
  store<u32>(r, <u32>(((w0 >> 58) | (w1 << 6)) & MASK), 8);
  store<u32>(r, <u32>((w1 >> 23) & MASK), 12);
  store<u32>(r, <u32>(((w1 >> 52) | (w2 << 12)) & MASK), 16);
  store<u32>(r, <u32>((w2 >> 17) & MASK), 20);
  store<u32>(r, <u32>(((w2 >> 46) | (w3 << 18)) & MASK), 24);
  store<u32>(r, <u32>((w3 >> 11) & MASK), 28);
  store<u32>(r, <u32>(w3 >> 40), 32);
}

/** The 256-bit little-endian integer of limbs a (a < 2^256). */
export function pack(bytes: usize, a: usize): void {
  const l0 = <u64>load<u32>(a, 0), l1 = <u64>load<u32>(a, 4), l2 = <u64>load<u32>(a, 8);
  const l3 = <u64>load<u32>(a, 12), l4 = <u64>load<u32>(a, 16), l5 = <u64>load<u32>(a, 20);
  const l6 = <u64>load<u32>(a, 24), l7 = <u64>load<u32>(a, 28), l8 = <u64>load<u32>(a, 32);
  store<u64>(bytes, l0 | (l1 << 29) | (l2 << 58), 0);
  store<u64>(bytes, (l2 >> 6) | (l3 << 23) | (l4 << 52), 8);
  store<u64>(bytes, (l4 >> 12) | (l5 << 17) | (l6 << 46), 16);
  store<u64>(bytes, (l6 >> 18) | (l7 << 11) | (l8 << 40), 24);
}

/**
 * r = a⁻¹; 0 maps to 0. r may alias a.
 *
 * Kaliski's almost-inverse on the canonical value A = aR mod p: a binary GCD that yields
 * A⁻¹·2^k for some k in [255, 510], which one Montgomery multiplication by the host's
 * 2^(−k)·R³ turns into a⁻¹R. Runs of halvings are taken in one shift (count trailing zeros), so
 * the only data-dependent branch per step is which of u, v is larger. Variable time: the inputs
 * are public tree nodes.
 */
export function invert(r: usize, a: usize): void {
  const t = SCRATCH;
  const bytes = SCRATCH + ELEMENT_BYTES;
  reduce(t, a);
  pack(bytes, t);
  let v0 = load<u64>(bytes, 0), v1 = load<u64>(bytes, 8), v2 = load<u64>(bytes, 16), v3 = load<u64>(bytes, 24);
  if ((v0 | v1 | v2 | v3) == 0) {
    setZero(r);
    return;
  }
  // Invariant (Kaliski): p = u·s + v·r, so r, s ≤ p until the last step, which may double r to
  // below 2p; everything fits in 256 bits since p < 2^255.
  let u0 = PW0, u1 = PW1, u2 = PW2, u3 = PW3;
  let r0: u64 = 0, r1: u64 = 0, r2: u64 = 0, r3: u64 = 0;
  let s0: u64 = 1, s1: u64 = 0, s2: u64 = 0, s3: u64 = 0;
  let k: i32 = 0;
  // Make v odd (r = 0, so it needs no shift).
  while (v0 == 0) { v0 = v1; v1 = v2; v2 = v3; v3 = 0; k += 64; }
  let tz = <i32>ctz(v0);
  if (tz != 0) {
    const sh = <u64>tz, back = <u64>(64 - tz);
    v0 = (v0 >> sh) | (v1 << back); v1 = (v1 >> sh) | (v2 << back); v2 = (v2 >> sh) | (v3 << back); v3 >>= sh;
    k += tz;
  }
  while (true) {
    // u and v are odd here.
    const uGreater = u3 != v3 ? u3 > v3 : u2 != v2 ? u2 > v2 : u1 != v1 ? u1 > v1 : u0 > v0;
    let b: u64, d: u64, c: u64, x: u64;
    if (uGreater) {
      // u = (u − v) / 2^tz, r += s, s ·= 2^tz
      d = u0 - v0; b = u64(u0 < v0); u0 = d;
      d = u1 - v1 - b; b = u64(u1 < v1 || (b != 0 && u1 == v1)); u1 = d;
      d = u2 - v2 - b; b = u64(u2 < v2 || (b != 0 && u2 == v2)); u2 = d;
      u3 = u3 - v3 - b;
      x = r0 + s0; c = u64(x < r0); r0 = x;
      x = r1 + s1 + c; c = u64(x < r1 || (c != 0 && x == r1)); r1 = x;
      x = r2 + s2 + c; c = u64(x < r2 || (c != 0 && x == r2)); r2 = x;
      r3 = r3 + s3 + c;
      while (u0 == 0) {
        u0 = u1; u1 = u2; u2 = u3; u3 = 0;
        s3 = s2; s2 = s1; s1 = s0; s0 = 0;
        k += 64;
      }
      tz = <i32>ctz(u0);
      if (tz != 0) {
        const sh = <u64>tz, back = <u64>(64 - tz);
        u0 = (u0 >> sh) | (u1 << back); u1 = (u1 >> sh) | (u2 << back); u2 = (u2 >> sh) | (u3 << back); u3 >>= sh;
        s3 = (s3 << sh) | (s2 >> back); s2 = (s2 << sh) | (s1 >> back); s1 = (s1 << sh) | (s0 >> back); s0 <<= sh;
        k += tz;
      }
    } else {
      // v = (v − u) / 2^tz, s += r, r ·= 2^tz; v = u means both are gcd = 1: done.
      d = v0 - u0; b = u64(v0 < u0); v0 = d;
      d = v1 - u1 - b; b = u64(v1 < u1 || (b != 0 && v1 == u1)); v1 = d;
      d = v2 - u2 - b; b = u64(v2 < u2 || (b != 0 && v2 == u2)); v2 = d;
      v3 = v3 - u3 - b;
      x = s0 + r0; c = u64(x < s0); s0 = x;
      x = s1 + r1 + c; c = u64(x < s1 || (c != 0 && x == s1)); s1 = x;
      x = s2 + r2 + c; c = u64(x < s2 || (c != 0 && x == s2)); s2 = x;
      s3 = s3 + r3 + c;
      if ((v0 | v1 | v2 | v3) == 0) {
        r3 = (r3 << 1) | (r2 >> 63); r2 = (r2 << 1) | (r1 >> 63); r1 = (r1 << 1) | (r0 >> 63); r0 <<= 1;
        k += 1;
        break;
      }
      while (v0 == 0) {
        v0 = v1; v1 = v2; v2 = v3; v3 = 0;
        r3 = r2; r2 = r1; r1 = r0; r0 = 0;
        k += 64;
      }
      tz = <i32>ctz(v0);
      if (tz != 0) {
        const sh = <u64>tz, back = <u64>(64 - tz);
        v0 = (v0 >> sh) | (v1 << back); v1 = (v1 >> sh) | (v2 << back); v2 = (v2 >> sh) | (v3 << back); v3 >>= sh;
        r3 = (r3 << sh) | (r2 >> back); r2 = (r2 << sh) | (r1 >> back); r1 = (r1 << sh) | (r0 >> back); r0 <<= sh;
        k += tz;
      }
    }
  }
  // A⁻¹·2^k = p − (r mod p), r < 2p.
  store<u64>(bytes, r0, 0); store<u64>(bytes, r1, 8); store<u64>(bytes, r2, 16); store<u64>(bytes, r3, 24);
  unpack(t, bytes);
  reduce(t, t);
  sub(t, P_PTR, t); // p − r + 4p
  reduce(t, t);
  mul(r, t, TWO_POW_NEG_K + <usize>k * ELEMENT_BYTES);
}

/**
 * Replaces each of `count` elements (stride `stride` bytes, starting at `elems`) by its inverse
 * with one inversion (Montgomery's trick). `prefix` is scratch for count elements. No element
 * may be 0.
 */
export function batchInvert(elems: usize, stride: usize, count: i32, prefix: usize): void {
  if (count <= 0) return;
  copy(prefix, elems);
  for (let i = 1; i < count; i++) {
    mul(prefix + <usize>i * ELEMENT_BYTES, prefix + <usize>(i - 1) * ELEMENT_BYTES, elems + <usize>i * stride);
  }
  const inv = SCRATCH;
  invert(inv, prefix + <usize>(count - 1) * ELEMENT_BYTES);
  for (let i = count - 1; i > 0; i--) {
    const e = elems + <usize>i * stride;
    const t = SCRATCH + ELEMENT_BYTES;
    // inv = (e_0 … e_i)⁻¹: e_i⁻¹ = inv · (e_0 … e_{i−1}); then drop e_i from inv.
    mul(t, inv, prefix + <usize>(i - 1) * ELEMENT_BYTES);
    mul(inv, inv, e);
    copy(e, t);
  }
  copy(elems, inv);
}
