// Base58Check checksums of t-address payloads (a 2-byte prefix and a 20-byte hash): the first
// word of SHA-256d, four payloads at a time, one per lane of 128-bit SIMD.
//
// getblock verbosity 2 prints an address for every transparent output, and an explorer reads
// each block once, so a block of pool payouts is tens of thousands of fresh addresses. Through
// node:crypto each checksum is two native calls (≈ 450 ns in a rendering); here four share each
// instruction (≈ 220 ns each, copies included; no SHA extensions in WebAssembly, so one lane is
// slower than OpenSSL's, four are not). The host copies `count` payloads, 22 bytes apart, to
// inputPointer(), calls checksums(count) and reads the words (big-endian values) at
// outputPointer(); or calls texts(count) and reads each address's Base58Check text at
// textsPointer(), a 40-byte record each: its length, then from its fifth byte its characters.

const PAYLOAD = 22;
/** Payloads per call. */
const CAPACITY = 1024;

const K: StaticArray<u32> = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];
const H0: StaticArray<u32> = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** The message schedule and the state, four lanes each. */
const W = new StaticArray<v128>(64);
const S = new StaticArray<v128>(8);
const INPUT = new StaticArray<u8>(PAYLOAD * (CAPACITY + 3));
const OUTPUT = new StaticArray<u32>(CAPACITY + 3);

/** Base58 (Bitcoin's alphabet). */
const ALPHABET: StaticArray<u8> = [
  0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6d, 0x6e, 0x6f, 0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a,
];
const CHUNK: f64 = 11316496; // 58^4
const TEXT_RECORD = 40;
/** Where a record's text starts (its first byte is the length): a word boundary, for the host's copy. */
const TEXT_AT = 4;
const TEXTS = new StaticArray<u8>(TEXT_RECORD * CAPACITY);
/** An address's digits (least significant first). */
const DIGITS = new StaticArray<u8>(40);

export function inputPointer(): usize {
  return changetype<usize>(INPUT);
}

export function outputPointer(): usize {
  return changetype<usize>(OUTPUT);
}

export function textsPointer(): usize {
  return changetype<usize>(TEXTS);
}

export function capacity(): i32 {
  return CAPACITY;
}

@inline
function rotr(x: v128, n: i32): v128 {
  return v128.or(i32x4.shr_u(x, n), i32x4.shl(x, 32 - n));
}

/** One SHA-256 block per lane, W[0..16) given, from the initial state; the result in S. */
function compress(): void {
  for (let i = 16; i < 64; i++) {
    const w15 = unchecked(W[i - 15]);
    const w2 = unchecked(W[i - 2]);
    const s0 = v128.xor(v128.xor(rotr(w15, 7), rotr(w15, 18)), i32x4.shr_u(w15, 3));
    const s1 = v128.xor(v128.xor(rotr(w2, 17), rotr(w2, 19)), i32x4.shr_u(w2, 10));
    unchecked((W[i] = i32x4.add(i32x4.add(unchecked(W[i - 16]), s0), i32x4.add(unchecked(W[i - 7]), s1))));
  }
  let a = i32x4.splat(unchecked(H0[0]));
  let b = i32x4.splat(unchecked(H0[1]));
  let c = i32x4.splat(unchecked(H0[2]));
  let d = i32x4.splat(unchecked(H0[3]));
  let e = i32x4.splat(unchecked(H0[4]));
  let f = i32x4.splat(unchecked(H0[5]));
  let g = i32x4.splat(unchecked(H0[6]));
  let h = i32x4.splat(unchecked(H0[7]));
  for (let i = 0; i < 64; i++) {
    const s1 = v128.xor(v128.xor(rotr(e, 6), rotr(e, 11)), rotr(e, 25));
    const ch = v128.xor(v128.and(e, f), v128.andnot(g, e));
    const t1 = i32x4.add(i32x4.add(i32x4.add(h, s1), i32x4.add(ch, i32x4.splat(unchecked(K[i])))), unchecked(W[i]));
    const s0 = v128.xor(v128.xor(rotr(a, 2), rotr(a, 13)), rotr(a, 22));
    const maj = v128.or(v128.and(a, b), v128.and(c, v128.or(a, b)));
    h = g;
    g = f;
    f = e;
    e = i32x4.add(d, t1);
    d = c;
    c = b;
    b = a;
    a = i32x4.add(t1, i32x4.add(s0, maj));
  }
  unchecked((S[0] = i32x4.add(a, i32x4.splat(unchecked(H0[0])))));
  unchecked((S[1] = i32x4.add(b, i32x4.splat(unchecked(H0[1])))));
  unchecked((S[2] = i32x4.add(c, i32x4.splat(unchecked(H0[2])))));
  unchecked((S[3] = i32x4.add(d, i32x4.splat(unchecked(H0[3])))));
  unchecked((S[4] = i32x4.add(e, i32x4.splat(unchecked(H0[4])))));
  unchecked((S[5] = i32x4.add(f, i32x4.splat(unchecked(H0[5])))));
  unchecked((S[6] = i32x4.add(g, i32x4.splat(unchecked(H0[6])))));
  unchecked((S[7] = i32x4.add(h, i32x4.splat(unchecked(H0[7])))));
}

