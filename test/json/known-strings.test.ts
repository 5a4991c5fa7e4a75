// Long strings found equal to strings held checked (json/known-strings.ts): the estimate and the
// reader skip their scans of such a string and give exactly what they give without it; any other
// string, even one differing from a held one by a single byte, takes the ordinary path.
import { describe, expect, it } from 'vitest';
import { KnownRuns, type PlainStringSource } from '../../src/json/known-strings.js';
import { LazyStringScope, plainStringBytes } from '../../src/json/lazy-strings.js';
import { JsonParseError, parseJson, parsedSizeEstimate } from '../../src/json/reader.js';
import type { JsonObject, JsonValue } from '../../src/json/value.js';

const HEX = Buffer.from(Array.from({ length: 80_000 }, (_, i) => '0123456789abcdef'[(i * 7) % 16]).join(''), 'latin1');
const OTHER = Buffer.from('f'.repeat(70_000), 'latin1');

/** A source holding `held`, counting the comparisons asked of it. */
function source(...held: Buffer[]): PlainStringSource & { asked: number } {
  return {
    asked: 0,
    plainStringEqualTo(bytes) {
      this.asked++;
      return held.find((h) => h.equals(bytes));
    },
  };
}

const body = (params: string) => Buffer.from(`{"id":1,"method":"m","params":[${params}]}`, 'latin1');
const q = (b: Buffer) => `"${b.toString('latin1')}"`;

/** The estimate and parse with the known runs of `sources`, beside the ordinary ones. */
function bothWays(b: Buffer, ...sources: PlainStringSource[]) {
  const known = new KnownRuns(sources);
  const estimate = parsedSizeEstimate(b, known);
  const scope = new LazyStringScope();
  const value = parseJson(b, { lazyStrings: scope, knownRuns: known });
  const params = (value as JsonObject).get('params') as JsonValue[];
  const held = params.map((_, i) => plainStringBytes(params, i));
  return { estimate, value, held, plain: { estimate: parsedSizeEstimate(b), value: parseJson(b) } };
}

describe('known long strings', () => {
  it('read as the held string itself, with the same estimate and value as the ordinary reader', () => {
    const s = source(HEX);
    const r = bothWays(body(`${q(HEX)},1`), s);
    expect(s.asked).toBe(1);
    expect(r.held[0]).toBe(HEX);
    expect(r.estimate).toBe(r.plain.estimate);
    expect(r.value).toEqual(r.plain.value);
    expect((r.value as JsonObject).get('params')).toEqual([HEX.toString('latin1'), expect.anything()]);
  });

  it('match only the strings held, in body order, whichever source holds them', () => {
    const r = bothWays(body(`${q(OTHER)},${q(HEX)},${q(OTHER)}`), source(), source(HEX));
    expect(r.held[0]).not.toBe(OTHER);
    expect(r.held[0]!.equals(OTHER)).toBe(true);
    expect(r.held[1]).toBe(HEX);
    expect(r.held[2]).not.toBe(OTHER);
    expect(r.value).toEqual(r.plain.value);
    expect(r.estimate).toBe(r.plain.estimate);
  });

  it('give a held string as an object member an ordinary string, and a held string read twice its own copy each time', () => {
    const member = Buffer.from(`{"id":1,"method":"m","params":{"hex":${q(HEX)}},"x":[${q(HEX)},${q(HEX)}]}`, 'latin1');
    const known = new KnownRuns([source(HEX)]);
    const estimate = parsedSizeEstimate(member, known);
    const value = parseJson(member, { lazyStrings: new LazyStringScope(), knownRuns: known }) as JsonObject;
    expect(estimate).toBe(parsedSizeEstimate(member));
    expect(value).toEqual(parseJson(member));
    const x = value.get('x') as JsonValue[];
    expect(plainStringBytes(x, 0)).toBe(HEX);
    expect(plainStringBytes(x, 1)).toBe(HEX);
  });

  it('refuse or read a string differing from a held one by a byte exactly as the ordinary reader does', () => {
    const s = source(HEX);
    const variants: [string, string][] = [
      ['control byte', `${HEX.toString('latin1', 0, 20_000)}\x01${HEX.toString('latin1', 20_001)}`],
      ['escape', `${HEX.toString('latin1', 0, 20_000)}\\u00${HEX.toString('hex', 20_000, 20_001)}${HEX.toString('latin1', 20_001)}`],
      ['backslash escape of a digit', `\\${HEX.toString('latin1', 0, 1)}${HEX.toString('latin1', 1)}`],
      ['non-ASCII', `${HEX.toString('latin1', 0, 79_999)}\u00e9`],
      ['one byte longer', `${HEX.toString('latin1')}0`],
      ['one byte shorter', HEX.toString('latin1', 1)],
    ];
    for (const [what, text] of variants) {
      const b = Buffer.from(`{"id":1,"method":"m","params":["${text}"]}`, 'utf8');
      const known = new KnownRuns([s]);
      const estimate = parsedSizeEstimate(b, known);
      expect(estimate, what).toBe(parsedSizeEstimate(b));
      let ordinary: unknown;
      try {
        ordinary = parseJson(b);
      } catch (e) {
        ordinary = e;
      }
      let fast: unknown;
      try {
        const v = parseJson(b, { lazyStrings: new LazyStringScope(), knownRuns: known }) as JsonObject;
        const params = v.get('params') as JsonValue[];
        expect(plainStringBytes(params, 0), what).not.toBe(HEX);
        fast = v;
      } catch (e) {
        fast = e;
      }
      if (ordinary instanceof JsonParseError) {
        expect(fast, what).toBeInstanceOf(JsonParseError);
        expect((fast as Error).message, what).toBe(ordinary.message);
      } else expect(fast, what).toEqual(ordinary);
    }
    // The control byte is refused, the escapes read as the held string's text.
    expect(() => parseJson(Buffer.from(`["${HEX.toString('latin1', 0, 20_000)}\x01"]`))).toThrow(JsonParseError);
  });

  it('leave a held string shorter than the lazy threshold an ordinary string', () => {
    const short = Buffer.from('ab'.repeat(300), 'latin1');
    const b = Buffer.from(`{"id":1,"method":"m","params":[${q(short)},${q(HEX)}]}`, 'latin1');
    const r = bothWays(b, source(short, HEX));
    expect(r.held[0]).toBeNull();
    expect(r.held[1]).toBe(HEX);
    expect(r.value).toEqual(r.plain.value);
  });
});
