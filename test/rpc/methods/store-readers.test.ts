// The rpc methods take their readers from the store that composes them (ChainStore's address
// index reader), never its database: a store whose `database` cannot be reached serves the
// insight explorer methods on the real mainnet blocks 0..20 as zcashd does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../../src/chain/network.js';
import { parseJson, type JsonValue } from '../../../src/json/index.js';
import { NO_EXPERIMENTAL_FEATURES } from '../../../src/rpc/methods/control/experimental-features.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { openChainStore, type ChainStore } from '../../../src/store/chain.js';
import type { ChainStoreReader } from '../../../src/store/types.js';
import { mainnetChain, tempDir } from '../../support/store.js';
import { readJsonVector } from '../../support/vectors.js';

const FOUNDERS = 't3Vz22vK5z2LcKEdg16Yv4FFneEL1zg9ojd';
const COINBASE_TXIDS = readJsonVector<{ blocks: { where: string; height: number; txids: string[] }[] }>('lightwalletd', 'index.json')
  .blocks.filter((b) => b.where.startsWith('mainnet_genesis') && b.height > 0)
  .map((b) => b.txids[0]!);

/** The store as rpc sees it, with every reach for its LevelDB handle refused. */
function withoutDatabase(store: ChainStore): ChainStoreReader {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'database') throw new Error('rpc reached for the store database');
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('rpc readers from the composition root', () => {
  const dir = tempDir('rpc-readers');
  let store: ChainStore;
  beforeAll(async () => {
    store = await openChainStore({ datadir: dir.path, network: MAINNET });
    for (const b of mainnetChain()) await store.addBlock(b);
  });
  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  it("serves getaddresstxids through the store's address index reader, not its database", async () => {
    const methods = storeMethods(withoutDatabase(store), { features: { ...NO_EXPERIMENTAL_FEATURES, insightExplorer: true } });
    const method = methods.find((m) => m.name === 'getaddresstxids')!;
    expect(method).toBeDefined();
    const raw = await method.call(parseJson(`["${FOUNDERS}"]`) as JsonValue[], { network: MAINNET, requestStop: () => {} });
    expect(COINBASE_TXIDS).toHaveLength(20);
    expect(JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'))).toEqual(COINBASE_TXIDS);
    expect(() => (withoutDatabase(store) as unknown as { database: unknown }).database).toThrow('rpc reached for the store database');
  });
});
