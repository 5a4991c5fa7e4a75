// getchaintips, invalidateblock and reconsiderblock over the real LevelDB store, on the
// regtest-reorg chains (base 0..30, branch 11..45 forking after height 10): the tips set kept as
// blocks arrive, its rebuild for a store written without it, the operator's reorganizations and
// their marks across a restart, and the RPC replies.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAINNET, REGTEST } from '../../src/chain/network.js';
import { reversedHexToBytes } from '../../src/codec/hex.js';
import type { RpcMethod } from '../../src/rpc/method.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { checkStoreIntegrity, openChainStore, type ChainStore } from '../../src/store/index.js';
import { keys } from '../../src/store/layout.js';
import { errorOf, resultOf } from '../support/call.js';
import { hex, regtestReorg, startAtSaplingCheckpoint, tempDir } from '../support/store.js';

const v = regtestReorg();
const FORK = v.manifest.forkHeight;
const baseHash = (h: number): string => v.manifest.base[h]!.hash;
const branchHash = (h: number): string => v.manifest.branch[h - FORK - 1]!.hash;
const CLOCK = { clock: () => 1752983473 };

type Tip = { height: number; hash: string; branchlen: number; status: string };
const tip = (height: number, hash: string, branchlen: number, status: string): Tip => ({ height, hash, branchlen, status });

