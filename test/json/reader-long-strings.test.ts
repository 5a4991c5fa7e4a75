import { describe, expect, it } from 'vitest';
import { JsonParseError, parseJson } from '../../src/json/reader.js';

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
