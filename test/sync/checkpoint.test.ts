// A checkpoint start fetched from a running node: a zecrpc node holding mainnet 0..20 is asked
// about height 10 as zcashd would be (headers, getblock, z_gettreestate); a fresh store starts
// there, imports 11..20 from the same node, and then agrees with it on every member it can
// know, while transparent value and supply show as not monitored.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { startNode, type ServeHandle } from '../../src/cli/serve.js';
import { parseJson, type JsonObject } from '../../src/json/index.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { openChainStore, type ChainStore } from '../../src/store/index.js';
import { ImportError } from '../../src/sync/block-sink.js';
import { checkpointFromJson, fetchCheckpoint, readCheckpointFile } from '../../src/sync/checkpoint.js';
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
    const state = { sprout: '000000', sapling: '000000', orchard: '000000' };
    const shape = (json: unknown) => () => checkpointFromJson(json as Parameters<typeof checkpointFromJson>[0]);
    expect(shape([])).toThrow('checkpoint: expected a JSON object');
    expect(shape({ height: 5, headers: [5], chainWork: '1', state })).toThrow('checkpoint: every header must be a hex string');
    expect(shape({ height: 5, headers: ['00'], chainWork: 1, state })).toThrow('checkpoint: chainWork must be a string');
    expect(shape({ height: 5, headers: ['00'], chainWork: '1' })).toThrow('checkpoint: state must be an object of tree states');
    expect(shape({ height: 5, headers: ['00'], chainWork: '1', state: { sprout: '00' } })).toThrow(
      "checkpoint: state.sapling must be a tree state in hex (z_gettreestate's finalState)",
    );
    expect(shape({ height: 5, headers: ['00'], chainWork: '1', state: { ...state, totals: { shielded: '1' } } })).toThrow(
      'checkpoint: state.totals has no pool "shielded"',
    );
    expect(shape({ height: 5, headers: ['00'], chainWork: '1', chainTx: -2, state })).toThrow(
      'checkpoint: chainTx must be a non-negative integer or null',
    );
  });

  it('reads a checkpoint file, and names one it cannot read or that never ends', async () => {
    const json = {
      height: 5,
      headers: ['00'],
      chainWork: '31',
      chainTx: 7,
      state: { sprout: '000000', sapling: '000000', orchard: '000000' },
    };
    const file = join(targetDir.path, 'checkpoint.json');
    writeFileSync(file, JSON.stringify(json));
    expect(await readCheckpointFile(file)).toEqual(checkpointFromJson(json));
    await expect(readCheckpointFile(`${file}.gone`)).rejects.toThrow(`cannot read checkpoint file ${file}.gone: ENOENT`);
    if (!existsSync('/dev/zero')) return;
    await expect(readCheckpointFile('/dev/zero')).rejects.toThrow(
      new ImportError('cannot read checkpoint file /dev/zero: /dev/zero is larger than 16777216 bytes, too large for a checkpoint file'),
    );
  });

  it('checks every header as a block header before taking any: decoding, network, Equihash, target, genesis, work', async () => {
    const chain = mainnetChain();
    const headerHex = (h: number) => Buffer.from(decodeBlock(chain[h]!).header.bytes).toString('hex');
    const state = { sprout: '000000', sapling: '000000', orchard: '000000' };
    const start = async (headers: string[], height: number, chainWork = '0x10000000000') => {
      const dir = tempDir('cp-refused');
      const store = await openChainStore({ datadir: dir.path, network: MAINNET });
      try {
        await store.startFromCheckpoint(checkpointFromJson({ height, headers, chainWork, state }));
        return 'started';
      } catch (e) {
        expect(await store.tip()).toBeNull(); // nothing was taken
        return (e as Error).message;
      } finally {
        await store.close();
        dir.remove();
      }
    };
    expect(await start(['00'.repeat(100)], 5)).toMatch(/^checkpoint header 0 does not decode/);
    expect(await start(['00'.repeat(177)], 5)).toBe('checkpoint header 0 has 36 bytes after it'); // an empty solution, then bytes
    expect(await start(['00'.repeat(140) + '00'], 5)).toBe('checkpoint header 0 has a 0-byte Equihash solution; mainnet headers have 1344');
    const zeroSolution = headerHex(5).slice(0, 2 * 143) + '00'.repeat(1344);
    expect(await start([zeroSolution], 5)).toMatch(/^checkpoint header 0 \([0-9a-f]{64}\) is refused \(invalid-solution\)/);
    expect(await start([headerHex(5)], 4)).toBe('started'); // a header alone says nothing of its height
    expect(await start([headerHex(4), headerHex(5)], 0)).toBe('checkpoint: 2 headers cannot end at height 0');
    expect(await start([headerHex(1), headerHex(2)], 1)).toBe(
      'checkpoint header 0 is at height 0 but is not the mainnet genesis block 00040fe8ec8471911baa1db1266ea15dd06b4a8a5c453883c000b031973dce08',
    );
    expect(await start([headerHex(4), headerHex(5)], 5, '1')).toBe('checkpoint: its chain work is less than the work of its own headers');
    expect(await start([headerHex(3), headerHex(5)], 5)).toBe('checkpoint headers do not link: header 1 does not follow header 0');
  });

  it('refuses a node whose getblockheader answers with the header of another block', async () => {
    const client = await JsonRpcClient.create(url);
    const original = client.batch.bind(client);
    // The node answers every getblockheader with the header of the block after the one asked for.
    client.batch = (async (calls: { method: string; params: unknown[] }[]) => {
      if (calls[0]?.method !== 'getblockheader') return original(calls);
      const hashes = calls.map((c) => c.params[0] as string);
      const next = await original(hashes.map((_, i) => ({ method: 'getblockhash', params: [i + 1] })));
      return original(next.map((hash) => ({ method: 'getblockheader', params: [hash, false] })));
    }) as typeof client.batch;
    await expect(fetchCheckpoint(client, 3)).rejects.toThrow(/getblockheader [0-9a-f]{64} false returned the header of [0-9a-f]{64}$/);
  });
});
