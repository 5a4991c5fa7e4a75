// firstDuplicateInput (CheckTransaction's duplicate-input rule) against a plain reference, on
// decoded inputs (read in place) and on hand-built ones, with prevouts made to collide in the
// bytes its table keys on.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTransaction } from '../../src/codec/tx/transaction.js';
import { firstDuplicateInput, spendsNullPrevout, WireTxIn } from '../../src/codec/tx/transparent.js';
import type { TxIn } from '../../src/codec/tx/types.js';
import { encodeV1Transaction } from '../support/address-index-chain.js';

function reference(vin: readonly TxIn[]): number {
  const seen = new Set<string>();
  for (let i = 0; i < vin.length; i++) {
    const key = `${Buffer.from(vin[i]!.prevout.hash).toString('hex')}:${vin[i]!.prevout.index}`;
    if (seen.has(key)) return i;
    seen.add(key);
  }
  return -1;
}

function decoded(vin: TxIn[]): TxIn[] {
  return decodeTransaction(encodeV1Transaction(vin, [{ value: 0, scriptPubKey: Uint8Array.of(0x51) }])).data.vin;
}

/** Prevouts from a few txids sharing their first four bytes, and indexes of which 0, 1024 and 2048 share a table slot. */
const input = fc
  .record({
    txid: fc.integer({ min: 0, max: 5 }),
    tail: fc.integer({ min: 0, max: 2 }),
    index: fc.constantFrom(0, 1, 2, 1024, 2048, 0xffffffff, 0x9e3779b1),
  })
  .map(({ txid, tail, index }): TxIn => {
    const hash = new Uint8Array(32).fill(txid);
    hash.fill(0xab, 0, 4); // every txid keys the same
    hash[31] = tail;
    return { prevout: { hash, index }, scriptSig: Uint8Array.of(0x51), sequence: 0xffffffff };
  });

describe('firstDuplicateInput', () => {
  it('finds the first repeated prevout exactly as a set of (txid, index) does', () => {
    fc.assert(
      fc.property(fc.array(input, { maxLength: 40, size: 'max' }), (vin) => {
        const want = reference(vin);
        expect(firstDuplicateInput(vin)).toBe(want);
        const wire = decoded(vin);
        expect(wire.every((i) => i instanceof WireTxIn)).toBe(true);
        expect(firstDuplicateInput(wire)).toBe(want);
      }),
      { numRuns: 400 },
    );
  });

  it('handles more inputs than its smallest table, all distinct and then one repeated at the end', () => {
    const vin = Array.from({ length: 3000 }, (_, i): TxIn => {
      const hash = new Uint8Array(32);
      hash[5] = i & 0xff;
      hash[6] = i >> 8;
      return { prevout: { hash, index: i % 3 }, scriptSig: new Uint8Array(0), sequence: 0 };
    });
    expect(firstDuplicateInput(vin)).toBe(-1);
    expect(firstDuplicateInput(decoded(vin))).toBe(-1);
    const repeated = [...vin, vin[1234]!];
    expect(firstDuplicateInput(repeated)).toBe(3000);
    expect(firstDuplicateInput(decoded(repeated))).toBe(3000);
  });
});

describe('spendsNullPrevout', () => {
  it('is a zero txid with index 0xffffffff, read in place or not', () => {
    const nul: TxIn = { prevout: { hash: new Uint8Array(32), index: 0xffffffff }, scriptSig: new Uint8Array(0), sequence: 0 };
    const notQuite: TxIn[] = [
      { ...nul, prevout: { hash: new Uint8Array(32), index: 0xfffffffe } },
      { ...nul, prevout: { hash: Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0)), index: 0xffffffff } },
    ];
    expect(spendsNullPrevout(nul)).toBe(true);
    expect(notQuite.map(spendsNullPrevout)).toEqual([false, false]);
    const wire = decoded([nul, ...notQuite]);
    expect(wire.map(spendsNullPrevout)).toEqual([true, false, false]);
  });
});
