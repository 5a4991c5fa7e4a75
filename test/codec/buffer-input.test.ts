// decodeTransaction given a Node Buffer reads the Buffer itself (no plain view of it is made
// unless a field needs one), so check that it decodes every real transaction exactly as from a
// plain Uint8Array, and that every byte field it hands out is a plain Uint8Array, never a Buffer.
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex } from '../../src/codec/hex.js';
import { decodeTransaction, type Transaction } from '../../src/codec/tx/transaction.js';
import { readHexVector, realBlockFiles } from '../support/vectors.js';

const realTxs: Uint8Array[] = realBlockFiles().flatMap((f) => decodeBlock(readHexVector(f.file)).transactions.map((t) => t.bytes));

/** Every byte field of a decoded transaction, each as [name, value]. */
function byteFields(tx: Transaction): [string, Uint8Array][] {
  const d = tx.data;
  const out: [string, Uint8Array][] = [['bytes', tx.bytes]];
  d.vin.forEach((i, k) => out.push([`vin${k}.hash`, i.prevout.hash], [`vin${k}.scriptSig`, i.scriptSig]));
  d.vout.forEach((o, k) => out.push([`vout${k}.scriptPubKey`, o.scriptPubKey]));
  d.joinSplits.forEach((js, k) => out.push([`js${k}.proof`, js.proof], [`js${k}.anchor`, js.anchor], [`js${k}.ct0`, js.ciphertexts[0]]));
  if (d.joinSplitSig) out.push(['joinSplitSig', d.joinSplitSig]);
  d.sapling?.spends.forEach((s, k) => out.push([`spend${k}.cv`, s.cv], [`spend${k}.zkproof`, s.zkproof], [`spend${k}.anchor`, s.anchor]));
  d.sapling?.outputs.forEach((o, k) => out.push([`output${k}.enc`, o.encCiphertext], [`output${k}.zkproof`, o.zkproof]));
  if (d.sapling?.bindingSig) out.push(['saplingBindingSig', d.sapling.bindingSig]);
  d.orchard?.actions.forEach((a, k) => out.push([`action${k}.cv`, a.cv], [`action${k}.sig`, a.spendAuthSig]));
  if (d.orchard) out.push(['orchardProof', d.orchard.proof]);
  return out;
}

function summary(tx: Transaction) {
  const d = tx.data;
  return {
    txid: tx.txidHex,
    authDigest: toHex(tx.authDigest),
    size: tx.size,
    serialized: toHex(tx.serialize()),
    fields: byteFields(tx).map(([name, b]) => `${name}=${toHex(b)}`),
    vin: d.vin.map((i) => [i.prevout.index, i.sequence]),
    vout: d.vout.map((o) => o.value),
  };
}

describe('decodeTransaction of a Buffer', () => {
  it('every real transaction decodes as from a Uint8Array, with plain Uint8Array fields', () => {
    expect(realTxs.length).toBeGreaterThan(100);
    for (const bytes of realTxs) {
      const fromBuffer = decodeTransaction(Buffer.from(bytes));
      expect(summary(fromBuffer)).toEqual(summary(decodeTransaction(new Uint8Array(bytes))));
      for (const [name, b] of byteFields(fromBuffer)) expect(Object.getPrototypeOf(b), name).toBe(Uint8Array.prototype);
    }
  });

  it('a transaction followed by other bytes in the Buffer hashes only its own bytes', () => {
    for (const bytes of realTxs.slice(0, 50)) {
      const tx = decodeTransaction(Buffer.concat([bytes, Buffer.from([0, 1, 2, 3])]));
      const alone = decodeTransaction(bytes);
      expect([tx.txidHex, toHex(tx.authDigest), tx.size, toHex(tx.bytes)]).toEqual([
        alone.txidHex,
        toHex(alone.authDigest),
        alone.size,
        toHex(bytes),
      ]);
    }
  });
});
