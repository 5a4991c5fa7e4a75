// transactionEnd (src/codec/tx/transaction-end.ts) steps over a block's transactions by their
// lengths. Wherever it gives an end, readTransaction must read that transaction without error
// and end at the same byte; where readTransaction fails it must give -1, reading nothing past
// the end it is given: on every transaction of every real block, every truncation, mutations,
// and the refusals it shares with the decoder (vpub values, PHGR lead bytes, branch ids).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBlockHeader } from '../../src/codec/block.js';
import { ByteReader } from '../../src/codec/bytes.js';
import { DecodeError } from '../../src/codec/errors.js';
import { STORED_BLOCK_ACCEPTANCE, ZCASHD_6_12_2_ACCEPTANCE, type TxAcceptance } from '../../src/codec/tx/acceptance.js';
import { transactionEnd } from '../../src/codec/tx/transaction-end.js';
import { decodeTransaction, readTransaction } from '../../src/codec/tx/transaction.js';
import { currentChainBlocks, currentChainTransactions, realBlocks, realTransactions } from '../fuzz/corpus.js';
import { mutatedTransaction } from '../fuzz/properties.js';

/** readTransaction's end for `b[start, end)`, or 'error'. */
function decodedEnd(b: Uint8Array, start: number, end: number, acceptance: TxAcceptance): number | 'error' {
  try {
    const r = new ByteReader(b, start, end);
    readTransaction(r, acceptance);
    return r.pos;
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return 'error';
  }
}

/**
 * transactionEnd agrees with readTransaction on `bytes`, placed inside a larger buffer whose
 * bytes past the given end are `after` (junk by default): an end it gives is the decoder's.
 */
function agree(bytes: Uint8Array, acceptance: TxAcceptance = STORED_BLOCK_ACCEPTANCE, after: Uint8Array = JUNK): number {
  const framed = new Uint8Array(3 + bytes.length + after.length).fill(0xa5);
  framed.set(bytes, 3);
  framed.set(after, 3 + bytes.length);
  const end = 3 + bytes.length;
  const found = transactionEnd(framed, 3, end, acceptance);
  const decoded = decodedEnd(framed, 3, end, acceptance);
  if (found !== -1) expect(found).toBe(decoded);
  return found;
}

const JUNK = new Uint8Array(16).fill(0xa5);

const stored = [...realTransactions(), ...currentChainTransactions()].map((t) => t.tx);
const ofFormat = (f: string) => stored.filter((t) => t.data.format === f);
const shielded = (t: (typeof stored)[0]) => t.data.sapling !== null || t.data.orchard !== null || (t.data.ironwood ?? null) !== null;

