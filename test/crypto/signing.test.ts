// The signing half of signrawtransaction: zcashd's WIF private keys (KeyIO::DecodeSecret, the
// keys of its base58_keys_valid.json) and CKey::Sign (RFC 6979, low S, DER), checked against a
// published RFC 6979 secp256k1 signature and by verifying signatures of ZIP 243 signature
// hashes of the test-vector transactions.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAINNET, REGTEST, TESTNET } from '../../src/chain/network.js';
import { decodeSecretKey } from '../../src/codec/script/secret-key.js';
import { decodeTransactionHex } from '../../src/codec/tx/transaction.js';
import { zip243SignatureHash } from '../../src/codec/tx/sighash.js';
import { isValidSecret, publicKeyOf, signDer, verifyDer } from '../../src/crypto/secp256k1.js';
import { readJsonVector } from '../support/vectors.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));
const ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

type KeyRow = [string, string, { isPrivkey: boolean; isCompressed?: boolean; chain: string }];
const keyRows = readJsonVector<KeyRow[]>('zcashd', 'base58_keys_valid.json').filter((r) => r[2].isPrivkey);

/** r and s of a DER signature. */
function derRS(der: Uint8Array): { r: bigint; s: bigint } {
  expect(der[0]).toBe(0x30);
  const rLen = der[3]!;
  const r = BigInt('0x' + hex(der.subarray(4, 4 + rLen)));
  const sLen = der[5 + rLen]!;
  const s = BigInt('0x' + hex(der.subarray(6 + rLen, 6 + rLen + sLen)));
  return { r, s };
}

describe('WIF private keys', () => {
  it("decodes every private key of zcashd's base58_keys_valid.json for its network, and for no other", () => {
    expect(keyRows.length).toBe(24);
    for (const [wif, secret, meta] of keyRows) {
      const network = meta.chain === 'mainnet' ? MAINNET : TESTNET;
      const other = meta.chain === 'mainnet' ? TESTNET : MAINNET;
      const key = decodeSecretKey(wif, network);
      expect(key && { secret: hex(key.secret), compressed: key.compressed }).toEqual({ secret, compressed: meta.isCompressed === true });
      expect(isValidSecret(key!.secret)).toBe(true);
      expect(decodeSecretKey(wif, other)).toBeNull();
      if (meta.chain === 'testnet') expect(decodeSecretKey(wif, REGTEST)).not.toBeNull();
    }
  });

  it('refuses addresses, a flipped character and a compressed flag other than 1', () => {
    expect(decodeSecretKey('t1T8yaLVhNqxA5KJcmiqqFN88e8DNp2PBfF', MAINNET)).toBeNull();
    const wif = keyRows.find((r) => r[2].chain === 'mainnet' && r[2].isCompressed)![0];
    expect(decodeSecretKey(wif.slice(0, -1) + (wif.endsWith('a') ? 'b' : 'a'), MAINNET)).toBeNull();
    expect(decodeSecretKey('', MAINNET)).toBeNull();
  });
});

describe('CKey::Sign', () => {
  it('gives RFC 6979\'s deterministic signature: key 1, SHA-256 of "Satoshi Nakamoto"', () => {
    const secret = bytes('00'.repeat(31) + '01');
    const hash = createHash('sha256').update('Satoshi Nakamoto').digest();
    const { r, s } = derRS(signDer(hash, secret));
    expect(r.toString(16)).toBe('934b1ea10a4b3c1757e2b0c017d0b6143ce3c9a7e6a4a49860d7a6ab210ee3d8');
    expect(s.toString(16)).toBe('2442ce9d2b916064108014783e923ec36b49743e2ffa1c4496f01a512aafd9e5');
  });

  it('signs ZIP 243 signature hashes of the vector transactions with low S, and the signatures verify', () => {
    type Row = [string, string, number, number, number, number, string];
    const rows = (readJsonVector<unknown[]>('zip', 'json', 'zip_0243.json').slice(2) as Row[]).filter((r) => r[2] >= 0);
    expect(rows.length).toBeGreaterThan(0);
    const keys = keyRows.filter((r) => r[2].chain === 'mainnet').map((r) => decodeSecretKey(r[0], MAINNET)!);
    rows.forEach(([txHex, scriptCode, index, hashType, amount, branchId], i) => {
      const hash = zip243SignatureHash(
        decodeTransactionHex(txHex).data,
        { index, scriptCode: bytes(scriptCode), value: amount },
        hashType,
        branchId,
      );
      const key = keys[i % keys.length]!;
      const der = signDer(hash, key.secret);
      expect(derRS(der).s <= ORDER / 2n).toBe(true);
      expect(hex(signDer(hash, key.secret))).toBe(hex(der));
      const pubkey = publicKeyOf(key.secret, key.compressed);
      expect(pubkey.length).toBe(key.compressed ? 33 : 65);
      expect(verifyDer(hash, der, pubkey)).toBe(true);
      const other = Uint8Array.from(hash, (b, k) => (k === 0 ? b ^ 1 : b));
      expect(verifyDer(other, der, pubkey)).toBe(false);
    });
  });
});
