// The synthetic regtest chains (test-vectors/regtest-reorg) pass every header rule zcashd applies
// at import — CheckBlockHeader (Equihash (48, 5), proof of work), ContextualCheckBlockHeader with
// the block's real ancestors, the BIP34 coinbase height — and the Equihash solver that mined them
// finds the real regtest genesis solution.
import { describe, expect, it } from 'vitest';
import { NEXT_WORK_WINDOW, type HeaderTiming } from '../../src/chain/difficulty.js';
import { checkBlockHeader, checkCoinbaseHeight, contextualCheckBlockHeader } from '../../src/chain/header-rules.js';
import { REGTEST } from '../../src/chain/network.js';
import { decodeBlock, HEADER_PREFIX_SIZE, type Block } from '../../src/codec/block.js';
import { toHex, toHexReversed } from '../../src/codec/hex.js';
import { equihashHashers, verifyEquihash } from '../../src/crypto/equihash.js';
import { solveEquihash } from '../../test-vectors/equihash-solver.js';
import { regtestReorg } from '../support/store.js';

const v = regtestReorg();
const FORK = v.manifest.forkHeight;
const base = v.base.map((b) => decodeBlock(b));
const branch = v.branch.map((b) => decodeBlock(b));
/** The branch as a full chain from genesis: the shared base blocks, then its own. */
const branchChain = [...base.slice(0, FORK + 1), ...branch];

const timing = (b: Block, height: number): HeaderTiming => ({ height, time: b.header.time, bits: b.header.bits });

/** Flips one bit of the byte at `offset` of a block's bytes and decodes the result. */
function mutated(bytes: Uint8Array, offset: number): Block {
  const copy = bytes.slice();
  copy[offset]! ^= 0x01;
  return decodeBlock(copy);
}

describe('regtest-reorg vectors pass the header rules', () => {
  it('the files match the manifest: heights, hashes, parent links, the real genesis', () => {
    expect(base.map((b) => b.hashHex)).toEqual(v.manifest.base.map((m) => m.hash));
    expect(branch.map((b) => b.hashHex)).toEqual(v.manifest.branch.map((m) => m.hash));
    expect(v.manifest.base.map((m) => m.height)).toEqual(base.map((_, h) => h));
    expect(v.manifest.branch.map((m) => m.height)).toEqual(branch.map((_, i) => FORK + 1 + i));
    expect(base[0]!.hashHex).toBe(REGTEST.genesisHash);
    for (const chain of [base, branchChain]) {
      for (let h = 1; h < chain.length; h++) expect(toHexReversed(chain[h]!.header.prevHash)).toBe(chain[h - 1]!.hashHex);
    }
  });

  for (const [name, chain] of [
    ['base', base],
    ['branch', branchChain],
  ] as const) {
    it(`${name}: every block passes CheckBlockHeader, ContextualCheckBlockHeader and the coinbase height`, () => {
      const first = name === 'base' ? 0 : FORK + 1;
      for (let height = first; height < chain.length; height++) {
        const block = chain[height]!;
        expect(checkBlockHeader(block.header, REGTEST, height), `CheckBlockHeader at ${name} ${height}`).toBeNull();
        const ancestors = chain
          .slice(Math.max(0, height - NEXT_WORK_WINDOW), height)
          .map((b, i, all) => timing(b, height - all.length + i));
        // Checked as if it arrived right when it was mined: the local-clock limit is then 2 hours ahead.
        const ctx = { network: REGTEST, chain: ancestors, now: block.header.time };
        expect(contextualCheckBlockHeader(block.header, ctx), `ContextualCheckBlockHeader at ${name} ${height}`).toBeNull();
        expect(checkCoinbaseHeight(block, height, REGTEST), `coinbase height at ${name} ${height}`).toBeNull();
      }
    });
  }

  it('one flipped bit in the nonce or the solution fails as invalid-solution', () => {
    const height = 25;
    const bytes = v.base[height]!;
    // 4-byte version … 32-byte nonce (the last 32 prefix bytes), CompactSize(36), the solution.
    const nonceByte = HEADER_PREFIX_SIZE - 5;
    for (const offset of [nonceByte, HEADER_PREFIX_SIZE + 1, HEADER_PREFIX_SIZE + 1 + 17, HEADER_PREFIX_SIZE + 36]) {
      const err = checkBlockHeader(mutated(bytes, offset).header, REGTEST, height);
      expect(err?.rule, `bit flipped at byte ${offset}`).toBe('invalid-solution');
    }
  });

  it('a wrong timestamp or bits fails the contextual rules', () => {
    const height = 20;
    const block = base[height]!;
    const ancestors = base.slice(height - NEXT_WORK_WINDOW + 8, height).map((b, i, all) => timing(b, height - all.length + i));
    const ctx = { network: REGTEST, chain: ancestors, now: block.header.time };
    const earlier = { ...block.header, time: base[height - 6]!.header.time };
    expect(contextualCheckBlockHeader(earlier, ctx)?.rule).toBe('time-too-old');
    const easier = { ...block.header, bits: 0x200f0f0e };
    expect(contextualCheckBlockHeader(easier, ctx)?.rule).toBe('bad-diffbits');
  });
});

describe('Equihash (48, 5) solver', () => {
  const genesis = base[0]!;
  const prefix = v.base[0]!.subarray(0, HEADER_PREFIX_SIZE);

  it('finds the real regtest genesis solution among the solutions of its header', () => {
    const solutions = solveEquihash(48, 5, prefix).map(toHex);
    expect(solutions).toContain(toHex(genesis.header.solution));
  });

  it('returns only solutions both verifier backends accept, sorted and distinct', () => {
    let total = 0;
    for (let attempt = 0; attempt < 40; attempt++) {
      const input = prefix.slice();
      input[HEADER_PREFIX_SIZE - 1] = attempt;
      const solutions = solveEquihash(48, 5, input);
      total += solutions.length;
      for (const s of solutions) {
        expect(verifyEquihash(48, 5, input, s)).toEqual({ ok: true });
        expect(verifyEquihash(48, 5, input, s, equihashHashers.noble)).toEqual({ ok: true });
      }
      const hexes = solutions.map(toHex);
      expect(new Set(hexes).size).toBe(hexes.length);
      expect([...hexes].sort()).toEqual(hexes);
    }
    // About 0.75 solutions per input: 40 inputs without a single one would mean a broken solver.
    expect(total).toBeGreaterThan(10);
  });

  it('a valid solution whose hash misses the target fails proof of work (high-hash), not Equihash', () => {
    const bytes = v.base[7]!.slice();
    const header = bytes.subarray(0, HEADER_PREFIX_SIZE + 1 + 36);
    let seen = 0;
    for (let attempt = 0; attempt < 200 && seen === 0; attempt++) {
      header[HEADER_PREFIX_SIZE - 2] = attempt;
      for (const s of solveEquihash(48, 5, header.subarray(0, HEADER_PREFIX_SIZE))) {
        header.set(s, HEADER_PREFIX_SIZE + 1);
        const err = checkBlockHeader(decodeBlock(bytes).header, REGTEST, 7);
        if (err === null) continue;
        expect(err.rule).toBe('high-hash');
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(0);
  });
});
