import { describe, expect, it } from 'vitest';
import { toHexReversed } from '../../../src/codec/hex.js';
import { JsonNumber } from '../../../src/json/value.js';
import { RpcError } from '../../../src/rpc/method.js';
import { interpretHeight, parseHashV, parseHeightString, stringByteLength, uint256FromHexLenient } from '../../../src/rpc/params.js';

const GENESIS = '00040fe8ec8471911baa1db1266ea15dd06b4a8a5c453883c000b031973dce08';
const lenient = (s: string): string => toHexReversed(uint256FromHexLenient(s));

function rpcErrorOf(f: () => unknown): { code: number; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof RpcError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('no error thrown');
}

describe('parseHeightString (zcashd parseHeightArg, tip 3000000)', () => {
  const TIP = 3_000_000;
  it.each([
    ['12800', 12800],
    ['-1', TIP],
    ['-3000001', 0],
    ['01', 1],
    ['007', 7],
    ['00', 0],
    ['0', 0],
    ['000000000000000000000000000000000000000000000000000000000000012', 12],
  ])('%s → %i', (s, h) => expect(parseHeightString(s, TIP)).toBe(h));

  it.each(['+5', 'abc', '', '-0', '-01', ' 5', '5 ', '1e3', '2147483648', '99999999999', '-2147483649', '1.0', '٣'])(
    '%j → -8 Invalid block height parameter',
    (s) => expect(rpcErrorOf(() => parseHeightString(s, TIP))).toEqual({ code: -8, message: 'Invalid block height parameter' }),
  );

  it.each(['-3000002', '2147483647', '-2147483648', '3000001'])('%s → -8 Block height out of range', (s) =>
    expect(rpcErrorOf(() => parseHeightString(s, TIP))).toEqual({ code: -8, message: 'Block height out of range' }),
  );

  it('interprets negative heights against the tip, including an empty chain', () => {
    expect(interpretHeight(-1, 20)).toBe(20);
    expect(interpretHeight(-21, 20)).toBe(0);
    expect(rpcErrorOf(() => interpretHeight(0, -1)).message).toBe('Block height out of range');
  });
});

describe('uint256FromHexLenient (uint256S / SetHex)', () => {
  it('reads a hash in RPC order', () => expect(lenient(GENESIS)).toBe(GENESIS));
  it('left-pads short input', () => expect(lenient('abc')).toBe('0'.repeat(61) + 'abc'));
  it('turns non-hex into the zero hash', () => expect(lenient('z'.repeat(64))).toBe('0'.repeat(64)));
  it('skips C whitespace and one 0x prefix, stops at the first non-hex', () => {
    expect(lenient(' \t\n\v\f\r0x' + GENESIS + 'zz')).toBe(GENESIS);
    expect(lenient('0X' + GENESIS.toUpperCase())).toBe(GENESIS);
    expect(lenient('0x0x' + GENESIS)).toBe('0'.repeat(64));
  });
  it('keeps only the last 64 digits', () => expect(lenient('00' + GENESIS)).toBe(GENESIS));
  it('keeps the last 64 digits of a longer run', () => expect(lenient('ff' + GENESIS)).toBe(GENESIS));
  it('handles an odd digit count', () => expect(lenient('123')).toBe('0'.repeat(61) + '123'));
  it('does not skip non-C whitespace (U+00A0)', () => expect(lenient('\u00a0' + GENESIS)).toBe('0'.repeat(64)));
});

describe('parseHashV', () => {
  it('accepts even-length hex of any length', () => {
    expect(toHexReversed(parseHashV(GENESIS, 'parameter 1'))).toBe(GENESIS);
    expect(toHexReversed(parseHashV('0a', 'parameter 1'))).toBe('0'.repeat(62) + '0a');
  });
  it.each([
    ['abc', "parameter 1 must be hexadecimal string (not 'abc')"],
    ['', "parameter 1 must be hexadecimal string (not '')"],
    [' ' + GENESIS.slice(1), `parameter 1 must be hexadecimal string (not ' ${GENESIS.slice(1)}')`],
    ['0x00', "parameter 1 must be hexadecimal string (not '0x00')"],
  ])('%j → -8', (s, message) => expect(rpcErrorOf(() => parseHashV(s, 'parameter 1'))).toEqual({ code: -8, message }));
  it('shows an empty string for non-strings', () => {
    expect(rpcErrorOf(() => parseHashV(new JsonNumber('5'), 'parameter 3')).message).toBe(
      "parameter 3 must be hexadecimal string (not '')",
    );
    expect(rpcErrorOf(() => parseHashV(null, 'parameter 3')).message).toBe("parameter 3 must be hexadecimal string (not '')");
  });
});

describe('stringByteLength', () => {
  it('counts UTF-8 bytes as std::string::size does', () => {
    expect(stringByteLength('a'.repeat(63))).toBe(63);
    expect(stringByteLength('é'.repeat(32))).toBe(64);
    expect(stringByteLength('💩')).toBe(4);
  });
});
