// The WebAssembly field arithmetic (assembly/field/mont29.ts, as built into sapling.wasm) against
// BigInt arithmetic modulo Jubjub's q, including the inputs that take its rare paths: values at
// the ends of the range, and inversions whose GCD meets a whole zero 64-bit word.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JUBJUB_Q } from '../../src/crypto/sapling/generators.js';
import { loadWasmModule, montgomeryConstants } from '../../src/crypto/sapling/wasm-field.js';

interface FieldExports {
  memory: WebAssembly.Memory;
  CONSTANTS_BYTES: WebAssembly.Global;
  alloc(bytes: number): number;
  setModulus(constants: number): void;
  fieldMul(r: number, a: number, b: number): void;
  fieldInvert(r: number, a: number): void;
  fieldFromBytes(r: number, bytes: number): void;
  fieldToBytes(bytes: number, a: number): void;
}

const q = JUBJUB_Q;
const x = new WebAssembly.Instance(loadWasmModule('sapling'), {
  env: {
    abort: () => {
      throw new Error('abort');
    },
  },
}).exports as unknown as FieldExports;
const constantsSize = x.CONSTANTS_BYTES.value as number;
const constants = x.alloc(constantsSize);
new Uint8Array(x.memory.buffer, constants, constantsSize).set(montgomeryConstants(q, constantsSize));
x.setModulus(constants);
const io = x.alloc(64);
const [ea, eb, er] = [x.alloc(36), x.alloc(36), x.alloc(36)];

function put(el: number, value: bigint): void {
  const bytes = new Uint8Array(x.memory.buffer, io, 32);
  let v = value;
  for (let i = 0; i < 32; i++, v >>= 8n) bytes[i] = Number(v & 0xffn);
  x.fieldFromBytes(el, io);
}

function get(el: number): bigint {
  x.fieldToBytes(io, el);
  const bytes = new Uint8Array(x.memory.buffer, io, 32);
  let v = 0n;
  for (let i = 31; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i]!);
  return v;
}

function modPow(base: bigint, exp: bigint): bigint {
  let result = 1n;
  let b = base % q;
  for (let e = exp; e > 0n; e >>= 1n, b = (b * b) % q) if (e & 1n) result = (result * b) % q;
  return result;
}

/** a⁻¹ mod m for odd m or a power-of-two m (extended Euclid). */
function modInverse(a: bigint, m: bigint): bigint {
  let [r0, r1, t0, t1] = [m, a % m, 0n, 1n];
  while (r1 !== 0n) {
    const quotient = r0 / r1;
    [r0, r1] = [r1, r0 - quotient * r1];
    [t0, t1] = [t1, t0 - quotient * t1];
  }
  return ((t0 % m) + m) % m;
}

const edge = [
  0n,
  1n,
  2n,
  3n,
  q - 1n,
  q - 2n,
  (q + 1n) / 2n,
  1n << 64n,
  1n << 128n,
  1n << 192n,
  1n << 254n,
  (1n << 255n) - 1n,
  (1n << 256n) - 1n,
  0xffffffffn << 64n,
];
const anyValue = fc.oneof(fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }), fc.constantFrom(...edge));

describe('mont29 field arithmetic modulo Jubjub q (WebAssembly)', () => {
  it('round-trips every value below 2^256 to its canonical residue', () => {
    for (const v of edge) {
      put(ea, v);
      expect(get(ea)).toBe(v % q);
    }
  });

  it('multiplies like BigInt', () => {
    fc.assert(
      fc.property(anyValue, anyValue, (a, b) => {
        put(ea, a);
        put(eb, b);
        x.fieldMul(er, ea, eb);
        expect(get(er)).toBe((a * b) % q);
      }),
      { numRuns: 500 },
    );
  });

  it('inverts like a^(q−2), 0 to 0', () => {
    // The GCD runs on the Montgomery form a·2^261 mod q: a = 2^j·2^−261 puts the power of two 2^j
    // there, whose trailing zero words take the whole-word shift paths.
    const rInverse = modPow(1n << 261n, q - 2n);
    const powersInMontgomeryForm = Array.from({ length: 256 }, (_, j) => ((1n << BigInt(j)) * rInverse) % q);
    // A = q − 2w with 3w ≡ q (mod 2^64): the first step leaves u = w, the second v − u = q − 3w,
    // a multiple of 2^64 (the v side's whole-word shift).
    const word = 1n << 64n;
    const w = ((q % word) * modInverse(3n, word)) % word;
    const vWordShift = ((q - 2n * w) * rInverse) % q;
    const special = [...edge, ...powersInMontgomeryForm, ...powersInMontgomeryForm.map((v) => q - v), vWordShift];
    const check = (a: bigint): void => {
      put(ea, a);
      x.fieldInvert(er, ea);
      expect(get(er), `inverse of ${a}`).toBe(a % q === 0n ? 0n : modPow(a, q - 2n));
    };
    special.forEach(check);
    fc.assert(fc.property(anyValue, check), { numRuns: 300 });
  });
});
