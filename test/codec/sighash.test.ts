// Transparent signature hashes against the golden values: the ZIP 243 and ZIP 244 test vectors
// (zcash-test-vectors) and zcashd's own src/test/data/sighash.json (v3 and v4 rows).
import { describe, expect, it } from 'vitest';
import { decodeTransactionHex } from '../../src/codec/tx/transaction.js';
import { zip243SignatureHash, zip244SignatureHash, type SpentOutput } from '../../src/codec/tx/sighash.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { readJsonVector } from '../support/vectors.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));

describe('ZIP 243 (v4) signature hashes', () => {
  type Row = [string, string, number, number, number, number, string];
  const rows = readJsonVector<unknown[]>('zip', 'json', 'zip_0243.json').slice(2) as Row[];

  it('matches every zcash-test-vectors zip_0243 row, shielded (NOT_AN_INPUT) and transparent inputs', () => {
    expect(rows.length).toBe(10);
    let inputs = 0;
    for (const [txHex, scriptCode, index, hashType, amount, branchId, sighash] of rows) {
      const tx = decodeTransactionHex(txHex).data;
      const input = index < 0 ? null : { index, scriptCode: bytes(scriptCode), value: amount };
      if (input) inputs++;
      expect(hex(zip243SignatureHash(tx, input, hashType, branchId))).toBe(sighash);
    }
    expect(inputs).toBeGreaterThan(0);
  });

  it("matches zcashd's sighash.json for its overwintered (v3 and v4) transactions", () => {
    type ZRow = [string, string, number, number, number, string];
    const zrows = (readJsonVector<unknown[]>('zcashd', 'sighash.json').slice(1) as ZRow[]).filter((r) => r.length === 6);
    let checked = 0;
    for (const [txHex, script, index, hashType, branchId, expected] of zrows) {
      let tx;
      try {
        tx = decodeTransactionHex(txHex, CURRENT_CHAIN_ACCEPTANCE).data;
      } catch {
        continue; // random versions and group ids the parser refuses; checked by the decoder's tests
      }
      if (tx.format !== 'v3' && tx.format !== 'v4') continue;
      // zcashd prints the hash as a uint256 (byte-reversed); the value is 0 in its test.
      const hash = zip243SignatureHash(tx, { index, scriptCode: bytes(script), value: 0 }, hashType, branchId >>> 0);
      expect(hex(Uint8Array.from(hash).reverse())).toBe(expected);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });
});

describe('ZIP 244 (v5) signature hashes', () => {
  type Row = [string, string, string, number[], string[], number | null, string, ...(string | null)[]];
  const rows = readJsonVector<unknown[]>('zip', 'json', 'zip_0244.json').slice(2) as Row[];
  const TYPES = [1, 2, 3, 0x81, 0x82, 0x83];

  it('matches every zip_0244 row: the shielded hash and each hash type for its transparent input', () => {
    expect(rows.length).toBe(10);
    let transparent = 0;
    for (const row of rows) {
      const [txHex, , , amounts, scripts, index, shielded] = row;
      const tx = decodeTransactionHex(txHex).data;
      const spent: SpentOutput[] = amounts.map((value, i) => ({ value, scriptPubKey: bytes(scripts[i]!) }));
      expect(hex(zip244SignatureHash(tx, null, 1, spent))).toBe(shielded);
      if (index === null) continue;
      const input = { index, scriptCode: spent[index]!.scriptPubKey, value: spent[index]!.value };
      TYPES.forEach((type, k) => {
        const expected = row[7 + k];
        if (expected === null || expected === undefined) return;
        expect(hex(zip244SignatureHash(tx, input, type, spent))).toBe(expected);
        transparent++;
      });
    }
    expect(transparent).toBeGreaterThan(20);
  });
});
