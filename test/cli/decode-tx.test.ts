import { describe, expect, it } from 'vitest';
import { MAINNET, TESTNET, networkParams } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex } from '../../src/codec/hex.js';
import { decodeTransactionHex } from '../../src/codec/tx/transaction.js';
import { parseJson } from '../../src/json/reader.js';
import { txToJson } from '../../src/render/tx.js';
import { JsonNumber, JsonObject, type JsonValue } from '../../src/json/value.js';
import { decodeRawTransaction } from '../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { RpcError } from '../../src/rpc/method.js';
import { readFacts, readHexVector } from '../support/vectors.js';

const BLOCK1_COINBASE =
  '01000000010000000000000000000000000000000000000000000000000000000000000000ffffffff025100ffffffff0250c30000000000002321027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875acd43000000000000017a9147d46a730d31f97b1930d3368a967c309bd4d136a8700000000';

describe('worked examples (transaction-format.md §3.10, §3.11)', () => {
  it('mainnet block 1 coinbase, byte for byte', () => {
    const expected =
      '{"txid":"851bf6fbf7a976327817c738c489d7fa657752445430922d94c983c0b9ed4609","authdigest":"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff","size":129,"overwintered":false,"version":1,"locktime":0,"hex":"' +
      BLOCK1_COINBASE +
      '","vin":[{"coinbase":"5100","sequence":4294967295}],"vout":[{"value":0.00050000,"valueZat":50000,"valueSat":50000,"n":0,"scriptPubKey":{"asm":"027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875 OP_CHECKSIG","hex":"21027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875ac","reqSigs":1,"type":"pubkey","addresses":["t1KstPVzcNEK4ZeauQ6cogoqxQBMDSiRnGr"]}},{"value":0.00012500,"valueZat":12500,"valueSat":12500,"n":1,"scriptPubKey":{"asm":"OP_HASH160 7d46a730d31f97b1930d3368a967c309bd4d136a OP_EQUAL","hex":"a9147d46a730d31f97b1930d3368a967c309bd4d136a87","reqSigs":1,"type":"scripthash","addresses":["t3Vz22vK5z2LcKEdg16Yv4FFneEL1zg9ojd"]}}],"vjoinsplit":[]}';
    expect(txToJson(decodeTransactionHex(BLOCK1_COINBASE), MAINNET)).toBe(expected);
  });

  it('block 1 coinbase on testnet uses testnet prefixes', () => {
    const json = txToJson(decodeTransactionHex(BLOCK1_COINBASE), TESTNET);
    expect(json).toContain('"addresses":["tmBidiLV1ktpZhtnM4pvYYUWi1AS2tr2Ka9"]');
    expect(json).toContain('"addresses":["t2HyD5bRDrUwyrwDQvqYxbsSRkiZBubx194"]');
    expect(txToJson(decodeTransactionHex(BLOCK1_COINBASE), networkParams('regtest'))).toBe(json);
  });

  it('synthetic v5 transparent transaction', () => {
    const hex =
      '050000800a27a726b4d0d6c20000000080841e0001000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f010000006b483045022100800102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f02201f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e0121027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875feffffff0200e1f505000000001976a91415fded3c758615657163c168dbc055957a08f8d288ac00000000000000000a6a0568656c6c6f02e803000000';
    const expected =
      '{"txid":"59a19220c5a56c9d9ee941e7dfa33248abf6f90ad5b1793578e8a222686e30cd","authdigest":"f0db80df45a1cb2cff699096af309e4f8fa1795be3939aad618608f711984e61","size":226,"overwintered":true,"version":5,"versiongroupid":"26a7270a","locktime":0,"expiryheight":2000000,"hex":"' +
      hex +
      '","vin":[{"txid":"1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100","vout":1,"scriptSig":{"asm":"3045022100800102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f02201f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e[ALL] 027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875","hex":"483045022100800102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f02201f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e0121027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875"},"sequence":4294967294}],"vout":[{"value":1.00000000,"valueZat":100000000,"valueSat":100000000,"n":0,"scriptPubKey":{"asm":"OP_DUP OP_HASH160 15fded3c758615657163c168dbc055957a08f8d2 OP_EQUALVERIFY OP_CHECKSIG","hex":"76a91415fded3c758615657163c168dbc055957a08f8d288ac","reqSigs":1,"type":"pubkeyhash","addresses":["t1KstPVzcNEK4ZeauQ6cogoqxQBMDSiRnGr"]}},{"value":0.00000000,"valueZat":0,"valueSat":0,"n":1,"scriptPubKey":{"asm":"OP_RETURN 68656c6c6f 1000","hex":"6a0568656c6c6f02e803","type":"nulldata"}}],"vjoinsplit":[],"valueBalance":0.00000000,"valueBalanceZat":0,"vShieldedSpend":[],"vShieldedOutput":[],"orchard":{"actions":[],"valueBalance":0.00000000,"valueBalanceZat":0}}';
    expect(txToJson(decodeTransactionHex(hex), MAINNET)).toBe(expected);
  });

  it('ignores trailing bytes like zcashd (size/hex/txid describe the prefix)', () => {
    const json = txToJson(decodeTransactionHex(BLOCK1_COINBASE + '00ff'), MAINNET);
    expect(json).toBe(txToJson(decodeTransactionHex(BLOCK1_COINBASE), MAINNET));
  });
});

const facts = readFacts().blocks;

function member(o: JsonValue | undefined, key: string): JsonValue | undefined {
  return o instanceof JsonObject ? o.get(key) : undefined;
}
function num(v: JsonValue | undefined): string {
  if (!(v instanceof JsonNumber)) throw new Error('expected a number');
  return v.text;
}
function arr(v: JsonValue | undefined): JsonValue[] {
  if (!Array.isArray(v)) throw new Error('expected an array');
  return v;
}

