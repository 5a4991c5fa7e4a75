// Transparent address encoding/decoding (transaction-format.md §5) against zcashd's base58 vectors.
import { describe, expect, it } from 'vitest';
import { MAINNET, REGTEST, TESTNET, type NetworkParams } from '../../src/chain/network.js';
import { decodeTransparentAddress, encodeTransparentAddress, solveScript } from '../../src/codec/script/index.js';
import { readJsonVector } from '../support/vectors.js';

const hex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));
const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');

type ValidRow = [string, string, { isPrivkey: boolean; chain: 'mainnet' | 'testnet' }];
const validRows = readJsonVector<ValidRow[]>('zcashd', 'base58_keys_valid.json');
const addressRows = validRows.filter((r) => !r[2].isPrivkey);
const invalidRows = readJsonVector<[string][]>('zcashd', 'base58_keys_invalid.json');

const networksFor = (chain: 'mainnet' | 'testnet'): NetworkParams[] => (chain === 'mainnet' ? [MAINNET] : [TESTNET, REGTEST]);

describe('base58_keys_valid.json addresses', () => {
  it('has the expected number of address rows', () => {
    expect(addressRows).toHaveLength(26);
    expect(validRows).toHaveLength(50);
  });

  it.each(addressRows)('%s ← scriptPubKey %s', (address, scriptHex, meta) => {
    const solved = solveScript(hex(scriptHex));
    expect(['pubkeyhash', 'scripthash']).toContain(solved.type);
    expect(solved.reqSigs).toBe(1);
    const [dest] = solved.destinations!;
    for (const network of networksFor(meta.chain)) {
      expect(encodeTransparentAddress(dest!.kind, dest!.hash, network)).toBe(address);
      const decoded = decodeTransparentAddress(address, network);
      expect(decoded).not.toBeNull();
      expect(decoded!.kind).toBe(dest!.kind);
      expect(hexOf(decoded!.hash)).toBe(hexOf(dest!.hash));
    }
    // The other network's prefixes never match.
    const other = meta.chain === 'mainnet' ? TESTNET : MAINNET;
    expect(decodeTransparentAddress(address, other)).toBeNull();
  });

  it('private keys (WIF) are not transparent addresses on any network', () => {
    for (const [key] of validRows.filter((r) => r[2].isPrivkey)) {
      for (const network of [MAINNET, TESTNET, REGTEST]) expect(decodeTransparentAddress(key, network)).toBeNull();
    }
  });
});

describe('base58_keys_invalid.json', () => {
  it('has 50 rows, none of which decodes on any network', () => {
    expect(invalidRows).toHaveLength(50);
    for (const [s] of invalidRows) {
      for (const network of [MAINNET, TESTNET, REGTEST]) expect(decodeTransparentAddress(s, network)).toBeNull();
    }
  });
});

