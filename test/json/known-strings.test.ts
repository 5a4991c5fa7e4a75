// Long strings found equal to strings held checked (json/known-strings.ts): the estimate and the
// reader skip their scans of such a string and give exactly what they give without it; any other
// string, even one differing from a held one by a single byte, takes the ordinary path.
import { describe, expect, it } from 'vitest';
import { KnownRuns, type PlainStringSource } from '../../src/json/known-strings.js';
import { LazyStringScope, plainStringBytes } from '../../src/json/lazy-strings.js';
import { JsonParseError, parseJson } from '../../src/json/reader.js';
import { parsedSizeEstimate } from '../../src/json/size-estimate.js';
import type { JsonObject, JsonValue } from '../../src/json/value.js';
import { DecodeCache } from '../../src/rpc/methods/rawtransaction/decode-cache.js';

const HEX = Buffer.from(Array.from({ length: 80_000 }, (_, i) => '0123456789abcdef'[(i * 7) % 16]).join(''), 'latin1');
const OTHER = Buffer.from('f'.repeat(70_000), 'latin1');

/**
 * A source holding `held`, counting the comparisons asked of it. It answers with a string of its
 * own made once per held string (`texts`), as a cache does: `marked` makes that string upper
 * case, so that a test sees which string the reader put in a slot (the body's hex is lower case).
 */
function source(...held: Buffer[]): PlainStringSource & { asked: number; texts: Map<Buffer, string>; marked: boolean } {
  return {
    asked: 0,
    texts: new Map(),
    marked: false,
    plainStringEqualTo(bytes) {
      this.asked++;
      const h = held.find((x) => x.equals(bytes));
      if (h === undefined) return undefined;
      let text = this.texts.get(h);
      if (text === undefined) this.texts.set(h, (text = this.marked ? h.toString('latin1').toUpperCase() : h.toString('latin1')));
      return text;
    },
  };
}

const body = (params: string) => Buffer.from(`{"id":1,"method":"m","params":[${params}]}`, 'latin1');
const q = (b: Buffer) => `"${b.toString('latin1')}"`;

/** The estimate and parse with the known runs of `sources`, beside the ordinary ones; `ranges`: the body ranges left lazy. */
function bothWays(b: Buffer, ...sources: PlainStringSource[]) {
  const known = new KnownRuns(sources);
  const estimate = parsedSizeEstimate(b, known);
  const scope = new LazyStringScope();
  const value = parseJson(b, { lazyStrings: scope, knownRuns: known });
  const params = (value as JsonObject).get('params') as JsonValue[];
  const ranges = params.map((_, i) => plainStringBytes(params, i));
  return { estimate, value, params, ranges, plain: { estimate: parsedSizeEstimate(b), value: parseJson(b) } };
}

/** The known runs of `b` for `sources` (the estimate finds them). */
function withRuns(b: Buffer, ...sources: PlainStringSource[]): KnownRuns {
  const known = new KnownRuns(sources);
  parsedSizeEstimate(b, known);
  return known;
}