@inline
function wordAt(p: usize): u32 {
  return bswap<u32>(load<u32>(p));
}

/** Bytes 20 and 21 of a payload, then the padding's 0x80, as the sixth message word. */
@inline
function lastWord(p: usize): u32 {
  return (<u32>load<u8>(p + 20) << 24) | (<u32>load<u8>(p + 21) << 16) | 0x8000;
}

/** The checksums of the first `count` payloads, at most CAPACITY (lanes past them hash whatever lies there). */
export function checksums(count: i32): void {
  if (count > CAPACITY) count = CAPACITY;
  const base = changetype<usize>(INPUT);
  const out = changetype<usize>(OUTPUT);
  for (let n = 0; n < count; n += 4) {
    const p0 = base + <usize>(PAYLOAD * n);
    const p1 = p0 + PAYLOAD;
    const p2 = p1 + PAYLOAD;
    const p3 = p2 + PAYLOAD;
    // First SHA-256: the 22 bytes, 0x80, zeros, and the bit length 176, in one block.
    for (let i = 0; i < 5; i++) {
      const o = <usize>(4 * i);
      unchecked((W[i] = i32x4(wordAt(p0 + o), wordAt(p1 + o), wordAt(p2 + o), wordAt(p3 + o))));
    }
    unchecked((W[5] = i32x4(lastWord(p0), lastWord(p1), lastWord(p2), lastWord(p3))));
    for (let i = 6; i < 15; i++) unchecked((W[i] = i32x4.splat(0)));
    unchecked((W[15] = i32x4.splat(PAYLOAD * 8)));
    compress();
    // Second SHA-256: the 32-byte digest (its words as they are), 0x80, zeros, the bit length 256.
    for (let i = 0; i < 8; i++) unchecked((W[i] = unchecked(S[i])));
    unchecked((W[8] = i32x4.splat(0x80000000)));
    for (let i = 9; i < 15; i++) unchecked((W[i] = i32x4.splat(0)));
    unchecked((W[15] = i32x4.splat(256)));
    compress();
    v128.store(out + <usize>(4 * n), unchecked(S[0]));
  }
}

/**
 * The Base58Check texts of the first `count` payloads (at most CAPACITY) as records at
 * textsPointer(): EncodeBase58 of the payload and its checksum, one '1' per leading zero byte
 * (a record: the length, then from TEXT_AT the characters).
 */
export function texts(count: i32): void {
  if (count > CAPACITY) count = CAPACITY;
  checksums(count);
  const base = changetype<usize>(INPUT);
  for (let n = 0; n < count; n++) {
    addressText(base + <usize>(PAYLOAD * n), unchecked(OUTPUT[n]), changetype<usize>(TEXTS) + <usize>(TEXT_RECORD * n));
  }
}

/**
 * The Base58 of the payload at `a` and its checksum (a big-endian value) into the record at `record`, as src/codec/script/base58.ts
 * computes it: its nine big-endian 24-bit limbs (the first holds two bytes), limb k times the
 * base-58^4 digits of its weight 2^(24·(8−k)), summed per position (every sum is below 2^51,
 * exact in a double), then carried once.
 */
