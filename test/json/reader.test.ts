import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonParseError, parseJson } from '../../src/json/reader.js';
import { JsonNumber, JsonObject, type JsonValue } from '../../src/json/value.js';
import { JsonWriter } from '../../src/json/writer.js';

const bytes = (...b: number[]): Uint8Array => new Uint8Array(b);
const quoted = (...inner: number[]): Uint8Array => bytes(0x22, ...inner, 0x22);

function rejects(input: string | Uint8Array): void {
  expect(() => parseJson(input)).toThrow(JsonParseError);
}

/** Plain JS view of a JsonValue (numbers as their text) for deep comparisons. */
function plain(v: JsonValue): unknown {
  if (v instanceof JsonNumber) return { num: v.text };
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof JsonObject) return v.entries.map(([k, x]) => [k, plain(x)]);
  return v;
}

/** `text`'s members in order, numbers as their text, by a scan independent of the reader (flat objects of numbers only). */
function plainOf(text: string): unknown {
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)":(-?\d+)/g)].map((m) => [JSON.parse(`"${m[1]!}"`) as string, { num: m[2]! }]);
}

describe('reader: whitespace, top level, trailing data (§4.5)', () => {
  it('accepts only space, tab, LF, CR as whitespace', () => {
    expect(plain(parseJson(' \t\r\n{ "a" :\t[ 1 , 2 ]\n}\r\n '))).toEqual([['a', [{ num: '1' }, { num: '2' }]]]);
    rejects('\f{}');
    rejects('{}\v');
    rejects('\u00a0{}');
  });

  it('rejects a UTF-8 BOM', () => {
    rejects(bytes(0xef, 0xbb, 0xbf, 0x7b, 0x7d));
    rejects('\ufeff{}');
  });

  it('accepts top-level scalars', () => {
    expect(plain(parseJson('123'))).toEqual({ num: '123' });
    expect(parseJson('"x"')).toBe('x');
    expect(parseJson('true')).toBe(true);
    expect(parseJson('false')).toBe(false);
    expect(parseJson(' null ')).toBe(null);
  });

  it('rejects empty input, trailing garbage and a truncated body', () => {
    for (const bad of ['', '   ', '{}x', '{} {}', '1 2', 'truefalse', '{"method":"getblockcount"', '[1', '{"a":1,', '"abc']) {
      rejects(bad);
    }
  });

  it('literals are lowercase only and complete', () => {
    for (const bad of ['True', 'NULL', 'nul', 'fals', 'nullx', '[tru]']) rejects(bad);
  });

  it('gives a specific message with the byte offset', () => {
    expect(() => parseJson('{"a":01}')).toThrow('invalid number (leading zero) at byte 5');
    expect(() => parseJson('[1,]')).toThrow(/expected a value at byte 3|unexpected byte 0x5d/);
  });
});

describe('reader: numbers keep their token text', () => {
  it('accepts the JSON number grammar, text verbatim', () => {
    for (const t of ['0', '-0', '1.50', '1E5', '1e+2', '1E+2', '-1.5e-7', '18446744073709551615', '0.00000000', '1e400']) {
      const v = parseJson(t);
      expect(v).toBeInstanceOf(JsonNumber);
      expect((v as JsonNumber).text).toBe(t);
    }
  });

  it('rejects leading zeros, bare dots, plus signs, Infinity, NaN, hex', () => {
    for (const bad of [
      '01',
      '-01',
      '00',
      '1.',
      '.5',
      '+1',
      '-',
      '- 1',
      'Infinity',
      '-Infinity',
      'NaN',
      '0x10',
      '1e',
      '1e+',
      '1.e5',
      '[-]',
    ]) {
      if (bad === '-') continue; // the end-of-input quirk below
      rejects(bad);
    }
  });

  it("keeps UniValue's quirk: a lone '-' at the very end of the input is a number token", () => {
    expect(plain(parseJson('-'))).toEqual({ num: '-' });
    expect(plain(parseJson('  -'))).toEqual({ num: '-' });
    rejects('- ');
    rejects('[-');
    rejects('{"a":-');
  });
});

