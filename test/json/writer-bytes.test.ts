import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { networkParams } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex, toHexReversed } from '../../src/codec/hex.js';
import { scriptToAsm } from '../../src/codec/script/asm.js';
import { blockToJson, blockToJsonBytes } from '../../src/render/block.js';
import { txToJson } from '../../src/render/tx.js';
import { JsonFragment } from '../../src/json/fragment.js';
import { JsonWriter } from '../../src/json/writer.js';
import { readHexVector, realBlockFiles } from '../support/vectors.js';

/** Objects mixing every kind of value, non-ASCII strings and escapes included. */
function build(w: JsonWriter, count: number): JsonWriter {
  w.beginArray();
  for (let i = 0; i < count; i++) {
    w.beginObject()
      .key('i')
      .int(i)
      .key('s')
      .str(i % 7 === 0 ? `é€😀"\u0001${i}` : 'x'.repeat(i % 90))
      .key('a')
      .amount(-i)
      .key('n')
      .int(-i * 1_000_003);
    if (i % 500 === 499) w.key(`clé${i}`).raw('"ü€"');
    w.endObject();
  }
  return w.endArray();
}

describe('JsonWriter output', () => {
  it('toBuffer is the UTF-8 encoding of toString, with non-ASCII keys, strings and raw values', () => {
    const text = build(new JsonWriter(), 5000).toString();
    expect(text).toContain('"clé499":"ü€"');
    expect(text).toContain('"s":"é€😀\\"\\u00017"');
    expect(build(new JsonWriter(), 5000).toBuffer().equals(Buffer.from(text, 'utf8'))).toBe(true);
  });

  it('writes keys needing escapes, non-ASCII keys and long keys as text output does', () => {
    const keys = [
      'a"b',
      'a\\b',
      'line\nbreak',
      '\u0000',
      'del\u007f',
      'clé',
      '€',
      '😀',
      'k'.repeat(32),
      'k'.repeat(33),
      'x'.repeat(200),
      '',
    ];
    for (const k of keys) {
      const write = (w: JsonWriter) => w.beginObject().key('first').int(1).key(k).int(2).key(k).str(k).endObject();
      const text = write(new JsonWriter()).toString();
      expect(write(new JsonWriter(16)).toBuffer().toString('utf8')).toBe(text);
      expect(write(new JsonWriter(16)).toString()).toBe(text);
      expect(JSON.parse(text)).toEqual({ first: 1, [k]: k });
    }
  });

  it('grows from the smallest capacity, and out of given memory it outgrows, to the same bytes', () => {
    const want = build(new JsonWriter(1 << 22), 3000).toBuffer();
    expect(build(new JsonWriter(1), 3000).toBuffer().equals(want)).toBe(true);
    const small = Buffer.alloc(4096);
    const moved = build(new JsonWriter(small), 3000).toBuffer();
    expect(moved.equals(want)).toBe(true);
    expect(moved.buffer === small.buffer).toBe(false);
  });

  it('writes into given memory from its start while the text fits', () => {
    const memory = Buffer.alloc(1 << 16, 0xee);
    const out = new JsonWriter(memory).beginObject().key('k').hexStr(Uint8Array.of(1, 0xab)).endObject().toBuffer();
    expect(out.buffer === memory.buffer && out.byteOffset === memory.byteOffset).toBe(true);
    expect(out.toString()).toBe('{"k":"01ab"}');
    expect(memory[out.length]).toBe(0xee);
  });

  it('hex of any range, in order and reversed, equals the hex codec, encoded or copied from shared hex', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 300, size: 'max' }), fc.nat(), fc.nat(), (bytes, a, b) => {
        const start = bytes.length === 0 ? 0 : a % (bytes.length + 1);
        const end = start + (bytes.length === 0 ? 0 : b % (bytes.length - start + 1));
        const field = bytes.subarray(start, end);
        const w = new JsonWriter(8);
        w.beginArray()
          .sharedHexStr(bytes)
          .hexStr(field)
          .hexStr(bytes, start, end)
          .hexStrReversed(bytes, start, end - start);
        w.hexStr(Uint8Array.from(field)).openString().stringHex(bytes, start, end).stringText('[ALL]').closeString().endArray();
        const piece = toHex(field);
        expect(w.toString()).toBe(`["${toHex(bytes)}","${piece}","${piece}","${toHexReversed(field)}","${piece}","${piece}[ALL]"]`);
      }),
    );
  });

  it('reversed hex of every byte value, at odd and even lengths and offsets, equals the reversed bytes in hex', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    for (const [start, n] of [
      [0, 256],
      [1, 255],
      [3, 32],
      [200, 1],
      [7, 0],
    ] as const) {
      const w = new JsonWriter(8);
      w.beginArray().hexStrReversed(all, start, n).endArray();
      expect(w.toString()).toBe(
        `["${Buffer.from(all.subarray(start, start + n))
          .reverse()
          .toString('hex')}"]`,
      );
    }
  });

  it('refuses values inside an open string and pieces outside one', () => {
    expect(() => new JsonWriter().beginArray().openString().int(1)).toThrow(/inside an open string/);
    expect(() => new JsonWriter().beginArray().stringText('x')).toThrow(/outside openString/);
    expect(() => new JsonWriter().beginArray().closeString()).toThrow(/without openString/);
    expect(() => new JsonWriter().beginArray().openString().toString()).toThrow(/still open/);
  });

  it('a value written as pieces equals the same value written member by member, as an element and as a member', () => {
    const byMembers = (w: JsonWriter, v: number, n: number, hex: Uint8Array) =>
      w.beginObject().key('v').amount(v).key('z').int(v).key('n').int(n).key('h').hexStr(hex).key('a').plainStr('t1abc').endObject();
    const parts = {
      open: new JsonFragment('{"v":'),
      z: new JsonFragment(',"z":'),
      n: new JsonFragment(',"n":'),
      h: new JsonFragment(',"h":"'),
    };
    const close = new JsonFragment('","a":"');
    const ADDRESS_BYTES = Buffer.from('..t1abc..', 'latin1');
    const byPieces = (w: JsonWriter, v: number, n: number, hex: Uint8Array) =>
      w
        .beginPieces()
        .piece(parts.open)
        .pieceAmount(v)
        .piece(parts.z)
        .pieceInt(v)
        .piece(parts.n)
        .pieceInt(n)
        .piece(parts.h)
        .pieceHex(hex, 0, hex.length)
        .piece(close)
        .pieceAscii(ADDRESS_BYTES, 2, 7)
        .piece(new JsonFragment('"}'))
        .endPieces();
    // Amounts and integers on both of their paths (digits written directly, and formatted).
    const values = [0, 1, 99_999_999, 100_000_000, 4294967295, 4294967296, 21e14, 2 ** 52 + 2, -5];
    const hex = Uint8Array.from({ length: 30 }, (_, i) => i * 9);
    for (const memory of [16, 1 << 16]) {
      const expected = new JsonWriter().beginArray();
      const got = new JsonWriter(memory).beginArray();
      values.forEach((v, i) => {
        byMembers(expected, v, i, hex.subarray(0, i * 3));
        byPieces(got, v, i, hex.subarray(0, i * 3));
      });
      expected.beginObject().key('last');
      got.beginObject().key('last');
      byMembers(expected, 7, 7, hex);
      byPieces(got, 7, 7, hex);
      expect(got.endObject().endArray().toBuffer().toString('latin1')).toBe(expected.endObject().endArray().toString());
    }
  });

  it('fragments of every length up to 9 come out whole, and pieces are refused outside beginPieces', () => {
    for (let n = 1; n <= 9; n++) {
      const token = '123456789'.slice(0, n);
      const w = new JsonWriter(16).beginArray().beginPieces().piece(new JsonFragment(token)).endPieces().int(0);
      expect(w.endArray().toString()).toBe(`[${token},0]`);
    }
    expect(() => new JsonFragment('é')).toThrow(/ASCII/);
    expect(() => new JsonWriter().beginPieces()).toThrow(/byte output/);
    expect(() => new JsonWriter(64).beginArray().piece(new JsonFragment('1'))).toThrow(/outside beginPieces/);
    expect(() => new JsonWriter(64).beginArray().beginPieces().int(1)).toThrow(/between beginPieces/);
    expect(() => new JsonWriter(64).beginArray().beginPieces().endArray()).toThrow();
    expect(() => new JsonWriter(64).beginArray().beginPieces().toString()).toThrow(/still open/);
  });

  it('raw elements join the open array with its commas, and are refused outside one', () => {
    const elements = Buffer.from('x{"a":1},[2],"3"y', 'latin1');
    const write = (w: JsonWriter, first: boolean) => {
      w.beginObject().key('v').beginArray();
      if (first) w.int(0);
      w.rawElements(elements, 1, elements.length - 1)
        .rawElements(elements, 3, 3)
        .int(4)
        .rawElements(elements, 9, 12);
      return w.endArray().endObject().toString();
    };
    expect(write(new JsonWriter(4), true)).toBe('{"v":[0,{"a":1},[2],"3",4,[2]]}');
    expect(write(new JsonWriter(4), false)).toBe('{"v":[{"a":1},[2],"3",4,[2]]}');
    expect(() => new JsonWriter().beginArray().rawElements(elements, 0, 1)).toThrow(/byte output/);
    expect(() => new JsonWriter(64).beginObject().rawElements(elements, 0, 1)).toThrow(/outside an array/);
    expect(() => new JsonWriter(64).rawElements(elements, 0, 1)).toThrow(/outside an array/);
  });

  it('integers take the digit path and the general path alike', () => {
    const values = [0, -0, 1, 9, 10, 99, 100, 4294967295, 4294967296, -1, -4294967296, 2 ** 53 - 1, -(2 ** 53 - 1)];
    const w = new JsonWriter().beginArray();
    for (const v of values) w.int(v);
    w.int(18446744073709551615n).int(-9223372036854775808n);
    expect(w.endArray().toString()).toBe(
      '[0,0,1,9,10,99,100,4294967295,4294967296,-1,-4294967296,9007199254740991,-9007199254740991,18446744073709551615,-9223372036854775808]',
    );
    expect(() => new JsonWriter().int(1.5)).toThrow(RangeError);
    expect(() => new JsonWriter().int(2 ** 53)).toThrow(RangeError);
  });

  it('script asm written in pieces equals the string rendering for every script of the real blocks', () => {
    for (const f of realBlockFiles()) {
      for (const tx of decodeBlock(readHexVector(f.file)).transactions) {
        const json = txToJson(tx, networkParams(f.network));
        for (const input of tx.data.vin) {
          if (!tx.isCoinbase) expect(json).toContain(`"asm":"${scriptToAsm(input.scriptSig, true)}"`);
        }
        for (const output of tx.data.vout) expect(json).toContain(`"asm":"${scriptToAsm(output.scriptPubKey, false)}"`);
      }
    }
  });

  it('getblock verbosity 2 bytes equal the text rendering for every real block, also rendered into given memory', () => {
    const memory = Buffer.alloc(1 << 20);
    for (const f of realBlockFiles()) {
      const block = decodeBlock(readHexVector(f.file));
      const ctx = { height: f.height, confirmations: 3, chainWork: 12345n, previousBlockHash: block.header.prevHash, nextBlockHash: null };
      const network = networkParams(f.network);
      const text = blockToJson(block, 2, ctx, network);
      expect(blockToJsonBytes(block, 2, ctx, network).toString('utf8')).toBe(text);
      expect(blockToJsonBytes(block, 2, ctx, network, memory).toString('utf8')).toBe(text);
    }
  });
});

