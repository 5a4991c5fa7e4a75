// CPubKey::RecoverCompact and IsFullyValid (crypto/secp256k1.ts) against zcashd's
// src/test/key_tests.cpp: its deterministic compact signatures recover its test addresses.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { encodeTransparentAddress } from '../../src/codec/script/address.js';
import { isFullyValidPubkey, recoverCompact } from '../../src/crypto/secp256k1.js';

const hex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));
const sha256d = (b: Uint8Array): Uint8Array => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();
const hash160 = (b: Uint8Array): Uint8Array => createHash('ripemd160').update(createHash('sha256').update(b).digest()).digest();
const addressOf = (key: Uint8Array): string => encodeTransparentAddress('p2pkh', hash160(key), MAINNET);

describe('RecoverCompact (key_tests.cpp, "Very deterministic message")', () => {
  const hashMsg = sha256d(Buffer.from('Very deterministic message'));
  it.each([
    [
      '1c5dbbddda71772d95ce91cd2d14b592cfbc1dd0aabd6a394b6c2d377bbe59d31d14ddda21494a4e221f0824f0b8b924c43fa43c0ad57dccdaa11f81a6bd4582f6',
      't1h8SqgtM3QM5e2M8EzhhT1yL2PXXtA6oqe',
      65,
    ],
    [
      '205dbbddda71772d95ce91cd2d14b592cfbc1dd0aabd6a394b6c2d377bbe59d31d14ddda21494a4e221f0824f0b8b924c43fa43c0ad57dccdaa11f81a6bd4582f6',
      't1ffus9J1vhxvFqLoExGBRPjE7BcJxiSCTC',
      33,
    ],
    [
      '1c52d8a32079c11e79db95af63bb9600c5b04f21a9ca33dc129c2bfa8ac9dc1cd561d8ae5e0f6c1a16bde3719c64c2fd70e404b6428ab9a69566962e8771b5944d',
      't1Xxa5ZVPKvs9bGMn7aWTiHjyHvR31XkUst',
      65,
    ],
    [
      '2052d8a32079c11e79db95af63bb9600c5b04f21a9ca33dc129c2bfa8ac9dc1cd561d8ae5e0f6c1a16bde3719c64c2fd70e404b6428ab9a69566962e8771b5944d',
      't1VJL2dPUyXK7avDRGqhqQA5bw2eEMdhyg6',
      33,
    ],
  ])('%s recovers %s', (sig, address, keyLength) => {
    const key = recoverCompact(hashMsg, hex(sig));
    expect(key).toHaveLength(keyLength);
    expect(addressOf(key!)).toBe(address);
    expect(isFullyValidPubkey(key!)).toBe(true);
    // Another message recovers another key.
    expect(addressOf(recoverCompact(sha256d(Buffer.from('other')), hex(sig))!)).not.toBe(address);
  });

  it('refuses signatures of the wrong size or with r, s out of range', () => {
    expect(recoverCompact(hashMsg, new Uint8Array(64))).toBeNull();
    expect(recoverCompact(hashMsg, new Uint8Array(66))).toBeNull();
    expect(recoverCompact(hashMsg, Uint8Array.from([27, ...new Uint8Array(64)]))).toBeNull();
    expect(recoverCompact(hashMsg, Uint8Array.from([27, ...new Uint8Array(64).fill(0xff)]))).toBeNull();
  });
});

describe('IsFullyValid', () => {
  const g = '79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';
  const gy = '483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8'; // even
  it.each([
    ['02' + g, true],
    ['03' + g, true],
    ['04' + g + gy, true],
    ['06' + g + gy, true], // hybrid, prefix matches the even y
    ['07' + g + gy, false],
    ['05' + g + gy, false],
    ['02' + g + '00', false],
    ['02' + 'ff'.repeat(32), false],
    ['', false],
  ])('%s → %s', (key, valid) => expect(isFullyValidPubkey(hex(key))).toBe(valid));
});
