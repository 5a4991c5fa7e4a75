// ZECRPC_PURE_TXID=1 turns the WebAssembly ZIP-244 path off: the module is never instantiated and
// every digest comes from the field-by-field TypeScript path, still equal to the vectors.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toHex } from '../../src/codec/hex.js';
import { readJsonVector } from '../support/vectors.js';

describe('ZECRPC_PURE_TXID=1', () => {
  beforeAll(() => {
    vi.stubEnv('ZECRPC_PURE_TXID', '1');
    vi.resetModules();
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('disables the module; zip_0244.json digests still match (10/10)', async () => {
    const wasm = await import('../../src/crypto/zip244-wasm.js');
    const { zip244AuthDigest, zip244Digests, zip244TxId } = await import('../../src/codec/tx/zip244.js');
    const { decodeTransactionHex } = await import('../../src/codec/tx/transaction.js');
    expect(wasm.zip244WasmAvailable()).toBe(false);

    const rows = readJsonVector<unknown[][]>('zip', 'json', 'zip_0244.json').slice(2);
    expect(rows.length).toBe(10);
    for (const row of rows) {
      const [txHex, txid, authDigest] = [row[0], row[1], row[2]] as string[];
      const tx = decodeTransactionHex(txHex!);
      expect(wasm.wasmZip244TxId(tx.bytes)).toBeNull();
      expect(toHex(zip244TxId(tx.data, tx.bytes))).toBe(txid);
      expect(toHex(zip244AuthDigest(tx.data, tx.bytes))).toBe(authDigest);
      const both = zip244Digests(tx.data, tx.bytes);
      expect([toHex(both.txid), toHex(both.authDigest)]).toEqual([txid, authDigest]);
      expect(toHex(tx.txid)).toBe(txid);
    }
  });
});
