// The one-call WebAssembly ZIP-244 digests (src/crypto/zip244-wasm.ts) against the vectors, against
// the field-by-field TypeScript path on random v5 transactions, and its hash core against
// @noble/hashes. Every digest is checked on both paths.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { blake2b as nobleBlake2b } from '@noble/hashes/blake2.js';
import { decodeBlock } from '../../src/codec/block.js';
import { ByteReader } from '../../src/codec/bytes.js';
import { hexToBytes, toHex, toHexReversed } from '../../src/codec/hex.js';
import { selectFormat } from '../../src/codec/tx/formats/index.js';
import { decodeTransactionHex, encodeTransaction } from '../../src/codec/tx/transaction.js';
import type { OrchardAction, SaplingOutput, SaplingSpend, TransactionData } from '../../src/codec/tx/types.js';
import {
  zip244AuthDigest,
  zip244AuthDigestFromFields,
  zip244Digests,
  zip244TxId,
  zip244TxIdFromFields,
} from '../../src/codec/tx/zip244.js';
import {
  wasmPersonalBlake2b256,
  wasmZip244AuthDigest,
  wasmZip244Digests,
  wasmZip244TxId,
  zip244WasmAvailable,
} from '../../src/crypto/zip244-wasm.js';
import { readFacts, readHexVector, readJsonVector } from '../support/vectors.js';

/** zcash-test-vectors layout: row 0 provenance, row 1 column names, then one array per vector. */
function zipRows(...path: string[]): Record<string, unknown>[] {
  const rows = readJsonVector<unknown[][]>(...path);
  const columns = (rows[1]![0] as string).split(',').map((c) => c.trim());
  return rows.slice(2).map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]])));
}

/** Both paths' digests of one decoded v5 transaction, in internal byte order. */
function bothPaths(data: TransactionData, wire: Uint8Array) {
  const wasm = wasmZip244Digests(wire);
  expect(wasm, 'the WebAssembly walk accepts the bytes').not.toBeNull();
  return {
    wasmTxid: toHex(wasm!.txid),
    wasmAuth: toHex(wasm!.authDigest),
    pureTxid: toHex(zip244TxIdFromFields(data)),
    pureAuth: toHex(zip244AuthDigestFromFields(data)),
  };
}

it('the WebAssembly module is in use in this test run', () => {
  expect(zip244WasmAvailable(), 'src/crypto/wasm/zip244.wasm loads (built by npm run build:wasm)').toBe(true);
});

describe('hash core', () => {
  const reference = (personal: Uint8Array, data: Uint8Array) => toHex(nobleBlake2b(data, { dkLen: 32, personalization: personal }));

  it('equals @noble/hashes on every length around the block boundaries', () => {
    const personal = new TextEncoder().encode('ZTxIdOrcActMHash');
    for (let n = 0; n <= 520; n++) {
      const data = new Uint8Array(n).map((_, i) => (i * 131 + n) & 0xff);
      expect(toHex(wasmPersonalBlake2b256(personal, data)!), `length ${n}`).toBe(reference(personal, data));
    }
  });

  it('equals @noble/hashes on random inputs and personalizations, up to 300 kB (the memory grows)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), fc.uint8Array({ maxLength: 3000, size: 'max' }), (personal, data) => {
        expect(toHex(wasmPersonalBlake2b256(personal, data)!)).toBe(reference(personal, data));
      }),
      { numRuns: 300 },
    );
    const big = new Uint8Array(300_000).map((_, i) => i % 251);
    const personal = new TextEncoder().encode('ZTxAuthOrchaHash');
    expect(toHex(wasmPersonalBlake2b256(personal, big)!)).toBe(reference(personal, big));
  });
});

describe('zcash-test-vectors zip_0244.json (json/ = internal order)', () => {
  const rows = zipRows('zip', 'json', 'zip_0244.json');
  it('has 10 vectors', () => expect(rows.length).toBe(10));
  rows.forEach((row, i) => {
    it(`vector ${i}: txid and auth digest on both paths`, () => {
      const tx = decodeTransactionHex(row.tx as string);
      const d = bothPaths(tx.data, tx.bytes);
      expect(d.wasmTxid).toBe(row.txid);
      expect(d.pureTxid).toBe(row.txid);
      expect(d.wasmAuth).toBe(row.auth_digest);
      expect(d.pureAuth).toBe(row.auth_digest);
      // The public entry points with the bytes take the one-call path.
      expect(toHex(zip244TxId(tx.data, tx.bytes))).toBe(row.txid);
      expect(toHex(zip244AuthDigest(tx.data, tx.bytes))).toBe(row.auth_digest);
      const both = zip244Digests(tx.data, tx.bytes);
      expect([toHex(both.txid), toHex(both.authDigest)]).toEqual([row.txid, row.auth_digest]);
    });
  });
});

