// Property tests (fast-check) for the decoder's robustness contract in ./properties.ts. Kept to a
// few thousand runs so CI stays fast; test/long/fuzz-long.ts runs the same properties a million times.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { DecodeError } from '../../src/codec/errors.js';
import { decodeTransaction } from '../../src/codec/tx/transaction.js';
import { realBlocks } from './corpus.js';
import { checkBlock, checkTransaction, compactSizeBytes, fuzzCorpus, mutatedTransaction, randomTransactionBytes } from './properties.js';

const corpus = fuzzCorpus();
// A fixed seed keeps CI reproducible; the long run uses random seeds.
const params = { seed: 0x5eed, numRuns: 1500 };

describe('decoder robustness (fast-check)', () => {
  it('the corpus covers every transaction version', () => {
    const versions = new Set(corpus.map((b) => decodeTransaction(b).data.format));
    expect([...versions].sort()).toEqual(['v1', 'v2', 'v3', 'v4', 'v5']);
  });

  it('mutated real transactions: decode cleanly or throw a known DecodeError', () => {
    const outcomes = { decoded: 0, rejected: 0 };
    fc.assert(
      fc.property(mutatedTransaction(corpus), (bytes) => {
        outcomes[checkTransaction(bytes)]++;
      }),
      params,
    );
    // both paths must actually be exercised
    expect(outcomes.decoded).toBeGreaterThan(50);
    expect(outcomes.rejected).toBeGreaterThan(50);
  });

  it('random bytes behind every known header', () => {
    fc.assert(
      fc.property(randomTransactionBytes(), (bytes) => void checkTransaction(bytes)),
      { ...params, numRuns: 1000 },
    );
  });

  it('mutated real blocks', () => {
    const blocks = realBlocks().filter((b) => b.bytes.length < 50_000);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: blocks.length - 1 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (i, positions, truncate) => {
          const b = blocks[i]!.bytes;
          const out = truncate ? b.subarray(0, positions[0]! % b.length) : b.slice();
          if (!truncate) for (const p of positions) out[p % out.length]! ^= 1 << (p % 8);
          checkBlock(out);
        },
      ),
      { ...params, numRuns: 300 },
    );
  });
});

describe('claimed lengths never drive allocation', () => {
  // Each count/length prefix below claims up to MAX_SIZE (0x02000000) items or bytes in a tiny
  // input. Decoding must stop at the first missing byte instead of reserving space up front: we
  // check the error position and that neither the JS heap nor ArrayBuffers grew by anything
  // close to what the claim would need (≥ 32 MiB).
  const claims: [string, string][] = [
    ['vin count', '01000000' + 'fe00000002'],
    ['vout count', '01000000' + '00' + 'fe00000002'],
    ['scriptSig length', '01000000' + '01' + '00'.repeat(36) + 'fe00000002'],
    ['scriptPubKey length', '01000000' + '00' + '01' + '00'.repeat(8) + 'fe00000002'],
    ['JoinSplit count', '02000000' + '00' + '00' + '00000000' + 'fe00000002'],
    ['v4 Sapling spend count', '0400008085202f89' + '0000' + '00'.repeat(8) + '00'.repeat(8) + 'fe00000002'],
    ['v5 Sapling output count', '050000800a27a726b4d0d6c2' + '00'.repeat(8) + '0000' + '00' + 'fe00000002'],
    ['Orchard action count', '050000800a27a726b4d0d6c2' + '00'.repeat(8) + '0000' + '0000' + 'fe00000002'],
    ['block transaction count', '00'.repeat(140) + '00' + 'fe00000002'],
  ];
  for (const [name, hex] of claims) {
    it(`${name}: 0x02000000 claimed in ${hex.length / 2} bytes`, () => {
      const input = Uint8Array.from(Buffer.from(hex, 'hex'));
      const before = process.memoryUsage();
      let err: unknown;
      try {
        if (name.startsWith('block')) decodeBlock(input);
        else decodeTransaction(input);
      } catch (e) {
        err = e;
      }
      const after = process.memoryUsage();
      expect(err).toBeInstanceOf(DecodeError);
      expect((err as DecodeError).reason).toBe('end-of-data');
      expect((err as DecodeError).offset).toBe(input.length);
      expect(after.heapUsed - before.heapUsed).toBeLessThan(16 * 1024 * 1024);
      expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(16 * 1024 * 1024);
    });
  }

  it('random CompactSize values in the vin-count position: canonical ≤ MAX_SIZE → end of data, else the exact rule', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.constantFrom<1 | 3 | 5 | 9>(1, 3, 5, 9), (n, width) => {
        const max = width === 1 ? 0xfcn : width === 3 ? 0xffffn : width === 5 ? 0xffffffffn : (1n << 64n) - 1n;
        const value = n % (max + 1n);
        const cs = compactSizeBytes(value, width);
        const input = new Uint8Array(4 + cs.length);
        input.set([1, 0, 0, 0]);
        input.set(cs, 4);
        let err: DecodeError | undefined;
        try {
          decodeTransaction(input);
        } catch (e) {
          err = e as DecodeError;
        }
        expect(err).toBeInstanceOf(DecodeError);
        const minimal = width === 1 ? 0n : width === 3 ? 0xfdn : width === 5 ? 0x10000n : 1n << 32n;
        if (value < minimal) expect(err!.reason).toBe('non-canonical-compactsize');
        else if (value > 0x02000000n) expect(err!.reason).toBe('compactsize-too-large');
        else expect(err!.reason).toBe('end-of-data'); // the inputs (or, for 0, the vout count) are missing
        if (err!.reason !== 'end-of-data') expect(err!.offset).toBe(4);
      }),
      { ...params, numRuns: 1000 },
    );
  });
});