describe('reader: strings (§4.5)', () => {
  it('decodes every escape', () => {
    expect(parseJson('"\\"\\\\\\/\\b\\f\\n\\r\\t"')).toBe('"\\/\b\f\n\r\t');
    expect(parseJson('"\\u00e9\\u00E9\\u0041"')).toBe('ééA');
  });

  it('\\u0000 is accepted and becomes NUL', () => {
    expect(parseJson('"a\\u0000b"')).toBe('a\u0000b');
  });

  it('rejects other escapes and truncated \\u', () => {
    for (const bad of ['"\\a"', '"\\x41"', '"\\U0041"', '"\\u12"', '"\\u12g4"', '"\\', '"\\u0041']) rejects(bad);
  });

  it('rejects raw control bytes < 0x20 but accepts 0x7F', () => {
    for (let c = 0; c < 0x20; c++) rejects(quoted(0x61, c));
    expect(parseJson(quoted(0x7f))).toBe('\u007f');
  });

  it('combines surrogate pairs, escaped or mixed', () => {
    expect(parseJson('"\\uD834\\uDD1E"')).toBe('\u{1d11e}');
    expect(parseJson('"\\ud834\\udd1e"')).toBe('\u{1d11e}');
  });

  it('rejects unpaired surrogates, escaped or UTF-8-encoded', () => {
    rejects('"\\uD834"');
    rejects('"\\uDD1E"');
    rejects('"\\uD834\\u0041"');
    rejects('"\\uD834\\uD834"');
    rejects(quoted(0xed, 0xa0, 0x80)); // U+D800 as UTF-8
    rejects(quoted(0xed, 0xb0, 0x80)); // U+DC00 as UTF-8
  });

  it('pairs UTF-8-encoded surrogate halves like UniValue (CESU-8 style)', () => {
    expect(parseJson(quoted(0xed, 0xa0, 0xb4, 0xed, 0xb4, 0x9e))).toBe('\u{1d11e}');
  });

  it('an ASCII byte between the halves does not break the pair (UniValue filter quirk)', () => {
    expect(parseJson('"\\uD834a\\uDD1E"')).toBe('a\u{1d11e}');
  });

  it('validates raw UTF-8 structure', () => {
    expect(parseJson(quoted(0xc3, 0xa9))).toBe('é');
    expect(parseJson(quoted(0xe2, 0x80, 0x93))).toBe('–');
    expect(parseJson(quoted(0xf0, 0x9d, 0x84, 0x9e))).toBe('\u{1d11e}');
    rejects(quoted(0x80)); // lone continuation
    rejects(quoted(0xc3)); // truncated sequence
    rejects(quoted(0xc3, 0x41)); // lead without continuation
    rejects(quoted(0xe2, 0x80)); // truncated 3-byte
    rejects(quoted(0xf8, 0x80, 0x80, 0x80, 0x80)); // reserved lead
    rejects(quoted(0xff));
    rejects(quoted(0xc3, 0x5c, 0x6e)); // an escape inside a sequence
  });

  it('accepts overlong forms and stores the canonical code point', () => {
    expect(parseJson(quoted(0xc0, 0x80))).toBe('\u0000');
    expect(parseJson(quoted(0xc1, 0xbf))).toBe('\u007f');
    expect(parseJson(quoted(0xe0, 0x80, 0xaf))).toBe('/');
    expect(parseJson(quoted(0xf0, 0x80, 0x81, 0x81))).toBe('A');
  });

  it('a code point above U+10FFFF (accepted by UniValue) reads as U+FFFD', () => {
    expect(parseJson(quoted(0xf4, 0x90, 0x80, 0x80))).toBe('\ufffd');
    expect(parseJson(quoted(0xf7, 0xbf, 0xbf, 0xbf))).toBe('\ufffd');
  });

  it('a JS string input is read as its UTF-8 encoding', () => {
    expect(parseJson('"é\u{1d11e}"')).toBe('é\u{1d11e}');
  });

  it('keys go through the same rules', () => {
    const o = parseJson(Buffer.concat([Buffer.from('{"'), Buffer.from([0xc0, 0x80]), Buffer.from('":1}')]));
    expect((o as JsonObject).entries[0]![0]).toBe('\u0000');
    rejects(Buffer.concat([Buffer.from('{"'), Buffer.from([0x80]), Buffer.from('":1}')]));
  });
});

