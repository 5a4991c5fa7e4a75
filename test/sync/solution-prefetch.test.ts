// The importer's Equihash prefetcher (sync/solution-prefetch.ts): the importer checks solutions
// ahead on worker threads and hands the verdicts to addBlock; the store takes the verdict it is
// handed (it owns no thread) and accepts and refuses exactly what a store checking inline does.
import { afterAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import type { EquihashResult } from '../../src/crypto/equihash.js';
import { openChainStore, ChainStore } from '../../src/store/chain.js';
import { BlockRejectedError } from '../../src/store/errors.js';
import { importBlkFiles } from '../../src/sync/blk.js';
import { SolutionPrefetcher } from '../../src/sync/solution-prefetch.js';
import { blkRecords, mainnetChain, tempDir } from '../support/store.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A block whose solution has one bit flipped (the header's 140 bytes, a 3-byte size, then the solution). */
function withFlippedSolutionBit(block: Uint8Array, at: number): Uint8Array {
  const copy = Uint8Array.from(block);
  copy[140 + 3 + at]! ^= 0x02;
  return copy;
}

describe("an importer's solution prefetcher", () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanup) await c();
  });
  const open = async (label: string): Promise<ChainStore> => {
    const dir = tempDir(label);
    const store = await openChainStore({ datadir: dir.path, network: MAINNET });
    cleanup.push(async () => {
      await store.close();
      dir.remove();
    });
    return store;
  };
  const prefetcher = (): SolutionPrefetcher => {
    const p = new SolutionPrefetcher(MAINNET, 1);
    cleanup.push(() => p.close());
    return p;
  };

  it('hands each verdict to addBlock once: real mainnet blocks are connected', async () => {
    const store = await open('prefetch-handed');
    const solutions = prefetcher();
    const chain = mainnetChain();
    for (const b of chain) solutions.prefetch(b);
    await solutions.settled();
    for (const b of chain) expect((await store.addBlock(b, { solutions })).status).toBe('connected');
    // Every verdict was taken by its block.
    for (const b of chain) expect(solutions.take(ChainStore.hashOf(b))).toBeNull();
  });

  it('refuses a damaged solution with the message an inline check gives', async () => {
    const chain = mainnetChain();
    const bad = withFlippedSolutionBit(chain[5]!, 700);
    const inline = await open('prefetch-inline');
    const handed = await open('prefetch-bad');
    const solutions = prefetcher();
    for (const b of chain.slice(0, 5)) {
      await inline.addBlock(b);
      await handed.addBlock(b);
    }
    solutions.prefetch(bad);
    const expected = await inline.addBlock(bad).catch((e: unknown) => e);
    const got = await handed.addBlock(bad, { solutions }).catch((e: unknown) => e);
    expect(got).toBeInstanceOf(BlockRejectedError);
    expect((got as Error).message).toMatch(/rejected \(invalid-solution\)/);
    expect((got as Error).message).toBe((expected as Error).message);
    expect((await handed.addBlock(chain[5]!, { solutions })).status).toBe('connected');
  });

  it('makes the store decide by the verdict it is handed, not by a check of its own', async () => {
    const chain = mainnetChain();
    const store = await open('prefetch-verdict');
    for (const b of chain.slice(0, 3)) await store.addBlock(b);
    const target = ChainStore.hashOf(chain[3]!);
    const refusing = {
      take: (hash: Uint8Array): Promise<EquihashResult | null> | null =>
        Buffer.from(hash).equals(Buffer.from(target))
          ? Promise.resolve({ ok: false, reason: 'invalid-collision', detail: 'handed in' } satisfies EquihashResult)
          : null,
    };
    const e = await store.addBlock(chain[3]!, { solutions: refusing }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BlockRejectedError);
    expect((e as Error).message).toMatch(/invalid-solution/);
    // Without that verdict the same real block is checked inline and accepted.
    expect((await store.addBlock(chain[3]!)).status).toBe('connected');
  });

  it('ignores bytes that are not a header of its network', async () => {
    const solutions = prefetcher();
    solutions.prefetch(Uint8Array.of(1, 2, 3));
    const store = await open('prefetch-foreign');
    for (const b of mainnetChain().slice(0, 3)) expect((await store.addBlock(b, { solutions })).status).toBe('connected');
  });

  it('is fed by the blk-file importer, which hands its verdicts to the store', async () => {
    const chain = mainnetChain();
    const dir = tempDir('prefetch-blk');
    cleanup.push(async () => dir.remove());
    const blocks = join(dir.path, 'blocks');
    mkdirSync(blocks);
    writeFileSync(join(blocks, 'blk00000.dat'), blkRecords(MAINNET.magic, chain));
    const store = await open('prefetch-blk-store');
    const solutions = prefetcher();
    const taken: string[] = [];
    const watched = {
      prefetch: (b: Uint8Array) => solutions.prefetch(b),
      take: (hash: Uint8Array) => {
        const v = solutions.take(hash);
        if (v) taken.push(Buffer.from(hash).toString('hex'));
        return v;
      },
    } as unknown as SolutionPrefetcher;
    const result = await importBlkFiles(store, blocks, { progress: 'silent', solutions: watched });
    expect(result.added).toBe(chain.length);
    expect((await store.tip())!.height).toBe(chain.length - 1);
    // Every block after the first was read ahead of its turn and added with its verdict.
    expect(taken.length).toBeGreaterThanOrEqual(chain.length - 1);
  });
});
