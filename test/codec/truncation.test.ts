// Cutting a real transaction at every byte offset: the error must be end of data, wrapped (with
// the doubled suffix) exactly when the cut falls inside a Rust-parsed section. Which section the
// missing byte belongs to comes from the independent layout walker in test/fuzz/corpus.ts.
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../src/codec/errors.js';
import { decodeTransaction } from '../../src/codec/tx/transaction.js';
import { type Parser, realTxBytes, txLayout } from '../fuzz/corpus.js';

const S = ': unspecified iostream_category error';
const EOD = `CBaseDataStream::read(): end of data${S}`;
const EXPECTED: Record<Parser, string> = {
  cpp: EOD,
  'sapling-v4': `Failed to parse v4 Sapling bundle: ${EOD}${S}`,
  'sapling-v5': `Failed to parse v5 Sapling bundle: ${EOD}${S}`,
  orchard: `Failed to parse Orchard bundle: ${EOD}${S}`,
};

const subjects: [string, 'mainnet' | 'testnet', number, number, Parser[]][] = [
  ['v1 coinbase', 'mainnet', 1, 0, ['cpp']],
  ['v2 with a PHGR JoinSplit', 'mainnet', 396, 1, ['cpp']],
  ['v3 with JoinSplits', 'mainnet', 347501, 3, ['cpp']],
  ['v4 with 1 Sapling spend and 2 outputs', 'mainnet', 419202, 3, ['cpp', 'sapling-v4']],
  ['v4 with a Groth16 JoinSplit and a Sapling output', 'mainnet', 903000, 13, ['cpp', 'sapling-v4']],
  ['v5 with transparent, Sapling and an empty Orchard bundle', 'mainnet', 1687108, 4, ['cpp', 'sapling-v5', 'orchard']],
  ['v5 with a Sapling spend and 2 Orchard actions', 'mainnet', 1687107, 4, ['cpp', 'sapling-v5', 'orchard']],
];

describe('truncation at every byte offset', () => {
  for (const [name, network, height, index, parsers] of subjects) {
    it(`${name} (${network} ${height} tx ${index})`, () => {
      const bytes = realTxBytes(network, height, index);
      const layout = txLayout(bytes);
      expect(layout.at(-1)!.end).toBe(bytes.length);
      // the parser that reads byte k
      const owner: Parser[] = new Array(bytes.length);
      for (const f of layout) for (let k = f.start; k < f.end; k++) owner[k] = f.parser;
      expect(new Set(owner)).toEqual(new Set(parsers));

      const seen: Record<string, number> = {};
      for (let k = 0; k < bytes.length; k++) {
        let err: unknown;
        try {
          decodeTransaction(bytes.subarray(0, k));
        } catch (e) {
          err = e;
        }
        if (!(err instanceof DecodeError)) throw new Error(`cut at ${k}: expected a DecodeError, got ${String(err)}`);
        if (err.what !== EXPECTED[owner[k]!] || err.offset !== k || err.reason !== 'end-of-data') {
          throw new Error(`cut at ${k} (${owner[k]}): got "${err.what}" at ${err.offset} (${err.reason})`);
        }
        seen[owner[k]!] = (seen[owner[k]!] ?? 0) + 1;
      }
      expect(Object.keys(seen).sort()).toEqual([...parsers].sort());
      // the whole transaction decodes
      expect(decodeTransaction(bytes).size).toBe(bytes.length);
    });
  }
});