describe('transactionEnd', () => {
  it('ends every transaction of every real block where the decoder does, stepping over all but Sapling and Orchard ones', () => {
    let steppedOver = 0;
    let left = 0;
    for (const block of [...realBlocks(), ...currentChainBlocks()]) {
      const r = new ByteReader(block.bytes);
      readBlockHeader(r);
      const count = r.compactSize();
      for (let i = 0; i < count; i++) {
        const found = transactionEnd(r.buf, r.pos, r.end, STORED_BLOCK_ACCEPTANCE);
        const tx = readTransaction(r, STORED_BLOCK_ACCEPTANCE);
        if (found === -1) {
          // Only Sapling and Orchard parts are left to the decoder among real transactions.
          expect(shielded(tx), `${block.label} tx ${i}`).toBe(true);
          left++;
        } else {
          expect(found, `${block.label} tx ${i}`).toBe(r.pos);
          steppedOver++;
        }
      }
      expect(r.pos).toBe(block.bytes.length);
    }
    expect(steppedOver).toBeGreaterThan(700);
    expect(left).toBeGreaterThan(0);
    // Each layout it reads occurs among them: v1, v2 (PHGR JoinSplits), v3, v4 (with and without Groth16 JoinSplits), v5, v6.
    for (const f of ['v1', 'v2', 'v3', 'v4', 'v5', 'v6']) {
      expect(
        ofFormat(f).filter((t) => !shielded(t) && transactionEnd(t.bytes, 0, t.size, STORED_BLOCK_ACCEPTANCE) === t.size).length,
        f,
      ).toBeGreaterThan(0);
    }
    const v4WithJoinSplits = ofFormat('v4').filter((t) => !shielded(t) && t.data.joinSplits.length > 0);
    for (const t of v4WithJoinSplits) expect(transactionEnd(t.bytes, 0, t.size, STORED_BLOCK_ACCEPTANCE)).toBe(t.size);
    expect(ofFormat('v2').every((t) => transactionEnd(t.bytes, 0, t.size, STORED_BLOCK_ACCEPTANCE) === t.size)).toBe(true);
  });

  it("gives -1 or the decoder's end on every truncation, and never reads past the end it is given", () => {
    const smallest = (f: string, pick: (t: (typeof stored)[0]) => boolean = () => true) =>
      [...ofFormat(f).filter(pick)].sort((a, b) => a.size - b.size).slice(0, 2);
    const sample = [
      ...smallest('v1'),
      ...smallest('v2', (t) => t.data.joinSplits.length > 0),
      ...smallest('v3'),
      ...smallest('v4', (t) => !shielded(t)),
      ...smallest('v4', (t) => !shielded(t) && t.data.joinSplits.length > 0),
      ...smallest('v5', (t) => !shielded(t)),
      ...smallest('v6', (t) => !shielded(t)),
    ];
    expect(sample.length).toBeGreaterThanOrEqual(10);
    for (const t of sample) {
      const b = t.bytes;
      expect(agree(b)).toBe(3 + b.length);
      for (let k = 0; k < b.length; k++) {
        // Cut short, with junk after, and with the rest of the transaction after the given end.
        expect(agree(b.subarray(0, k))).toBe(-1);
        expect(agree(b.subarray(0, k), STORED_BLOCK_ACCEPTANCE, b.subarray(k))).toBe(-1);
      }
    }
  });

  it('agrees with the decoder on mutated real transactions (fast-check)', () => {
    const small = stored.filter((t) => t.size < 6_000).map((t) => t.bytes);
    const seen = { end: 0, left: 0 };
    fc.assert(
      fc.property(mutatedTransaction(small), (b) => {
        seen[agree(b) === -1 ? 'left' : 'end']++;
      }),
      { seed: 0x7e1d, numRuns: 3000 },
    );
    expect(seen.end).toBeGreaterThan(100);
    expect(seen.left).toBeGreaterThan(100);
  });

  it('leaves to the decoder what the decoder refuses or reads another way', () => {
    const v2 = [...ofFormat('v2')].sort((a, b) => a.size - b.size)[0]!;
    const firstJoinSplit = v2.size - v2.data.joinSplits.length * 1802 - 96;
    const edited = (at: number, hex: string) => {
      const b = Uint8Array.from(v2.bytes);
      b.set(Buffer.from(hex, 'hex'), at);
      return b;
    };
    // vpub_old above MAX_MONEY, negative; vpub_new likewise: refused by zcashd's Rust re-parse.
    for (const bad of [
      edited(firstJoinSplit, '0140075af0750700'),
      edited(firstJoinSplit, 'ffffffffffffffff'),
      edited(firstJoinSplit + 8, '0140075af0750700'),
    ]) {
      expect(decodedEnd(bad, 0, bad.length, STORED_BLOCK_ACCEPTANCE)).toBe('error');
      expect(agree(bad)).toBe(-1);
    }
    expect(agree(edited(firstJoinSplit, '0040075af0750700'))).toBe(3 + v2.size); // MAX_MONEY itself
    // Each PHGR lead byte, wrong.
    const proof = firstJoinSplit + 304;
    for (const [offset, bad] of [
      [0, '04'],
      [33, '0a'],
      [66, '02'],
      [131, '00'],
      [263, 'ff'],
    ] as const) {
      const b = edited(proof + offset, bad);
      expect(decodedEnd(b, 0, b.length, STORED_BLOCK_ACCEPTANCE)).toBe('error');
      expect(agree(b)).toBe(-1);
    }
    // Version 0, and v6 under zcashd v6.12.2's own acceptance (which does not read it).
    const v1 = ofFormat('v1')[0]!;
    const version0 = Uint8Array.from(v1.bytes);
    version0[0] = 0;
    expect(decodedEnd(version0, 0, version0.length, STORED_BLOCK_ACCEPTANCE)).toBe('error');
    expect(agree(version0)).toBe(-1);
    const v6 = ofFormat('v6').find((t) => !shielded(t))!;
    expect(agree(v6.bytes)).toBe(3 + v6.size);
    expect(agree(v6.bytes, ZCASHD_6_12_2_ACCEPTANCE)).toBe(-1);
    // A v5 transaction with a branch id nobody accepts.
    const v5 = Uint8Array.from(ofFormat('v5').find((t) => !shielded(t))!.bytes);
    v5.set([1, 2, 3, 4], 8);
    expect(() => decodeTransaction(v5, STORED_BLOCK_ACCEPTANCE)).toThrow(DecodeError);
    expect(agree(v5)).toBe(-1);
  });
});
