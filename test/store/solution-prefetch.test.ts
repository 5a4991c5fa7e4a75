// Equihash solutions checked ahead on worker threads (ChainStoreOptions.solutionThreads, as
// `zecrpc import` runs): the threads' verdicts equal verifyEquihash's on every real header,
// valid or damaged, and a store that takes a prefetched verdict accepts and refuses exactly what
// a store checking inline does, with the same error.
import { afterAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlockHeader } from '../../src/codec/block.js';
import { EquihashPool } from '../../src/crypto/equihash-pool.js';
import { verifyEquihash } from '../../src/crypto/equihash.js';
import { checkStoreIntegrity, openChainStore } from '../../src/store/index.js';
import { BlockRejectedError } from '../../src/store/errors.js';
import { mainnetChain, tempDir } from '../support/store.js';
import { readHexVector, realBlockFiles } from '../support/vectors.js';

/** A block whose solution has one bit flipped (the header's 140 bytes, a 3-byte size, then the solution). */
function withFlippedSolutionBit(block: Uint8Array, at: number): Uint8Array {
  const copy = Uint8Array.from(block);
  copy[140 + 3 + at]! ^= 0x02;
  return copy;
}

describe('Equihash on worker threads', () => {
  const pool = new EquihashPool(2);
  afterAll(() => pool.close());

  it('gives verifyEquihash’s verdict on every real header, and on each with a damaged solution', async () => {
    const headers = realBlockFiles().map((f) => decodeBlockHeader(readHexVector(f.file)));
    expect(headers.length).toBeGreaterThan(60);
    for (const [i, h] of headers.entries()) {
      const damaged = h.solution.map((b, j) => (j === (i * 37) % h.solution.length ? b ^ 0x10 : b));
      for (const solution of [h.solution, damaged, h.solution.subarray(0, 1000)]) {
        const input = h.bytes.subarray(0, 140);
        expect(await pool.verify(200, 9, input, solution)).toEqual(verifyEquihash(200, 9, input, solution));
      }
    }
  });
});

describe('a store with solution threads', () => {
  const dirs: ReturnType<typeof tempDir>[] = [];
  afterAll(() => dirs.forEach((d) => d.remove()));
  const open = (solutionThreads: number) => {
    const dir = tempDir('prefetch');
    dirs.push(dir);
    return openChainStore({ datadir: dir.path, network: MAINNET, solutionThreads });
  };

  it('imports real mainnet blocks whose solutions were checked ahead', async () => {
    const store = await open(1);
    const chain = mainnetChain();
    for (const b of chain) store.prefetch(b);
    for (const b of chain) expect((await store.addBlock(b)).status).toBe('connected');
    expect((await store.tip())?.height).toBe(chain.length - 1);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
    await store.close();
  });

  it('refuses a prefetched block with a damaged solution exactly as an inline check does', async () => {
    const chain = mainnetChain();
    const bad = withFlippedSolutionBit(chain[5]!, 700);
    const errors: string[] = [];
    for (const threads of [1, 0]) {
      const store = await open(threads);
      for (const b of chain.slice(0, 5)) await store.addBlock(b);
      store.prefetch(bad);
      const e = await store.addBlock(bad).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(BlockRejectedError);
      errors.push((e as Error).message);
      // The real block is still accepted afterwards.
      expect((await store.addBlock(chain[5]!)).status).toBe('connected');
      await store.close();
    }
    expect(errors[0]).toMatch(/rejected \(invalid-solution\)/);
    expect(errors[0]).toBe(errors[1]);
  });

  it('ignores prefetched bytes that are not a header of its network', async () => {
    const store = await open(1);
    store.prefetch(Uint8Array.of(1, 2, 3));
    store.prefetch(readHexVector('blocks', 'testnet', '1.hex'));
    for (const b of mainnetChain().slice(0, 3)) expect((await store.addBlock(b)).status).toBe('connected');
    await store.close();
  });
});
