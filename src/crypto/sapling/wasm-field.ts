/**
 * The WebAssembly field arithmetic (assembly/field/mont29.ts): its modules, loaded by the shared
 * loader, and the Montgomery constants each is set up with.
 */
export { loadWasmModule } from '../../wasm-module.js';

const LIMB_BITS = 29n;
const LIMBS = 9;
const ELEMENT_BYTES = 36;
/** Layout of the constants block (assembly/field/mont29.ts setModulus()). */
const INVERSE_TABLE_OFFSET = 5 * ELEMENT_BYTES + 4 + 3 * ELEMENT_BYTES;
const INVERSE_SHIFTS = 512;

/**
 * The constants block assembly/field/mont29.ts `setModulus()` reads, for an odd prime p < 2^255:
 * p, 4p, R mod p, R² mod p and R³ mod p (R = 2^261) as 29-bit limbs, −p⁻¹ mod 2^29, and the
 * table 2^(−k)·R³ mod p (k < 512) the inversion ends with. p must be ≡ 1 (mod 2^29), as Jubjub's
 * q and Pallas' p are. `size` is the module's CONSTANTS_BYTES (the tail is scratch, left zero).
 */
export function montgomeryConstants(p: bigint, size: number): Uint8Array {
  if (p <= 2n || p >= 1n << 255n) throw new RangeError('modulus must be below 2^255');
  // The multiplication's reduction step is specialised to this (see assembly/field/mont29.ts).
  if (p % (1n << LIMB_BITS) !== 1n) throw new RangeError('modulus must be ≡ 1 (mod 2^29)');
  if (size < INVERSE_TABLE_OFFSET + INVERSE_SHIFTS * ELEMENT_BYTES) throw new RangeError(`constants block of ${size} bytes is too small`);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  const putLimbs = (at: number, value: bigint): void => {
    let v = value;
    for (let i = 0; i < LIMBS; i++, v >>= LIMB_BITS) view.setUint32(at + 4 * i, Number(v & ((1n << LIMB_BITS) - 1n)), true);
  };
  const r = (1n << (LIMB_BITS * BigInt(LIMBS))) % p;
  putLimbs(0, p);
  putLimbs(ELEMENT_BYTES, 4n * p);
  putLimbs(2 * ELEMENT_BYTES, r);
  putLimbs(3 * ELEMENT_BYTES, (r * r) % p);
  const r3 = (r * r * r) % p;
  putLimbs(4 * ELEMENT_BYTES, r3);
  view.setUint32(5 * ELEMENT_BYTES, Number(negInverseMod2k(p, LIMB_BITS)), true);
  // 2^(−k)·R³ for the inversion's final correction, k = 0 … INVERSE_SHIFTS − 1.
  const halfP = (p + 1n) / 2n; // 2⁻¹ mod p
  let c = r3;
  for (let k = 0, at = INVERSE_TABLE_OFFSET; k < INVERSE_SHIFTS; k++, at += ELEMENT_BYTES) {
    putLimbs(at, c);
    c = (c * halfP) % p;
  }
  return out;
}

/** −p⁻¹ mod 2^k by Newton iteration (each step doubles the correct low bits). */
function negInverseMod2k(p: bigint, k: bigint): bigint {
  const mod = 1n << k;
  let inv = 1n;
  for (let i = 0; i < 6; i++) inv = (inv * (2n - p * inv)) % mod;
  return (mod - (((inv % mod) + mod) % mod)) % mod;
}
