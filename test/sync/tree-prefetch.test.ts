// Note-commitment trees stepped ahead (state/block-trees.ts, sync/tree-prefetch.ts): a step the
// tree thread computed is adopted only where it continues the parent's tree with the block's own
// leaves, gives exactly the trees hashing them here gives, and the store really takes it (a
// step with a wrong root is caught by the next block, whose anchor is the true root).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeBlock, type Block } from '../../src/codec/block.js';
import { CURRENT_CHAIN_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { toHexReversed } from '../../src/codec/hex.js';
import { advanceBlockTrees, blockLeaves, precomputeBlockTrees, type PrecomputedTrees } from '../../src/state/block-trees.js';
import { emptyTrees, type ShieldedPool } from '../../src/state/chain-state.js';
import { defaultPoolHashers } from '../../src/state/hashers.js';
import type { IncrementalMerkleTree } from '../../src/state/trees/incremental.js';
import { openChainStore, type ChainStore, type TreeSteps } from '../../src/store/chain.js';
import { BlockRejectedError } from '../../src/store/errors.js';
import { importBlkFiles } from '../../src/sync/blk.js';
import { TreePrefetcher } from '../../src/sync/tree-prefetch.js';
import { EraChainGenerator } from '../../test-vectors/era-chain.js';
import type { BuiltBlock } from '../../test-vectors/regtest-builder.js';
import { eraChainBlocks } from '../../test-vectors/era-shapes.js';
import { suiteTempDirs } from '../support/suite-dirs.js';

type Trees = Record<ShieldedPool, IncrementalMerkleTree>;

/** Genesis, 100 coinbase-only blocks (coins to spend), then real NU5 and NU6.3 block shapes. */
function shieldedChain(tag: string): { built: BuiltBlock[]; blocks: Block[]; network: EraChainGenerator['network'] } {
  const generator = new EraChainGenerator({ tag });
  const built = [generator.genesis];
  for (let i = 0; i < 100; i++) built.push(generator.next([]));
  for (const { block } of eraChainBlocks(generator, [
    { era: 'nu5', blocks: 3 },
    { era: 'nu63', blocks: 4 },
  ]))
    built.push(block);
  return { built, blocks: built.map((b) => decodeBlock(b.bytes, CURRENT_CHAIN_ACCEPTANCE)), network: generator.network };
}

const frontiers = (trees: Trees) => Object.fromEntries(Object.entries(trees).map(([pool, t]) => [pool, [t.size, t.toTreeState('padded')]]));
const roots = (trees: Trees) => Object.fromEntries(Object.entries(trees).map(([pool, t]) => [pool, Buffer.from(t.root()).toString('hex')]));

/** The thread's steps for every block, computed here in order on its own copy of the trees. */
function stepsOf(blocks: readonly Block[]): PrecomputedTrees[] {
  let trees: Trees = emptyTrees(defaultPoolHashers());
  return blocks.map((block) => {
    const step = precomputeBlockTrees(trees, defaultPoolHashers(), block);
    trees = step.trees;
    return step.steps;
  });
}

describe('tree steps computed ahead', () => {
  const fresh = suiteTempDirs();
  const chain = shieldedChain('tree-steps');
  const steps = stepsOf(chain.blocks);

  it('are adopted where they continue the trees, and end where hashing here ends', () => {
    const hashers = defaultPoolHashers();
    let hashed: Trees | null = null;
    let adopted: Trees | null = null;
    const adoptedPools = new Set<string>();
    chain.blocks.forEach((block, i) => {
      const leaves = blockLeaves(block.transactions);
      const here = advanceBlockTrees(hashed, hashers, leaves);
      const ahead = advanceBlockTrees(adopted, hashers, leaves, steps[i]!);
      expect(here.adopted).toEqual([]);
      // Adopted exactly for the pools the block adds leaves to.
      expect(ahead.adopted).toEqual(Object.keys(steps[i]!));
      for (const pool of ahead.adopted) adoptedPools.add(pool);
      expect(frontiers(ahead.trees)).toEqual(frontiers(here.trees));
      expect(roots(ahead.trees)).toEqual(roots(here.trees));
      expect(ahead.newRoots).toEqual(here.newRoots);
      expect(ahead.completedSubtrees).toEqual(here.completedSubtrees);
      hashed = here.trees;
      adopted = ahead.trees;
    });
    expect([...adoptedPools].sort()).toEqual(['ironwood', 'orchard', 'sapling']);
    // 1687107's 2 Orchard actions, 3428144 – 3428146's 2 + 35 + 7; 3428144 – 3428146's 2 + 2 + 4 Ironwood actions.
    expect(hashed!.orchard.size).toBe(46);
    expect(hashed!.ironwood.size).toBe(8);
  });

  it('are refused when they start from another tree, append other leaves or claim another root before', () => {
    const hashers = defaultPoolHashers();
    let trees: Trees | null = null;
    let checked = 0;
    chain.blocks.forEach((block, i) => {
      const leaves = blockLeaves(block.transactions);
      const step = steps[i]!;
      for (const [pool, s] of Object.entries(step)) {
        const otherLeaves = s!.leaves.slice();
        otherLeaves[otherLeaves.length - 1]! ^= 1;
        const otherRoot = s!.rootBefore.slice();
        otherRoot[0]! ^= 1;
        for (const changed of [{ sizeBefore: s!.sizeBefore + 1 }, { leaves: otherLeaves }, { rootBefore: otherRoot }]) {
          const r = advanceBlockTrees(trees, hashers, leaves, { ...step, [pool]: { ...s!, ...changed, root: new Uint8Array(32) } });
          expect(r.adopted).not.toContain(pool);
          expect(roots(r.trees)[pool]).toBe(roots(advanceBlockTrees(trees, hashers, leaves).trees)[pool]);
          checked++;
        }
      }
      trees = advanceBlockTrees(trees, hashers, leaves, step).trees;
    });
    expect(checked).toBeGreaterThanOrEqual(3 * 5);
  });

  it('the store takes them: a wrong root in an adopted step fails the next block (its anchor is unknown), the right ones connect the chain', async () => {
    const byHash = new Map(chain.built.map((b, i) => [Buffer.from(b.hash).toString('hex'), steps[i]!]));
    const poisonAt = chain.built.length - 2; // 3428145: 35 Orchard actions (poisoned) and 2 Ironwood actions
    // What the store reports of each block's steps, by height.
    const used = new Map<number, { adopted: number; refused: number }>();
    const heightOf = (hash: Uint8Array) => chain.built.findIndex((b) => Buffer.from(b.hash).equals(Buffer.from(hash)));
    const steps1 = (poison: 'root' | 'rootBefore' | null): TreeSteps => ({
      take: (hash) => {
        const step = byHash.get(Buffer.from(hash).toString('hex'));
        if (!step) return null;
        if (!poison || heightOf(hash) !== poisonAt) return Promise.resolve(step);
        return Promise.resolve({ ...step, orchard: { ...step.orchard!, [poison]: new Uint8Array(32).fill(7) } });
      },
      used: (hash, outcome) => used.set(heightOf(hash), outcome),
    });
    const good = await openChainStore({ datadir: fresh('tree-steps-good'), network: chain.network });
    for (const b of chain.built) expect((await good.addBlock(b.bytes, { trees: steps1(null) })).status).toBe('connected');
    // Each block's steps reported, every one adopted.
    expect(used.size).toBe(chain.built.length);
    expect([...used.values()].reduce((n, o) => n + o.adopted, 0)).toBe(steps.reduce((n, s) => n + Object.keys(s).length, 0));
    expect([...used.values()].every((o) => o.refused === 0)).toBe(true);
    expect(Buffer.from((await good.chainStateTip())!.trees.orchard.root())).toEqual(
      Buffer.from(
        advanceBlockTrees(null, defaultPoolHashers(), blockLeaves(chain.blocks.flatMap((b) => b.transactions))).trees.orchard.root(),
      ),
    );
    await good.close();

    // A step that claims another root before is refused, reported as such, and the block connects as hashed here.
    used.clear();
    const refusing = await openChainStore({ datadir: fresh('tree-steps-refused'), network: chain.network });
    for (const b of chain.built) expect((await refusing.addBlock(b.bytes, { trees: steps1('rootBefore') })).status).toBe('connected');
    // Its Ironwood step is still adopted.
    expect(used.get(poisonAt)).toEqual({ adopted: 1, refused: 1 });
    await refusing.close();

    const bad = await openChainStore({ datadir: fresh('tree-steps-bad'), network: chain.network });
    for (const b of chain.built.slice(0, poisonAt + 1))
      expect((await bad.addBlock(b.bytes, { trees: steps1('root') })).status).toBe('connected');
    const next = bad.addBlock(chain.built[poisonAt + 1]!.bytes, { trees: steps1('root') });
    await expect(next).rejects.toBeInstanceOf(BlockRejectedError);
    // The next block's Orchard bundle names the true root as its anchor, which the store never saw.
    const trueRoot = toHexReversed(steps[poisonAt]!.orchard!.root);
    await expect(next).rejects.toThrow(`(bad-txns-orchard-unknown-anchor): the Orchard bundle of transaction`);
    await expect(next).rejects.toThrow(`uses anchor ${trueRoot}, which is not a known Orchard root`);
    await bad.close();
  });

  /**
   * A store holding the chain up to the last coinbase-only block but one (102), a thread started
   * from its tip, and the blocks after it; both closed after `run`.
   */
  async function atStoreTip(
    label: string,
    run: (store: ChainStore, thread: TreePrefetcher, rest: BuiltBlock[]) => Promise<void>,
  ): Promise<void> {
    const store = await openChainStore({ datadir: fresh(label), network: chain.network });
    const tipAt = 102;
    for (const b of chain.built.slice(0, tipAt + 1)) await store.addBlock(b.bytes);
    const thread = await TreePrefetcher.start(store);
    try {
      await run(store, thread, chain.built.slice(tipAt + 1));
    } finally {
      await thread.close();
      await store.close();
    }
  }

  /** Takes each block's step from the thread, checks it against the steps computed here, and adds the block with it. */
  async function addWithThreadSteps(store: ChainStore, thread: TreePrefetcher, blocks: readonly BuiltBlock[]): Promise<void> {
    for (const b of blocks) {
      const i = chain.built.indexOf(b);
      const got = await thread.take(b.hash);
      expect(Object.keys(got!)).toEqual(Object.keys(steps[i]!));
      for (const [pool, s] of Object.entries(got!)) expect(Buffer.from(s!.root)).toEqual(Buffer.from(steps[i]![pool]!.root));
      expect((await store.addBlock(b.bytes, { trees: { take: () => Promise.resolve(got) } })).status).toBe('connected');
    }
  }

  it('a thread steps blocks after the store tip and none whose parent it has not stepped', () =>
    atStoreTip('tree-steps-thread', async (store, thread, rest) => {
      // A block from before the tip (its parent was never stepped here), then the rest in order.
      const old = chain.built[50]!;
      for (const b of [old, ...rest]) thread.prefetch(b.bytes);
      await thread.settled();
      expect(thread.counts).toEqual({ posted: rest.length + 1, stepped: rest.length, adopted: 0, refused: 0, skipped: 0 });
      expect(await thread.take(old.hash)).toBeNull();
      await addWithThreadSteps(store, thread, rest);
      // Taken once.
      expect(thread.take(rest[0]!.hash)).toBeNull();
    }));

  it('a block read before its parent is stepped when the parent comes', () =>
    atStoreTip('tree-steps-order', async (store, thread, rest) => {
      for (const b of [rest[1]!, rest[0]!, ...rest.slice(2)]) thread.prefetch(b.bytes);
      // The thread answers in order: once the last block is answered, so is rest[1]'s second answer.
      await thread.settled();
      expect(thread.counts).toEqual({ posted: rest.length, stepped: rest.length, adopted: 0, refused: 0, skipped: 0 });
      await addWithThreadSteps(store, thread, rest);
    }));

  it('after a block added without a step, the tip seeds the thread and the blocks read after it are stepped and waited for', () =>
    atStoreTip('tree-steps-gap', async (store, thread, rest) => {
      // rest[0] is never handed to the thread: every block after it waits for its trees.
      for (const b of rest.slice(1)) thread.prefetch(b.bytes);
      await thread.settled();
      expect(thread.counts.stepped).toBe(0);
      expect(thread.take(rest[0]!.hash)).toBeNull();
      expect((await store.addBlock(rest[0]!.bytes)).status).toBe('connected');
      await thread.seedAfterGap(store);
      // Taken at once after the seed: each block waits for the step the seed releases.
      await addWithThreadSteps(store, thread, rest.slice(1));
      expect(thread.counts).toEqual({ posted: rest.length - 1, stepped: rest.length - 1, adopted: 0, refused: 0, skipped: 0 });
    }));

  it('a refused step stops the thread: no block is handed to it after', async () => {
    const thread = await TreePrefetcher.start({ chainStateTip: async () => null });
    try {
      thread.used(chain.built[0]!.hash, { adopted: 1, refused: 1 });
      thread.prefetch(chain.built[1]!.bytes);
      expect(thread.counts).toEqual({ posted: 0, stepped: 0, adopted: 1, refused: 1, skipped: 1 });
      expect(thread.take(chain.built[1]!.hash)).toBeNull();
    } finally {
      await thread.close();
    }
  });

  it('a warm start on a thread that fails on its seed resolves, and the thread then takes no block', async () => {
    // A frontier the thread cannot read: it throws on the seed, before acknowledging it.
    const unreadable = { toTreeStateBytes: () => Uint8Array.of(0xff, 0xff, 0xff) } as unknown as IncrementalMerkleTree;
    const tip = { hash: chain.built[0]!.hash, trees: { sapling: unreadable } } as unknown as Awaited<
      ReturnType<ChainStore['chainStateTip']>
    >;
    const thread = await TreePrefetcher.start({ chainStateTip: async () => tip }, { warm: true });
    try {
      thread.prefetch(chain.built[1]!.bytes);
      expect(thread.counts).toEqual({ posted: 0, stepped: 0, adopted: 0, refused: 0, skipped: 1 });
      expect(thread.take(chain.built[1]!.hash)).toBeNull();
    } finally {
      await thread.close();
    }
  });

  it('a blk import hands the thread every block, a record across the end of its 16 MiB read window too', async () => {
    const generator = new EraChainGenerator({ tag: 'tree-steps-window' });
    const built = [generator.genesis];
    for (let i = 0; i < 100; i++) built.push(generator.next([]));
    for (const { block } of eraChainBlocks(generator, [{ era: 'spam', blocks: 10 }])) built.push(block);
    const dir = fresh('tree-steps-window-blk');
    const magic = Buffer.from(generator.network.magic);
    const framed = Buffer.concat(
      built.flatMap((b) => {
        const head = Buffer.alloc(8);
        magic.copy(head, 0);
        head.writeUInt32LE(b.bytes.length, 4);
        return [head, Buffer.from(b.bytes)];
      }),
    );
    // Some record starts before 16 MiB and ends after it.
    let at = 0;
    const straddles = built.some((b) => {
      const start = at;
      at += 8 + b.bytes.length;
      return start < 16 * 2 ** 20 && at > 16 * 2 ** 20;
    });
    expect(straddles).toBe(true);
    mkdirSync(join(dir, 'blocks'));
    writeFileSync(join(dir, 'blocks', 'blk00000.dat'), framed);
    const store = await openChainStore({ datadir: fresh('tree-steps-window'), network: generator.network, groupCommit: true });
    const thread = await TreePrefetcher.start(store);
    try {
      const result = await importBlkFiles(store, join(dir, 'blocks'), { progress: 'silent', trees: thread });
      expect(result.added).toBe(built.length);
      // The ten spam blocks' Sapling trees, each adopted.
      expect(thread.counts).toEqual({ posted: built.length, stepped: built.length, adopted: 10, refused: 0, skipped: 0 });
      expect((await store.chainStateTip())!.trees.sapling.size).toBe(10 * 2000);
    } finally {
      await thread.close();
      await store.close();
    }
  }, 120_000);
  it('keeps the process alive while a warm start or the store waits for the thread', () => {
    const child = join(import.meta.dirname, 'tree-prefetch-child.ts');
    const run = spawnSync(process.execPath, ['--import', 'tsx', child], { encoding: 'utf8', timeout: 120_000 });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ status: 0, stdout: 'warm\nstepped 1\n', stderr: '' });
  }, 130_000);
});
