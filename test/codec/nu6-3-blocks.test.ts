// The real blocks on both sides of the NU6.3 activation (../shared/test-vectors/nu6.3): every block
// decodes under the current chain's acceptance, every transaction re-encodes byte for byte, its
// txid is facts.json's and the txids give the header's merkle root (which confirms the v6 txids,
// the NU6.2-branch v5 ones and the v4 ones after NU6.3); v5 auth digests are facts.json's. Under
// the default acceptance (zcashd v6.12.2's) a v6 transaction and a NU6.2-branch v5 transaction
// are refused with zcashd's own errors.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteReader } from '../../src/codec/bytes.js';
import { decodeBlock } from '../../src/codec/block.js';
import { DecodeError } from '../../src/codec/errors.js';
import { toHex, toHexReversed } from '../../src/codec/hex.js';
import { CURRENT_CHAIN_ACCEPTANCE, TxAcceptance, V6_FORMAT_KEY, ZCASHD_6_12_2_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import {
  decodeTransaction,
  decodeTransactionFieldByField,
  decodeTransactionQuickly,
  encodeTransaction,
  readTransaction,
  type Transaction,
} from '../../src/codec/tx/transaction.js';
import { NU6_3_VERSION_GROUP_ID, type OrchardBundle } from '../../src/codec/tx/types.js';
import { zip229AuthDigestFromFields, zip229TxIdFromFields } from '../../src/codec/tx/zip229.js';
import { zip244AuthDigestFromFields, zip244TxIdFromFields } from '../../src/codec/tx/zip244.js';
import { BRANCH_IDS, KNOWN_BRANCH_IDS } from '../../src/chain/upgrades.js';
import { mutatedTransaction } from '../fuzz/properties.js';
import { nu63BlockBytes, nu63Facts } from '../support/nu63-facts.js';

const S = ': unspecified iostream_category error';

const facts = nu63Facts;
const blocks = Object.values(facts);
const bytesOf = nu63BlockBytes;
const current = (network: 'mainnet' | 'testnet', height: number) => decodeBlock(bytesOf({ network, height }), CURRENT_CHAIN_ACCEPTANCE);
const txOf = (network: 'mainnet' | 'testnet', height: number, index: number): Transaction => current(network, height).transactions[index]!;

it('the vectors hold 19 blocks, 6 mainnet and 13 testnet, with 23 v6 transactions', () => {
  expect(blocks.filter((b) => b.network === 'mainnet')).toHaveLength(6);
  expect(blocks.filter((b) => b.network === 'testnet')).toHaveLength(13);
  expect(blocks.flatMap((b) => b.transactions).filter((t) => t.version === 6)).toHaveLength(23);
});

describe.each(blocks.map((b) => [`${b.network} ${b.height}`, b] as const))('%s', (_, fact) => {
  const bytes = bytesOf(fact);
  const block = decodeBlock(bytes, CURRENT_CHAIN_ACCEPTANCE);

  it('decodes to its last byte, with its hash', () => {
    expect(block.size).toBe(bytes.length);
    expect(block.hashHex).toBe(fact.hash);
    expect(block.transactions).toHaveLength(fact.transactions.length);
  });

  it("its txids are facts.json's and give the header's merkle root", () => {
    expect(block.transactions.map((t) => t.txidHex)).toEqual(fact.transactions.map((t) => t.txid));
    expect(toHexReversed(block.computeMerkleRoot())).toBe(fact.merkleroot);
    expect(toHexReversed(block.header.merkleRoot)).toBe(fact.merkleroot);
  });

  it('every transaction re-encodes byte for byte, reads the same field by field, and has its stated shape', () => {
    block.transactions.forEach((tx, i) => {
      const f = fact.transactions[i]!;
      expect(tx.size).toBe(f.size);
      expect(toHex(encodeTransaction(tx.data))).toBe(toHex(tx.bytes));
      const slow = decodeTransactionFieldByField(tx.bytes, CURRENT_CHAIN_ACCEPTANCE);
      expect(slow.txidHex).toBe(f.txid);
      expect(toHex(slow.serialize())).toBe(toHex(tx.bytes));
      expect(tx.data.version).toBe(f.version);
      if (f.branch_id !== undefined) expect(tx.data.consensusBranchId!.toString(16).padStart(8, '0')).toBe(f.branch_id);
      if (f.vin !== undefined) expect([tx.data.vin.length, tx.data.vout.length]).toEqual([f.vin, f.vout]);
      if (f.sapling_spends !== undefined) {
        expect(tx.data.sapling?.spends.length ?? 0).toBe(f.sapling_spends);
        expect(tx.data.sapling?.outputs.length ?? 0).toBe(f.sapling_outputs);
        expect(tx.data.orchard?.actions.length ?? 0).toBe(f.orchard_actions);
      }
      if (f.orchard_flags !== undefined) expect(tx.data.orchard!.flags).toBe(f.orchard_flags);
      if (f.version === 6) {
        expect(tx.data.format).toBe('v6');
        expect(tx.carries.ironwood).toBe(true);
        expect(tx.data.ironwood?.actions.length ?? 0).toBe(f.ironwood_actions);
        if (f.ironwood_flags !== undefined) expect(tx.data.ironwood!.flags).toBe(f.ironwood_flags);
      } else {
        expect(tx.carries.ironwood).toBe(false);
      }
    });
  });

  it('the WebAssembly and field-by-field digests agree; v5 auth digests are facts.json’s', () => {
    for (const [i, tx] of block.transactions.entries()) {
      const f = fact.transactions[i]!;
      if (f.version === 6) {
        expect(toHexReversed(zip229TxIdFromFields(tx.data))).toBe(f.txid);
        expect(toHex(zip229AuthDigestFromFields(tx.data))).toBe(toHex(tx.authDigest));
      } else if (f.version === 5) {
        // NU6.2's branch id keeps the ZIP-244 algorithm.
        expect(toHexReversed(zip244TxIdFromFields(tx.data))).toBe(f.txid);
        expect(toHexReversed(tx.authDigest)).toBe(f.authdigest);
        expect(toHexReversed(zip244AuthDigestFromFields(tx.data))).toBe(f.authdigest);
      } else {
        expect(toHex(tx.authDigest)).toBe('ff'.repeat(32));
      }
    }
  });
});

describe('named transactions', () => {
  const bundle = (b: OrchardBundle | null | undefined) =>
    b ? { actions: b.actions.length, flags: b.flags, valueBalance: b.valueBalance, proof: b.proof.length } : null;

  it('the first v6 coinbase: mainnet 3428143, the first NU6.3 block', () => {
    const tx = txOf('mainnet', 3428143, 0);
    expect(tx.txidHex).toBe(facts['mainnet/3428143']!.transactions[0]!.txid);
    expect(tx.isCoinbase).toBe(true);
    expect(tx.data.version).toBe(6);
    expect(tx.data.versionGroupId).toBe(NU6_3_VERSION_GROUP_ID);
    expect(tx.data.consensusBranchId).toBe(BRANCH_IDS['NU6.3']);
    expect([tx.data.sapling, tx.data.orchard, tx.data.ironwood]).toEqual([null, null, null]);
    // The quick reader takes it: the v6 header is one of its own.
    expect(decodeTransactionQuickly(tx.bytes, CURRENT_CHAIN_ACCEPTANCE)?.txidHex).toBe(tx.txidHex);
  });

  it('the first testnet v6 coinbase: testnet 4134000', () => {
    const tx = txOf('testnet', 4134000, 0);
    expect([tx.isCoinbase, tx.data.version, tx.data.consensusBranchId]).toEqual([true, 6, BRANCH_IDS['NU6.3']]);
    expect(tx.txidHex).toBe(facts['testnet/4134000']!.transactions[0]!.txid);
  });

  it('Orchard and Ironwood in one v6 transaction: mainnet 3428144 #2, Ironwood with enableCrossAddress', () => {
    const tx = txOf('mainnet', 3428144, 2);
    expect(tx.txidHex).toBe('f15bfc86171351c5841f4629c8cf52b8ca5d85684c6495456940f78443a3d574');
    expect(bundle(tx.data.orchard)).toMatchObject({ actions: 2, flags: 3, proof: 2720 + 2272 * 2 });
    expect(bundle(tx.data.ironwood)).toMatchObject({ actions: 2, flags: 7, proof: 2720 + 2272 * 2 });
    expect(tx.data.ironwood!.flags & 4).toBe(4);
    expect(tx.data.orchard!.flags & 4).toBe(0);
  });

  it('Orchard only in a v6 transaction: mainnet 3428145 #2, 8 actions', () => {
    const tx = txOf('mainnet', 3428145, 2);
    expect(tx.txidHex).toBe(facts['mainnet/3428145']!.transactions[2]!.txid);
    expect(bundle(tx.data.orchard)).toMatchObject({ actions: 8, proof: 2720 + 2272 * 8 });
    expect(tx.data.ironwood).toBeNull();
  });

  it('Ironwood only in a v6 transaction: mainnet 3428146 #1, a transparent input into 2 Ironwood actions', () => {
    const tx = txOf('mainnet', 3428146, 1);
    expect(tx.txidHex).toBe(facts['mainnet/3428146']!.transactions[1]!.txid);
    expect(tx.data.orchard).toBeNull();
    expect(bundle(tx.data.ironwood)).toMatchObject({ actions: 2, proof: 2720 + 2272 * 2 });
    expect([tx.data.vin.length, tx.data.vout.length]).toEqual([1, 0]);
    // Value moves into the Ironwood pool: a negative value balance.
    expect(tx.data.ironwood!.valueBalance).toBeLessThan(0);
  });

  it('v4 after NU6.3: mainnet 3428144 #1 and 3428146 #2', () => {
    for (const [h, i] of [
      [3428144, 1],
      [3428146, 2],
    ] as const) {
      const tx = txOf('mainnet', h, i);
      expect(tx.data.format).toBe('v4');
      expect(tx.txidHex).toBe(facts[`mainnet/${h}`]!.transactions[i]!.txid);
    }
  });

  it('v5 under NU6.2: mainnet 3428142, Orchard actions, ZIP-244 txids and auth digests', () => {
    const block = current('mainnet', 3428142);
    const withOrchard = block.transactions.filter((t) => t.data.orchard);
    expect(withOrchard).toHaveLength(8);
    for (const tx of block.transactions) expect([tx.data.format, tx.data.consensusBranchId]).toEqual(['v5', BRANCH_IDS['NU6.2']]);
  });

  it('v5 under NU6.3 (none is in the real blocks): a real NU6.2 v5 transaction relabelled keeps ZIP 244', () => {
    const real = current('mainnet', 3428142).transactions[1]!;
    const relabelled = real.bytes.slice();
    new DataView(relabelled.buffer).setUint32(8, BRANCH_IDS['NU6.3'], true);
    const tx = decodeTransaction(relabelled, CURRENT_CHAIN_ACCEPTANCE);
    expect(tx.data.format).toBe('v5');
    expect(toHex(tx.txid)).toBe(toHex(zip244TxIdFromFields(tx.data)));
    expect(toHex(tx.authDigest)).toBe(toHex(zip244AuthDigestFromFields(tx.data)));
    expect(toHex(tx.txid)).not.toBe(toHex(zip229TxIdFromFields(tx.data)));
    // The branch id is in the personalization of both roots, so both change.
    expect(tx.txidHex).not.toBe(real.txidHex);
    expect(toHex(tx.authDigest)).not.toBe(toHex(real.authDigest));
  });
});

describe("the default acceptance is zcashd v6.12.2's", () => {
  const what = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(DecodeError);
      return [(e as DecodeError).reason, (e as DecodeError).what];
    }
    throw new Error('decoded');
  };
  const UNKNOWN_FORMAT = ['unknown-tx-format', `Unknown transaction format${S}`];
  const UPDATE_HASH = ['invalid-tx-format', `CTransaction::UpdateHash: Invalid transaction format${S}`];

  it('a v6 transaction: "Unknown transaction format", on every path', () => {
    const tx = txOf('mainnet', 3428144, 2).bytes;
    expect(what(() => decodeTransaction(tx))).toEqual(UNKNOWN_FORMAT);
    expect(what(() => decodeTransactionFieldByField(tx))).toEqual(UNKNOWN_FORMAT);
    expect(decodeTransactionQuickly(tx)).toBeNull();
    expect(what(() => decodeBlock(bytesOf({ network: 'mainnet', height: 3428143 })))).toEqual(UNKNOWN_FORMAT);
    expect(what(() => decodeBlock(bytesOf({ network: 'testnet', height: 4134000 })))).toEqual(UNKNOWN_FORMAT);
  });

  it('a v5 transaction under NU6.2 or NU6.3: "CTransaction::UpdateHash: Invalid transaction format"', () => {
    const coinbase = txOf('mainnet', 3428141, 0).bytes;
    const orchard = txOf('mainnet', 3428142, 1).bytes;
    for (const tx of [coinbase, orchard]) {
      expect(what(() => decodeTransaction(tx))).toEqual(UPDATE_HASH);
      expect(what(() => decodeTransactionFieldByField(tx))).toEqual(UPDATE_HASH);
      expect(what(() => decodeTransaction(tx, ZCASHD_6_12_2_ACCEPTANCE))).toEqual(UPDATE_HASH);
    }
    expect(what(() => decodeBlock(bytesOf({ network: 'mainnet', height: 3428141 })))).toEqual(UPDATE_HASH);
  });

  it("accepts exactly zcashd v6.12.2's branch ids; the current chain's adds NU6.2's and NU6.3's", () => {
    expect(ZCASHD_6_12_2_ACCEPTANCE.acceptedBranchIds).toEqual([...KNOWN_BRANCH_IDS]);
    expect(CURRENT_CHAIN_ACCEPTANCE.acceptedBranchIds).toEqual([...KNOWN_BRANCH_IDS, BRANCH_IDS['NU6.2'], BRANCH_IDS['NU6.3']]);
    expect(ZCASHD_6_12_2_ACCEPTANCE.acceptsFormat(6, NU6_3_VERSION_GROUP_ID)).toBe(false);
    expect(CURRENT_CHAIN_ACCEPTANCE.acceptsFormat(6, NU6_3_VERSION_GROUP_ID)).toBe(true);
  });

  it('an acceptance taking v6 but not the NU6.3 branch id refuses the v6 coinbase as an unknown branch id', () => {
    const v6ButNotNu63 = new TxAcceptance({ branchIds: KNOWN_BRANCH_IDS, formats: [V6_FORMAT_KEY] });
    const tx = txOf('mainnet', 3428143, 0).bytes;
    expect(what(() => decodeTransaction(tx, v6ButNotNu63))).toEqual(UPDATE_HASH);
    expect(what(() => decodeTransactionFieldByField(tx, v6ButNotNu63))).toEqual(UPDATE_HASH);
  });
});

