// Long plain strings as byte ranges of the body (json/lazy-strings.ts): the values read are the
// same as without a scope, errors are the same, and the ranges end with their scope.
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex } from '../../src/codec/hex.js';
import { LAZY_STRING_MIN_BYTES, LazyStringScope, plainStringBytes } from '../../src/json/lazy-strings.js';
import { JsonParseError, parseJson } from '../../src/json/reader.js';
import { holdsControlByte } from '../../src/json/plain-strings.js';
import { JsonObject, type JsonValue } from '../../src/json/value.js';
import { readHexVector } from '../support/vectors.js';

/** testnet 141042's transaction 1 (97,548 bytes: 244 P2SH inputs and a JoinSplit), as hex. */
const BIG_HEX = toHex(decodeBlock(readHexVector('blocks', 'testnet', '141042.hex')).transactions[1]!.bytes);
const request = (params: string) => Buffer.from(`{"jsonrpc":"1.0","id":1,"method":"decoderawtransaction","params":[${params}]}`, 'utf8');

function paramsOf(v: JsonValue): JsonValue[] {
  return (v as JsonObject).get('params') as JsonValue[];
}

/** What parsing `body` gives or throws, read whole (every lazy slot read as a string). */
function outcome(body: Buffer, scope?: LazyStringScope): string {
  try {
    return `value ${JSON.stringify(toPlain(parseJson(body, scope ? { lazyStrings: scope } : {})))}`;
  } catch (e) {
    if (!(e instanceof JsonParseError)) throw e;
    return `error ${e.message}`;
  }
}

function toPlain(v: JsonValue): unknown {
  if (Array.isArray(v)) return v.map(toPlain);
  if (v instanceof JsonObject) return v.entries.map(([k, x]) => [k, toPlain(x)]);
  return v === null || typeof v !== 'object' ? v : { number: v.text };
}

describe('lazy long strings', () => {
  it('leave a real transaction hex parameter as the body bytes, read as the same string', () => {
    expect(BIG_HEX.length).toBe(195_096);
    const body = request(`"${BIG_HEX}", 1`);
    const scope = new LazyStringScope();
    const params = paramsOf(parseJson(body, { lazyStrings: scope }));
    const bytes = plainStringBytes(params, 0);
    expect(bytes).not.toBeNull();
    // A view of the body, not a copy.
    expect(bytes!.buffer).toBe(body.buffer);
    expect(bytes!.toString('latin1')).toBe(BIG_HEX);
    expect(plainStringBytes(params, 1)).toBeNull();
    expect(params.length).toBe(2);
    expect(typeof params[0]).toBe('string');
    expect(params[0]).toBe(BIG_HEX);
    expect(params[1]).toEqual(paramsOf(parseJson(body))[1]);
    // Read once, the slot holds the string; the bytes stay available while the scope is open.
    expect(Object.getOwnPropertyDescriptor(params, 0)?.value).toBe(BIG_HEX);
    expect(plainStringBytes(params, 0)?.toString('latin1')).toBe(BIG_HEX);
    expect(outcome(body, new LazyStringScope())).toBe(outcome(body));
  });

  it('gives the same values and errors as the ordinary reader around the threshold and for strings that are not plain', () => {
    const long = (n: number) => 'ab'.repeat(n).slice(0, n);
    const cases = [
      `"${long(LAZY_STRING_MIN_BYTES - 1)}"`,
      `"${long(LAZY_STRING_MIN_BYTES)}"`,
      `"${long(LAZY_STRING_MIN_BYTES + 1)}", "${long(LAZY_STRING_MIN_BYTES + 7)}", 3, ["${long(LAZY_STRING_MIN_BYTES)}"]`,
      // Escapes, non-ASCII and control characters take the ordinary path and its errors.
      `"${long(LAZY_STRING_MIN_BYTES)}\\n"`,
      `"${long(LAZY_STRING_MIN_BYTES)}\\u00e9"`,
      `"${long(LAZY_STRING_MIN_BYTES)}é"`,
      `"${long(LAZY_STRING_MIN_BYTES)}\x01"`,
      `"\x1f${long(LAZY_STRING_MIN_BYTES)}"`,
      `"${long(LAZY_STRING_MIN_BYTES)}\\q"`,
      `"${long(LAZY_STRING_MIN_BYTES)}\xff"`,
      // Unterminated, and what follows the string malformed.
      `"${long(LAZY_STRING_MIN_BYTES)}`,
      `"${long(LAZY_STRING_MIN_BYTES)}" "x"`,
      `"${long(LAZY_STRING_MIN_BYTES)}"}`,
    ];
    for (const c of cases) {
      const body = request(c);
      expect(outcome(body, new LazyStringScope())).toBe(outcome(body));
    }
    // Raw bytes that are not UTF-8 either.
    const bad = Buffer.concat([request(`"${long(LAZY_STRING_MIN_BYTES)}`).subarray(0, -3), Buffer.from([0xc3, 0x28, 0x22, 0x5d, 0x7d])]);
    expect(outcome(bad, new LazyStringScope())).toBe(outcome(bad));
    expect(outcome(bad)).toMatch(/^error /);
    const control = request(`"${long(LAZY_STRING_MIN_BYTES)}\x01"`);
    expect(outcome(control)).toMatch(/^error control character in string/);
  });

  it('leaves only array elements as ranges, never object members', () => {
    const hex = BIG_HEX.slice(0, 2 * LAZY_STRING_MIN_BYTES);
    const value = parseJson(Buffer.from(`{"id":"${hex}","params":{"a":"${hex}"}}`), { lazyStrings: new LazyStringScope() }) as JsonObject;
    expect(Object.getOwnPropertyDescriptor(value.entries[0], 1)?.value).toBe(hex);
    expect(((value.get('params') as JsonObject).entries[0]![1] as string).length).toBe(hex.length);
    const short = paramsOf(parseJson(request(`"${hex.slice(0, LAZY_STRING_MIN_BYTES - 2)}"`), { lazyStrings: new LazyStringScope() }));
    expect(plainStringBytes(short, 0)).toBeNull();
  });

  it('ends with its scope: an unread slot then throws, a read one keeps its string', () => {
    const scope = new LazyStringScope();
    const params = paramsOf(parseJson(request(`"${BIG_HEX}", "${BIG_HEX}"`), { lazyStrings: scope }));
    expect(params[1]).toBe(BIG_HEX);
    scope.end();
    expect(plainStringBytes(params, 0)).toBeNull();
    expect(plainStringBytes(params, 1)).toBeNull();
    expect(() => params[0]).toThrow('a request parameter was read after its request ended');
    expect(params[1]).toBe(BIG_HEX);
  });

  it('lets a slot be written like any other, dropping its range', () => {
    const params = paramsOf(parseJson(request(`"${BIG_HEX}"`), { lazyStrings: new LazyStringScope() }));
    params[0] = 'replaced';
    expect(params[0]).toBe('replaced');
    expect(plainStringBytes(params, 0)).toBeNull();
    expect([...params]).toEqual(['replaced']);
  });

  it('gives no bytes for a slot read and then replaced without its setter (reversed, or written after the read)', () => {
    const other = BIG_HEX.slice(2) + 'ab';
    const params = paramsOf(parseJson(request(`"${BIG_HEX}","${other}"`), { lazyStrings: new LazyStringScope() }));
    params.reverse();
    expect([params[0], params[1]]).toEqual([other, BIG_HEX]);
    expect(plainStringBytes(params, 0)).toBeNull();
    expect(plainStringBytes(params, 1)).toBeNull();
    const again = paramsOf(parseJson(request(`"${BIG_HEX}"`), { lazyStrings: new LazyStringScope() }));
    expect(again[0]).toBe(BIG_HEX);
    // Read but untouched: still the element's own bytes.
    expect(plainStringBytes(again, 0)?.toString('latin1')).toBe(BIG_HEX);
    again[0] = 'replaced';
    expect(plainStringBytes(again, 0)).toBeNull();
  });

  it('finds a control byte at every position and alignment, as a byte-by-byte search does', () => {
    const memory = Buffer.alloc(64 + 9, 0x61);
    for (let offset = 0; offset < 4; offset++) {
      for (let length = 0; length <= 64; length++) {
        const view = memory.subarray(offset, offset + length);
        expect(holdsControlByte(view)).toBe(false);
        for (let at = 0; at < length; at++) {
          for (const byte of [0x00, 0x01, 0x1f]) {
            view[at] = byte;
            expect(holdsControlByte(view)).toBe(true);
            view[at] = 0x61;
          }
          // The bytes around 0x20 are not control bytes.
          for (const byte of [0x20, 0x21, 0x7f]) {
            view[at] = byte;
            expect(holdsControlByte(view)).toBe(false);
            view[at] = 0x61;
          }
        }
      }
    }
  });
});

