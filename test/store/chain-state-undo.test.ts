// Disconnecting a shielded block restores the chain state exactly: a store started at mainnet
// 419200 connects the real 419201 (5 Sapling outputs, 2 JoinSplits); connecting 419202 (a
// Sapling spend, 2 outputs, a JoinSplit) and disconnecting it again through the chain-state
// indexer leaves every pool, tree frontier, anchor and coin as 419201 left them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { defaultPoolHashers } from '../../src/state/hashers.js';
import { ChainStateIndex, chainStateKeys } from '../../src/store/indexes/chain-state-index.js';
import type { ChainBlock } from '../../src/store/indexes/indexer.js';
import { openChainStore, type ChainStore } from '../../src/store/index.js';
import { WriteOverlay } from '../../src/store/overlay.js';
import { expandOps } from '../../src/store/block-data.js';
import { readHexVector, readJsonVector } from '../support/vectors.js';
import { tempDir } from '../support/store.js';

const block = (h: number): Uint8Array => readHexVector('blocks', 'mainnet', `${h}.hex`);
const SAPLING_419202 = readJsonVector<{ roots: { height: number; pool: string; internal_hex: string }[] }>('roots.json').roots.find(
  (r) => r.height === 419202 && r.pool === 'sapling',
)!.internal_hex;

describe('chain-state undo across a shielded block', () => {
  const dir = tempDir('cs-undo');
  let store: ChainStore;

  beforeAll(async () => {
    store = await openChainStore({ datadir: dir.path, network: MAINNET });
    await store.startFromCheckpoint({
      height: 419200,
      headers: [419199, 419200].map((h) => decodeBlock(block(h)).header.bytes),
      chainWork: 1n << 60n,
      chainTx: null,
      state: {
        sprout: '000000',
        sapling: '000000',
        orchard: '000000',
        history: null,
        totals: { sprout: 0n, sapling: 0n, orchard: 0n, lockbox: 0n },
      },
    });
    expect((await store.addBlock(block(419201))).status).toBe('connected');
  });
  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  it('connect then disconnect of 419202 is the identity on the state after 419201', async () => {
    const db = store.database;
    const snapshot = async (view: { get(k: Buffer): Buffer | undefined }, keysToRead: Buffer[]): Promise<(string | null)[]> =>
      keysToRead.map((k) => view.get(k)?.toString('hex') ?? null);
    const decoded = decodeBlock(block(419202));
    const chainBlock: ChainBlock = {
      hash: decoded.hash,
      height: 419202,
      header: decoded.header.bytes,
      txids: decoded.transactions.map((t) => t.txid),
      block: async () => decoded,
    };
    const index = new ChainStateIndex({ network: MAINNET, hashers: defaultPoolHashers() });
    const overlay = new WriteOverlay(db);
    const connected = await index.connect(chainBlock, overlay);
    overlay.apply(connected.ops);
    // Every key the connect wrote or deleted, read before and after the round trip.
    const touched = expandOps(connected.ops)
      .map((op) => op.key)
      .filter((k) => !k.equals(chainStateKeys.blockState(decoded.hash)));
    const before = await snapshot({ get: (k) => db.getSync(k) }, touched);

    const tipAfter = index.tip(overlay)!;
    expect(Buffer.from(tipAfter.trees.sapling.root()).toString('hex')).toBe(SAPLING_419202);
    expect([tipAfter.trees.sapling.size, tipAfter.totals.sapling]).toEqual([7, 136171583n - 10000n]);

    overlay.apply(await index.disconnect(chainBlock, connected.undo!));
    expect(await snapshot(overlay, touched)).toEqual(before);
    const restored = index.tip(overlay)!;
    expect([restored.height, restored.trees.sapling.size, restored.totals.sapling, restored.totals.sprout]).toEqual([
      419201,
      5,
      136171583n,
      28770000n,
    ]);
  });
});
