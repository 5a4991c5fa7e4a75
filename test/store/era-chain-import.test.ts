// An era-shaped chain (test-vectors/era-chain.ts: real mainnet blocks' transaction shapes per era,
// Sprout JoinSplits among them, the 2022 spam's 1.9 MB Sapling-output blocks, NU6.3's v6 blocks
// with Orchard and Ironwood actions, on a network that activates NU6.2 and NU6.3) imports under every
// check the importer runs, and `zecrpc import`'s way (blk files, group commit, solutions on a
// thread, note-commitment trees stepped ahead on another) ends with exactly the LevelDB contents of
// block-by-block commits. So does the benches' form of the chain, whose headers have mainnet's
// size with stand-in solutions, imported with solutions unchecked (`--no-verify-equihash`).
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeBlock, decodeBlockHeader } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { blockLeaves } from '../../src/state/block-trees.js';
import { checkStoreIntegrity, importBlkFiles, openChainStore } from '../../src/store/index.js';
import { SolutionPrefetcher } from '../../src/sync/solution-prefetch.js';
import { TreePrefetcher } from '../../src/sync/tree-prefetch.js';
import { addComposition, compositionOf, emptyComposition, EraChainGenerator, type EraSolutions } from '../../test-vectors/era-chain.js';
import { eraChainBlocks, eraSamples, SPAM_BLOCK } from '../../test-vectors/era-shapes.js';
import { suiteTempDirs } from '../support/suite-dirs.js';
import { dumpStoreIndex } from '../support/store-io.js';