describe('chain tips and operator reorganizations (regtest-reorg vectors)', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: ChainStore;
  let methods: Map<string, RpcMethod>;
  const open = async (opts: { minFreeBytes?: number } = {}): Promise<void> => {
    store = await openChainStore({
      datadir: dir.path,
      network: REGTEST,
      ...(opts.minFreeBytes ? { diskSpace: { reserveBytes: 0, minFreeBytes: opts.minFreeBytes } } : {}),
    });
    methods = new Map(storeMethods(store, CLOCK).map((m) => [m.name, m]));
  };
  const call = (name: string, params = '[]'): Promise<string> => resultOf(methods.get(name)!, params);
  const tips = async (): Promise<Tip[]> => JSON.parse(await call('getchaintips')) as Tip[];
  const reopen = async (): Promise<void> => {
    await store.close();
    await open();
  };
  const add = async (blocks: Uint8Array[]): Promise<void> => {
    for (const b of blocks) await store.addBlock(b);
  };

  beforeEach(async () => {
    dir = tempDir('block-tree');
    await open();
  });
  afterEach(async () => {
    await store.close();
    dir.remove();
  });

  it('getchaintips: the active tip, then a side branch never connected, then one reorganized away', async () => {
    await add(v.base.slice(0, 21));
    expect(await tips()).toEqual([tip(20, baseHash(20), 0, 'active')]);
    // Branch 11..25 has more work than base 20: the store switches to it.
    await add(v.branch.slice(0, 25 - FORK));
    expect(await tips()).toEqual([tip(25, branchHash(25), 0, 'active'), tip(20, baseHash(20), 10, 'valid-fork')]);
    // Base 21..24 extends the old branch without passing the new one: never connected.
    await add(v.base.slice(21, 25));
    expect(await tips()).toEqual([tip(25, branchHash(25), 0, 'active'), tip(24, baseHash(24), 14, 'valid-headers')]);
    expect(JSON.stringify(await tips())).toBe(await call('getchaintips'));
    expect(await call('getchaintips')).toBe(
      `[{"height":25,"hash":"${branchHash(25)}","branchlen":0,"status":"active"},{"height":24,"hash":"${baseHash(24)}","branchlen":14,"status":"valid-headers"}]`,
    );
    // The set is on disk: a reopened store answers the same.
    const before = await call('getchaintips');
    await reopen();
    expect(await call('getchaintips')).toBe(before);
  });

  it('rebuilds the set once for a store written without it, and keeps it from then on', async () => {
    await add(v.base.slice(0, 21));
    await add(v.branch.slice(0, 15 - FORK));
    const expected = await call('getchaintips');
    expect(JSON.parse(expected)).toEqual([tip(20, baseHash(20), 0, 'active'), tip(15, branchHash(15), 5, 'valid-headers')]);
    // What a store of an earlier release holds: no `K` marker and no `K` rows.
    const db = store.database;
    const rows: Buffer[] = [];
    for await (const k of db.keys({ gte: keys.chainTipsKept(), lt: Buffer.of(keys.chainTipPrefix + 1) })) rows.push(k);
    expect(rows).toHaveLength(3);
    await db.batch(rows.map((key) => ({ type: 'del' as const, key })));
    await reopen();
    // Blocks added before the rebuild are found by it.
    await add(v.branch.slice(15 - FORK, 16 - FORK));
    expect(await tips()).toEqual([tip(20, baseHash(20), 0, 'active'), tip(16, branchHash(16), 6, 'valid-headers')]);
    expect(await store.database.get(keys.chainTipsKept())).toEqual(Buffer.of(1));
    await add(v.branch.slice(16 - FORK, 17 - FORK));
    await reopen();
    expect(await tips()).toEqual([tip(20, baseHash(20), 0, 'active'), tip(17, branchHash(17), 7, 'valid-headers')]);
  });

  it('invalidateblock on the tip: the mark holds across a restart, reconsiderblock restores replies byte for byte', async () => {
    await add(v.base);
    const tipHash = baseHash(30);
    const replies = async (): Promise<string[]> => [
      await call('getblock', `["${tipHash}", 1]`),
      await call('getblock', `["${tipHash}", 2]`),
      await call('getblock', `["${baseHash(29)}", 1]`),
      await call('getblockheader', `["${tipHash}"]`),
      await call('getbestblockhash'),
      await call('getblockcount'),
    ];
    const before = await replies();
    expect(await call('invalidateblock', `["${tipHash}"]`)).toBe('null');
    expect(hex((await store.tip())!.hash)).toBe(baseHash(29));
    expect(await tips()).toEqual([tip(30, tipHash, 1, 'invalid'), tip(29, baseHash(29), 0, 'active')]);
    expect(JSON.parse(await call('getblock', `["${tipHash}", 1]`))).toMatchObject({ confirmations: -1 });

    await reopen();
    expect(hex((await store.tip())!.hash)).toBe(baseHash(29));
    expect(await tips()).toEqual([tip(30, tipHash, 1, 'invalid'), tip(29, baseHash(29), 0, 'active')]);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);

    expect(await call('reconsiderblock', `["${tipHash}"]`)).toBe('null');
    expect(hex((await store.tip())!.hash)).toBe(tipHash);
    expect(await tips()).toEqual([tip(30, tipHash, 0, 'active')]);
    expect(await replies()).toEqual(before);
    await reopen();
    expect(await replies()).toEqual(before);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
  });

  it('invalidating deep in the active chain switches to the most-work branch; reconsidering switches back', async () => {
    await add(v.base);
    await add(v.branch.slice(0, 29 - FORK)); // branch 11..29: less work than base 30
    const base30 = await call('getblock', `["${baseHash(30)}", 2]`);
    await call('invalidateblock', `["${baseHash(25)}"]`);
    // Base 24 has less work than branch 29: the store reorganizes onto the branch.
    expect(hex((await store.tip())!.hash)).toBe(branchHash(29));
    expect(await tips()).toEqual([tip(30, baseHash(30), 20, 'invalid'), tip(29, branchHash(29), 0, 'active')]);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
    // Reconsidering a descendant clears the marks of its ancestors too (ReconsiderBlock's second loop).
    await call('reconsiderblock', `["${baseHash(28)}"]`);
    expect(hex((await store.tip())!.hash)).toBe(baseHash(30));
    expect(await tips()).toEqual([tip(30, baseHash(30), 0, 'active'), tip(29, branchHash(29), 19, 'valid-fork')]);
    expect(await call('getblock', `["${baseHash(30)}", 2]`)).toBe(base30);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
  });

  it('an invalidation interrupted by a crash is finished when the store is reopened', async () => {
    await add(v.base);
    let steps = 0;
    store.reorgStepHook = (step) => {
      if (step.kind === 'disconnect' && ++steps === 2) throw new Error('simulated crash');
    };
    await expect(store.invalidateBlock(reversedHexToBytes(baseHash(26)))).rejects.toThrow('simulated crash');
    // Two of five blocks disconnected; the marks and the target are on disk.
    expect(hex((await store.tip())!.hash)).toBe(baseHash(28));
    store.reorgStepHook = null;
    await reopen();
    expect(hex((await store.tip())!.hash)).toBe(baseHash(25));
    expect(await tips()).toEqual([tip(30, baseHash(30), 5, 'invalid'), tip(25, baseHash(25), 0, 'active')]);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
  });

  it('invalidating a side-branch block marks its branch and leaves the active chain', async () => {
    await add(v.base);
    await add(v.branch.slice(0, 20 - FORK));
    await call('invalidateblock', `["${branchHash(15)}"]`);
    expect(hex((await store.tip())!.hash)).toBe(baseHash(30));
    expect(await tips()).toEqual([tip(30, baseHash(30), 0, 'active'), tip(20, branchHash(20), 10, 'invalid')]);
    await expect(store.addBlock(v.branch[20 - FORK]!)).resolves.toMatchObject({ status: 'side-chain' });
    await call('reconsiderblock', `["${branchHash(12)}"]`);
    expect(await tips()).toEqual([tip(30, baseHash(30), 0, 'active'), tip(21, branchHash(21), 11, 'valid-headers')]);
  });

  it("errors: zcashd's for an unknown block and bad parameters; refusals before anything changes", async () => {
    await add(v.base.slice(0, 5));
    const unknown = '00'.repeat(31) + '01';
    for (const name of ['invalidateblock', 'reconsiderblock']) {
      expect(await errorOf(methods.get(name)!, `["${unknown}"]`)).toEqual({ code: -5, message: 'Block not found' });
      // UniValue's get_str() throws a runtime_error, which zcashd answers with -1.
      expect(await errorOf(methods.get(name)!, '[1]')).toEqual({ code: -1, message: 'JSON value is not a string as expected' });
      expect(methods.get(name)!).toMatchObject({ category: 'hidden', required: 1, optional: 0 });
    }
    expect(await errorOf(methods.get('invalidateblock')!, `["${REGTEST.genesisHash}"]`)).toEqual({
      code: -20,
      message: 'The genesis block cannot be invalidated: the chain would have no block left',
    });
    expect(methods.get('getchaintips')!).toMatchObject({ category: 'blockchain', required: 0, optional: 0 });
    expect(hex((await store.tip())!.hash)).toBe(baseHash(4));
    expect(await store.database.get(keys.invalid(reversedHexToBytes(REGTEST.genesisHash)))).toBeUndefined();
  });

  it('a store that takes no writes refuses them with -20 and keeps answering getchaintips', async () => {
    await add(v.base.slice(0, 5));
    await store.close();
    await open({ minFreeBytes: Number.MAX_SAFE_INTEGER });
    const err = await errorOf(methods.get('invalidateblock')!, `["${baseHash(4)}"]`);
    expect(err.code).toBe(-20);
    expect(err.message).toMatch(/^Disk space is low!/);
    expect(hex((await store.tip())!.hash)).toBe(baseHash(4));
    expect(await tips()).toEqual([tip(4, baseHash(4), 0, 'active')]);
  });
});

describe('chain tips of a store started from a checkpoint', () => {
  it('has the one tip of its headers and the blocks after them, and no parent row for the first header', async () => {
    const dir = tempDir('block-tree-checkpoint');
    const store = await openChainStore({ datadir: dir.path, network: MAINNET });
    try {
      await startAtSaplingCheckpoint(store);
      const tips = await store.chainTips();
      expect(tips).toEqual([{ hash: (await store.tip())!.hash, height: 419202, branchLength: 0, status: 'active' }]);
      const rows: Buffer[] = [];
      for await (const k of store.database.keys({ gt: keys.chainTipsKept(), lt: Buffer.of(keys.chainTipPrefix + 1) })) rows.push(k);
      expect(rows.map((k) => hex(k.subarray(1)))).toEqual([hex((await store.tip())!.hash)]);
    } finally {
      await store.close();
      dir.remove();
    }
  });
});