describe("zcashd's zip0244.json (digests printed reversed)", () => {
  const rows = zipRows('zcashd', 'zip0244.json');
  it('has 10 vectors', () => expect(rows.length).toBe(10));
  rows.forEach((row, i) => {
    it(`vector ${i}: txid and auth digest on both paths`, () => {
      const tx = decodeTransactionHex(row.tx as string);
      expect(toHexReversed(wasmZip244TxId(tx.bytes)!)).toBe(row.txid);
      expect(toHexReversed(wasmZip244AuthDigest(tx.bytes)!)).toBe(row.auth_digest);
      expect(toHexReversed(zip244TxIdFromFields(tx.data))).toBe(row.txid);
      expect(toHexReversed(zip244AuthDigestFromFields(tx.data))).toBe(row.auth_digest);
    });
  });
});

describe('lightwalletd tx_v5.json (random branch ids: read below the Group-B check)', () => {
  const rows = zipRows('lightwalletd', 'tx_v5.json');
  it('has 10 vectors', () => expect(rows.length).toBe(10));
  rows.forEach((row, i) => {
    it(`vector ${i}: txid on both paths, auth digests agree`, () => {
      const bytes = hexToBytes(row.tx as string);
      const r = new ByteReader(bytes);
      const header = r.u32();
      const groupId = r.u32();
      const format = selectFormat({ overwintered: header >>> 31 === 1, version: header & 0x7fffffff, versionGroupId: groupId }, 0);
      const data = format.read(r, { overwintered: true, version: 5, versionGroupId: groupId });
      expect(r.pos).toBe(bytes.length);
      const d = bothPaths(data, bytes);
      expect(toHexReversed(hexToBytes(d.wasmTxid))).toBe(row.txid);
      expect(toHexReversed(hexToBytes(d.pureTxid))).toBe(row.txid);
      expect(d.wasmAuth).toBe(d.pureAuth);
    });
  });
});

describe('facts.json: every v5 transaction of the real blocks', () => {
  it('txid and authdigest on both paths (34 transactions)', () => {
    let checked = 0;
    for (const block of readFacts().blocks) {
      const decoded = decodeBlock(readHexVector(block.file));
      block.transactions.forEach((fact, i) => {
        if (fact.version !== 5) return;
        const tx = decoded.transactions[i]!;
        const d = bothPaths(tx.data, tx.bytes);
        const rpc = (h: string) => toHexReversed(hexToBytes(h));
        expect([rpc(d.wasmTxid), rpc(d.pureTxid)], `${block.file} tx ${i}`).toEqual([fact.txid, fact.txid]);
        expect([rpc(d.wasmAuth), rpc(d.pureAuth)], `${block.file} tx ${i}`).toEqual([fact.authdigest, fact.authdigest]);
        expect(tx.txidHex).toBe(fact.txid);
        checked++;
      });
    }
    expect(checked).toBe(34);
  });
});

