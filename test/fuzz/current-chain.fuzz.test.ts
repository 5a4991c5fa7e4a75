// The decoder's robustness contract (./properties.ts) on today's chain: real v4, v5 and v6
// transactions and blocks from both sides of NU6.3 (nu6.3/), read as today's chain's acceptance
// reads them. A fixed seed and a budget counted in inputs, so a run does the same work on any
// machine; test/long/fuzz-long.ts runs the same properties ten million times.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { decodeTransaction } from '../../src/codec/tx/transaction.js';
import { currentChainBlocks } from './corpus.js';
import { checkBlock, checkTransaction, currentChainFuzzCorpus, mutatedTransaction, randomTransactionBytes } from './properties.js';

const corpus = currentChainFuzzCorpus();
const v6Headers = [
  ...new Set(corpus.filter((b) => decodeTransaction(b, CURRENT_CHAIN_ACCEPTANCE).data.format === 'v6').map((b) => b.subarray(0, 12))),
];
const params = { seed: 0x6e0063, numRuns: 1500 };

describe("decoder robustness on today's chain (fast-check)", () => {
  it('the corpus holds v4, v5 and v6 transactions of the NU6.3 blocks', () => {
    const versions = new Set(corpus.map((b) => decodeTransaction(b, CURRENT_CHAIN_ACCEPTANCE).data.format));
    expect([...versions].sort()).toEqual(['v4', 'v5', 'v6']);
    expect(v6Headers.length).toBeGreaterThan(0);
  });

  it('mutated real v4, v5 and v6 transactions: decode cleanly or throw a known DecodeError', () => {
    const outcomes = { decoded: 0, rejected: 0 };
    fc.assert(
      fc.property(mutatedTransaction(corpus), (bytes) => {
        outcomes[checkTransaction(bytes, CURRENT_CHAIN_ACCEPTANCE)]++;
      }),
      params,
    );
    expect(outcomes.decoded).toBeGreaterThan(50);
    expect(outcomes.rejected).toBeGreaterThan(50);
  });

  it('random bytes behind every known header, v6 included', () => {
    fc.assert(
      fc.property(randomTransactionBytes(v6Headers), (bytes) => void checkTransaction(bytes, CURRENT_CHAIN_ACCEPTANCE)),
      { ...params, numRuns: 1000 },
    );
  });

  it('mutated real NU6.2 and NU6.3 blocks', () => {
    const blocks = currentChainBlocks().filter((b) => b.bytes.length < 50_000);
    expect(blocks.length).toBeGreaterThan(10);
    // Unmutated, every one decodes and holds to the contract.
    for (const b of blocks) expect([b.label, checkBlock(b.bytes, CURRENT_CHAIN_ACCEPTANCE)]).toEqual([b.label, 'decoded']);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: blocks.length - 1 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (i, positions, truncate) => {
          const b = blocks[i]!.bytes;
          const out = truncate ? b.subarray(0, positions[0]! % b.length) : b.slice();
          if (!truncate) for (const p of positions) out[p % out.length]! ^= 1 << (p % 8);
          checkBlock(out, CURRENT_CHAIN_ACCEPTANCE);
        },
      ),
      { ...params, numRuns: 300 },
    );
    // zcashd v6.12.2's reader refuses a block with v6 transactions as a known DecodeError, never otherwise.
    const withV6 = blocks.find((b) => decodeBlock(b.bytes, CURRENT_CHAIN_ACCEPTANCE).transactions.some((t) => t.data.format === 'v6'))!;
    expect(checkBlock(withV6.bytes)).toBe('rejected');
  });
});
