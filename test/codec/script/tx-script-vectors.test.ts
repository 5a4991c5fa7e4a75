// The interpreter and the Sprout signature hash against zcashd v6.12.2's tx_valid.json and
// tx_invalid.json (src/test/data): Bitcoin-era v1 transactions whose every input must verify
// (valid) or whose some input must fail (invalid), under the flags each row names, with zcashd's
// transaction_tests' Sprout branch id and zero amounts.
import { describe, expect, it } from 'vitest';
import { toHexReversed } from '../../../src/codec/hex.js';
import { scriptErrorString } from '../../../src/codec/script/script-error.js';
import {
  SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY,
  SCRIPT_VERIFY_NULLDUMMY,
  SCRIPT_VERIFY_P2SH,
} from '../../../src/codec/script/signature-encoding.js';
import { checkTransactionWithoutProofs } from '../../../src/chain/tx-rules.js';
import { verifyScript } from '../../../src/codec/script/verify-script.js';
import { TransactionSignatureChecker } from '../../../src/codec/tx/signature-checker.js';
import { decodeTransactionHex } from '../../../src/codec/tx/transaction.js';
import { parseScriptText } from '../../support/script-text.js';
import { readJsonVector } from '../../support/vectors.js';

type Row = [[string, number, string][], string, string];
const FLAGS: Record<string, number> = {
  NONE: 0,
  P2SH: SCRIPT_VERIFY_P2SH,
  NULLDUMMY: SCRIPT_VERIFY_NULLDUMMY,
  CHECKLOCKTIMEVERIFY: SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY,
};

/** The rows with the comment line before each (the vectors' comments name what they test). */
function rows(file: string): (Row & { comment: string })[] {
  let comment = '';
  const out: (Row & { comment: string })[] = [];
  for (const r of readJsonVector<unknown[][]>('zcashd', file)) {
    if (!Array.isArray(r[0])) comment = String(r[0]);
    else out.push(Object.assign(r as Row, { comment }));
  }
  return out;
}

/** Each input's error text, or 'decode' / 'CheckTransaction' when the transaction fails before its scripts run. */
function verdicts([inputs, hex, flagText]: Row): string[] {
  let decoded;
  try {
    decoded = decodeTransactionHex(hex);
  } catch {
    return ['decode'];
  }
  if (checkTransactionWithoutProofs(decoded) !== null) return ['CheckTransaction'];
  const tx = decoded.data;
  const flags = flagText.split(',').reduce((f, name) => f | FLAGS[name]!, 0);
  const scripts = new Map(inputs.map(([hash, n, text]) => [`${hash}:${n >>> 0}`, parseScriptText(text)]));
  return tx.vin.map((txin, index) => {
    const scriptPubKey = scripts.get(`${toHexReversed(txin.prevout.hash)}:${txin.prevout.index}`)!;
    const checker = new TransactionSignatureChecker(tx, { index, amount: 0, spent: [] });
    return scriptErrorString(verifyScript(txin.scriptSig, scriptPubKey, flags, checker, 0));
  });
}

describe("zcashd's script test vectors", () => {
  it('verifies every input of every tx_valid.json transaction', () => {
    const valid = rows('tx_valid.json');
    expect(valid.length).toBe(32);
    for (const row of valid) {
      const errors = verdicts(row);
      expect(errors, row.comment).toEqual(errors.map(() => 'No error'));
    }
  });

  it("refuses every tx_invalid.json transaction: at decoding, at CheckTransaction, or in some input's script", () => {
    const invalid = rows('tx_invalid.json');
    expect(invalid.length).toBe(54);
    for (const row of invalid)
      expect(
        verdicts(row).some((v) => v !== 'No error'),
        row.comment,
      ).toBe(true);
    const byComment = (prefix: string) => invalid.filter((r) => r.comment.startsWith(prefix)).map(verdicts);
    expect(byComment('Duplicate inputs')).toEqual([['CheckTransaction']]);
    // Bitcoin's first multisig spends carry a signature that is not strict DER, which zcashd
    // always checks, and before the dummy element.
    expect(byComment('It is an OP_CHECKMULTISIG with the dummy value set to something other')).toEqual([
      ['Non-canonical DER signature'],
      ['Non-canonical DER signature'],
    ]);
    expect(byComment('Empty stack when we try to run CHECKSIG')).toEqual([['Operation not valid with the current stack size']]);
    expect(byComment('Argument negative with by-blockheight')).toEqual([['Negative locktime']]);
    expect(byComment('Input locked')).toEqual([['Locktime requirement not satisfied'], ['Locktime requirement not satisfied']]);
    expect(byComment('6 byte non-minimally-encoded')).toEqual([['unknown error']]);
    expect(byComment('Valid in Bitcoin because of FindAndDelete')).toEqual([['Script failed an OP_CHECKSIGVERIFY operation']]);
  });
});