describe('v6 decoding errors', () => {
  const orchardAndIronwood = () => txOf('mainnet', 3428144, 2);

  /** Offset of a bundle's flags byte: after its count and actions. */
  function flagsOffsets(tx: Transaction): { orchard: number; ironwood: number } {
    const b = tx.bytes;
    // No transparent or Sapling part: 20 header bytes, four zero counts before the Orchard count.
    expect(Array.from(b.subarray(20, 24))).toEqual([0, 0, 0, 0]);
    const orchard = 24 + 1 + 820 * 2;
    const o = tx.data.orchard!;
    const ironwoodCountAt = orchard + 1 + 8 + 32 + 3 + o.proof.length + 64 * 2 + 64;
    return { orchard, ironwood: ironwoodCountAt + 1 + 820 * 2 };
  }

  it('reads the flags where this test computes them', () => {
    const tx = orchardAndIronwood();
    const at = flagsOffsets(tx);
    expect([tx.bytes[at.orchard], tx.bytes[at.ironwood]]).toEqual([3, 7]);
  });

  it.each([
    ['orchard', 0x08, 'Failed to parse Orchard bundle: invalid Orchard flags', 'invalid-orchard'],
    ['orchard', 0x80, 'Failed to parse Orchard bundle: invalid Orchard flags', 'invalid-orchard'],
    ['ironwood', 0x0f, 'Failed to parse Ironwood bundle: invalid Orchard flags', 'invalid-ironwood'],
    ['ironwood', 0x40, 'Failed to parse Ironwood bundle: invalid Orchard flags', 'invalid-ironwood'],
  ] as const)('%s flags %i (a bit of 3–7 set) are refused', (part, flags, message, reason) => {
    const tx = orchardAndIronwood();
    const b = tx.bytes.slice();
    b[flagsOffsets(tx)[part]] = flags;
    for (const decode of [decodeTransaction, decodeTransactionFieldByField]) {
      try {
        decode(b, CURRENT_CHAIN_ACCEPTANCE);
        throw new Error('decoded');
      } catch (e) {
        expect((e as DecodeError).what).toBe(`${message}${S}`);
        expect((e as DecodeError).reason).toBe(reason);
      }
    }
  });

  it('enableCrossAddress (bit 2) is part of the v6 encoding in both components', () => {
    const tx = orchardAndIronwood();
    const b = tx.bytes.slice();
    b[flagsOffsets(tx).orchard] = 7;
    expect(decodeTransaction(b, CURRENT_CHAIN_ACCEPTANCE).data.orchard!.flags).toBe(7);
  });

  it('every truncation of a v6 transaction is refused with a DecodeError, never decoded or crashed', () => {
    const whole = orchardAndIronwood().bytes;
    for (let n = 0; n < whole.length; n += n < 200 ? 1 : 97) {
      for (const decode of [decodeTransaction, decodeTransactionFieldByField]) {
        expect(() => decode(whole.subarray(0, n), CURRENT_CHAIN_ACCEPTANCE), `${n} bytes`).toThrow(DecodeError);
      }
    }
  });

  it('an action count beyond the bytes is refused without reading past them', () => {
    const tx = txOf('mainnet', 3428143, 0);
    const b = tx.bytes.slice();
    b[b.length - 1] = 0xfd; // the Ironwood action count becomes a three-byte CompactSize with no bytes after it
    expect(() => decodeTransaction(b, CURRENT_CHAIN_ACCEPTANCE)).toThrow(DecodeError);
  });
});

