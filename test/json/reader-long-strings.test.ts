import { describe, expect, it } from 'vitest';
import { JsonParseError, parseJson } from '../../src/json/reader.js';
import { parsedSizeEstimate } from '../../src/json/size-estimate.js';

describe('reader fast path for long strings', () => {
  const long = 'ab'.repeat(40);
  it('returns plain ASCII bodies as they are', () => {
    expect(parseJson(`["${long}"]`)).toEqual([long]);
    expect(parseJson(Buffer.from(`{"k":"${long}/"}`))?.constructor.name).toBe('JsonObject');
  });
  it('still decodes escapes and UTF-8 in long strings', () => {
    expect(parseJson(`["${long}\\n\\u00e9"]`)).toEqual([`${long}\né`]);
    expect(parseJson(Buffer.from(`["${long}é€"]`, 'utf8'))).toEqual([`${long}é€`]);
  });
  it('rejects raw control characters in long strings', () => {
    expect(() => parseJson(`["${long}\u0001"]`)).toThrow(JsonParseError);
    expect(() => parseJson(`["${long}\t"]`)).toThrow(JsonParseError);
    expect(() => parseJson(Buffer.from([0x5b, 0x22, ...Buffer.from(long), 0x7f, 0x22, 0x5d]))).not.toThrow();
  });
});

describe('reader slow path for long strings', () => {
  it('decodes escapes, multi-byte UTF-8 and surrogate pairs across its buffer growing many times over', () => {
    const body = `["\\n${'é'.repeat(5000)}${'\\ud83d\\ude00'.repeat(3000)}${'€'.repeat(5000)}x"]`;
    expect(parseJson(Buffer.from(body, 'utf8'))).toEqual([`\n${'é'.repeat(5000)}${'😀'.repeat(3000)}${'€'.repeat(5000)}x`]);
    // Starting after a plain ASCII run (copied in at once), then growing.
    expect(parseJson(`["${'a'.repeat(100)}\\t${'ā'.repeat(200)}"]`)).toEqual([`${'a'.repeat(100)}\t${'ā'.repeat(200)}`]);
  });
});

describe('parsedSizeEstimate', () => {
  const big = (inner: string) => Buffer.from(`["${inner}"]`, 'utf8');
  it('counts nothing under 64 KiB, and a wide body (raw non-ASCII or an escape) two and a half times', () => {
    expect(parsedSizeEstimate(Buffer.from(`["${'a'.repeat(60_000)}"]`))).toBe(0);
    const ascii = big('a'.repeat(100_000));
    const structure = 224 + 2 * 32; // the array and the string's two quotes
    expect(parsedSizeEstimate(ascii)).toBe(ascii.length + structure);
    const escaped = big(`\\u0101${'a'.repeat(100_000)}`); // a UTF-16 string in V8: two bytes a character
    expect(parsedSizeEstimate(escaped)).toBe(Math.ceil(2.5 * escaped.length) + structure);
    const raw = big(`ā${'a'.repeat(100_000)}`);
    expect(parsedSizeEstimate(raw)).toBe(Math.ceil(2.5 * raw.length) + structure);
  });
});

describe('parsedSizeEstimate skips long runs between quotes natively, counting exactly what a byte loop counts', () => {
  /** The estimate counted byte by byte, as its weights are defined. */
  function byteByByte(body: Uint8Array): number {
    if (body.length < 64 * 1024) return 0;
    const count = (c: string) => body.filter((b) => b === c.charCodeAt(0)).length;
    const wide = body.some((b) => b >= 0x80 || b === 0x5c);
    return (
      Math.ceil((wide ? 2.5 : 1) * body.length) + 256 * count('{') + 224 * count('[') + 80 * count(',') + 32 * count('"') + 32 * count(':')
    );
  }
  const hex = 'ab01'.repeat(30_000);
  it.each([
    ['one long hex string', `{"id":1,"method":"decoderawtransaction","params":["${hex}"]}`],
    ['long strings holding structure bytes', `["${hex},{[:${hex}", "${'x'.repeat(300)}:${hex}"]`],
    ['a backslash or non-ASCII inside a long run', `["${hex}\\"${hex}", "${hex}é${hex}"]`],
    ['an unterminated long string', `["${hex}`],
    ['many short values', JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ k: i, s: 'v' })))],
  ])('%s', (_, text) => {
    const body = Buffer.from(text, 'utf8');
    expect(body.length).toBeGreaterThan(64 * 1024);
    expect(parsedSizeEstimate(body)).toBe(byteByByte(body));
    expect(parsedSizeEstimate(new Uint8Array(body))).toBe(byteByByte(body));
  });
});
