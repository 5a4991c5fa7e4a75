// A transaction's txid and auth digest computed together (Transaction.computeDigests, as TxToJSON
// asks for them: one walk over a v5 or v6 transaction's bytes) equal each computed alone, and the
// field-by-field digests, for every transaction of the real blocks (v1–v6); where the format has
// no joint walk, or either digest is known already, nothing changes.
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { toHex } from '../../src/codec/hex.js';
import type { Transaction } from '../../src/codec/tx/transaction.js';
import { zip229AuthDigestFromFields, zip229Digests, zip229TxIdFromFields } from '../../src/codec/tx/zip229.js';
import { zip244AuthDigestFromFields, zip244TxIdFromFields } from '../../src/codec/tx/zip244.js';
import { currentChainBlocks, realBlocks } from '../fuzz/corpus.js';

/** Each block decoded three times over: for the joint digests, for each alone, and for the txid first. */
function decodedThrice(): [Transaction, Transaction, Transaction][] {
  const out: [Transaction, Transaction, Transaction][] = [];
  const blocks = [...realBlocks().map((b) => ({ ...b, current: false })), ...currentChainBlocks().map((b) => ({ ...b, current: true }))];
  for (const b of blocks) {
    const decode = () => decodeBlock(b.bytes, b.current ? CURRENT_CHAIN_ACCEPTANCE : undefined).transactions;
    const [joint, alone, txidFirst] = [decode(), decode(), decode()];
    joint.forEach((tx, i) => out.push([tx, alone[i]!, txidFirst[i]!]));
  }
  return out;
}

describe('Transaction.computeDigests', () => {
  const txs = decodedThrice();

  it('gives each v1–v6 transaction the digests it has alone', () => {
    const versions = new Set<number>();
    for (const [joint, alone, txidFirst] of txs) {
      versions.add(joint.data.version);
      joint.computeDigests();
      const expected = [toHex(alone.txid), toHex(alone.authDigest)];
      expect([toHex(joint.txid), toHex(joint.authDigest)]).toEqual(expected);
      // With the txid known first (getrawtransaction's check), the auth digest comes alone.
      void txidFirst.txid;
      txidFirst.computeDigests();
      expect([toHex(txidFirst.txid), toHex(txidFirst.authDigest)]).toEqual(expected);
    }
    expect([...versions].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('equals the field-by-field digests of every v5 and v6 transaction', () => {
    let shielded = 0;
    for (const [joint] of txs) {
      const v = joint.data.version;
      if (v < 5) continue;
      shielded++;
      joint.computeDigests();
      const fields =
        v === 5
          ? [zip244TxIdFromFields(joint.data), zip244AuthDigestFromFields(joint.data)]
          : [zip229TxIdFromFields(joint.data), zip229AuthDigestFromFields(joint.data)];
      expect([toHex(joint.txid), toHex(joint.authDigest)]).toEqual(fields.map(toHex));
      if (v === 6) {
        const d = zip229Digests(joint.data);
        expect([toHex(d.txid), toHex(d.authDigest)]).toEqual(fields.map(toHex));
      }
    }
    expect(shielded).toBeGreaterThan(20);
  });
});
