import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REGTEST } from '../../src/chain/network.js';
import { reversedHexToBytes } from '../../src/codec/hex.js';
import { checkStoreIntegrity, openChainStore, type ChainStore } from '../../src/store/index.js';
import { buildChain, type BuiltBlock } from '../../test-vectors/regtest-builder.js';
import { hex, regtestReorg, tempDir } from '../support/store.js';

const v = regtestReorg();
const FORK = v.manifest.forkHeight;
const baseHash = (h: number): string => v.manifest.base[h]!.hash;
const branchHash = (h: number): string => v.manifest.branch[h - FORK - 1]!.hash;

describe('reorganizations (regtest-reorg vectors)', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: ChainStore;
  beforeEach(async () => {
    dir = tempDir('reorg');
    store = await openChainStore({ datadir: dir.path, network: REGTEST });
  });
  afterEach(async () => {
    await store.close();
    dir.remove();
  });

  const importBase = async (): Promise<void> => {
    for (const b of v.base) expect((await store.addBlock(b)).status).toBe('connected');
  };

  it('vectors: the base chain starts at the real regtest genesis, the branch leaves it after height 10', () => {
    expect(v.base).toHaveLength(31);
    expect(v.branch).toHaveLength(35);
    expect(baseHash(0)).toBe(REGTEST.genesisHash);
    expect(v.manifest.branch[0]!.height).toBe(FORK + 1);
  });

  it('keeps an equal-work branch on the side (first seen wins), then switches 20 blocks deep when it leads', async () => {
    await importBase();
    const oldTxids = await store.blockTxids(reversedHexToBytes(baseHash(20)));
    // Branch blocks up to height 30 have at most the tip's work: side chain.
    for (const b of v.branch.slice(0, 30 - FORK)) expect((await store.addBlock(b)).status).toBe('side-chain');
    expect(hex((await store.tip())!.hash)).toBe(baseHash(30));
    const side = await store.blockIndex(reversedHexToBytes(branchHash(30)));
    expect(side!.onBestChain).toBe(false);
    expect(side!.chainWork).toBe((await store.blockIndex(reversedHexToBytes(baseHash(30))))!.chainWork);

    // Height 31 on the branch has more work: reorganize.
    const r = await store.addBlock(v.branch[30 - FORK]!);
    expect(r.status).toBe('reorganized');
    expect(r.reorg!.forkHeight).toBe(FORK);
    expect(r.reorg!.disconnected.map(hex)).toEqual(
      v.manifest.base
        .slice(FORK + 1)
        .reverse()
        .map((b) => b.hash),
    );
    expect(r.reorg!.connected).toHaveLength(21);
    expect(r.reorg!.disconnected.length).toBeGreaterThanOrEqual(10);

    for (const b of v.branch.slice(31 - FORK)) expect((await store.addBlock(b)).status).toBe('connected');
    expect((await store.tip())!.height).toBe(45);
    expect(hex((await store.tip())!.hash)).toBe(branchHash(45));
    for (let h = 0; h <= 45; h++) expect(hex(await store.hashAtHeight(h))).toBe(h <= FORK ? baseHash(h) : branchHash(h));
    for (let h = FORK + 1; h <= 30; h++) {
      const orphaned = await store.blockIndex(reversedHexToBytes(baseHash(h)));
      expect(orphaned!.onBestChain).toBe(false);
      expect(orphaned!.haveData).toBe(true);
      expect(await store.blockBytes(reversedHexToBytes(baseHash(h)))).not.toBeNull();
    }
    // The orphaned coinbase is gone from the tx index; the branch's one is there.
    expect(await store.txLocation(oldTxids![0]!)).toBeNull();
    const newTxids = await store.blockTxids(reversedHexToBytes(branchHash(20)));
    expect(await store.txLocation(newTxids![0]!)).toEqual({ blockHash: reversedHexToBytes(branchHash(20)), height: 20, index: 0 });
    const report = await checkStoreIntegrity(store);
    expect(report.problems).toEqual([]);
    expect(report.txEntries).toBe(45);
    expect(await store.bestHeaderHeight()).toBe(45);
  });

  it('switches when the branch arrives first and the base overtakes it again', async () => {
    for (const b of v.base.slice(0, FORK + 1)) await store.addBlock(b);
    for (const b of v.branch) await store.addBlock(b);
    expect((await store.tip())!.height).toBe(45);
    for (const b of v.base.slice(FORK + 1)) expect((await store.addBlock(b)).status).toBe('side-chain');
    // Extend the base chain past the branch: it becomes best again (reorg depth 35).
    const baseTip: BuiltBlock = { height: 30, hash: reversedHexToBytes(baseHash(30)), hashHex: baseHash(30), bytes: v.base[30]! };
    const more = buildChain(baseTip, 16, 'base');
    let last;
    for (const b of more) last = await store.addBlock(b.bytes);
    expect(last!.status).toBe('reorganized');
    expect(last!.reorg!.disconnected).toHaveLength(35);
    expect((await store.tip())!.height).toBe(46);
    expect(hex(await store.hashAtHeight(30))).toBe(baseHash(30));
    expect((await store.blockIndex(reversedHexToBytes(branchHash(45))))!.onBestChain).toBe(false);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
  });

  it.each([
    ['disconnect', 7],
    ['connect', 4],
  ] as const)('finishes a reorganization interrupted after %s step %i when reopened', async (kind, after) => {
    await importBase();
    for (const b of v.branch.slice(0, 30 - FORK)) await store.addBlock(b);
    let steps = 0;
    store.reorgStepHook = (step) => {
      if (step.kind === kind && ++steps === after) throw new Error('simulated crash');
    };
    await expect(store.addBlock(v.branch[30 - FORK]!)).rejects.toThrow('simulated crash');
    const mid = await store.tip();
    expect(mid!.height).toBe(kind === 'disconnect' ? 30 - after : FORK + after);
    // The half-done state is already consistent.
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
    await store.close();

    store = await openChainStore({ datadir: dir.path, network: REGTEST });
    expect(hex((await store.tip())!.hash)).toBe(branchHash(31));
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
    expect((await store.addBlock(v.branch[31 - FORK]!)).status).toBe('connected');
  });
});
