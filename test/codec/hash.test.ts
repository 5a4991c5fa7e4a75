import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { blake2b as nobleBlake2b } from '@noble/hashes/blake2.js';
import { blake2b256, blake2b256Of, personalization, sha256, sha256d, sha256dPair } from '../../src/crypto/hash.js';
import { decodeBlock } from '../../src/codec/block.js';
import { zip244TxId } from '../../src/codec/tx/zip244.js';
import { readFacts, readHexVector } from '../support/vectors.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const nodeSha256 = (b: Uint8Array) => createHash('sha256').update(b).digest();

describe('SHA-256 helpers', () => {
  it('match FIPS 180-2 and OpenSSL via createHash', () => {
    // "abc" (FIPS 180-2 example)
    expect(hex(sha256(Buffer.from('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000, size: 'max' }), (b) => {
        expect(hex(sha256(b))).toBe(hex(nodeSha256(b)));
        expect(hex(sha256d(b))).toBe(hex(nodeSha256(nodeSha256(b))));
      }),
      { numRuns: 300 },
    );
  });

  it('sha256dPair hashes the 64-byte concatenation and does not alias its result', () => {
    const a = new Uint8Array(32).fill(1);
    const b = new Uint8Array(32).fill(2);
    const first = sha256dPair(a, b);
    const second = sha256dPair(b, a);
    expect(hex(first)).toBe(hex(nodeSha256(nodeSha256(Buffer.concat([a, b])))));
    expect(hex(first)).not.toBe(hex(second)); // the first result was not overwritten by scratch reuse
    expect(() => sha256dPair(a, b.subarray(1))).toThrow(RangeError);
  });
});

describe('personalised BLAKE2b-256 (wasm compression driven from JS)', () => {
  const reference = (personal: Uint8Array, parts: Uint8Array[]) =>
    nobleBlake2b(Buffer.concat(parts), { dkLen: 32, personalization: personal });

  it('equals @noble/hashes for any split of any input, around every block boundary', () => {
    const personal = personalization('ZTxIdOrcActMHash');
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 400, size: 'max' }), { maxLength: 8 }), (parts) => {
        expect(hex(blake2b256Of(personal, ...parts))).toBe(hex(reference(personal, parts)));
        const inc = blake2b256(personal);
        for (const p of parts) inc.update(p);
        expect(hex(inc.digest())).toBe(hex(reference(personal, parts)));
      }),
      { numRuns: 500 },
    );
    for (const n of [0, 1, 127, 128, 129, 255, 256, 257, 1024]) {
      const b = new Uint8Array(n).map((_, i) => i * 31);
      expect(hex(blake2b256Of(personal, b)), `length ${n}`).toBe(hex(reference(personal, [b])));
    }
  });

  it('hashes inputs larger than the module memory (it grows) and interleaved incremental states', () => {
    const personal = personalization('ZcashTxHash_', 0xc2d6d0b4);
    const big = new Uint8Array(300_000).map((_, i) => i % 251);
    expect(hex(blake2b256Of(personal, big, big.subarray(5)))).toBe(hex(reference(personal, [big, big.subarray(5)])));
    const p1 = personalization('ZTxIdSOutC__Hash');
    const p2 = personalization('ZTxIdSOutN__Hash');
    const c = blake2b256(p1);
    const n = blake2b256(p2);
    const x = new Uint8Array(200).fill(9);
    c.update(x);
    n.update(x.subarray(3));
    c.update(x.subarray(100));
    expect(hex(n.digest())).toBe(hex(reference(p2, [x.subarray(3)])));
    expect(hex(c.digest())).toBe(hex(reference(p1, [x, x.subarray(100)])));
  });
});

describe('ZIP-244 txid from decoded fields or from the wire header', () => {
  it('agree with each other and with facts.json on a real NU5 block', () => {
    const block = decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex'));
    const v5 = block.transactions.filter((t) => t.data.format === 'v5');
    expect(v5.length).toBeGreaterThan(0);
    const facts = readFacts();
    const factTxids = JSON.stringify(facts);
    for (const tx of v5) {
      const fromFields = Buffer.from(zip244TxId(tx.data)).reverse().toString('hex');
      expect(Buffer.from(zip244TxId(tx.data, tx.bytes)).reverse().toString('hex')).toBe(fromFields);
      expect(tx.txidHex).toBe(fromFields);
      expect(factTxids).toContain(fromFields);
    }
  });
});
