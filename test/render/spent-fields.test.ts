// The spent index's records as the renderer reads them: values up to MAX_MONEY exactly, tags,
// and each transaction's inputs then outputs at fixed offsets.
import { describe, expect, it } from 'vitest';
import {
  packSpentRecords,
  spenderAt,
  spentInputAt,
  spentRecordsBytes,
  spentValue,
  SPENT_INPUT_RECORD_BYTES,
} from '../../src/render/spent-fields.js';

const MAX_MONEY = 21_000_000 * 100_000_000;

describe('spent records', () => {
  it('give back every value up to MAX_MONEY exactly', () => {
    const values = [0, 1, 255, 256, 2 ** 24 - 1, 2 ** 24, 2 ** 32 - 1, 2 ** 32, 2 ** 48 + 12_345, MAX_MONEY - 1, MAX_MONEY];
    const hash = new Uint8Array(20).fill(9);
    const bytes = packSpentRecords([{ inputs: values.map((value) => ({ value, type: 1, hash })), outputs: [] }]);
    values.forEach((value, i) => expect(spentValue(bytes, spentInputAt({ bytes, at: 0 }, i))).toBe(value));
  });

  it('lay out each transaction as its inputs then its outputs, an empty record for none', () => {
    const txid = new Uint8Array(32).map((_, i) => i);
    const hash = new Uint8Array(20).fill(7);
    const bytes = packSpentRecords([
      { inputs: [null], outputs: [{ txid, inputIndex: 3, height: 70_000 }, null] },
      { inputs: [{ value: 5, type: 2, hash }, null], outputs: [null, { txid, inputIndex: 0xffff_fffe, height: 2 }] },
    ]);
    expect(bytes.length).toBe(spentRecordsBytes(1, 2) + spentRecordsBytes(2, 2));
    const first = { bytes, at: 0 };
    expect(spentInputAt(first, 0)).toBe(-1);
    expect(spenderAt(first, 1, 0)).toBe(SPENT_INPUT_RECORD_BYTES);
    expect(spenderAt(first, 1, 1)).toBe(-1);
    const second = { bytes, at: spentRecordsBytes(1, 2) };
    const input = spentInputAt(second, 0);
    expect([spentValue(bytes, input), bytes[input + 9], [...bytes.subarray(input + 10, input + 30)]]).toEqual([5, 2, [...hash]]);
    expect(spentInputAt(second, 1)).toBe(-1);
    const output = spenderAt(second, 2, 1);
    expect([...bytes.subarray(output + 1, output + 33)]).toEqual([...txid]);
    expect(Buffer.from(bytes).readUInt32LE(output + 33)).toBe(0xffff_fffe);
    // Past the end (a shorter buffer than the transactions need) reads as no record.
    expect(spenderAt(second, 2, 5)).toBe(-1);
  });
});
