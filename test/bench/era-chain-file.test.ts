// An era-shaped chain written as blk files (bench/lib/era-chain-file.ts) says in composition.json
// where it activated NU6.2 and NU6.3, and the import benches take its network from there: its
// NU6.3 blocks (v6 coinbases, Ironwood actions) import on it and are refused on the network of a
// chain that never activates them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainNetwork, writeEraChain, type ChainFileComposition } from '../../bench/lib/era-chain-file.js';
import { importChainDir } from '../../bench/lib/era-import.js';
import { ERA_REGTEST } from '../../test-vectors/era-chain.js';
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

    const run = await importChainDir(dir, fresh('era-file-import'), network, { treeThread: false });
    expect(run.blocks).toBe(written.total.blocks);
    // On a network without NU6.2 or NU6.3 the import stops at NU6.2's block: its coinbase names NU6.2's branch.
    await expect(importChainDir(dir, fresh('era-file-wrong-network'), ERA_REGTEST, { treeThread: false })).rejects.toThrow(
      /carries consensus branch id 5437f330 \(NU6\.2\), which this node's network upgrade schedule does not include/,
    );
  }, 120_000);

  it('say nothing of a chain that never reaches NU6.3, which imports on ERA_REGTEST', () => {
    const dir = fresh('era-file-nu5');
    writeEraChain(dir, [{ era: 'nu5', blocks: 2 }], 'era-file-test-nu5');
    expect((JSON.parse(readFileSync(join(dir, 'composition.json'), 'utf8')) as ChainFileComposition).activations).toBeUndefined();
    expect(chainNetwork(dir)).toBe(ERA_REGTEST);
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
});
