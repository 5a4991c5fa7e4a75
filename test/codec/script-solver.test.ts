// Solver + ExtractDestinations (transaction-format.md §4.4–§4.5).
import { describe, expect, it } from 'vitest';
import { MAINNET, TESTNET } from '../../src/chain/network.js';
import { hash160 } from '../../src/crypto/hash.js';
import { encodeTransparentAddress, solveScript, type SolvedScript } from '../../src/codec/script/index.js';

const hex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const solve = (s: string): SolvedScript => solveScript(hex(s));
const addresses = (solved: SolvedScript, network = MAINNET): string[] | undefined =>
  solved.destinations?.map((d) => encodeTransparentAddress(d.kind, d.hash, network));

// The real compressed key of mainnet block 1's coinbase output 0 (§3.10).
const KEY33 = '027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875';
const KEY33_HASH = '15fded3c758615657163c168dbc055957a08f8d2';
// The uncompressed secp256k1 generator (the key signing zcash-tx/txcreatesign).
const KEY65 =
  '0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8';
const H20 = '7d46a730d31f97b1930d3368a967c309bd4d136a';

describe('scripthash', () => {
  it('matches exactly a9 14 <20> 87 and gives a P2SH destination', () => {
    const s = solve(`a914${H20}87`);
    expect(s.type).toBe('scripthash');
    expect(s.reqSigs).toBe(1);
    expect(addresses(s)).toEqual(['t3Vz22vK5z2LcKEdg16Yv4FFneEL1zg9ojd']);
    expect(addresses(s, TESTNET)).toEqual(['t2HyD5bRDrUwyrwDQvqYxbsSRkiZBubx194']);
  });
  it.each([
    ['PUSHDATA1 form', `a94c14${H20}87`],
    ['trailing byte', `a914${H20}8700`],
    ['wrong last op', `a914${H20}88`],
    ['19-byte hash', `a913${H20.slice(2)}87`],
  ])('%s is nonstandard', (_n, s) => {
    expect(solve(s)).toEqual({ type: 'nonstandard' });
  });
});

describe('nulldata', () => {
  it.each([
    ['bare OP_RETURN', '6a'],
    ['one push', '6a0568656c6c6f'],
    ['push and number (§3.11)', '6a0568656c6c6f02e803'],
    ['small ints, OP_1NEGATE, OP_RESERVED', '6a 00 4f 50 51 60'],
    ['PUSHDATA forms', '6a 4c0201ff 4d0100aa 4e01000000bb'],
    ['no 83-byte relay limit', '6a4d2c01' + 'ab'.repeat(300)],
  ])('%s', (_n, s) => {
    expect(solve(s)).toEqual({ type: 'nulldata' });
  });
  it.each([
    ['malformed push after OP_RETURN', '6a05aabb'],
    ['truncated PUSHDATA1', '6a4c'],
    ['non-push opcode', '6a 51 76'],
    ['OP_NOP (0x61) is above OP_16', '6a61'],
    ['OP_RETURN not first', '006a'],
  ])('%s → nonstandard', (_n, s) => {
    expect(solve(s)).toEqual({ type: 'nonstandard' });
  });
});

describe('pubkey', () => {
  it('compressed key: reqSigs 1, P2PKH of HASH160(key) (block 1 coinbase)', () => {
    const s = solve(`21${KEY33}ac`);
    expect(s.type).toBe('pubkey');
    expect(s.reqSigs).toBe(1);
    expect(hexOf(s.destinations![0]!.hash)).toBe(KEY33_HASH);
    expect(s.destinations![0]!.kind).toBe('p2pkh');
    expect(addresses(s)).toEqual(['t1KstPVzcNEK4ZeauQ6cogoqxQBMDSiRnGr']);
    expect(addresses(s, TESTNET)).toEqual(['tmBidiLV1ktpZhtnM4pvYYUWi1AS2tr2Ka9']);
  });
  it('uncompressed key', () => {
    const s = solve(`41${KEY65}ac`);
    expect(s.type).toBe('pubkey');
    expect(hexOf(s.destinations![0]!.hash)).toBe(hexOf(hash160(hex(KEY65))));
    // Well-known HASH160 of the generator point (private key 1): an independent check.
    expect(hexOf(s.destinations![0]!.hash)).toBe('91b24bf9f5288532960ac687abb035127b1d28a5');
  });
  it.each(['06', '07'])('hybrid prefix %s qualifies without curve checks', (prefix) => {
    const key = prefix + KEY65.slice(2);
    const s = solve(`41${key}ac`);
    expect(s.type).toBe('pubkey');
    expect(hexOf(s.destinations![0]!.hash)).toBe(hexOf(hash160(hex(key))));
  });
  it('off-curve compressed key still qualifies', () => {
    const key = '02' + 'ff'.repeat(32);
    expect(solve(`21${key}ac`).type).toBe('pubkey');
  });
  it.each([
    ['33-byte key with 04 prefix', `21${'04' + KEY33.slice(2)}ac`],
    ['65-byte key with 02 prefix', `41${'02' + KEY65.slice(2)}ac`],
    ['prefix 05', `21${'05' + KEY33.slice(2)}ac`],
    ['PUSHDATA1 form', `4c21${KEY33}ac`],
    ['CHECKSIGVERIFY', `21${KEY33}ad`],
    ['extra byte', `21${KEY33}ac00`],
  ])('%s → nonstandard', (_n, s) => {
    expect(solve(s).type).toBe('nonstandard');
  });
});