describe('worked-example addresses (§3.10, §5)', () => {
  const keyHash = hex('15fded3c758615657163c168dbc055957a08f8d2');
  const scriptHash = hex('7d46a730d31f97b1930d3368a967c309bd4d136a');
  it.each([
    [MAINNET, 't1KstPVzcNEK4ZeauQ6cogoqxQBMDSiRnGr', 't3Vz22vK5z2LcKEdg16Yv4FFneEL1zg9ojd'],
    [TESTNET, 'tmBidiLV1ktpZhtnM4pvYYUWi1AS2tr2Ka9', 't2HyD5bRDrUwyrwDQvqYxbsSRkiZBubx194'],
    [REGTEST, 'tmBidiLV1ktpZhtnM4pvYYUWi1AS2tr2Ka9', 't2HyD5bRDrUwyrwDQvqYxbsSRkiZBubx194'],
  ])('%#: %s / %s', (network, p2pkh, p2sh) => {
    expect(encodeTransparentAddress('p2pkh', keyHash, network)).toBe(p2pkh);
    expect(encodeTransparentAddress('p2sh', scriptHash, network)).toBe(p2sh);
    expect(decodeTransparentAddress(p2pkh, network)).toEqual({ kind: 'p2pkh', hash: keyHash });
    expect(decodeTransparentAddress(p2sh, network)).toEqual({ kind: 'p2sh', hash: scriptHash });
  });

  it('stays in the §5 ranges and is 35 characters for all-zero and all-ones hashes', () => {
    for (const fill of [0x00, 0xff]) {
      const h = new Uint8Array(20).fill(fill);
      const m1 = encodeTransparentAddress('p2pkh', h, MAINNET);
      const m3 = encodeTransparentAddress('p2sh', h, MAINNET);
      const tm = encodeTransparentAddress('p2pkh', h, TESTNET);
      const t2 = encodeTransparentAddress('p2sh', h, TESTNET);
      for (const a of [m1, m3, tm, t2]) expect(a).toHaveLength(35);
      expect([m1.slice(0, 2), m3.slice(0, 2), tm.slice(0, 2), t2.slice(0, 2)]).toEqual(['t1', 't3', 'tm', 't2']);
    }
    expect(encodeTransparentAddress('p2pkh', new Uint8Array(20), MAINNET).startsWith('t1Hsc1LR8y')).toBe(true);
    expect(encodeTransparentAddress('p2sh', new Uint8Array(20).fill(0xff), TESTNET).startsWith('t2VtQxfK16')).toBe(true);
  });

  it('returns the same (memoized) string on repeat and distinguishes networks', () => {
    const a = encodeTransparentAddress('p2pkh', keyHash, MAINNET);
    expect(encodeTransparentAddress('p2pkh', keyHash.slice(), MAINNET)).toBe(a);
    expect(encodeTransparentAddress('p2pkh', keyHash, TESTNET)).not.toBe(a);
    expect(encodeTransparentAddress('p2sh', keyHash, MAINNET)).not.toBe(a);
  });
});

describe('bad input', () => {
  it('rejects hashes that are not 20 bytes with a specific error', () => {
    expect(() => encodeTransparentAddress('p2pkh', new Uint8Array(19), MAINNET)).toThrow(
      'transparent address hash must be 20 bytes, got 19',
    );
  });

  it.each([
    ['empty', ''],
    ['checksum flipped', 't1KstPVzcNEK4ZeauQ6cogoqxQBMDSiRnGs'],
    ['truncated', 't1KstPVzcNEK4ZeauQ6cogoqxQBMDSiRnG'],
    ['non-base58 char 0', 't1KstPVzcNEK4ZeauQ6cogoqxQBMDSiRn0r'],
    ['inner space', 't1KstPVzcNEK4Zea uQ6cogoqxQBMDSiRnGr'],
    ['Sapling address', 'zs1z7rejlpsa98s2rrrfkwmaxu53e4ue0ulcrw0h4x5g8jl04tak0d3mm47vdtahatqrlkngh9sly'],
    ['long junk', '1'.repeat(10_000)],
    ['unicode', 't1KstPVzcNEK4ZeauQ6cogoqxQBMDSiRnGré'],
  ])('%s → null', (_n, s) => {
    expect(decodeTransparentAddress(s, MAINNET)).toBeNull();
  });

  it('like zcashd (C-string, isspace-trimmed) accepts surrounding whitespace and stops at NUL', () => {
    const want = { kind: 'p2pkh', hash: hex('15fded3c758615657163c168dbc055957a08f8d2') };
    expect(decodeTransparentAddress(' \t t1KstPVzcNEK4ZeauQ6cogoqxQBMDSiRnGr\n', MAINNET)).toEqual(want);
    expect(decodeTransparentAddress('t1KstPVzcNEK4ZeauQ6cogoqxQBMDSiRnGr\0junk', MAINNET)).toEqual(want);
  });

  it('rejects non-string input without throwing', () => {
    expect(decodeTransparentAddress(42 as unknown as string, MAINNET)).toBeNull();
  });
});
