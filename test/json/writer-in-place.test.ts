// JsonWriter's output written in place by another writer (a WebAssembly module sharing its
// memory): elements of an open array written at the offset it gives (after the comma that is
// due), and a shared hex member encoded by a callback, or by the writer itself when the callback
// declines; the fields' hex after it is then copied from that output either way.
import { describe, expect, it } from 'vitest';
import { JsonWriter } from '../../src/json/writer.js';

const put = (out: Buffer, at: number, text: string) => out.write(text, at, 'latin1');

describe('elements written in place', () => {
  it('takes what is written at the offset it gives, with the commas that are due', () => {
    const w = new JsonWriter(Buffer.alloc(64));
    w.beginArray();
    let place = w.elementsPlace(8);
    expect(place.at).toBe(1);
    put(place.output, place.at, '1,2');
    w.elementsWritten(3);
    w.int(3);
    place = w.elementsPlace(8);
    put(place.output, place.at, '{"a":4}');
    w.elementsWritten(7).elementsWritten(0);
    w.endArray();
    expect(w.toBuffer().toString('latin1')).toBe('[1,2,3,{"a":4}]');
  });

  it('writes nothing for nothing written, and no comma after it', () => {
    const w = new JsonWriter(16);
    w.beginArray();
    w.elementsPlace(4);
    w.elementsWritten(0);
    w.int(5).endArray();
    expect(w.toBuffer().toString('latin1')).toBe('[5]');
  });

  it('refuses outside an array, in text output, and past its output', () => {
    expect(() => new JsonWriter(16).beginObject().elementsPlace(1)).toThrow(/outside an array/);
    expect(() => new JsonWriter().beginArray().elementsPlace(1)).toThrow(/byte output/);
    const w = new JsonWriter(Buffer.alloc(8)).beginArray();
    const place = w.elementsPlace(2);
    expect(() => w.elementsWritten(place.output.length)).toThrow(RangeError);
  });
});

describe('a shared hex member encoded by another writer', () => {
  const bytes = Uint8Array.from({ length: 40 }, (_, i) => i * 7);
  const hex = Buffer.from(bytes).toString('hex');

  for (const encodes of [true, false]) {
    it(encodes ? 'takes the hex the callback writes' : 'encodes it itself when the callback declines', () => {
      const w = new JsonWriter(Buffer.alloc(512));
      let asked = 0;
      w.beginObject().key('hex');
      w.sharedHexStrEncodedBy(bytes, (b, out, at) => {
        asked++;
        expect(b).toBe(bytes);
        if (!encodes) {
          put(out, at, 'zz'); // declined: whatever it left is overwritten
          return false;
        }
        put(out, at, Buffer.from(b).toString('hex') + 'garbage past the hex');
        return true;
      });
      // A field inside the shared bytes: copied from the member just written.
      w.key('part').hexStr(bytes.subarray(8, 40)).endObject();
      expect(asked).toBe(1);
      expect(w.toBuffer().toString('latin1')).toBe(`{"hex":"${hex}","part":"${hex.slice(16)}"}`);
    });
  }

  it('is sharedHexStr in text output', () => {
    const w = new JsonWriter().beginObject().key('hex');
    w.sharedHexStrEncodedBy(bytes, () => {
      throw new Error('not called');
    });
    expect(w.endObject().toString()).toBe(`{"hex":"${hex}"}`);
  });
});