describe('the quick and the general readers agree after NU6.3', () => {
  /** A decode's outcome as comparable values: the transaction's bytes, ids and bundles, or the error. */
  function outcome(decode: () => Transaction): unknown {
    try {
      const tx = decode();
      const b = (x: OrchardBundle | null | undefined) =>
        x && [x.actions.map((a) => toHex(a.cmx)), x.flags, x.valueBalance, toHex(x.anchor)];
      return {
        size: tx.size,
        format: tx.data.format,
        branchId: tx.data.consensusBranchId,
        txid: tx.txidHex,
        auth: toHex(tx.authDigest),
        serialized: toHex(tx.serialize()),
        orchard: b(tx.data.orchard),
        ironwood: b(tx.data.ironwood),
      };
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      return { error: [e.reason, e.offset, e.what] };
    }
  }

  const real = blocks.flatMap((f) =>
    current(f.network, f.height)
      .transactions.filter((t) => t.data.version >= 5)
      .map((t) => t.bytes.slice()),
  );

  it('on mutated real v5 (NU6.2) and v6 transactions, under both acceptances (fast-check)', () => {
    const seen = { ok: 0, error: 0 };
    fc.assert(
      fc.property(mutatedTransaction(real), fc.boolean(), (bytes, currentChain) => {
        const acceptance = currentChain ? CURRENT_CHAIN_ACCEPTANCE : ZCASHD_6_12_2_ACCEPTANCE;
        const general = outcome(() => decodeTransactionFieldByField(bytes, acceptance));
        expect(outcome(() => decodeTransaction(bytes, acceptance))).toEqual(general);
        // Inside a larger buffer, as a block is read: the reader stops just after the transaction.
        const framed = new Uint8Array(bytes.length + 8).fill(0xa5);
        framed.set(bytes, 0);
        const r = new ByteReader(framed, 0, bytes.length);
        expect(outcome(() => readTransaction(r, acceptance))).toEqual(general);
        seen['error' in (general as object) ? 'error' : 'ok']++;
      }),
      { seed: 0x363, numRuns: 1500 },
    );
    expect(seen.ok).toBeGreaterThan(100);
    expect(seen.error).toBeGreaterThan(100);
  });
});
