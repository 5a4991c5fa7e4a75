// Hex decoded ahead (json/hex-wasm.ts wasmHexDecodeAhead: the JSON reader's proof that a long
// string is plain), then handed to the decoder (wasmHexDecodeCased): the decoder answers exactly
// as a decode from scratch, for any text, and takes the bytes decoded ahead only for the very
// view decoded, once, while the module's memory holds them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOT_HEX, wasmHexAvailable, wasmHexDecodeAhead, wasmHexDecodeCased, wasmHoldsControlByte } from '../../src/json/hex-wasm.js';

/** What the decoder answers for `text`: its finding, and the bytes when it is hex. */
function decoded(text: Uint8Array): { found: number | null; bytes: string | null } {
  const out = Buffer.alloc(text.length >>> 1);
  const found = wasmHexDecodeCased(text, out);
  return { found, bytes: found === null || found === NOT_HEX ? null : out.toString('hex') };
}

/** The same, decoded from a copy of the text in fresh memory (so from scratch). */
const fromScratch = (text: Uint8Array) => decoded(Buffer.from(text));

/** Text of even length: hex of either case, with now and then a byte that is not a hex digit. */
const evenText = fc
  .array(
    fc.oneof(
      { weight: 30, arbitrary: fc.constantFrom(...'0123456789abcdefABCDEF') },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
    ),
    {
      maxLength: 3000,
      size: 'max',
    },
  )
  .map((items) => {
    const bytes = Buffer.from(items.map((x) => (typeof x === 'number' ? x : x.charCodeAt(0))));
    return bytes.subarray(0, bytes.length & ~1);
  });

describe('hex decoded ahead', () => {
  it('runs in WebAssembly here, so the tests below test it', () => {
    expect(wasmHexAvailable()).toBe(true);
  });

  it('answers as a decode from scratch, for any text', () => {
    fc.assert(
      fc.property(evenText, (text) => {
        const want = fromScratch(text);
        const ahead = wasmHexDecodeAhead(text);
        expect(ahead).toBe(want.found);
        expect(decoded(text)).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  it('is taken for the very view decoded, once, while the memory holds it', () => {
    const text = Buffer.from('00ff10Ab'.repeat(1000), 'latin1');
    const before = fromScratch(text);
    const changed = (t: Buffer): void => {
      t[4] = 0x67; // 'g': no longer hex
    };

    // The view decoded ahead, its bytes changed since: the decoder takes the bytes decoded ahead.
    expect(wasmHexDecodeAhead(text)).toBe(before.found);
    changed(text);
    expect(decoded(text)).toEqual(before);
    // Taken once: decoded again, the view is decoded as it is now.
    expect(decoded(text)).toEqual({ found: NOT_HEX, bytes: null });

    // Another view of the same bytes is decoded itself.
    const other = Buffer.from('00ff10Ab'.repeat(1000), 'latin1');
    expect(wasmHexDecodeAhead(other)).toBe(before.found);
    changed(other);
    expect(decoded(other.subarray(0))).toEqual({ found: NOT_HEX, bytes: null });

    // The module's memory used for anything else in between: decoded as it is now.
    const third = Buffer.from('00ff10Ab'.repeat(1000), 'latin1');
    expect(wasmHexDecodeAhead(third)).toBe(before.found);
    expect(wasmHoldsControlByte(Buffer.alloc(4096, 0x61))).toBe(false);
    changed(third);
    expect(decoded(third)).toEqual({ found: NOT_HEX, bytes: null });
  });

  it('leaves the text as it was and keeps the bytes beside it, for every length and alignment around a step', () => {
    const memory = Buffer.alloc(200);
    for (let offset = 0; offset < 4; offset++) {
      for (let length = 0; length <= 96; length += 2) {
        const text = memory.subarray(offset, offset + length);
        for (let i = 0; i < length; i++) text[i] = '0123456789abcdefABCDEF'.charCodeAt((i * 7 + length) % 22);
        const copy = Buffer.from(text);
        const want = fromScratch(text);
        expect(wasmHexDecodeAhead(text)).toBe(want.found);
        expect(text.equals(copy)).toBe(true);
        expect(decoded(text)).toEqual(want);
      }
    }
  });
});
