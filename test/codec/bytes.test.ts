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

  it('u16, u32, i32 and i64 write the bytes DataView writes, after the writer has grown too', () => {
    const viaDataView = (write: (v: DataView) => void, length: number): string => {
      const b = new Uint8Array(length);
      write(new DataView(b.buffer));
      return toHex(b);
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffff }),
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: -0x80000000, max: 0x7fffffff }),
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        (a, b, c, d) => {
          // Capacity 3 makes the writer grow in the middle; a bigint after numbers uses its DataView over the grown buffer.
          const out = toHex(new ByteWriter(3).u16(a).u32(b).i32(c).u64(d).i64(c).finish());
          const want = viaDataView((v) => {
            v.setUint16(0, a, true);
            v.setUint32(2, b, true);
            v.setInt32(6, c, true);
            v.setBigUint64(10, d, true);
            v.setBigInt64(18, BigInt(c), true);
          }, 26);
          return out === want;
        },
      ),
      { seed: 11, numRuns: 500 },
    );
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
