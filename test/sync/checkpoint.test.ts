// A checkpoint start fetched from a running node: a zecrpc node holding mainnet 0..20 is asked
// about height 10 as zcashd would be (headers, getblock, z_gettreestate); a fresh store starts
// there, imports 11..20 from the same node, and then agrees with it on every member it can
// know, while transparent value and supply show as not monitored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { startNode, type ServeHandle } from '../../src/cli/serve.js';
import { parseJson, type JsonObject } from '../../src/json/index.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { openChainStore, type ChainStore } from '../../src/store/index.js';
import { checkpointFromJson, fetchCheckpoint } from '../../src/sync/checkpoint.js';
import { JsonRpcClient } from '../../src/sync/rpc-client.js';
import { importFromUpstream } from '../../src/sync/upstream.js';
import { resultOf } from '../support/call.js';
import { mainnetChain, tempDir } from '../support/store.js';

describe('checkpoint start from a node', () => {
  const sourceDir = tempDir('cp-source');
  const targetDir = tempDir('cp-target');
  let node: ServeHandle;
  let target: ChainStore;
  let url: string;

  beforeAll(async () => {
    const source = await openChainStore({ datadir: sourceDir.path, network: MAINNET });
    for (const b of mainnetChain()) await source.addBlock(b);
    await source.close();
    node = await startNode([`-datadir=${sourceDir.path}`, '-rpcport=0', '-rpcuser=u', '-rpcpassword=p'], { log: false });
    url = `http://u:p@127.0.0.1:${node.server.port}/`;
    target = await openChainStore({ datadir: targetDir.path, network: MAINNET });
  }, 60_000);
  afterAll(async () => {
    await target.close();
    await node.shutdown();
    sourceDir.remove();
    targetDir.remove();
  });

  it('starts at 10, follows to 20, and answers like the node that synced from genesis', async () => {
    const cp = await fetchCheckpoint(await JsonRpcClient.create(url), 10);
    expect([cp.height, cp.headers.length, cp.chainTx, cp.state.history]).toEqual([10, 11, null, 'unknown']);
    expect(cp.state.totals).toEqual({ sprout: 0n, sapling: 0n, orchard: 0n, lockbox: 0n });
    await target.startFromCheckpoint(cp);
    const result = await importFromUpstream(target, url, { progress: 'silent' });
    expect(result.added).toBe(10);

    const call = async (store: 'source' | 'target', method: string, params: string): Promise<JsonObject> => {
      const methods = store === 'target' ? storeMethods(target) : null;
      if (methods)
        return parseJson(
          await resultOf(
            methods.find((m) => m.name === method)!,
            params,
          ),
        ) as JsonObject;
      const client = await JsonRpcClient.create(url);
      return parseJson(JSON.stringify(await client.call(method, JSON.parse(params) as unknown[]))) as JsonObject;
    };
    const mine = await call('target', 'getblock', '["20"]');
    const theirs = await call('source', 'getblock', '["20"]');
    for (const key of ['hash', 'chainwork', 'anchor', 'finalsaplingroot', 'chainhistoryroot', 'previousblockhash']) {
      expect([key, mine.get(key)]).toEqual([key, theirs.get(key)]);
    }
    const text = await resultOf(
      storeMethods(target).find((m) => m.name === 'getblock')!,
      '["20"]',
    );
    // Block 20 spends nothing, so its own deltas are known (62500 · 20); the totals before the
    // checkpoint's coins are not.
    expect(text).toContain(
      '"chainSupply":{"monitored":false,"valueDelta":0.01250000,"valueDeltaZat":1250000},"valuePools":[{"id":"transparent","monitored":false,"valueDelta":0.01250000,"valueDeltaZat":1250000},',
    );
    expect(text).toContain(
      '{"id":"sprout","monitored":true,"chainValue":0.00000000,"chainValueZat":0,"valueDelta":0.00000000,"valueDeltaZat":0}',
    );
  });

  it('reads the file form and refuses a malformed one', () => {
    expect(() =>
      checkpointFromJson({
        height: -1,
        headers: ['00'],
        chainWork: '1',
        state: { sprout: '000000', sapling: '000000', orchard: '000000' },
      }),
    ).toThrow('checkpoint: height must be a non-negative integer');
    expect(() =>
      checkpointFromJson({ height: 5, headers: ['zz'], chainWork: '1', state: { sprout: '000000', sapling: '000000', orchard: '000000' } }),
    ).toThrow('checkpoint: header 0 is not hex');
  });
});
