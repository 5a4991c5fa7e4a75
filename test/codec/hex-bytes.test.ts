// Hex text given as bytes decodes exactly as the same text given as a string (zcashd's IsHex
// rules), including where the chunked decoder's boundaries fall.
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { DecodeError } from '../../src/codec/errors.js';
import { hexBytesToBytesStrict, hexInt, hexToBytesStrict, toHex } from '../../src/codec/hex.js';
import { decodeTransactionHex, decodeTransactionHexBytes } from '../../src/codec/tx/transaction.js';
import { readHexVector } from '../support/vectors.js';

const TX = decodeBlock(readHexVector('blocks', 'testnet', '141042.hex')).transactions[1]!;
const HEX = toHex(TX.bytes);

function both(text: string): [Uint8Array | null, Uint8Array | null] {
  return [hexBytesToBytesStrict(Buffer.from(text, 'utf8')), hexToBytesStrict(text)];
}

function decodeOutcome(work: () => unknown): string {
  try {
    work();
    return 'decoded';
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return `${e.rpcMessage}`;
  }
}

describe('hex given as bytes', () => {
  it('decodes a real 97.5 kB transaction, lower and upper case, to its bytes', () => {
    expect(Buffer.from(hexBytesToBytesStrict(Buffer.from(HEX, 'latin1'))!).equals(Buffer.from(TX.bytes))).toBe(true);
    expect(Buffer.from(hexBytesToBytesStrict(Buffer.from(HEX.toUpperCase(), 'latin1'))!).equals(Buffer.from(TX.bytes))).toBe(true);
    const fromView = Buffer.from(`xx${HEX}yy`, 'latin1').subarray(2, 2 + HEX.length);
    expect(Buffer.from(hexBytesToBytesStrict(fromView)!).equals(Buffer.from(TX.bytes))).toBe(true);
  });

  it('refuses what hexToBytesStrict refuses: empty, odd length, a non-hex character anywhere, non-ASCII', () => {
    const texts = ['', 'a', 'abc', HEX.slice(0, -1), 'zz', '0g', ' 00', '00 ', '0x00', 'é0', '\u00ff0'];
    // A bad character at the start, the end and each side of the decoder's chunk boundaries.
    for (const at of [0, 1, 32767, 32768, 32769, 65535, 65536, HEX.length - 2, HEX.length - 1]) {
      texts.push(HEX.slice(0, at) + 'g' + HEX.slice(at + 1));
      texts.push(HEX.slice(0, at) + '\u0000' + HEX.slice(at + 1));
    }
    for (const t of texts) {
      const [bytes, text] = both(t);
      expect(bytes).toBeNull();
      expect(text).toBeNull();
    }
    // A byte that is no character of the text (0x80-0xff) is not hex either.
    const raw = Buffer.from(HEX, 'latin1');
    raw[40_000] = 0xb0;
    expect(hexBytesToBytesStrict(raw)).toBeNull();
  });

  it('gives decoderawtransaction the same transaction and the same errors as the string path', () => {
    expect(decodeTransactionHexBytes(Buffer.from(HEX, 'latin1')).txidHex).toBe(TX.txidHex);
    for (const t of [HEX.slice(0, -1), HEX.slice(0, 50_000) + 'q' + HEX.slice(50_001), HEX.slice(0, 1000), '', '00']) {
      expect(decodeOutcome(() => decodeTransactionHexBytes(Buffer.from(t, 'utf8')))).toBe(decodeOutcome(() => decodeTransactionHex(t)));
    }
  });
});

describe('hexInt', () => {
  it('writes eight digits of each value, whichever came before (the last text is kept)', () => {
    const values = [0x26a7270a, 0x26a7270a, 0x892f2085, 0, 0x26a7270a, 0xffffffff, -1, 0x10, 0x892f2085];
    for (const v of values) expect(hexInt(v)).toBe((v >>> 0).toString(16).padStart(8, '0'));
    expect(hexInt(0x10)).toBe('00000010');
    expect(hexInt(-1)).toBe('ffffffff');
  });
});
