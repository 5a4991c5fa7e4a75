import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonWriter, quoteJsonString } from '../../src/json/writer.js';
import { parseJson } from '../../src/json/reader.js';
import { JsonNumber, JsonObject } from '../../src/json/value.js';

/** The UTF-8 bytes of the writer's text, as hex, for byte-level comparisons. */
function utf8Hex(s: string): string {
  return Buffer.from(s, 'utf8').toString('hex');
}

describe('string escaping (§4.2)', () => {
  const table: Array<[number, string]> = [
    [0x08, '\\b'],
    [0x09, '\\t'],
    [0x0a, '\\n'],
    [0x0c, '\\f'],
    [0x0d, '\\r'],
    [0x00, '\\u0000'],
    [0x01, '\\u0001'],
    [0x0b, '\\u000b'],
    [0x1f, '\\u001f'],
    [0x22, '\\"'],
    [0x5c, '\\\\'],
    [0x7f, '\\u007f'],
    [0x2f, '/'],
  ];
  for (const [byte, escaped] of table) {
    it(`0x${byte.toString(16).padStart(2, '0')} -> ${escaped}`, () => {
      expect(quoteJsonString(String.fromCharCode(byte))).toBe(`"${escaped}"`);
    });
  }

  it('every other control byte is \\u00XX with lowercase hex', () => {
    for (let c = 0; c < 0x20; c++) {
      const out = quoteJsonString(String.fromCharCode(c));
      if ([8, 9, 10, 12, 13].includes(c)) continue;
      expect(out).toBe(`"\\u00${c.toString(16).padStart(2, '0')}"`);
    }
  });

  it('printable ASCII other than " and \\ is literal', () => {
    for (let c = 0x20; c < 0x7f; c++) {
      if (c === 0x22 || c === 0x5c) continue;
      expect(quoteJsonString(String.fromCharCode(c))).toBe(`"${String.fromCharCode(c)}"`);
    }
  });

  it('the spec example x<01><7f>"\\/', () => {
    expect(quoteJsonString('x\u0001\u007f"\\/')).toBe('"x\\u0001\\u007f\\"\\\\/"');
  });

  it('non-ASCII is emitted raw: the UTF-8 bytes pass through unescaped', () => {
    const text = new JsonWriter().str('é–\u{1d11e}').toString();
    expect(utf8Hex(text)).toBe('22' + 'c3a9' + 'e28093' + 'f09d849e' + '22');
  });

  it('escapes in the middle and at both ends of longer strings', () => {
    expect(quoteJsonString('\nab\tc"')).toBe('"\\nab\\tc\\""');
    expect(quoteJsonString('plain text, no escapes')).toBe('"plain text, no escapes"');
    expect(quoteJsonString('')).toBe('""');
  });

  it('long strings (regex fast path) escape exactly like short ones', () => {
    const pad = 'abcdefghijklmnopqrstuvwxyz0123456789';
    for (const [c, esc] of [
      ['\u0000', '\\u0000'],
      ['\n', '\\n'],
      ['"', '\\"'],
      ['\\', '\\\\'],
      ['\u007f', '\\u007f'],
      ['\u001b', '\\u001b'],
    ]) {
      expect(quoteJsonString(pad + c! + pad)).toBe(`"${pad}${esc}${pad}"`);
      expect(quoteJsonString(c! + pad)).toBe(`"${esc}${pad}"`);
      expect(quoteJsonString(pad + c!)).toBe(`"${pad}${esc}"`);
    }
  });

  it('agrees with JSON.stringify plus the DEL rule on random well-formed strings of any length', () => {
    const reference = (s: string): string => JSON.stringify(s).replaceAll('\u007f', '\\u007f');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60, size: 'max' }), (s) => {
        expect(quoteJsonString(s)).toBe(reference(s));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', '"', '\\', '\u007f', '\u0001', '\n', 'é', '/'), maxLength: 60, size: 'max' }),
        (s) => {
          expect(quoteJsonString(s)).toBe(reference(s));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('keys are escaped like strings', () => {
    expect(new JsonWriter().beginObject().key('a"b\u007f').int(1).endObject().toString()).toBe('{"a\\"b\\u007f":1}');
  });
});

describe('compact writer (§4.1, §4.3)', () => {
  it('writes a TxToJSON-like object with no whitespace', () => {
    const w = new JsonWriter();
    w.beginObject();
    w.key('txid').str('851bf6fbf7a976327817c738c489d7fa657752445430922d94c983c0b9ed4609');
    w.key('overwintered').bool(false);
    w.key('version').int(1);
    w.key('vin').beginArray().endArray();
    w.key('vout').beginArray();
    w.beginObject().key('value').amount(62500).key('valueZat').int(62500).key('n').int(0).endObject();
    w.endArray();
    w.key('vjoinsplit').beginArray().endArray();
    w.key('extra').beginObject().endObject();
    w.key('nothing').null();
    w.key('difficulty').double(524295.0001068132);
    w.endObject();
    expect(w.toString()).toBe(
      '{"txid":"851bf6fbf7a976327817c738c489d7fa657752445430922d94c983c0b9ed4609","overwintered":false,' +
        '"version":1,"vin":[],"vout":[{"value":0.00062500,"valueZat":62500,"n":0}],"vjoinsplit":[],' +
        '"extra":{},"nothing":null,"difficulty":524295.0001068132}',
    );
  });

  it('integers: plain decimal, uint64 and int64 extremes as bigint', () => {
    const w = new JsonWriter().beginArray();
    w.int(0).int(-0).int(-5).int(4294967295).int(Number.MAX_SAFE_INTEGER);
    w.int(18446744073709551615n).int(-9223372036854775808n);
    expect(w.endArray().toString()).toBe('[0,0,-5,4294967295,9007199254740991,18446744073709551615,-9223372036854775808]');
  });

  it('rejects numbers that are not exact integers', () => {
    expect(() => new JsonWriter().int(1.5)).toThrow(RangeError);
    expect(() => new JsonWriter().int(2 ** 64)).toThrow(RangeError);
    expect(() => new JsonWriter().int(Number.NaN)).toThrow(RangeError);
  });

  it('amounts are number tokens, never doubles', () => {
    const w = new JsonWriter().beginArray().amount(0).amount(-5).amount(2100000000000000n).endArray();
    expect(w.toString()).toBe('[0.00000000,-0.00000005,21000000.00000000]');
  });

  it('a non-finite double writes an empty token, like zcashd', () => {
    const w = new JsonWriter().beginObject().key('difficulty').double(Number.NaN).key('x').int(1).endObject();
    expect(w.toString()).toBe('{"difficulty":,"x":1}');
  });

  it('raw inserts compact text verbatim, with separators handled', () => {
    const w = new JsonWriter().beginObject().key('result').raw('{"a":[1,2]}').key('error').null().endObject();
    expect(w.toString()).toBe('{"result":{"a":[1,2]},"error":null}');
  });

  it('top-level scalars', () => {
    expect(new JsonWriter().int(42).toString()).toBe('42');
    expect(new JsonWriter().str('x').toString()).toBe('"x"');
    expect(new JsonWriter().toString()).toBe('');
  });

  it('value(): JsonNumber text kept, duplicate keys kept in order', () => {
    const obj = new JsonObject();
    obj.entries.push(['id', new JsonNumber('1.50')], ['id', new JsonNumber('-0')], ['e', new JsonNumber('1E5')]);
    obj.entries.push(['list', [true, false, null, 'é', [], new JsonObject()]]);
    expect(new JsonWriter().value(obj).toString()).toBe('{"id":1.50,"id":-0,"e":1E5,"list":[true,false,null,"é",[],{}]}');
  });

  it('request strings are re-escaped on output: "\\u00e9\\/" echoes as raw é and /', () => {
    const v = parseJson('"\\u00e9\\/"');
    expect(utf8Hex(new JsonWriter().value(v).toString())).toBe('22c3a92f22');
  });

  describe('misuse is a clear error, not bad JSON', () => {
    it('value in an object without a key', () => {
      expect(() => new JsonWriter().beginObject().int(1)).toThrow(/without a key/);
    });
    it('key outside an object / two keys in a row', () => {
      expect(() => new JsonWriter().beginArray().key('a')).toThrow(/outside an object/);
      expect(() => new JsonWriter().beginObject().key('a').key('b')).toThrow(/after another key/);
    });
    it('mismatched or missing closers', () => {
      expect(() => new JsonWriter().beginObject().endArray()).toThrow(/endArray/);
      expect(() => new JsonWriter().beginArray().endObject()).toThrow(/endObject/);
      expect(() => new JsonWriter().beginObject().key('a').endObject()).toThrow(/no value/);
      expect(() => new JsonWriter().beginArray().toString()).toThrow(/still open/);
    });
    it('two top-level values', () => {
      expect(() => new JsonWriter().int(1).int(2)).toThrow(/second top-level/);
    });
  });
});

/**
 * §3.7 replies that are pure serialization: built with the writer from the parsed request
 * (id echoed from the first `id` member, number text verbatim), then `\n`.
 */
describe('envelope serializations (§3.7)', () => {
  function errorReply(code: number, message: string, id: JsonWriter | null = null): string {
    const w = new JsonWriter().beginObject().key('result').null();
    w.key('error').beginObject().key('code').int(code).key('message').str(message).endObject();
    w.key('id');
    if (id === null) w.null();
    else w.raw(id.toString());
    return w.endObject().toString() + '\n';
  }
  function idOf(body: string): JsonWriter {
    const req = parseJson(body) as JsonObject;
    return new JsonWriter().value(req.get('id') ?? null);
  }

  it('parse error', () => {
    expect(errorReply(-32700, 'Parse error')).toBe('{"result":null,"error":{"code":-32700,"message":"Parse error"},"id":null}\n');
  });

  it('top-level object parse error', () => {
    expect(errorReply(-32700, 'Top-level object parse error')).toBe(
      '{"result":null,"error":{"code":-32700,"message":"Top-level object parse error"},"id":null}\n',
    );
  });

  it('Method must be a string, id 7 echoed', () => {
    expect(errorReply(-32600, 'Method must be a string', idOf('{"id":7,"method":5}'))).toBe(
      '{"result":null,"error":{"code":-32600,"message":"Method must be a string"},"id":7}\n',
    );
  });

  it('typed-getter failure as -1', () => {
    expect(errorReply(-1, 'JSON value is not a string as expected', idOf('{"id":1,"method":"getblock","params":[100]}'))).toBe(
      '{"result":null,"error":{"code":-1,"message":"JSON value is not a string as expected"},"id":1}\n',
    );
  });

  it('success with id 1.50 echoed verbatim', () => {
    const w = new JsonWriter().beginObject().key('result').int(2000000).key('error').null();
    w.key('id').raw(idOf('{"id":1.50,"method":"getblockcount"}').toString()).endObject();
    expect(w.toString() + '\n').toBe('{"result":2000000,"error":null,"id":1.50}\n');
  });

  it('batch reply array, string id echoed', () => {
    const w = new JsonWriter().beginArray();
    w.beginObject().key('result').int(5).key('error').null().key('id').int(1).endObject();
    w.raw(errorReply(-32600, 'Invalid Request object').trimEnd());
    w.raw(errorReply(-32601, 'Method not found', idOf('{"id":"x","method":"nosuch"}')).trimEnd());
    expect(w.endArray().toString()).toBe(
      '[{"result":5,"error":null,"id":1},{"result":null,"error":{"code":-32600,"message":"Invalid Request object"},"id":null},' +
        '{"result":null,"error":{"code":-32601,"message":"Method not found"},"id":"x"}]',
    );
  });

  it('the U+2013 dash of the -32603 message is emitted raw (E2 80 93)', () => {
    const reply = errorReply(-32603, 'Parameters for dumpwallet not found \u2013 this is an internal error, please report it.');
    expect(Buffer.from(reply, 'utf8').includes(Buffer.from([0x20, 0xe2, 0x80, 0x93, 0x20]))).toBe(true);
  });
});
