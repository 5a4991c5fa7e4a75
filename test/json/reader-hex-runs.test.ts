// Long strings the size estimate proves plain by decoding them as hex (json/hex-runs.ts, the
// reader's decodesAsHexAhead): for any body, the estimate counts what it counted without the
// record, and the reader reads the same values and throws the same errors (message and offset)
// as the reader reading every string itself, with or without lazy strings. A hex string stays the
// body's bytes, decoded once: the decoder takes the bytes decoded ahead.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { hexBytesToBytesNotingCase, toHex } from '../../src/codec/hex.js';
import { HexRuns } from '../../src/json/hex-runs.js';
import { LAZY_STRING_MIN_BYTES, LazyStringScope, plainStringBytes } from '../../src/json/lazy-strings.js';
import { JsonParseError, parseJson, type ParseOptions } from '../../src/json/reader.js';
import { ESTIMATED_BODY_MIN_BYTES, parsedSizeEstimate } from '../../src/json/size-estimate.js';
import { JsonObject, type JsonValue } from '../../src/json/value.js';
import { readHexVector } from '../support/vectors.js';

/** testnet 141042's transaction 1 (97,548 bytes) as hex: 195,096 characters. */
const TX = decodeBlock(readHexVector('blocks', 'testnet', '141042.hex')).transactions[1]!;
const BIG_HEX = toHex(TX.bytes);

function toPlain(v: JsonValue): unknown {
  if (Array.isArray(v)) return v.map(toPlain);
  if (v instanceof JsonObject) return v.entries.map(([k, x]) => [k, toPlain(x)]);
  return v === null || typeof v !== 'object' ? v : { number: v.text };
}

/** What parsing `body` gives (every lazy slot read as a string) or throws. */
function outcome(body: Buffer, options: ParseOptions): string {
  try {
    return `value ${JSON.stringify(toPlain(parseJson(body, options)))}`;
  } catch (e) {
    if (!(e instanceof JsonParseError)) throw e;
    return `error ${e.message}`;
  }
}

/** A change of a long string at a place in it: bytes that keep it hex, or bytes that make it something else. */
const CHANGES: Record<string, Buffer> = {
  control: Buffer.from([0x01]),
  tab: Buffer.from('\t'),
  newline: Buffer.from('\n'),
  escape: Buffer.from('\\u0061'),
  'escaped quote': Buffer.from('\\"'),
  'bad escape': Buffer.from('\\x'),
  quote: Buffer.from('"'),
  'non-ASCII': Buffer.from('é', 'utf8'),
  'bad UTF-8': Buffer.from([0xff]),
  'not a digit': Buffer.from('g'),
  space: Buffer.from(' '),
  structure: Buffer.from(',{[:'),
  uppercase: Buffer.from('ABCDEF'),
  'one digit more': Buffer.from('a'),
  'one digit less': Buffer.alloc(0),
};

const longString = fc.record({
  length: fc.integer({ min: LAZY_STRING_MIN_BYTES - 4, max: 70_000 }),
  from: fc.nat({ max: 100_000 }),
  // Near the start too, where a string that is not hex is told from hex before any decode.
  changes: fc.array(fc.record({ at: fc.oneof(fc.nat({ max: 80 }), fc.nat()), change: fc.constantFrom(...Object.keys(CHANGES)) }), {
    maxLength: 3,
  }),
});

/** The string's bytes: a stretch of the transaction's hex with the changes made (a removal for "one digit less"). */
function stringBytes(s: { length: number; from: number; changes: { at: number; change: string }[] }): Buffer {
  let text = Buffer.from(BIG_HEX.slice(s.from, s.from + s.length), 'latin1');
  for (const { at, change } of s.changes) {
    const i = at % (text.length + 1);
    const cut = change === 'one digit less' ? 1 : change === 'one digit more' ? 0 : CHANGES[change]!.length;
    text = Buffer.concat([text.subarray(0, i), CHANGES[change]!, text.subarray(Math.min(text.length, i + cut))]);
  }
  return text;
}

const body = fc.record({
  strings: fc.array(longString, { minLength: 1, maxLength: 2 }),
  second: fc.constantFrom('', ',1', ',"ab"', ',[]'),
  end: fc.constantFrom(']}', ']', '}', ']} ', ']}x', ''),
});

function bodyBytes(b: { strings: Parameters<typeof stringBytes>[0][]; second: string; end: string }): Buffer {
  const parts: Buffer[] = [Buffer.from('{"jsonrpc":"1.0","id":1,"method":"decoderawtransaction","params":[')];
  b.strings.forEach((s, i) => parts.push(Buffer.from(i === 0 ? '"' : ',"'), stringBytes(s), Buffer.from('"')));
  parts.push(Buffer.from(b.second + b.end));
  return Buffer.concat(parts);
}

describe('long hex strings decoded ahead', () => {
  it('leave every body its estimate, its value and its error', () => {
    let estimated = 0;
    fc.assert(
      fc.property(body, (b) => {
        const bytes = bodyBytes(b);
        const hexRuns = new HexRuns();
        const estimate = parsedSizeEstimate(bytes, undefined, hexRuns);
        expect(estimate).toBe(parsedSizeEstimate(bytes));
        if (bytes.length >= ESTIMATED_BODY_MIN_BYTES) estimated++;
        const want = outcome(bytes, {});
        expect(outcome(bytes, { lazyStrings: new LazyStringScope(), hexRuns })).toBe(want);
        expect(outcome(bytes, { lazyStrings: new LazyStringScope() })).toBe(want);
      }),
      { numRuns: 150 },
    );
    // Both ways were taken: bodies the estimate reads (and records hex in), and bodies it does not.
    expect(estimated).toBeGreaterThan(10);
    expect(estimated).toBeLessThan(140);
  });

  it('are the body’s bytes, the view the estimate decoded, which the decoder takes without decoding again', () => {
    const bytes = Buffer.from(`{"id":1,"method":"decoderawtransaction","params":["${BIG_HEX}"]}`, 'latin1');
    const hexRuns = new HexRuns();
    parsedSizeEstimate(bytes, undefined, hexRuns);
    const start = bytes.indexOf('["') + 2;
    const recorded = hexRuns.from(start);
    expect(recorded?.toString('latin1')).toBe(BIG_HEX);

    const scope = new LazyStringScope();
    const params = (parseJson(bytes, { lazyStrings: scope, hexRuns }) as JsonObject).get('params') as JsonValue[];
    const text = plainStringBytes(params, 0);
    expect(text).toBe(recorded);
    // The body's hex changed after the estimate: the decoder still answers with the bytes decoded then.
    bytes[start] = 0x67;
    expect(Buffer.from(hexBytesToBytesNotingCase(text!)!.bytes).equals(Buffer.from(TX.bytes))).toBe(true);
    // Decoded again, the same view is read as it is now.
    expect(hexBytesToBytesNotingCase(text!)).toBeNull();
    scope.end();
  });
});