/** One writer call, applied to a text writer and a byte writer alike. */
type Step = (w: JsonWriter) => void;

const bytesArb = fc.uint8Array({ maxLength: 80, size: 'max' });
const leaf: fc.Arbitrary<Step> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 70, size: 'max' }).map((s) => (w: JsonWriter) => void w.str(s)),
  fc.stringMatching(/^[a-zA-Z0-9 ]{0,60}$/).map((s) => (w: JsonWriter) => void w.plainStr(s)),
  fc.oneof(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.nat(0xffffffff)).map((n) => (w: JsonWriter) => void w.int(n)),
  fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }).map((n) => (w: JsonWriter) => void w.int(n)),
  fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }).map((z) => (w: JsonWriter) => void w.amount(z)),
  fc.double().map((d) => (w: JsonWriter) => void w.double(d)),
  fc.boolean().map((b) => (w: JsonWriter) => void w.bool(b)),
  fc.constant((w: JsonWriter) => void w.null()),
  fc.string({ unit: 'binary', maxLength: 20, size: 'max' }).map((s) => (w: JsonWriter) => void w.raw(JSON.stringify(s))),
  fc.tuple(bytesArb, fc.nat(), fc.nat()).map(([b, x, y]) => (w: JsonWriter) => {
    const start = b.length ? x % b.length : 0;
    const end = start + (b.length ? y % (b.length - start + 1) : 0);
    w.sharedHexStr(b).hexStrReversed(b, start, end - start);
    w.openString().stringHex(b, start, end).stringText(' [ALL]').closeString().hexStr(b.subarray(start, end));
  }),
);