describe('era-shaped chain', () => {
  const fresh = suiteTempDirs();

  it('era samples come from the real blocks, each era its own heights', () => {
    const samples = eraSamples();
    // zcashd-2019's 106598: 41 transactions, 9,249 transparent inputs, 1,385,299 bytes; one of
    // its transactions is funded by a JoinSplit alone, and is rebuilt with one transparent input.
    const big = samples.sprout.find((s) => s.height === 106598)!;
    expect(big.bytes).toBe(1_385_299);
    expect(big.shape).toHaveLength(40);
    expect(big.shape.reduce((n, t) => n + t.inputs, 0)).toBe(9249 + 1);
    expect(samples.sapling.every((s) => s.height >= 419_200 && s.height < 1_687_104)).toBe(true);
    // nu6.3's 3428145: 35 Orchard and 2 Ironwood actions, kept apart.
    const orchard = samples.nu63.find((s) => s.height === 3428145)!;
    expect(orchard.shape.reduce((n, t) => n + (t.orchardActions ?? 0), 0)).toBe(35);
    expect(orchard.shape.reduce((n, t) => n + (t.ironwoodActions ?? 0), 0)).toBe(2);
    // zcashd-2019's 24202: two transactions fund a JoinSplit each from transparent inputs, and get
    // a transparent output for the value a JoinSplit no longer takes.
    const sprout = samples.sprout.find((s) => s.height === 24202)!;
    expect(sprout.shape.filter((t) => t.joinSplits).map((t) => [t.inputs, t.outputs, t.joinSplits])).toEqual([
      [2, 1, 1],
      [1, 1, 1],
    ]);
    expect(SPAM_BLOCK.reduce((n, t) => n + (t.saplingOutputs ?? 0), 0)).toBe(2000);
  });

  it.each<[EraSolutions, string]>([
    ['regtest', 'with every check'],
    ['mainnet-size', "with headers of mainnet's size and solutions unchecked"],
  ])(
    'imports (%s solutions) %s, and as `zecrpc import` imports it ends as block by block',
    async (solutions) => {
      const generator = new EraChainGenerator({ tag: 'era-test', solutions });
      // Stand-in solutions are no valid (200, 9) solutions: such a chain imports as `--no-verify-equihash` does.
      const verifySolutions = solutions === 'regtest';
      // 140 bytes, the solution's CompactSize and the solution: (48, 5)'s 36 bytes, or (200, 9)'s 1,344.
      expect(decodeBlockHeader(generator.genesis.bytes).bytes).toHaveLength(solutions === 'regtest' ? 140 + 1 + 36 : 140 + 3 + 1344);
      const blocks = [generator.genesis];
      for (let i = 0; i < 100; i++) blocks.push(generator.next([]));
      const segments = [
        { era: 'sprout', blocks: 3 },
        { era: 'sapling', blocks: 3 },
        { era: 'spam', blocks: 1 },
        { era: 'nu5', blocks: 3 },
        { era: 'nu63', blocks: 4 },
      ] as const;
      for (const { block } of eraChainBlocks(generator, segments)) blocks.push(block);
      const total = emptyComposition();
      for (const b of blocks) addComposition(total, compositionOf(decodeBlock(b.bytes, CURRENT_CHAIN_ACCEPTANCE), b.bytes.length));
      // Sapling outputs: 419200 – 419202's 0 + 5 + 2, the spam block's 2,000, 1687106 – 1687108's
      // 5 + 3 + 2. Orchard and Ironwood actions: 1687106 – 1687108's 0 + 2 + 0, 3428143 – 3428146's 0 + 4 + 37 + 11.
      expect(total.saplingOutputs).toBe(7 + 2000 + 10);
      expect(total.orchardActions).toBe(2 + 4 + 37 + 11);
      expect(blocks.some((b) => b.bytes.length > 1_800_000)).toBe(true);

      const plainDir = fresh('era-plain');
      const plain = await openChainStore({ datadir: plainDir, network: generator.network, verifySolutions });
      for (const b of blocks) expect((await plain.addBlock(b.bytes)).status).toBe('connected');
      const state = (await plain.chainStateTip())!;
      expect(state.trees.sapling.size).toBe(total.saplingOutputs);
      // Orchard: 1687107's 2, 3428144's 2, 3428145's 35, 3428146's 7; Ironwood: 2 in each of 3428144 and 3428145, 4 in 3428146.
      expect(state.trees.orchard.size).toBe(46);
      expect(state.trees.ironwood.size).toBe(8);
      expect(state.trees.orchard.size + state.trees.ironwood.size).toBe(total.orchardActions);
      // JoinSplits: 24202's 2, 42464's 1, 419201's 2 and 419202's 1, two note commitments each.
      expect(state.trees.sprout.size).toBe(12);
      // NU6.2 a block before the first nu63 block, NU6.3 at it: v6 coinbases and v6 transactions from there.
      const activations = generator.nu63Activations!;
      expect(activations['NU6.3']).toBe(activations['NU6.2'] + 1);
      const formats = blocks.map((b) => decodeBlock(b.bytes, CURRENT_CHAIN_ACCEPTANCE).transactions.map((t) => t.data.format));
      expect(formats.slice(0, activations['NU6.3']).flat()).not.toContain('v6');
      expect(formats.slice(activations['NU6.3']).every((f) => f[0] === 'v6')).toBe(true);
      // The four coinbases, then 3428144's one v6 transaction, 3428145's four and 3428146's three.
      expect(
        formats
          .slice(activations['NU6.3'])
          .flat()
          .filter((f) => f === 'v6').length,
      ).toBe(4 + 1 + 4 + 3);
      expect((await checkStoreIntegrity(plain)).problems).toEqual([]);
      await plain.close();

      const chainDir = fresh('era-blk');
      mkdirSync(join(chainDir, 'blocks'));
      const magic = Buffer.from(generator.network.magic);
      const framed = blocks.flatMap((b) => {
        const head = Buffer.alloc(8);
        magic.copy(head, 0);
        head.writeUInt32LE(b.bytes.length, 4);
        return [head, Buffer.from(b.bytes)];
      });
      writeFileSync(join(chainDir, 'blocks', 'blk00000.dat'), Buffer.concat(framed));
      const groupedDir = fresh('era-grouped');
      const grouped = await openChainStore({ datadir: groupedDir, network: generator.network, groupCommit: true, verifySolutions });
      const prefetcher = verifySolutions ? new SolutionPrefetcher(generator.network, 1) : undefined;
      // The store holds nothing yet: the thread starts from the empty trees before genesis.
      const trees = await TreePrefetcher.start(grouped);
      const result = await importBlkFiles(grouped, join(chainDir, 'blocks'), {
        progress: 'silent',
        ...(prefetcher ? { solutions: prefetcher } : {}),
        trees,
      });
      await Promise.all([prefetcher?.close(), trees.close()]);
      expect(result.added).toBe(blocks.length);
      // Every block stepped on the thread, and every tree step of every block adopted by the store.
      const poolSteps = blocks
        .map((b) => blockLeaves(decodeBlock(b.bytes, CURRENT_CHAIN_ACCEPTANCE).transactions))
        .reduce((n, leaves) => n + Object.values(leaves).filter((l) => l.length > 0).length, 0);
      // Sapling trees grown by 419201, 419202, the spam block and 1687106 – 1687108; Orchard's by
      // 1687107 and 3428144 – 3428146; Ironwood's by 3428144 – 3428146; Sprout's by 24202, 42464, 419201 and 419202.
      expect(poolSteps).toBe(6 + 4 + 3 + 4);
      expect(trees.counts).toEqual({ posted: blocks.length, stepped: blocks.length, adopted: poolSteps, refused: 0, skipped: 0 });
      expect((await grouped.tip())?.hash).toEqual(blocks.at(-1)!.hash);
      await grouped.close();

      const expected = await dumpStoreIndex(plainDir);
      const got = await dumpStoreIndex(groupedDir);
      // The blk importer's resume position is the one row block-by-block import has no reason to write.
      const resume = [...got.keys()].filter((k) => !expected.has(k));
      expect(resume.length).toBeLessThanOrEqual(1);
      expect(got.size).toBe(expected.size + resume.length);
      for (const [k, v] of expected) if (got.get(k) !== v) expect({ key: k, value: got.get(k) }).toEqual({ key: k, value: v });
    },
    300_000,
  );
});