describe('pubkeyhash', () => {
  it('76 a9 14 <20> 88 ac', () => {
    const s = solve(`76a914${KEY33_HASH}88ac`);
    expect(s.type).toBe('pubkeyhash');
    expect(s.reqSigs).toBe(1);
    expect(addresses(s)).toEqual(['t1KstPVzcNEK4ZeauQ6cogoqxQBMDSiRnGr']);
  });
  it.each([
    ['PUSHDATA1 hash', `76a94c14${KEY33_HASH}88ac`],
    ['EQUAL instead of EQUALVERIFY', `76a914${KEY33_HASH}87ac`],
    ['CHECKSIGVERIFY 1 (tx_valid)', `76a914${KEY33_HASH}88ad51`],
  ])('%s → nonstandard', (_n, s) => {
    expect(solve(s).type).toBe('nonstandard');
  });
});

describe('multisig', () => {
  const k2 = '03' + '11'.repeat(32);
  const k3 = '04' + '22'.repeat(64);
  const push = (k: string): string => (k.length / 2).toString(16) + k;

  it('1-of-1', () => {
    const s = solve(`51${push(KEY33)}51ae`);
    expect(s.type).toBe('multisig');
    expect(s.reqSigs).toBe(1);
    expect(addresses(s)).toEqual(['t1KstPVzcNEK4ZeauQ6cogoqxQBMDSiRnGr']);
  });
  it('2-of-3 mixing key sizes, addresses in script order', () => {
    const s = solve(`52${push(KEY33)}${push(k2)}${push(k3)}53ae`);
    expect(s.type).toBe('multisig');
    expect(s.reqSigs).toBe(2);
    expect(s.destinations!.map((d) => hexOf(d.hash))).toEqual([KEY33_HASH, hexOf(hash160(hex(k2))), hexOf(hash160(hex(k3)))]);
    expect(s.destinations!.every((d) => d.kind === 'p2pkh')).toBe(true);
  });
  it('keeps duplicate keys', () => {
    const s = solve(`52${push(KEY33)}${push(KEY33)}52ae`);
    expect(addresses(s)).toEqual(['t1KstPVzcNEK4ZeauQ6cogoqxQBMDSiRnGr', 't1KstPVzcNEK4ZeauQ6cogoqxQBMDSiRnGr']);
  });
  it('accepts keys pushed with PUSHDATA1/2/4 and hybrid keys', () => {
    const hybrid = '06' + '33'.repeat(64);
    const s = solve(`52 4c21${KEY33} 4d4100${hybrid} 4e21000000${k2} 53ae`);
    expect(s.type).toBe('multisig');
    expect(s.reqSigs).toBe(2);
    expect(s.destinations).toHaveLength(3);
  });
  it('16-of-16', () => {
    const keys = Array.from({ length: 16 }, (_, i) => '02' + i.toString(16).padStart(2, '0').repeat(32));
    const s = solve(`60${keys.map(push).join('')}60ae`);
    expect(s.type).toBe('multisig');
    expect(s.reqSigs).toBe(16);
    expect(s.destinations).toHaveLength(16);
  });
  it.each([
    ['n < m', `52${push(KEY33)}51ae`],
    ['n ≠ key count', `51${push(KEY33)}52ae`],
    ['m is OP_0', `00${push(KEY33)}51ae`],
    ['no keys (OP_1 OP_1 CHECKMULTISIG)', '5151ae'],
    ['no keys, OP_0 n', `5100ae`],
    ['invalid key size', `51${push('02' + '11'.repeat(31))}51ae`],
    ['bad key prefix', `51${push('05' + '11'.repeat(32))}51ae`],
    ['extra opcode before CHECKMULTISIG', `51${push(KEY33)}5175ae`],
    ['CHECKMULTISIGVERIFY', `51${push(KEY33)}51af`],
    ['truncated key push swallowing the end', `5121${KEY33.slice(0, 60)}ae`],
    ['key push ending in 0xae with nothing after', `5121${KEY33.slice(0, 64)}ae`],
    ['just CHECKMULTISIG', 'ae'],
  ])('%s → nonstandard', (_n, s) => {
    expect(solve(s)).toEqual({ type: 'nonstandard' });
  });
});

describe('nonstandard', () => {
  it.each([
    ['empty script', ''],
    ['OP_TRUE', '51'],
    ['hash puzzle', `a820${'00'.repeat(32)}87`],
    ['truncated push', '4c'],
  ])('%s', (_n, s) => {
    const solved = solve(s);
    expect(solved).toEqual({ type: 'nonstandard' });
    expect(solved.reqSigs).toBeUndefined();
    expect(solved.destinations).toBeUndefined();
  });
});
