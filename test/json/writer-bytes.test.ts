import { describe, expect, it } from 'vitest';
import { networkParams } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { blockToJson, blockToJsonBytes } from '../../src/render/block.js';
import { JsonWriter } from '../../src/json/writer.js';
import { readHexVector, realBlockFiles } from '../support/vectors.js';

describe('JsonWriter byte output', () => {
  it('produces the UTF-8 bytes of the text mode, across spills and with non-ASCII strings', () => {
    const build = (w: JsonWriter) => {
      w.beginArray();
      for (let i = 0; i < 5000; i++) {
        w.beginObject()
          .key('i')
          .int(i)
          .key('s')
          .str(i % 7 === 0 ? `é€😀"\u0001${i}` : 'x'.repeat(i % 50))
          .key('a')
          .amount(-i)
          .endObject();
      }
      return w.endArray();
    };
    const text = build(new JsonWriter()).toString();
    const bytes = build(new JsonWriter().useByteOutput(16)).toBuffer();
    expect(text.length).toBeGreaterThan(1 << 17); // several spills
    expect(bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(() => new JsonWriter().beginArray().useByteOutput()).toThrow(/before writing/);
  });

  it('encodes non-ASCII keys and raw values as UTF-8 even after ASCII-only spills', () => {
    const build = (w: JsonWriter) => {
      w.beginArray();
      for (let i = 0; i < 3000; i++) {
        w.beginObject()
          .key('hex')
          .plainStr('ab'.repeat(i % 40));
        if (i % 500 === 499) w.key(`clé${i}`).raw('"ü€"');
        w.endObject();
      }
      return w.endArray();
    };
    const text = build(new JsonWriter()).toString();
    expect(build(new JsonWriter().useByteOutput(16)).toBuffer().equals(Buffer.from(text, 'utf8'))).toBe(true);
  });

  it('getblock verbosity 2 bytes equal the text rendering for every real block', () => {
    for (const f of realBlockFiles()) {
      const block = decodeBlock(readHexVector(f.file));
      const ctx = { height: f.height, confirmations: 3, chainWork: 12345n, previousBlockHash: block.header.prevHash, nextBlockHash: null };
      const network = networkParams(f.network);
      expect(blockToJsonBytes(block, 2, ctx, network).toString('utf8')).toBe(blockToJson(block, 2, ctx, network));
    }
  });
});
