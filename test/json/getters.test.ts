import { describe, expect, it } from 'vitest';
import { getArray, getBool, getInt, getInt64, getObj, getReal, getStr } from '../../src/json/getters.js';
import { parseJson } from '../../src/json/reader.js';
import { JsonObject, type JsonValue } from '../../src/json/value.js';

const v = (text: string): JsonValue => parseJson(text);

// One value of each JSON type, as a request would carry it.
const SAMPLES: Record<string, JsonValue> = {
  null: v('null'),
  bool: v('true'),
  string: v('"5"'),
  number: v('5'),
  array: v('[5]'),
  object: v('{"a":5}'),
};

/** Every sample except the accepted type must fail with exactly `message`. */
function wrongTypes(fn: (x: JsonValue) => unknown, accepted: string, message: string): void {
  for (const [type, sample] of Object.entries(SAMPLES)) {
    if (type === accepted) continue;
    expect(() => fn(sample), `${type} -> ${message}`).toThrow(new Error(message));
  }
}

describe('typed getters (§4.6): exact messages', () => {
  it('getStr', () => {
    expect(getStr(v('"abc"'))).toBe('abc');
    wrongTypes(getStr, 'string', 'JSON value is not a string as expected');
  });

  it('getInt: integer text in int32 range', () => {
    expect(getInt(v('0'))).toBe(0);
    expect(Object.is(getInt(v('-0')), 0)).toBe(true);
    expect(getInt(v('2147483647'))).toBe(2147483647);
    expect(getInt(v('-2147483648'))).toBe(-2147483648);
    wrongTypes(getInt, 'number', 'JSON value is not an integer as expected');
  });

  it('getInt: non-integer text or out of range -> "JSON integer out of range"', () => {
    for (const t of ['1.0', '1e0', '1.5', '1E5', '2147483648', '-2147483649', '99999999999999999999', '-0.0']) {
      expect(() => getInt(v(t)), t).toThrow(new Error('JSON integer out of range'));
    }
    expect(() => getInt(v('-'))).toThrow(new Error('JSON integer out of range'));
  });

  it('getInt64: integer text in int64 range, exact as bigint', () => {
    expect(getInt64(v('9223372036854775807'))).toBe(9223372036854775807n);
    expect(getInt64(v('-9223372036854775808'))).toBe(-9223372036854775808n);
    expect(getInt64(v('-0'))).toBe(0n);
    for (const t of ['9223372036854775808', '-9223372036854775809', '1.0', '1e3']) {
      expect(() => getInt64(v(t)), t).toThrow(new Error('JSON integer out of range'));
    }
    wrongTypes(getInt64, 'number', 'JSON value is not an integer as expected');
  });

  it('getBool', () => {
    expect(getBool(v('true'))).toBe(true);
    expect(getBool(v('false'))).toBe(false);
    wrongTypes(getBool, 'bool', 'JSON value is not a boolean as expected');
  });

  it('getReal: any number text; overflow and underflow are out of range (libc++ failbit on ERANGE)', () => {
    expect(getReal(v('1.5'))).toBe(1.5);
    expect(getReal(v('1E5'))).toBe(100000);
    expect(getReal(v('-0'))).toBe(-0);
    expect(getReal(v('0e-999'))).toBe(0);
    expect(getReal(v('1.7976931348623158e308'))).toBe(Number.MAX_VALUE);
    expect(getReal(v('2.2250738585072014e-308'))).toBe(2.2250738585072014e-308);
    for (const t of ['1e400', '-1e400', '1.7976931348623159e308', '1e-400', '5e-324', '1e-310']) {
      expect(() => getReal(v(t)), t).toThrow(new Error('JSON double out of range'));
    }
    wrongTypes(getReal, 'number', 'JSON value is not a number as expected');
  });

  it('getObj', () => {
    const o = getObj(v('{"a":1,"a":2}'));
    expect(o).toBeInstanceOf(JsonObject);
    expect(o.entries.length).toBe(2);
    wrongTypes(getObj, 'object', 'JSON value is not an object as expected');
  });

  it('getArray', () => {
    expect(getArray(v('[1,2]')).length).toBe(2);
    wrongTypes(getArray, 'array', 'JSON value is not an array as expected');
  });

  it('throws plain Errors (the dispatcher maps them to code -1)', () => {
    try {
      getStr(v('100'));
      expect.unreachable();
    } catch (e) {
      expect(Object.getPrototypeOf(e)).toBe(Error.prototype);
    }
  });
});
