// Testnet 0..10 imported from genesis: the chain-state members of getblock and
// getblockchaininfo as zcashd prints them for a node synced from genesis (spec §2.3, §3.3:
// slow-start subsidy 62500 · h, founders' reward inside the coinbase outputs, no shielded value).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TESTNET } from '../../../src/chain/network.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { openChainStore, type ChainStore } from '../../../src/store/index.js';
import { resultOf } from '../../support/call.js';
import { tempDir, testnetChain } from '../../support/store.js';
import { readJsonVector } from '../../support/vectors.js';

const EMPTY_SPROUT = readJsonVector<{ empty_roots: Record<string, { rpc_hex: string }> }>('roots.json').empty_roots
  .sprout_empty_root_depth29!.rpc_hex;
const zat = (n: number): string => `${(n / 1e8).toFixed(8)}`;

describe('testnet 0..10 from genesis', () => {
  const dir = tempDir('testnet-state');
  let store: ChainStore;
  let m: Map<string, RpcMethod>;

  beforeAll(async () => {
    store = await openChainStore({ datadir: dir.path, network: TESTNET });
    for (const b of testnetChain()) await store.addBlock(b);
    m = new Map(storeMethods(store, { clock: () => 1752983473 }).map((x) => [x.name, x]));
  });
  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  it('getblock h (1..10): anchor, the slow-start supply, every pool monitored, no trees', async () => {
    for (let h = 1; h <= 10; h++) {
      const text = await resultOf(m.get('getblock')!, `["${h}"]`);
      const total = (62500 * h * (h + 1)) / 2;
      const delta = 62500 * h;
      expect(text).toContain(`"anchor":"${EMPTY_SPROUT}",`);
      expect(text).toContain(
        `"chainSupply":{"monitored":true,"chainValue":${zat(total)},"chainValueZat":${total},"valueDelta":${zat(delta)},"valueDeltaZat":${delta}},`,
      );
      expect(text).toContain(
        `{"id":"transparent","monitored":true,"chainValue":${zat(total)},"chainValueZat":${total},"valueDelta":${zat(delta)},"valueDeltaZat":${delta}},`,
      );
      expect(text).toContain('"trees":{},');
    }
  });

  it('getblockchaininfo: totals, no Sprout commitments, still in initial download', async () => {
    const text = await resultOf(m.get('getblockchaininfo')!, '[]');
    expect(text.startsWith('{"chain":"test","blocks":10,"initial_block_download_complete":false,"headers":10,')).toBe(true);
    expect(text).toContain('"commitments":0,"chainSupply":{"monitored":true,"chainValue":0.03437500,"chainValueZat":3437500},');
  });
});