describe('decoderawtransaction of every real transaction (facts.json)', () => {
  const AMOUNT = /^-?\d+\.\d{8}$/;
  for (const b of facts) {
    it(`${b.file}`, () => {
      const network = networkParams(b.network === 'testnet' ? 'testnet' : 'mainnet');
      const block = decodeBlock(readHexVector(b.file));
      block.transactions.forEach((tx, i) => {
        const f = b.transactions[i]!;
        const hex = toHex(tx.bytes);
        const o = parseJson(txToJson(decodeTransactionHex(hex), network));
        expect(member(o, 'txid')).toBe(f.txid);
        expect(member(o, 'authdigest')).toBe(f.authdigest);
        expect(num(member(o, 'size'))).toBe(String(f.size));
        expect(num(member(o, 'version'))).toBe(String(f.version));
        expect(member(o, 'overwintered')).toBe(f.overwintered);
        expect(num(member(o, 'locktime'))).toBe(String(f.locktime));
        expect(member(o, 'hex')).toBe(hex);
        expect(arr(member(o, 'vin')).length).toBe(f.vin);
        expect(arr(member(o, 'vout')).length).toBe(f.vout);
        expect(arr(member(o, 'vjoinsplit')).length).toBe(f.joinsplits);
        if (f.overwintered && f.version >= 4) {
          expect(arr(member(o, 'vShieldedSpend')).length).toBe(f.sapling_spends);
          expect(arr(member(o, 'vShieldedOutput')).length).toBe(f.sapling_outputs);
          expect(AMOUNT.test(num(member(o, 'valueBalance')))).toBe(true);
        }
        if (f.overwintered && f.version >= 5) {
          expect(arr(member(member(o, 'orchard'), 'actions')).length).toBe(f.orchard_actions);
        }
        let sumZat = 0;
        for (const out of arr(member(o, 'vout'))) {
          const value = num(member(out, 'value'));
          expect(value).toMatch(AMOUNT);
          const zat = Number(num(member(out, 'valueZat')));
          expect(num(member(out, 'valueSat'))).toBe(String(zat));
          // the amount text is the zatoshi value formatted %d.%08d
          expect(Math.round(Number(value) * 1e8)).toBe(zat);
          sumZat += zat;
        }
        for (const js of arr(member(o, 'vjoinsplit'))) {
          expect(num(member(js, 'vpub_old'))).toMatch(AMOUNT);
          expect(num(member(js, 'vpub_new'))).toMatch(AMOUNT);
        }
        expect(sumZat).toBe(tx.data.vout.reduce((s, x) => s + x.value, 0));
      });
    });
  }
});

describe('decoderawtransaction errors (zcashd -22 / -3 texts)', () => {
  const ctx = { network: MAINNET, requestStop() {} };
  const call = (p: JsonValue) => {
    try {
      decodeRawTransaction.call([p], ctx);
    } catch (e) {
      if (e instanceof RpcError) return `${e.code} ${e.message}`;
      throw e;
    }
    return 'ok';
  };
  const S = ': unspecified iostream_category error';

  it('rejects bad hex and non-strings', () => {
    for (const bad of ['', 'abc', 'zz', '00 11', BLOCK1_COINBASE + '0']) {
      expect(call(bad)).toBe(`-22 TX decode failed: not a valid hex string${S}`);
    }
    expect(call(new JsonNumber('5'))).toBe('-3 Expected type string, got number');
    expect(call(null)).toBe('-3 Expected type string, got null');
    expect(call(true)).toBe('-3 Expected type string, got bool');
    expect(call([])).toBe('-3 Expected type string, got array');
    expect(call(new JsonObject())).toBe('-3 Expected type string, got object');
  });

  it('spec worked examples', () => {
    expect(call('DEADBEEF')).toBe(`-22 TX decode failed: CBaseDataStream::read(): end of data${S}`);
    expect(call('01000000')).toBe(`-22 TX decode failed: CBaseDataStream::read(): end of data${S}`);
    expect(call('030000800000000000000000')).toBe(`-22 TX decode failed: Unknown transaction format${S}`);
  });

  it('every truncation of a real v4 (Sapling) and v5 (Orchard) transaction gives a zcashd message', () => {
    const v4 = decodeBlock(readHexVector('blocks', 'mainnet', '419202.hex')).transactions.find((t) => t.data.sapling?.spends.length)!;
    const v5 = decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex')).transactions.find((t) => t.data.orchard)!;
    const allowed = new Set([
      `TX decode failed: CBaseDataStream::read(): end of data${S}`,
      `TX decode failed: Failed to parse v4 Sapling bundle: CBaseDataStream::read(): end of data${S}${S}`,
      `TX decode failed: Failed to parse v5 Sapling bundle: CBaseDataStream::read(): end of data${S}${S}`,
      `TX decode failed: Failed to parse Orchard bundle: CBaseDataStream::read(): end of data${S}${S}`,
    ]);
    for (const tx of [v4, v5]) {
      const hex = toHex(tx.bytes);
      const seen = new Set<string>();
      for (let cut = 1; cut < tx.size; cut++) {
        const r = call(hex.slice(0, cut * 2));
        expect(r.startsWith('-22 ')).toBe(true);
        expect(allowed.has(r.slice(4))).toBe(true);
        seen.add(r.slice(4));
      }
      // cuts inside Rust-parsed sections report the doubled suffix: v4 has one such section
      // (Sapling components), v5 two (Sapling bundle, Orchard bundle)
      expect(seen.size).toBe(tx.data.version === 5 ? 3 : 2);
    }
  });
});