describe('known long strings', () => {
  it('read as the held string itself, a plain element, with the same estimate and value as the ordinary reader', () => {
    const s = source(HEX);
    const r = bothWays(body(`${q(HEX)},1`), s);
    expect(s.asked).toBe(1);
    // No range of the body: the element is the source's string, read without an accessor.
    expect(r.ranges[0]).toBeNull();
    expect(Object.getOwnPropertyDescriptor(r.params, 0)).toEqual({
      value: HEX.toString('latin1'),
      writable: true,
      enumerable: true,
      configurable: true,
    });
    expect(r.estimate).toBe(r.plain.estimate);
    expect(r.value).toEqual(r.plain.value);
    expect((r.value as JsonObject).get('params')).toEqual([HEX.toString('latin1'), expect.anything()]);
  });

  it("put the source's own string in the slot, not one made from the body", () => {
    const s = source(HEX);
    s.marked = true;
    const r = bothWays(body(q(HEX)), s);
    expect(r.params[0]).toBe(HEX.toString('latin1').toUpperCase());
    expect(r.params[0]).toBe(s.texts.get(HEX));
  });

  it('match only the strings held, in body order, whichever source holds them', () => {
    const held = source(HEX);
    held.marked = true;
    const r = bothWays(body(`${q(OTHER)},${q(HEX)},${q(OTHER)}`), source(), held);
    // The strings not held stay ranges of the body, as without known runs.
    expect(r.ranges[0]!.equals(OTHER)).toBe(true);
    expect(r.ranges[1]).toBeNull();
    expect(r.params[1]).toBe(HEX.toString('latin1').toUpperCase());
    expect(r.ranges[2]!.equals(OTHER)).toBe(true);
    expect(r.estimate).toBe(r.plain.estimate);
    const plain = bothWays(body(`${q(OTHER)},${q(HEX)},${q(OTHER)}`), source(), source(HEX));
    expect(plain.value).toEqual(plain.plain.value);
  });

  it('give a held string as an object member an ordinary string, and a held string read twice the same held string each time', () => {
    const member = Buffer.from(`{"id":1,"method":"m","params":{"hex":${q(HEX)}},"x":[${q(HEX)},${q(HEX)}]}`, 'latin1');
    const s = source(HEX);
    const known = new KnownRuns([s]);
    const estimate = parsedSizeEstimate(member, known);
    const value = parseJson(member, { lazyStrings: new LazyStringScope(), knownRuns: known }) as JsonObject;
    expect(estimate).toBe(parsedSizeEstimate(member));
    expect(value).toEqual(parseJson(member));
    const x = value.get('x') as JsonValue[];
    expect(s.asked).toBe(3);
    expect([plainStringBytes(x, 0), plainStringBytes(x, 1)]).toEqual([null, null]);
    expect(x).toEqual([HEX.toString('latin1'), HEX.toString('latin1')]);
    s.marked = true;
    s.texts.clear();
    const y = (parseJson(member, { lazyStrings: new LazyStringScope(), knownRuns: withRuns(member, s) }) as JsonObject).get('x');
    expect(y).toEqual([s.texts.get(HEX), s.texts.get(HEX)]);
    expect((parseJson(member, { lazyStrings: new LazyStringScope(), knownRuns: withRuns(member, s) }) as JsonObject).get('params')).toEqual(
      (parseJson(member) as JsonObject).get('params'),
    );
  });

  it('refuse or read a string differing from a held one by a byte exactly as the ordinary reader does', () => {
    const s = source(HEX);
    s.marked = true;
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
        // Not the held string (upper case here): a range of the body, or an ordinary string.
        expect(params[0], what).not.toBe(HEX.toString('latin1').toUpperCase());
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

  it('found by the lengths a source holds (the run not searched for its quote) give what the ordinary reader gives', () => {
    const cache = new DecodeCache(1 << 20);
    cache.set('main', HEX, Buffer.from('reply'));
    const held = cache.plainStringEqualTo(Buffer.from(HEX))!;
    const longer = Buffer.from(`${HEX.toString('latin1')}0`, 'latin1');
    const shorter = HEX.subarray(1);
    const b = body(`${q(OTHER)},${q(HEX)},${q(longer)},${q(shorter)},${q(HEX)}`);
    const r = bothWays(b, cache);
    expect(r.estimate).toBe(r.plain.estimate);
    expect(r.value).toEqual(r.plain.value);
    expect([r.params[1], r.params[4]]).toEqual([held, held]);
    expect(r.ranges.map((x) => (x === null ? null : x.length))).toEqual([OTHER.length, null, longer.length, shorter.length, null]);
    // Found without the comparison of the whole run that follows a search for its quote.
    let compared = 0;
    const counting: PlainStringSource = {
      plainStringEqualTo: (bytes) => (compared++, cache.plainStringEqualTo(bytes)),
      plainStringFrom: (bytes, start, min) => cache.plainStringFrom(bytes, start, min),
    };
    expect(bothWays(body(q(HEX)), counting).params[0]).toBe(held);
    expect(compared).toBe(0);
  });

  it('stop trying runs by their lengths once a body has missed often, and still find a held string after it', () => {
    const cache = new DecodeCache(1 << 22);
    cache.set('main', HEX, Buffer.from('reply'));
    const held = cache.plainStringEqualTo(Buffer.from(HEX))!;
    let tries = 0;
    const counting: PlainStringSource = {
      plainStringEqualTo: (bytes) => cache.plainStringEqualTo(bytes),
      plainStringFrom: (bytes, start, min) => (tries++, cache.plainStringFrom(bytes, start, min)),
    };
    // A body of quotes placed so that every try reaches a quote after a held string's length.
    const quotes = Buffer.alloc(4 * HEX.length, 0x22);
    const known = new KnownRuns([counting]);
    parsedSizeEstimate(Buffer.concat([Buffer.from('['), quotes, Buffer.from(']')]), known);
    expect(tries).toBe(128);
    // Past the limit, a held string is found by the comparison after the search for its quote.
    tries = 0;
    const r = bothWays(body(`${Array.from({ length: 200 }, () => '""').join(',')},${q(HEX)}`), counting);
    expect(tries).toBe(128);
    expect(r.params[200]).toBe(held);
    expect(r.estimate).toBe(r.plain.estimate);
  });

  it('leave a held string shorter than the lazy threshold an ordinary string', () => {
    const short = Buffer.from('ab'.repeat(300), 'latin1');
    const b = Buffer.from(`{"id":1,"method":"m","params":[${q(short)},${q(HEX)}]}`, 'latin1');
    const s = source(short, HEX);
    s.marked = true;
    const r = bothWays(b, s);
    expect(r.ranges[0]).toBeNull();
    expect(r.params[0]).toBe(short.toString('latin1'));
    expect(r.params[1]).toBe(HEX.toString('latin1').toUpperCase());
    expect(bothWays(b, source(short, HEX)).value).toEqual(r.plain.value);
  });
});
