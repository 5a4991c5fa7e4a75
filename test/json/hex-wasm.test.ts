import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wasmHexAvailable, wasmHexInto } from '../../src/json/hex-wasm.js';
import { JsonWriter } from '../../src/json/writer.js';

/** The hex of `bytes[start, end)` written by the module into a buffer at `at`, and that buffer. */
function encodeAt(bytes: Uint8Array, start: number, end: number, at: number): { ok: boolean; out: Buffer } {
  const out = Buffer.alloc(at + 2 * (end - start) + 8, 0xee);
  return { ok: wasmHexInto(bytes, start, end, out, at), out };
}

describe('hex in WebAssembly', () => {
  it('loads (built by npm run build:wasm)', () => {
    expect(wasmHexAvailable(), 'src/crypto/wasm/hex.wasm loads').toBe(true);
  });

  it('equals Buffer hex for every length around its 16-byte steps, and writes only its range', () => {
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 151 + 7) & 0xff);
    for (let n = 0; n <= 70; n++) {
      for (const start of [0, 1, 5, 16]) {
        const at = (n + start) % 5;
        const { ok, out } = encodeAt(bytes, start, start + n, at);
        expect(ok).toBe(true);
        expect(out.toString('latin1', at, at + 2 * n)).toBe(Buffer.from(bytes.subarray(start, start + n)).toString('hex'));
        for (let i = 0; i < at; i++) expect(out[i]).toBe(0xee);
        for (let i = at + 2 * n; i < out.length; i++) expect(out[i]).toBe(0xee);
      }
    }
  });

  it('equals Buffer hex on random bytes of any size, from views and Buffers alike (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000, size: 'max' }), fc.nat(), fc.nat(16), (raw, cut, at) => {
        const start = raw.length === 0 ? 0 : cut % raw.length;
        for (const bytes of [raw, Buffer.from(raw)]) {
          const { ok, out } = encodeAt(bytes, start, raw.length, at);
          expect(ok).toBe(true);
          expect(out.toString('latin1', at, at + 2 * (raw.length - start))).toBe(Buffer.from(raw.subarray(start)).toString('hex'));
        }
      }),
    );
  });

  it('grows its memory for a 2 MB input, then still encodes small ones', () => {
    const big = Uint8Array.from({ length: 2_000_003 }, (_, i) => (i * 2654435761) >>> 24);
    const { ok, out } = encodeAt(big, 0, big.length, 3);
    expect(ok).toBe(true);
    expect(out.subarray(3, 3 + 2 * big.length).equals(Buffer.from(Buffer.from(big).toString('hex'), 'latin1'))).toBe(true);
    expect(encodeAt(Uint8Array.of(0xab, 0x01), 0, 2, 0).out.toString('latin1', 0, 4)).toBe('ab01');
  });

  it('leaves inputs beyond 4 MiB to JavaScript, and the writer then gives the same hex', () => {
    const huge = new Uint8Array((4 << 20) + 1).fill(0x5a);
    expect(encodeAt(huge, 0, huge.length, 0).ok).toBe(false);
    const json = new JsonWriter(16).hexStr(huge).toBuffer();
    expect(json.length).toBe(2 * huge.length + 2);
    expect(json.toString('latin1', 0, 9)).toBe('"5a5a5a5a');
    expect(json.toString('latin1', json.length - 5)).toBe('5a5a"');
  });
});
