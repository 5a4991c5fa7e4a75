// zcashd's merkle_roots_orchard vectors carry 10 serialized Orchard bundles (as in a v5 tx, from
// nActionsOrchard on) with the cmx of every action listed separately.
import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter } from '../../src/codec/bytes.js';
import { hexToBytes, toHex } from '../../src/codec/hex.js';
import { readOrchardBundle, writeOrchardBundle } from '../../src/codec/tx/orchard.js';
import { readJsonVector } from '../support/vectors.js';

const rows = readJsonVector<unknown[]>('zcashd', 'merkle_roots_orchard.json').slice(2) as [string, string[], string][];

describe('zcashd merkle_roots_orchard.json bundles', () => {
  it('has 10 bundles', () => expect(rows.length).toBe(10));

  rows.forEach(([bundleHex, commitments], i) => {
    it(`bundle ${i}: parses to the last byte, cmx equal the listed commitments, re-serializes`, () => {
      const bytes = hexToBytes(bundleHex);
      const r = new ByteReader(bytes);
      const bundle = readOrchardBundle(r);
      expect(r.pos).toBe(bytes.length);
      expect(bundle).not.toBeNull();
      expect(bundle!.actions.map((a) => toHex(a.cmx))).toEqual(commitments);
      expect(bundle!.flags & 0xfc).toBe(0);
      const w = new ByteWriter();
      writeOrchardBundle(w, bundle);
      expect(toHex(w.finish())).toBe(bundleHex);
    });
  });
});
