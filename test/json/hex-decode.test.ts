// Hex text given as bytes, decoded in WebAssembly (json/hex-wasm.ts, assembly/hex.ts: 32
// characters a step, then a tail) and by codec/hex.ts' two paths, against a byte-by-byte
// decoder written from zcashd's IsHex/HexDigit: valid only when every byte is one of
// [0-9a-fA-F], each pair high nibble first.
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { hexBytesToBytesStrict, hexBytesToBytesStrictNative, toHex } from '../../src/codec/hex.js';
import {
  LOWERCASE_HEX,
  MIXED_CASE_HEX,
  NOT_HEX,
  wasmHexAvailable,
  wasmHexDecodeCased,
  wasmHexDecodeInto,
} from '../../src/json/hex-wasm.js';
import { readHexVector } from '../support/vectors.js';

const TX = decodeBlock(readHexVector('blocks', 'testnet', '141042.hex')).transactions[1]!;
const HEX = toHex(TX.bytes);

function digit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** The reference: the bytes, or null when some byte is not a hex digit. */
function reference(text: Uint8Array): Uint8Array | null {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < text.length; i += 2) {
    const high = digit(text[i]!);
    const low = digit(text[i + 1]!);
    if (high < 0 || low < 0) return null;
    out[i / 2] = high * 16 + low;
  }
  return out;
}

function wasmDecode(text: Uint8Array): Uint8Array | null {
  const out = new Uint8Array(text.length / 2);
  const ok = wasmHexDecodeInto(text, out);
  if (ok === null) throw new Error('the WebAssembly decoder is unavailable');
  return ok ? out : null;
}

/** Every decoder's answer to `text`, as hex or null, beside the reference's. */
function answers(text: Uint8Array): { want: string | null; got: (string | null)[] } {
  const hex = (b: Uint8Array | null): string | null => (b === null ? null : Buffer.from(b).toString('hex'));
  return {
    want: hex(reference(text)),
    got: [hex(wasmDecode(text)), hex(hexBytesToBytesStrict(text)), hex(hexBytesToBytesStrictNative(text))],
  };
}

describe('hex decoded from bytes', () => {
  it('runs in WebAssembly here, so the tests below test it', () => {
    expect(wasmHexAvailable()).toBe(true);
  });

  it('decodes a real 97.5 kB transaction in lower, upper and mixed case, and from a view into a larger buffer', () => {
    const mixed = [...HEX].map((c, i) => (i % 3 === 0 ? c.toUpperCase() : c)).join('');
    for (const text of [HEX, HEX.toUpperCase(), mixed]) {
      const bytes = Buffer.from(text, 'latin1');
      expect(Buffer.from(wasmDecode(bytes)!).equals(Buffer.from(TX.bytes))).toBe(true);
      expect(Buffer.from(hexBytesToBytesStrict(bytes)!).equals(Buffer.from(TX.bytes))).toBe(true);
      expect(Buffer.from(hexBytesToBytesStrictNative(bytes)!).equals(Buffer.from(TX.bytes))).toBe(true);
    }
    const view = Buffer.from(`"${HEX}"`, 'latin1').subarray(1, 1 + HEX.length);
    expect(Buffer.from(wasmDecode(view)!).equals(Buffer.from(TX.bytes))).toBe(true);
  });

  it('agrees with the reference for every byte value at every position of two steps and a tail', () => {
    // 64 characters are two 32-character steps (every lane of both vectors, high and low
    // nibbles); 6 more are the tail. Each position gets each of the 256 byte values.
    const base = Buffer.from(HEX.slice(0, 70), 'latin1');
    let checked = 0;
    for (let at = 0; at < base.length; at++) {
      for (let b = 0; b < 256; b++) {
        const text = Buffer.from(base);
        text[at] = b;
        const { want, got } = answers(text);
        if (got.some((g) => g !== want)) expect({ at, b, got }).toEqual({ at, b, got: [want, want, want] });
        checked++;
      }
    }
    expect(checked).toBe(70 * 256);
  });

  it('decodes every even length from 2 to 130 characters (each count of steps and tail)', () => {
    for (let n = 2; n <= 130; n += 2) {
      const text = Buffer.from(HEX.slice(1000, 1000 + n).toUpperCase(), 'latin1');
      const { want, got } = answers(text);
      expect(want).toBe(HEX.slice(1000, 1000 + n));
      expect(got).toEqual([want, want, want]);
    }
  });

  it('refuses a non-hex byte in the middle, at the end of and just after a long text’s steps', () => {
    for (const at of [0, 31, 32, 97_000, HEX.length - 33, HEX.length - 2, HEX.length - 1]) {
      for (const bad of [0x00, 0x2f, 0x3a, 0x40, 0x47, 0x60, 0x67, 0x80, 0xc1, 0xff]) {
        const text = Buffer.from(HEX, 'latin1');
        text[at] = bad;
        expect(wasmDecode(text)).toBeNull();
        expect(hexBytesToBytesStrict(text)).toBeNull();
        expect(hexBytesToBytesStrictNative(text)).toBeNull();
      }
    }
  });

  it('tells lowercase hex from hex with an uppercase letter at any lane, step or tail position', () => {
    const base = Buffer.from(HEX.slice(0, 70).replace(/[0-9]/g, 'a'), 'latin1');
    const out = new Uint8Array(35);
    expect(wasmHexDecodeCased(base, out)).toBe(LOWERCASE_HEX);
    expect(wasmHexDecodeCased(Buffer.from('0123456789', 'latin1'), out)).toBe(LOWERCASE_HEX);
    for (let at = 0; at < base.length; at++) {
      for (const upper of [0x41, 0x46]) {
        const text = Buffer.from(base);
        text[at] = upper;
        expect({ at, found: wasmHexDecodeCased(text, out) }).toEqual({ at, found: MIXED_CASE_HEX });
        text[at] = 0x47;
        expect({ at, found: wasmHexDecodeCased(text, out) }).toEqual({ at, found: NOT_HEX });
      }
    }
    expect(wasmHexDecodeCased(Buffer.from(HEX, 'latin1'), new Uint8Array(HEX.length / 2))).toBe(LOWERCASE_HEX);
    expect(wasmHexDecodeCased(Buffer.from(HEX.toUpperCase(), 'latin1'), new Uint8Array(HEX.length / 2))).toBe(MIXED_CASE_HEX);
  });
});
