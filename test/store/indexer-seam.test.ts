// The connect/disconnect seam: an indexer's operations land in the batch that moves the tip,
// its undo blob comes back at disconnect, and after a reorganization the index equals that of a
// store that never saw the losing branch.
import { afterAll, describe, expect, it } from 'vitest';
import { REGTEST } from '../../src/chain/network.js';
import type { BatchOp } from '../../src/store/block-data.js';
import type { ChainBlock, Indexer, IndexerConnect, IndexReadView } from '../../src/store/indexes/indexer.js';
import { TxIndex } from '../../src/store/indexes/tx-index.js';
import { checkStoreIntegrity, openChainStore, type ChainStore } from '../../src/store/index.js';
import { regtestReorg, tempDir } from '../support/store.js';

/**
 * Keeps one running total (`Z` → sum of coinbase output values of the active chain) and, per
 * block, nothing else: disconnecting needs the previous total, which only the undo blob has.
 */
class CoinbaseTotalIndexer implements Indexer {
  readonly name = 'coinbase-total';
  readonly undoTag = 0x7a;
  readonly seen: string[] = [];
  static readonly KEY = Buffer.from('Z');

  total(view: IndexReadView): bigint {
    const v = view.get(CoinbaseTotalIndexer.KEY);
    return v ? v.readBigUInt64LE(0) : 0n;
  }

  async connect(block: ChainBlock, view: IndexReadView): Promise<IndexerConnect> {
    const decoded = await block.block();
    const minted = BigInt(decoded.transactions[0]!.data.vout.reduce((s, o) => s + o.value, 0));
    const before = this.total(view);
    this.seen.push(`+${block.height}`);
    const undo = Buffer.alloc(8);
    undo.writeBigUInt64LE(before, 0);
    const value = Buffer.alloc(8);
    value.writeBigUInt64LE(before + minted, 0);
    return { ops: [{ type: 'put', key: CoinbaseTotalIndexer.KEY, value }], undo };
  }

  disconnect(block: ChainBlock, undo: Uint8Array | null): BatchOp[] {
    this.seen.push(`-${block.height}`);
    if (!undo) throw new Error(`no undo for block ${block.height}`);
    return [{ type: 'put', key: CoinbaseTotalIndexer.KEY, value: Buffer.from(undo) }];
  }
}

async function storeWith(
  label: string,
  blocks: Uint8Array[],
): Promise<{ store: ChainStore; indexer: CoinbaseTotalIndexer; remove: () => void }> {
  const dir = tempDir(label);
  const indexer = new CoinbaseTotalIndexer();
  const store = await openChainStore({ datadir: dir.path, network: REGTEST, indexers: [new TxIndex(), indexer], addressIndex: false });
  for (const b of blocks) await store.addBlock(b);
  return { store, indexer, remove: dir.remove };
}

describe('indexers across a reorganization', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanup) await c();
  });

  it('end exactly where a store that never saw the losing branch ends', async () => {
    const { base, branch, manifest } = regtestReorg();
    const a = await storeWith('seam-a', [...base, ...branch]);
    const b = await storeWith('seam-b', [...base.slice(0, manifest.forkHeight + 1), ...branch]);
    cleanup.push(
      async () => {
        await a.store.close();
        a.remove();
      },
      async () => {
        await b.store.close();
        b.remove();
      },
    );

    const view = (s: ChainStore): IndexReadView => ({ get: (k) => s.database.getSync(k) });
    const tipA = await a.store.tip();
    expect(tipA!.height).toBe(manifest.branch[manifest.branch.length - 1]!.height);
    expect(a.indexer.total(view(a.store))).toBe(b.indexer.total(view(b.store)));
    // Regtest coinbase-only blocks mint a positive amount each, so the total says which blocks count.
    expect(a.indexer.total(view(a.store))).toBeGreaterThan(0n);
    // Base 11..30 were connected, then disconnected tip first when the branch took over.
    const disconnects = a.indexer.seen.filter((s) => s.startsWith('-'));
    expect(disconnects).toEqual(Array.from({ length: 20 }, (_, i) => `-${30 - i}`));
    // No undo record outlives its block's time on the active chain: one per connected block.
    let undoRecords = 0;
    for await (const _ of a.store.database.keys({ gte: Buffer.from('U'), lt: Buffer.from('V') })) undoRecords++;
    expect(undoRecords).toBe(tipA!.height + 1);
  });
});

describe('a reorganization that cannot be planned', () => {
  it('leaves the store on its chain, and it still opens', async () => {
    const { base, branch, manifest } = regtestReorg();
    const dir = tempDir('seam-fail');
    // An indexer that cannot undo: every switch away from the base chain fails while planning.
    const stuck: Indexer = {
      name: 'stuck',
      undoTag: 0x7b,
      connect: () => ({ ops: [] }),
      disconnect: () => {
        throw new Error('cannot undo');
      },
    };
    const open = () => openChainStore({ datadir: dir.path, network: REGTEST, indexers: [new TxIndex(), stuck], addressIndex: false });
    let store = await open();
    for (const b of base) await store.addBlock(b);
    let refused: unknown = null;
    for (const b of branch) {
      try {
        await store.addBlock(b);
      } catch (e) {
        refused ??= e;
      }
    }
    expect((refused as Error).message).toContain('cannot undo');
    expect((await store.tip())!.height).toBe(manifest.base.length - 1);
    await store.close();
    store = await open();
    expect(
      Buffer.from((await store.tip())!.hash)
        .reverse()
        .toString('hex'),
    ).toBe(manifest.base[manifest.base.length - 1]!.hash);
    await store.close();
    dir.remove();
  });
});

describe('a block whose state transition fails', () => {
  it('is refused without blocking the next block', async () => {
    const { base } = regtestReorg();
    const dir = tempDir('seam-refuse');
    let refuseNext = false;
    const picky: Indexer = {
      name: 'picky',
      undoTag: 0x7c,
      connect: (block) => {
        if (refuseNext && block.height === 2) throw new Error('refused once');
        return { ops: [] };
      },
      disconnect: () => [],
    };
    const store = await openChainStore({ datadir: dir.path, network: REGTEST, indexers: [new TxIndex(), picky], addressIndex: false });
    await store.addBlock(base[0]!);
    await store.addBlock(base[1]!);
    refuseNext = true;
    await expect(store.addBlock(base[2]!)).rejects.toThrow('refused once');
    refuseNext = false;
    // The same block, and the chain after it, still go in: the failed write left nothing pending.
    expect((await store.addBlock(base[2]!)).status).toBe('connected');
    expect((await store.addBlock(base[3]!)).status).toBe('connected');
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
    await store.close();
    dir.remove();
  });
});