function addressText(a: usize, checksum: u32, record: usize): void {
  const l0: f64 = <f64>((<u32>load<u8>(a) << 8) | load<u8>(a + 1));
  const l1: f64 = <f64>((<u32>load<u8>(a + 2) << 16) | (<u32>load<u8>(a + 3) << 8) | load<u8>(a + 4));
  const l2: f64 = <f64>((<u32>load<u8>(a + 5) << 16) | (<u32>load<u8>(a + 6) << 8) | load<u8>(a + 7));
  const l3: f64 = <f64>((<u32>load<u8>(a + 8) << 16) | (<u32>load<u8>(a + 9) << 8) | load<u8>(a + 10));
  const l4: f64 = <f64>((<u32>load<u8>(a + 11) << 16) | (<u32>load<u8>(a + 12) << 8) | load<u8>(a + 13));
  const l5: f64 = <f64>((<u32>load<u8>(a + 14) << 16) | (<u32>load<u8>(a + 15) << 8) | load<u8>(a + 16));
  const l6: f64 = <f64>((<u32>load<u8>(a + 17) << 16) | (<u32>load<u8>(a + 18) << 8) | load<u8>(a + 19));
  const l7: f64 = <f64>((<u32>load<u8>(a + 20) << 16) | (<u32>load<u8>(a + 21) << 8) | (checksum >>> 24));
  const l8: f64 = <f64>(checksum & 0xffffff);
  const s0: f64 = l0 * 6601232 + l1 * 3048800 + l2 * 3285600 + l3 * 8924368 + l4 * 6321456 + l5 * 1538736 + l6 * 9349072 + l7 * 5460720 + l8 * 1;
  const s1: f64 = l0 * 2915615 + l1 * 5233962 + l2 * 1640858 + l3 * 11275907 + l4 * 10697261 + l5 * 410645 + l6 * 2239987 + l7 * 1;
  const s2: f64 = l0 * 3080177 + l1 * 6232438 + l2 * 1883810 + l3 * 1566228 + l4 * 6962111 + l5 * 2925827 + l6 * 2;
  const s3: f64 = l0 * 3769311 + l1 * 8325697 + l2 * 6422677 + l3 * 10317757 + l4 * 9403334 + l5 * 3;
  const s4: f64 = l0 * 1577798 + l1 * 5180900 + l2 * 1062476 + l3 * 1834259 + l4 * 4;
  const s5: f64 = l0 * 5243863 + l1 * 1267137 + l2 * 6994925 + l3 * 7;
  const s6: f64 = l0 * 3373116 + l1 * 8395012 + l2 * 10;
  const s7: f64 = l0 * 3824816 + l1 * 15;
  const s8: f64 = l0 * 23;
  const s9: f64 = 0;
  let carry: f64 = 0;
  const d = changetype<usize>(DIGITS);
  carry = position(d + 0, s0 + carry);
  carry = position(d + 4, s1 + carry);
  carry = position(d + 8, s2 + carry);
  carry = position(d + 12, s3 + carry);
  carry = position(d + 16, s4 + carry);
  carry = position(d + 20, s5 + carry);
  carry = position(d + 24, s6 + carry);
  carry = position(d + 28, s7 + carry);
  carry = position(d + 32, s8 + carry);
  carry = position(d + 36, s9 + carry);
  // Positions above the number's magnitude give zero digits; each leading zero byte is a '1'.
  let count = 40;
  while (count > 0 && load<u8>(d + <usize>(count - 1)) == 0x31) count--;
  let zeros = 0;
  while (zeros < PAYLOAD && load<u8>(a + <usize>zeros) == 0) zeros++;
  if (zeros == PAYLOAD) zeros += <i32>(clz<u32>(checksum) >> 3);
  store<u8>(record, <u8>(zeros + count));
  let o = record + TEXT_AT;
  for (let i = 0; i < zeros; i++) store<u8>(o++, 0x31);
  for (let i = count - 1; i >= 0; i--) store<u8>(o++, load<u8>(d + <usize>i));
}

/**
 * The four digits of `x` mod 58^4 (x an exact integer below 2^53) at `at`, least significant
 * first; returns the carry, ⌊x / 58^4⌋. The quotient from the reciprocal is off by at most one
 * either way, and corrected exactly.
 */
@inline
function position(at: usize, x: f64): f64 {
  let q = Math.floor(x * (1.0 / CHUNK));
  let r = x - q * CHUNK;
  if (r < 0) {
    q -= 1;
    r += CHUNK;
  } else if (r >= CHUNK) {
    q += 1;
    r -= CHUNK;
  }
  let v = <u32>r;
  for (let i: usize = 0; i < 4; i++) {
    const next = v / 58;
    store<u8>(at + i, unchecked(ALPHABET[v - 58 * next]));
    v = next;
  }
  return q;
}