describe('the threshold', () => {
  it("leaves an ordinary transaction's hex as bytes (mainnet 1687107's 9.6 kB v5 transaction), not a block hash", () => {
    const v5 = decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex')).transactions.find((t) => t.data.orchard)!;
    const hex = toHex(v5.bytes);
    const params = paramsOf(parseJson(request(`"${hex}"`), { lazyStrings: new LazyStringScope() }));
    expect(plainStringBytes(params, 0)?.toString('latin1')).toBe(hex);
    const hash = '00000000febc373a1da2bd9f887b105ad79ddc26ac26c2b28652d64e5207c5b5';
    expect(plainStringBytes(paramsOf(parseJson(request(`"${hash}"`), { lazyStrings: new LazyStringScope() })), 0)).toBeNull();
  });
});

describe('accessors shared between arrays', () => {
  it('reads each array its own bytes, at a low index and beyond the shared table', () => {
    const a = BIG_HEX.slice(0, LAZY_STRING_MIN_BYTES);
    const b = BIG_HEX.slice(2, LAZY_STRING_MIN_BYTES + 2);
    const filler = Array.from({ length: 70 }, (_, i) => String(i)).join(',');
    const scope = new LazyStringScope();
    const first = paramsOf(parseJson(request(`"${a}", ${filler}, "${b}"`), { lazyStrings: scope }));
    const second = paramsOf(parseJson(request(`"${b}", ${filler}, "${a}"`), { lazyStrings: scope }));
    expect([first.length, second.length]).toEqual([72, 72]);
    expect(plainStringBytes(first, 71)?.toString('latin1')).toBe(b);
    expect([first[0], second[0], first[71], second[71]]).toEqual([a, b, b, a]);
    // Written over before it was read, an element is no longer a range; the other array's stays.
    const third = paramsOf(parseJson(request(`"${b}"`), { lazyStrings: scope }));
    third[0] = 'x';
    expect([third[0], plainStringBytes(third, 0), plainStringBytes(first, 0)?.length]).toEqual(['x', null, a.length]);
  });
});
