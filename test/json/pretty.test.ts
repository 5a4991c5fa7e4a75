import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { prettyPrint, writePretty } from '../../src/json/pretty.js';
import { parseJson } from '../../src/json/reader.js';
import { JsonWriter } from '../../src/json/writer.js';
import { vectorPath, zcashd2019Heights } from '../support/vectors.js';

describe('pretty form vs the zcashd-2019 zcash-cli captures', () => {
  const heights = zcashd2019Heights();

  it('has all 51 captures', () => {
    expect(heights.length).toBe(51);
  });

  for (const h of heights) {
    it(`height ${h}: prettyPrint(compact) and writePretty reproduce the file byte for byte`, () => {
      const file = readFileSync(vectorPath('zcashd-2019', `${h}.getblock.json`), 'utf8');
      const value = parseJson(file);
      const compact = new JsonWriter().value(value).toString();
      expect(compact).not.toContain('\n');
      expect(compact).toContain('"difficulty":'); // number tokens survive as text
      // zcash-cli prints write(2) plus one '\n'; the genesis capture lost that newline upstream.
      const expected = h === 0 ? file : file.slice(0, -1);
      if (h !== 0) expect(file.endsWith('}\n')).toBe(true);
      else expect(file.endsWith('}')).toBe(true);
      expect(prettyPrint(compact)).toBe(expected);
      expect(writePretty(value)).toBe(expected);
    });
  }
});

describe('pretty form details (UniValue write(2))', () => {
  it('layout of nested containers', () => {
    const compact = '{"a":1,"b":[true,null,"x"],"c":{"d":0.00000000}}';
    const expected = '{\n  "a": 1,\n  "b": [\n    true,\n    null,\n    "x"\n  ],\n  "c": {\n    "d": 0.00000000\n  }\n}';
    expect(prettyPrint(compact)).toBe(expected);
    expect(writePretty(parseJson(compact))).toBe(expected);
  });

  it('empty containers keep their newline, as UniValue writes them', () => {
    const compact = '{"trees":{},"tx":[],"n":[[]]}';
    const expected = '{\n  "trees": {\n  },\n  "tx": [\n  ],\n  "n": [\n    [\n    ]\n  ]\n}';
    expect(prettyPrint(compact)).toBe(expected);
    expect(writePretty(parseJson(compact))).toBe(expected);
    expect(prettyPrint('{}')).toBe('{\n}');
    expect(prettyPrint('[]')).toBe('[\n]');
  });

  it('strings are copied verbatim, brackets and commas inside them untouched', () => {
    const compact = '["a,b:{[",  "q\\"]}\\\\", "\\u007f"]';
    expect(prettyPrint(compact)).toBe('[\n  "a,b:{[",\n  "q\\"]}\\\\",\n  "\\u007f"\n]');
    expect(writePretty(parseJson(compact))).toBe(prettyPrint(compact));
  });

  it('scalars and other indents', () => {
    expect(prettyPrint('1E5')).toBe('1E5');
    expect(prettyPrint('"x"')).toBe('"x"');
    expect(prettyPrint('{"a":[1]}', 4)).toBe('{\n    "a": [\n        1\n    ]\n}');
    expect(writePretty(parseJson('{"a":[1]}'), 4)).toBe('{\n    "a": [\n        1\n    ]\n}');
    expect(writePretty(parseJson('{"a":[1, {}]}'), 0)).toBe('{"a":[1,{}]}');
    expect(prettyPrint('{"a": [1, {}]}', 0)).toBe('{"a":[1,{}]}');
  });

  it('malformed input is a clear error', () => {
    expect(() => prettyPrint('{"a":1')).toThrow(/unclosed container/);
    expect(() => prettyPrint('[1}')).toThrow(/unbalanced/);
    expect(() => prettyPrint('["abc')).toThrow(/unterminated string/);
  });
});