describe('reader: objects and arrays', () => {
  it("reads the envelope's member names and one-digit numbers as any other, whatever follows them", () => {
    const text = '{"id":1,"idx":2,"i":3,"method":4,"methods":5,"params":6,"param":7,"jsonrpc":8,"i\\u0064":9,"ID":0,"id ":-1,"":10}';
    expect(plain(parseJson(text))).toEqual(plainOf(text));
    // A member name cut short, with or without its quote, is still an error.
    for (const cut of ['{"id', '{"id"', '{"method"', '{"params":[1', '{"jsonrpc":1']) rejects(cut);
    for (const d of ['0', '5', '9', '-1', '10', '-']) expect(plain(parseJson(d))).toEqual({ num: d });
  });

  it('keeps duplicate keys in order; lookups take the first', () => {
    const o = parseJson('{"method":"getblockcount","method":"stop","id":1,"id":2}') as JsonObject;
    expect(o.entries.map(([k]) => k)).toEqual(['method', 'method', 'id', 'id']);
    expect(o.get('method')).toBe('getblockcount');
    expect((o.get('id') as JsonNumber).text).toBe('1');
  });

  it('rejects trailing commas, missing separators, non-string keys, mismatched brackets', () => {
    for (const bad of [
      '[1,]',
      '{"a":1,}',
      '[,1]',
      '{,}',
      '[1 2]',
      '{"a" 1}',
      '{"a":}',
      '{"a"}',
      '{1:2}',
      '{a:1}',
      '[1}',
      '{"a":1]',
      '{"a":1:2}',
      '["a":1]',
      '{"a":{"b":1}"c":2}',
      ']',
      '}',
      ',',
      ':',
      '[[]',
      '[]]',
    ]) {
      rejects(bad);
    }
  });

  it('accepts empty containers and nesting', () => {
    expect(plain(parseJson('[[],{},[{}],{"a":[]}]'))).toEqual([[], [], [[]], [['a', []]]]);
  });

  it('maximum nesting depth is 512 (513 is an error)', () => {
    const nest = (n: number, open: string, close: string): string => open.repeat(n) + close.repeat(n);
    expect(() => parseJson(nest(512, '[', ']'))).not.toThrow();
    expect(() => parseJson(nest(513, '[', ']'))).toThrow(/nesting deeper than 512/);
    const objs = (n: number): string => '{"a":'.repeat(n - 1) + '{}' + '}'.repeat(n - 1);
    expect(() => parseJson(objs(512))).not.toThrow();
    expect(() => parseJson(objs(513))).toThrow(/nesting deeper than 512/);
    expect(() => parseJson('['.repeat(100_000))).toThrow(JsonParseError);
  });
});

describe('reader: properties', () => {
  it('never throws anything but JsonParseError on random bytes', () => {
    const alphabet = [...'{}[],:"\\-0123456789.eE+tfnrulsa \t\n']
      .map((c) => c.charCodeAt(0))
      .concat([0x00, 0x7f, 0x80, 0xc0, 0xc3, 0xa9, 0xed, 0xa0, 0xf0, 0xf4, 0xff]);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 40, size: 'max' }), (arr) => {
        try {
          parseJson(new Uint8Array(arr));
        } catch (e) {
          if (!(e instanceof JsonParseError)) throw e;
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees with JSON.parse on valid JSON (values, last-key aside)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const ours = parseJson(text);
        // Compare via JSON.parse of our own compact re-serialization (numbers as text).
        expect(JSON.parse(new JsonWriter().value(ours).toString())).toEqual(JSON.parse(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('writer output reads back to the same value', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.integer(), (s, n) => {
        const w = new JsonWriter()
          .beginObject()
          .key(s)
          .str(s + '\u007f\u0001"')
          .key('n')
          .int(n)
          .endObject();
        const back = parseJson(w.toString()) as JsonObject;
        expect(back.entries[0]).toEqual([s, s + '\u007f\u0001"']);
        expect(back.entries[1]![0]).toBe('n');
        expect((back.entries[1]![1] as JsonNumber).text).toBe(String(n));
      }),
      { numRuns: 1000 },
    );
  });
});
