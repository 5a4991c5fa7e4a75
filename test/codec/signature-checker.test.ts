// The transaction signature checker against the signature-hash golden values: a signature of
// each zcash-test-vectors ZIP 143 / ZIP 243 / ZIP 244 sighash (and of zcashd's sighash.json
// pre-Overwinter rows, Bitcoin's scheme) is accepted by TransactionSignatureChecker for that
// input, script code, hash type and branch id, and refused under another hash type.
import { describe, expect, it } from 'vitest';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import type { SpentOutput } from '../../src/codec/tx/sighash.js';
import { sproutSignatureHash } from '../../src/codec/tx/sighash-sprout.js';
import { TransactionSignatureChecker, transparentSignatureHash } from '../../src/codec/tx/signature-checker.js';
import { decodeTransactionHex } from '../../src/codec/tx/transaction.js';
import type { TransactionData } from '../../src/codec/tx/types.js';
import { publicKeyOf, signDer } from '../../src/crypto/secp256k1.js';
import { mainnetWifKeys } from '../support/signing-fixtures.js';
import { readJsonVector } from '../support/vectors.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));
const keys = mainnetWifKeys();

/** Signs `sighash` with the k-th vector key and checks the checker's verdicts. */
function expectAccepted(
  tx: TransactionData,
  input: { index: number; amount: number; spent: readonly SpentOutput[] },
  scriptCode: Uint8Array,
  hashType: number,
  branchId: number,
  sighash: Uint8Array,
  k: number,
): void {
  const { key } = keys[k % keys.length]!;
  const pubkey = publicKeyOf(key.secret, key.compressed);
  const sig = Uint8Array.from([...signDer(sighash, key.secret), hashType]);
  const checker = new TransactionSignatureChecker(tx, input);
  expect(checker.checkSig(sig, pubkey, scriptCode, branchId)).toBe(true);
  const other = hashType === 1 ? 2 : 1;
  expect(checker.checkSig(Uint8Array.from([...sig.subarray(0, -1), other]), pubkey, scriptCode, branchId)).toBe(false);
  expect(checker.checkSig(sig, publicKeyOf(keys[(k + 1) % keys.length]!.key.secret, true), scriptCode, branchId)).toBe(false);
}

describe('TransactionSignatureChecker on the signature-hash vectors', () => {
  it('ZIP 143 (v3) and ZIP 243 (v4): every transparent input row', () => {
    let checked = 0;
    for (const file of ['zip_0143.json', 'zip_0243.json']) {
      type Row = [string, string, number, number, number, number, string];
      for (const [txHex, scriptCode, index, hashType, amount, branchId, sighash] of readJsonVector<unknown[]>('zip', 'json', file).slice(
        2,
      ) as Row[]) {
        if (index < 0) continue;
        const tx = decodeTransactionHex(txHex).data;
        const input = { index, amount, spent: [] };
        expect(hex(transparentSignatureHash(tx, input, bytes(scriptCode), hashType, branchId)!)).toBe(sighash);
        expectAccepted(tx, input, bytes(scriptCode), hashType, branchId, bytes(sighash), checked++);
      }
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('ZIP 244 (v5): each defined hash type of every transparent input row', () => {
    type Row = [string, string, string, number[], string[], number | null, string, ...(string | null)[]];
    const TYPES = [1, 2, 3, 0x81, 0x82, 0x83];
    let checked = 0;
    for (const row of readJsonVector<unknown[]>('zip', 'json', 'zip_0244.json').slice(2) as Row[]) {
      const [txHex, , , amounts, scripts, index] = row;
      if (index === null) continue;
      const tx = decodeTransactionHex(txHex).data;
      const spent = amounts.map((value, i) => ({ value, scriptPubKey: bytes(scripts[i]!) }));
      const input = { index, amount: spent[index]!.value, spent };
      TYPES.forEach((type, t) => {
        const expected = row[7 + t] as string | null | undefined;
        if (expected === null || expected === undefined) {
          // SINGLE without an output at the input's index: zcashd's logic_error, no hash.
          if ((type & 0x7f) === 3) expect(transparentSignatureHash(tx, input, spent[index]!.scriptPubKey, type, 0)).toBeNull();
          return;
        }
        expect(hex(transparentSignatureHash(tx, input, spent[index]!.scriptPubKey, type, 0)!)).toBe(expected);
        expectAccepted(tx, input, spent[index]!.scriptPubKey, type, 0, bytes(expected), checked++);
      });
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("Bitcoin's scheme before Overwinter: zcashd's sighash.json rows with a v1 or v2 header", () => {
    type ZRow = [string, string, number, number, number, string];
    const rows = (readJsonVector<unknown[]>('zcashd', 'sighash.json').slice(1) as ZRow[]).filter((r) => r.length === 6);
    let checked = 0;
    for (const [txHex, script, index, hashType, , expected] of rows) {
      let tx;
      try {
        tx = decodeTransactionHex(txHex, CURRENT_CHAIN_ACCEPTANCE).data;
      } catch {
        continue;
      }
      if (tx.overwintered) continue;
      const hash = sproutSignatureHash(tx, index, bytes(script), hashType);
      if (hash === null) continue;
      // zcashd prints the hash as a uint256 (byte-reversed).
      expect(hex(Uint8Array.from(hash).reverse())).toBe(expected);
      checked++;
      // A signature carries its hash type in one byte: rows with wider random types hash another value.
      if (hashType >= 0 && hashType <= 0xff) expectAccepted(tx, { index, amount: 0, spent: [] }, bytes(script), hashType, 0, hash, checked);
    }
    expect(checked).toBeGreaterThan(200);
  });
});
