/**
 * zcashd's IsHex takes only [0-9a-fA-F]. Node's hex decoder reads a UTF-16 unit by its low byte
 * ('\u0161' as 'a', '\u0130' as '0'), so text that is not ASCII must be refused before it, on the
 * string path as on the bytes path.
 */
import { describe, expect, it } from 'vitest';
import { hexBytesToBytesStrict, hexToBytesStrict, isHex } from '../../src/codec/hex.js';

describe('hex that is not ASCII', () => {
  it.each(['\u0161\u0130', 'a\u0161', '0\u0100', '\u00e9\u00e9'])('%j is not hex on either path', (text) => {
    expect(isHex(text)).toBe(false);
    expect(hexToBytesStrict(text)).toBeNull();
    expect(hexBytesToBytesStrict(Buffer.from(text, 'utf8'))).toBeNull();
  });

  it('ASCII hex still decodes', () => {
    expect(Buffer.from(hexToBytesStrict('00fFa0')!).toString('hex')).toBe('00ffa0');
  });
});
