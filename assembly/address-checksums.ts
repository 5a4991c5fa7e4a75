// Base58Check checksums of t-address payloads (a 2-byte prefix and a 20-byte hash): the first
// word of SHA-256d, four payloads at a time, one per lane of 128-bit SIMD.
//
// getblock verbosity 2 prints an address for every transparent output, and an explorer reads
// each block once, so a block of pool payouts is tens of thousands of fresh addresses. Through
// node:crypto each checksum is two native calls (≈ 450 ns in a rendering); here four share each
// instruction (≈ 220 ns each, copies included; no SHA extensions in WebAssembly, so one lane is
// slower than OpenSSL's, four are not). The host copies `count` payloads, 22 bytes apart, to
// inputPointer(), calls checksums(count) and reads the words (big-endian values) at
// outputPointer().

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

export function inputPointer(): usize {
  return changetype<usize>(INPUT);
}

export function outputPointer(): usize {
  return changetype<usize>(OUTPUT);
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
