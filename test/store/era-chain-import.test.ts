// An era-shaped chain (test-vectors/era-chain.ts: real mainnet blocks' transaction shapes per era,
// the 2022 spam's 1.9 MB Sapling-output blocks, Orchard-heavy NU6.3 blocks) imports under every
// check the importer runs, and `zecrpc import`'s way (blk files, group commit, solutions on a
// thread, note-commitment trees stepped ahead on another) ends with exactly the LevelDB contents of
// block-by-block commits.
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeBlock } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { blockLeaves } from '../../src/state/block-trees.js';
import { checkStoreIntegrity, importBlkFiles, openChainStore } from '../../src/store/index.js';
import { SolutionPrefetcher } from '../../src/sync/solution-prefetch.js';
import { TreePrefetcher } from '../../src/sync/tree-prefetch.js';
import { addComposition, compositionOf, emptyComposition, EraChainGenerator } from '../../test-vectors/era-chain.js';
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
    // nu6.3's 3428145: 35 Orchard and 2 Ironwood actions, all built as Orchard actions.
    const orchard = samples.nu63.find((s) => s.height === 3428145)!;
    expect(orchard.shape.reduce((n, t) => n + (t.orchardActions ?? 0), 0)).toBe(37);
    expect(SPAM_BLOCK.reduce((n, t) => n + (t.saplingOutputs ?? 0), 0)).toBe(2000);
  });

  it('imports with every check, and as `zecrpc import` imports it ends as block by block', async () => {
    const generator = new EraChainGenerator({ tag: 'era-test' });
    const blocks = [generator.genesis];
    for (let i = 0; i < 100; i++) blocks.push(generator.next([]));
    const segments = [
      { era: 'sprout', blocks: 2 },
      { era: 'sapling', blocks: 3 },
      { era: 'spam', blocks: 1 },
      { era: 'nu5', blocks: 3 },
      { era: 'nu63', blocks: 4 },
    ] as const;
    for (const { block } of eraChainBlocks(generator, segments)) blocks.push(block);
    const total = emptyComposition();
    for (const b of blocks) addComposition(total, compositionOf(decodeBlock(b.bytes, CURRENT_CHAIN_ACCEPTANCE), b.bytes.length));
    // Sapling outputs: 419200 – 419202's 0 + 5 + 2, the spam block's 2,000, 1687106 – 1687108's
    // 5 + 3 + 2. Orchard actions: 1687106 – 1687108's 0 + 2 + 0, 3428143 – 3428146's 0 + 4 + 37 + 11.
    expect(total.saplingOutputs).toBe(7 + 2000 + 10);
    expect(total.orchardActions).toBe(2 + 4 + 37 + 11);
    expect(blocks.some((b) => b.bytes.length > 1_800_000)).toBe(true);

    const plainDir = fresh('era-plain');
    const plain = await openChainStore({ datadir: plainDir, network: generator.network });
    for (const b of blocks) expect((await plain.addBlock(b.bytes)).status).toBe('connected');
    const state = (await plain.chainStateTip())!;
    expect(state.trees.sapling.size).toBe(total.saplingOutputs);
    expect(state.trees.orchard.size).toBe(total.orchardActions);
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
    const grouped = await openChainStore({ datadir: groupedDir, network: generator.network, groupCommit: true });
    const solutions = new SolutionPrefetcher(generator.network, 1);
    // The store holds nothing yet: the thread starts from the empty trees before genesis.
    const trees = await TreePrefetcher.start(grouped);
    const result = await importBlkFiles(grouped, join(chainDir, 'blocks'), { progress: 'silent', solutions, trees });
    await Promise.all([solutions.close(), trees.close()]);
    expect(result.added).toBe(blocks.length);
    // Every block stepped on the thread, and every tree step of every block adopted by the store.
    const poolSteps = blocks
      .map((b) => blockLeaves(decodeBlock(b.bytes, CURRENT_CHAIN_ACCEPTANCE).transactions))
      .reduce((n, leaves) => n + Object.values(leaves).filter((l) => l.length > 0).length, 0);
    // Sapling trees grown by 419201, 419202, the spam block and 1687106 – 1687108; Orchard's by 1687107 and 3428144 – 3428146.
    expect(poolSteps).toBe(6 + 4);
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
  }, 300_000);
});
