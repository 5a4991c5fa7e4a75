// An era-shaped chain written as blk files (bench/lib/era-chain-file.ts) says in composition.json
// where it activated NU6.2 and NU6.3 and what its headers' solutions are, and the import benches
// take its network from there: its NU6.3 blocks (v6 coinbases, Ironwood actions) import on it and
// are refused on the network of a chain that never activates them. Its headers have mainnet's
// size, with stand-in solutions that only an import leaving solutions unchecked takes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainNetwork, writeEraChain, type ChainFileComposition } from '../../bench/lib/era-chain-file.js';
import { importChainDir } from '../../bench/lib/era-import.js';
import { decodeBlockHeader } from '../../src/codec/block.js';
import { openChainStore } from '../../src/store/index.js';
import { blkBlocks } from '../../bench/lib/coin-read-sim.js';
import { eraNetwork, hasStandInSolutions, mainnetSizeGenesis, MAINNET_SOLUTION_BYTES } from '../../test-vectors/era-chain.js';
import { suiteTempDirs } from '../support/suite-dirs.js';

describe('era chain files', () => {
  const fresh = suiteTempDirs();

  it('record the NU6.3 activation of a chain that reaches its era, and import on that network alone', async () => {
    const dir = fresh('era-file-nu63');
    const written = writeEraChain(
      dir,
      [
        { era: 'nu5', blocks: 2 },
        { era: 'nu63', blocks: 3 },
      ],
      'era-file-test',
    );
    const file = JSON.parse(readFileSync(join(dir, 'composition.json'), 'utf8')) as ChainFileComposition;
    const tip = written.total.blocks - 1;
    // The last three blocks are the nu63 era's, the one before them NU6.2's coinbase-only block.
    expect(file.activations).toEqual({ 'NU6.2': tip - 3, 'NU6.3': tip - 2 });
    expect(file.byEra.nu63!.blocks).toBe(3);
    const network = chainNetwork(dir);
    expect(network.activationHeights['NU6.2']).toBe(tip - 3);
    expect(network.activationHeights['NU6.3']).toBe(tip - 2);
    expect(network.activationHeights['NU6.1']).toBe(1);
    expect(file.solutions).toBe('mainnet-size');
    expect(network.solutionSize).toBe(MAINNET_SOLUTION_BYTES);
    expect(network.genesisHash).toBe(mainnetSizeGenesis().hashHex);
    expect(hasStandInSolutions(network)).toBe(true);

    const run = await importChainDir(dir, fresh('era-file-import'), network, { treeThread: false });
    expect(run.blocks).toBe(written.total.blocks);
    // On a network without NU6.2 or NU6.3 the import stops at NU6.2's block: its coinbase names NU6.2's branch.
    await expect(
      importChainDir(dir, fresh('era-file-wrong-network'), eraNetwork(null, 'mainnet-size'), { treeThread: false }),
    ).rejects.toThrow(/carries consensus branch id 5437f330 \(NU6\.2\), which this node's network upgrade schedule does not include/);
  }, 120_000);

  it('say nothing of NU6.3 in a chain that never reaches it, which imports on a network without it', () => {
    const dir = fresh('era-file-nu5');
    writeEraChain(dir, [{ era: 'nu5', blocks: 2 }], 'era-file-test-nu5');
    expect((JSON.parse(readFileSync(join(dir, 'composition.json'), 'utf8')) as ChainFileComposition).activations).toBeUndefined();
    const network = chainNetwork(dir);
    expect(network).toEqual(eraNetwork(null, 'mainnet-size'));
    expect(network.activationHeights['NU6.2']).toBeNull();
  }, 120_000);

  it("give every header mainnet's size, a stand-in solution that a store checking solutions refuses", async () => {
    const dir = fresh('era-file-headers');
    writeEraChain(dir, [{ era: 'sapling', blocks: 2 }], 'era-file-test-headers');
    const blocks = [...blkBlocks(dir)];
    expect(blocks.length).toBeGreaterThan(2);
    for (const { block } of blocks) {
      // chainparams.cpp's (200, 9): 1,344 bytes; a header of 140 + 3 (CompactSize fd 40 05) + 1,344.
      expect(block.header.solution).toHaveLength(1344);
      expect(block.header.bytes).toHaveLength(1487);
    }
    expect(decodeBlockHeader(mainnetSizeGenesis().bytes).bytes).toHaveLength(1487);
    const network = chainNetwork(dir);
    const checking = await openChainStore({ datadir: fresh('era-file-checking'), network });
    try {
      await expect(checking.addBlock(mainnetSizeGenesis().bytes)).rejects.toThrow(/Equihash/);
    } finally {
      await checking.close();
    }
  }, 120_000);

  it('refuse a chain planned with an NU6.3 era that records no activation: an older generator built it', () => {
    const dir = fresh('era-file-stale');
    writeFileSync(
      join(dir, 'composition.json'),
      JSON.stringify({
        segments: [
          { era: 'nu5', blocks: 2 },
          { era: 'nu63', blocks: 3 },
        ],
        tag: 'old',
      }),
    );
    expect(() => chainNetwork(dir)).toThrow(`${dir} was built before era chains had JoinSplits and NU6.3's v6 blocks: generate it again`);
  });

  it("refuse a planned chain that records no solutions: its headers are regtest's, 1,308 bytes short of mainnet's", () => {
    const dir = fresh('era-file-short-headers');
    writeFileSync(join(dir, 'composition.json'), JSON.stringify({ segments: [{ era: 'nu5', blocks: 2 }], tag: 'old' }));
    expect(() => chainNetwork(dir)).toThrow(`${dir} was built before era chains had headers of mainnet's size: generate it again`);
  });
});
