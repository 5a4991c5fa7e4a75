// The pieces of zcashd's UTXO-set statistics against zcashd v6.12.2's own unit-test vectors:
// CompressAmount (src/test/compress_tests.cpp), VARINT (src/test/coins_tests.cpp) and the sizes
// of the CCoins records coins_tests.cpp's ccoins_serialization decodes.
import { describe, expect, it } from 'vitest';
import {
  coinsRecordLength,
  compressAmount,
  compressedScriptLength,
  varIntLength,
  writeVarInt,
  type UtxoEntry,
} from '../../src/state/utxo-stats.js';

const COIN = 100_000_000;
const CENT = 1_000_000;
const p2pkh = (hash: string): Uint8Array => Buffer.from(`76a914${hash}88ac`, 'hex');

describe('utxo statistics: zcashd encodings', () => {
  it("CompressAmount: compress_tests.cpp's pairs", () => {
    expect(compressAmount(0)).toBe(0x0n);
    expect(compressAmount(1)).toBe(0x1n);
    expect(compressAmount(CENT)).toBe(0x7n);
    expect(compressAmount(COIN)).toBe(0x9n);
    expect(compressAmount(50 * COIN)).toBe(0x32n);
    expect(compressAmount(21000000 * COIN)).toBe(0x1406f40n);
  });

  it('VARINT: 3*10^9 is 8a95c0bb00 (coins_tests.cpp)', () => {
    const out = Buffer.alloc(8);
    const end = writeVarInt(out, 0, 3000000000);
    expect(out.subarray(0, end).toString('hex')).toBe('8a95c0bb00');
    expect(varIntLength(3000000000)).toBe(5);
    for (const n of [0, 0x7f, 0x80, 0x407f, 0x4080, 2 ** 40]) {
      expect(varIntLength(n)).toBe(writeVarInt(Buffer.alloc(10), 0, n));
    }
  });

  it("CCoins record sizes: ccoins_serialization's three decodable records", () => {
    const cc1 = '0104835800816115944e077fe7c803cfa57f29b36bf87c1d358bb85e';
    const out1: UtxoEntry[] = [
      { n: 1, value: 60000000000, height: 203998, coinbase: false, scriptPubKey: p2pkh('816115944e077fe7c803cfa57f29b36bf87c1d35') },
    ];
    expect(coinsRecordLength(out1, false, 203998)).toBe(cc1.length / 2);

    const cc2 = '0109044086ef97d5790061b01caab50f1b8e9c50a5057eb43c2d9563a4eebbd123008c988f1a4a4de2161e0f50aac7f17e7f9555caa486af3b';
    const out2: UtxoEntry[] = [
      { n: 4, value: 234925952, height: 120891, coinbase: true, scriptPubKey: p2pkh('61b01caab50f1b8e9c50a5057eb43c2d9563a4ee') },
      { n: 16, value: 110397, height: 120891, coinbase: true, scriptPubKey: p2pkh('8c988f1a4a4de2161e0f50aac7f17e7f9555caa4') },
    ];
    expect(coinsRecordLength(out2, true, 120891)).toBe(cc2.length / 2);

    const cc3 = '0002000600';
    expect(coinsRecordLength([{ n: 0, value: 0, height: 0, coinbase: false, scriptPubKey: new Uint8Array(0) }], false, 0)).toBe(
      cc3.length / 2,
    );
  });

  it('scripts: the special forms and the rest', () => {
    expect(compressedScriptLength(p2pkh('00'.repeat(20)))).toBe(21);
    expect(compressedScriptLength(Buffer.from(`a914${'11'.repeat(20)}87`, 'hex'))).toBe(21);
    expect(compressedScriptLength(Buffer.from(`21${'02'}${'11'.repeat(32)}ac`, 'hex'))).toBe(33);
    // The generator point uncompressed is on the curve; with its y changed it is not.
    const g =
      '0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8';
    expect(compressedScriptLength(Buffer.from(`41${g}ac`, 'hex'))).toBe(33);
    const offCurve = g.slice(0, -2) + '00';
    expect(compressedScriptLength(Buffer.from(`41${offCurve}ac`, 'hex'))).toBe(1 + 67);
    expect(compressedScriptLength(Uint8Array.of(0x6a))).toBe(1 + 1);
    expect(compressedScriptLength(new Uint8Array(200))).toBe(2 + 200);
  });
});