/** A document: values nested in arrays and objects (keys of any characters), as writer calls. */
const doc: fc.Arbitrary<Step> = fc.letrec<{ value: Step }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 6 }).map((items) => (w: JsonWriter) => {
      w.beginArray();
      for (const item of items) item(w);
      w.endArray();
    }),
    fc
      .array(fc.tuple(fc.string({ unit: 'binary', maxLength: 40, size: 'max' }), tie('value')), { maxLength: 6 })
      .map((members) => (w: JsonWriter) => {
        w.beginObject();
        for (const [k, item] of members) {
          w.key(k);
          // A pair of values written through one call would leave the object unbalanced: wrap them.
          w.beginArray();
          item(w);
          w.endArray();
        }
        w.endObject();
      }),
  ),
})).value;

describe('JsonWriter text and byte output', () => {
  it('write the same document (property: any values, keys and nesting)', () => {
    fc.assert(
      fc.property(doc, fc.integer({ min: 1, max: 4096 }), (write, capacity) => {
        const text = new JsonWriter();
        const bytes = new JsonWriter(capacity);
        write(text.beginArray());
        write(bytes.beginArray());
        text.endArray();
        bytes.endArray();
        const s = text.toString();
        expect(bytes.toBuffer().toString('utf8')).toBe(s);
        expect(bytes.toString()).toBe(s);
        expect(text.toBuffer().equals(bytes.toBuffer())).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
