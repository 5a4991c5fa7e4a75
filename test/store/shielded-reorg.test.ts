// Reorganizations across shielded blocks, on regtest with Sapling and Heartwood active from height
// 1: after a switch to a branch, and after the switch back, the store's chain state (every pool
// total, the tree frontiers and sizes, the anchors, the coins, the ZIP-221 history tree, each
// active block's record) equals byte for byte that of a store that never saw the losing branch,
// and the tip state equals the one the builder computed block by block along that branch alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHexReversed } from '../../src/codec/hex.js';
import { historyRoot } from '../../src/state/history-tree.js';
import { ChainStateIndex, chainStateKeys } from '../../src/store/indexes/chain-state-index.js';
import { checkStoreIntegrity, openChainStore, type ChainStore } from '../../src/store/index.js';
import { defaultPoolHashers } from '../../src/state/hashers.js';
import { regtestGenesis, type BuiltBlock } from '../../test-vectors/regtest-builder.js';
import { SHIELDED_REGTEST, ShieldedChainBuilder } from '../../test-vectors/regtest-shielded.js';
import { tempDir } from '../support/store.js';

/** base 1..112 shields at 101, 103, 105, 108; branch from 102 shields at 104 and 110 and reaches 115; base then reaches 118. */
function buildChains(): {
  builder: ShieldedChainBuilder;
  genesis: BuiltBlock;
  base: BuiltBlock[];
  branch: BuiltBlock[];
  baseMore: BuiltBlock[];
} {
  const genesis = regtestGenesis();
  const builder = new ShieldedChainBuilder(genesis);
  const baseShields: Record<number, number> = { 101: 2, 103: 1, 105: 3, 108: 2 };
  const base = [genesis, ...builder.chain(genesis, 112, 'base', (h) => baseShields[h] ?? 0)];
  const branchShields: Record<number, number> = { 104: 4, 110: 1 };
  const branch = builder.chain(base[102]!, 13, 'branch', (h) => branchShields[h] ?? 0);
  const baseMore = builder.chain(base[112]!, 6, 'base', (h) => (h === 116 ? 2 : 0));
  return { builder, genesis, base, branch, baseMore };
}

/** Every chain-state record a store keeps for its active chain, as hex, by key. */
async function chainStateDump(store: ChainStore): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const db = store.database;
  for (const prefix of ['C', 'c', 'A', 'Q']) {
    const gte = Buffer.from(prefix);
    const lt = Buffer.of(gte[0]! + 1);
    for await (const [k, v] of db.iterator({ gte, lt })) out.set(k.toString('hex'), v.toString('hex'));
  }
  const tip = (await store.tip())!;
  for (let h = 0; h <= tip.height; h++) {
    const hash = (await store.hashAtHeight(h))!;
    out.set(`block ${h}`, db.getSync(chainStateKeys.blockState(hash))?.toString('hex') ?? 'missing');
  }
  return out;
}

/** What each shielding moves: a coinbase of the 6.25 ZEC subsidy less its 1.25 ZEC founders' reward. */
const SHIELDED_COINBASE = 500_000_000n;
describe('a reorganization across shielded blocks', () => {
  let chains: ReturnType<typeof buildChains>;
  const cleanup: (() => Promise<void>)[] = [];
  const open = async (label: string, blocks: readonly BuiltBlock[]): Promise<ChainStore> => {
    const dir = tempDir(label);
    const store = await openChainStore({ datadir: dir.path, network: SHIELDED_REGTEST });
    cleanup.push(async () => {
      await store.close();
      dir.remove();
    });
    // addBlock throws on any rejected block.
    for (const b of blocks) await store.addBlock(b.bytes);
    return store;
  };
  const tipState = (store: ChainStore) =>
    new ChainStateIndex({ network: SHIELDED_REGTEST, hashers: defaultPoolHashers() }).tip({ get: (k) => store.database.getSync(k) })!;

  beforeAll(() => {
    chains = buildChains();
  });
  afterAll(async () => {
    for (const c of cleanup) await c();
  });

  it('restores every pool, tree, anchor, coin and history root when switching to the branch and back', async () => {
    const { builder, base, branch, baseMore } = chains;
    const store = await open('shielded-reorg', base);
    const onBase = tipState(store);
    expect([onBase.height, onBase.trees.sapling.size, onBase.totals.sapling]).toEqual([112, 8, 4n * SHIELDED_COINBASE]);

    // The branch takes over: 105, 108 and the blocks around them are disconnected, 104 and 110 connected.
    for (const b of branch) await store.addBlock(b.bytes);
    const branchTip = branch[branch.length - 1]!;
    expect(toHexReversed((await store.tip())!.hash)).toBe(branchTip.hashHex);
    const fresh = await open('shielded-fresh-branch', [...base.slice(0, 103), ...branch]);
    expect(await chainStateDump(store)).toEqual(await chainStateDump(fresh));
    const onBranch = tipState(store);
    const expected = builder.stateAfter(branchTip);
    expect([onBranch.trees.sapling.size, onBranch.totals.sapling, onBranch.totals.transparent]).toEqual([
      2 + 4 + 1,
      3n * SHIELDED_COINBASE,
      expected.totals.transparent,
    ]);
    expect(Buffer.from(onBranch.trees.sapling.root()).toString('hex')).toBe(Buffer.from(expected.trees.sapling.root()).toString('hex'));
    const history = (t: typeof onBranch): string => Buffer.from(historyRoot(t.history === 'unknown' ? null : t.history)).toString('hex');
    expect(history(onBranch)).toBe(history(expected));
    expect(history(onBranch)).not.toBe(history(onBase));

    // And back: the base grows past the branch; the branch's shielded blocks are undone.
    for (const b of baseMore) await store.addBlock(b.bytes);
    const baseTip = baseMore[baseMore.length - 1]!;
    expect(toHexReversed((await store.tip())!.hash)).toBe(baseTip.hashHex);
    const freshBase = await open('shielded-fresh-base', [...base, ...baseMore]);
    expect(await chainStateDump(store)).toEqual(await chainStateDump(freshBase));
    const back = tipState(store);
    expect([back.trees.sapling.size, back.totals.sapling]).toEqual([10, 5n * SHIELDED_COINBASE]);
    expect(history(back)).toBe(history(builder.stateAfter(baseTip)));
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
  });
});
