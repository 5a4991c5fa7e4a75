// ByteReader/ByteWriter edge cases behind the decoder's amounts and the ZIP-244 buffers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter } from '../../src/codec/bytes.js';
import { toHex } from '../../src/codec/hex.js';

function viaBigInt(v: bigint): string {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigInt64(0, v, true);
  return toHex(b);
}

describe('ByteWriter', () => {
  it('a writer created with capacity 0 grows instead of looping forever', () => {
    const w = new ByteWriter(0);
    w.u8(1).u32(0xdeadbeef).bytes(new Uint8Array(300).fill(7));
    const out = w.finish();
    expect(out.length).toBe(305);
    expect(toHex(out.subarray(0, 5))).toBe('01efbeadde');
  });

  it('i64 of a number equals the two’s-complement BigInt encoding', () => {
    const MAX_MONEY = 21_000_000 * 100_000_000;
    const cases = [0, 1, -1, 0xffffffff, -0x100000000, MAX_MONEY, -MAX_MONEY, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    for (const v of cases) expect(toHex(new ByteWriter(0).i64(v).finish())).toBe(viaBigInt(BigInt(v)));
    fc.assert(
      fc.property(fc.maxSafeInteger(), (v) => toHex(new ByteWriter(8).i64(v).finish()) === viaBigInt(BigInt(v))),
      { seed: 7, numRuns: 500 },
    );
    expect(toHex(new ByteWriter(8).i64(-(1n << 63n)).finish())).toBe('0000000000000080');
  });

  it('ByteReader.i64 reads back what ByteWriter.i64 wrote (numbers inside ±2^53, bigints outside)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }), (v) => {
        const r = new ByteReader(new ByteWriter(8).i64(v).finish());
        const back = r.i64();
        return BigInt(back) === v && (typeof back === 'number') === (v >= -(1n << 53n) && v < 1n << 53n);
      }),
      { seed: 7, numRuns: 500 },
    );
  });
});