describe('bytes that are not exactly one v5 layout', () => {
  const tx = decodeTransactionHex(zipRows('zip', 'json', 'zip_0244.json')[0]!.tx as string);

  it('are refused by the WebAssembly walk (truncated, trailing byte, cut header)', () => {
    const wire = tx.bytes;
    for (const bad of [
      wire.subarray(0, wire.length - 1),
      Uint8Array.from([...wire, 0]),
      wire.subarray(0, 19),
      new Uint8Array(0),
      // An input count far beyond the bytes.
      Uint8Array.from([...wire.subarray(0, 20), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
    ]) {
      expect(wasmZip244TxId(bad)).toBeNull();
      expect(wasmZip244AuthDigest(bad)).toBeNull();
    }
  });

  it('leave zip244TxId on the field-by-field path', () => {
    const truncated = tx.bytes.subarray(0, tx.bytes.length - 1);
    expect(toHex(zip244TxId(tx.data, truncated))).toBe(toHex(zip244TxIdFromFields(tx.data)));
    expect(toHex(zip244AuthDigest(tx.data, truncated))).toBe(toHex(zip244AuthDigestFromFields(tx.data)));
  });
});

describe('random v5 transactions: WebAssembly walk of the bytes = TypeScript path over the fields', () => {
  const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
  const value = fc.integer({ min: -2_100_000_000_000_000, max: 2_100_000_000_000_000 });
  // Scripts up to 300 bytes so CompactSize lengths take their 3-byte form too.
  const script = fc.uint8Array({ maxLength: 300, size: 'max' });
  const input = fc.record({
    hash: bytes(32),
    index: fc.nat({ max: 0xffffffff }),
    scriptSig: script,
    sequence: fc.nat({ max: 0xffffffff }),
  });
  const output = fc.record({ value: fc.integer({ min: 0, max: 2_100_000_000_000_000 }), scriptPubKey: script });
  const spend = fc.record({ cv: bytes(32), nullifier: bytes(32), rk: bytes(32), zkproof: bytes(192), spendAuthSig: bytes(64) });
  const saplingOutput = fc.record({
    cv: bytes(32),
    cmu: bytes(32),
    ephemeralKey: bytes(32),
    encCiphertext: bytes(580),
    outCiphertext: bytes(80),
    zkproof: bytes(192),
  });
  const action = fc.record({
    cv: bytes(32),
    nullifier: bytes(32),
    rk: bytes(32),
    cmx: bytes(32),
    ephemeralKey: bytes(32),
    encCiphertext: bytes(580),
    outCiphertext: bytes(80),
    spendAuthSig: bytes(64),
  });
  const transaction = fc.record({
    branchId: fc.nat({ max: 0xffffffff }),
    lockTime: fc.nat({ max: 0xffffffff }),
    expiryHeight: fc.nat({ max: 499_999_999 }),
    vin: fc.array(input, { maxLength: 5 }),
    vout: fc.array(output, { maxLength: 5 }),
    spends: fc.array(spend, { maxLength: 3 }),
    outputs: fc.array(saplingOutput, { maxLength: 3 }),
    saplingBalance: value,
    saplingAnchor: bytes(32),
    saplingBinding: bytes(64),
    actions: fc.array(action, { maxLength: 3 }),
    flags: fc.nat({ max: 3 }),
    orchardBalance: value,
    orchardAnchor: bytes(32),
    orchardProof: fc.uint8Array({ maxLength: 3000, size: 'max' }),
    orchardBinding: bytes(64),
  });

  type Generated = typeof transaction extends fc.Arbitrary<infer T> ? T : never;

  function build(t: Generated): TransactionData {
    const anySapling = t.spends.length + t.outputs.length > 0;
    const spends: SaplingSpend[] = t.spends.map((s) => ({ ...s, anchor: t.saplingAnchor }));
    const outputs: SaplingOutput[] = t.outputs;
    const actions: OrchardAction[] = t.actions;
    return {
      format: 'v5',
      overwintered: true,
      version: 5,
      versionGroupId: 0x26a7270a,
      consensusBranchId: t.branchId,
      lockTime: t.lockTime,
      expiryHeight: t.expiryHeight,
      vin: t.vin.map((i) => ({ prevout: { hash: i.hash, index: i.index }, scriptSig: i.scriptSig, sequence: i.sequence })),
      vout: t.vout,
      joinSplits: [],
      joinSplitPubKey: null,
      joinSplitSig: null,
      sapling: anySapling
        ? {
            spends,
            outputs,
            valueBalance: t.saplingBalance,
            sharedAnchor: spends.length > 0 ? t.saplingAnchor : null,
            bindingSig: t.saplingBinding,
          }
        : null,
      orchard:
        actions.length > 0
          ? {
              actions,
              flags: t.flags,
              valueBalance: t.orchardBalance,
              anchor: t.orchardAnchor,
              proof: t.orchardProof,
              bindingSig: t.orchardBinding,
            }
          : null,
    };
  }

  it('agree on txid and auth digest', () => {
    fc.assert(
      fc.property(transaction, (t) => {
        const data = build(t);
        const wire = encodeTransaction(data);
        const wasm = wasmZip244Digests(wire);
        expect(wasm).not.toBeNull();
        expect(toHex(wasm!.txid)).toBe(toHex(zip244TxIdFromFields(data)));
        expect(toHex(wasm!.authDigest)).toBe(toHex(zip244AuthDigestFromFields(data)));
      }),
      { numRuns: 300 },
    );
  });
});
