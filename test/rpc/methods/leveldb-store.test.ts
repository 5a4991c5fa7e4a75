// The read methods over the real LevelDB chain store (src/store): the same answers as the
// in-memory fixture for mainnet 0..20, and side-chain behaviour after a real reorganization
// (the regtest-reorg chains: base 0..30, branch 11..45 that takes over).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET, REGTEST } from '../../../src/chain/network.js';
import { decodeBlock } from '../../../src/codec/block.js';
import { type JsonNumber, type JsonObject, parseJson } from '../../../src/json/index.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { openChainStore, type ChainStore } from '../../../src/store/index.js';
import { regtestReorg, tempDir } from '../../support/store.js';
import { errorOf, resultOf } from '../../support/call.js';
import { MemoryChainStore, mainnetGenesisRun } from '../../support/memory-store.js';

const CLOCK = { clock: () => 1752983473 };
type Methods = Map<string, RpcMethod>;
const byName = (list: RpcMethod[]): Methods => new Map(list.map((x) => [x.name, x]));
const num = (v: unknown): string => (v as JsonNumber).text;

describe('mainnet 0..20 in the LevelDB store', () => {
  const dir = tempDir('rpc-mainnet');
  let store: ChainStore;
  let leveldb: Methods;
  let memory: Methods;
  const blocks = mainnetGenesisRun();

  beforeAll(async () => {
    store = await openChainStore({ datadir: dir.path, network: MAINNET });
    for (const b of blocks) await store.addBlock(b);
    leveldb = byName(storeMethods(store, CLOCK));
    memory = byName(storeMethods(new MemoryChainStore(MAINNET, blocks), CLOCK));
  });
  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  it('answers every height, verbosity and header query exactly like the fixture store', async () => {
    for (let h = 0; h <= 20; h++) {
      for (const v of [0, 1, 2]) {
        const params = `["${h}", ${v}]`;
        expect(await resultOf(leveldb.get('getblock')!, params)).toBe(await resultOf(memory.get('getblock')!, params));
      }
      const hash = JSON.parse(await resultOf(leveldb.get('getblockhash')!, `[${h}]`)) as string;
      for (const verbose of ['true', 'false']) {
        const params = `["${hash}", ${verbose}]`;
        expect(await resultOf(leveldb.get('getblockheader')!, params)).toBe(await resultOf(memory.get('getblockheader')!, params));
      }
    }
    for (const name of ['getblockcount', 'getbestblockhash', 'getdifficulty']) {
      expect(await resultOf(leveldb.get(name)!, '[]')).toBe(await resultOf(memory.get(name)!, '[]'));
    }
  });

  it("getrawtransaction through the store's txid index", async () => {
    const block7 = decodeBlock(blocks[7]!);
    const txid = block7.transactions[0]!.txidHex;
    const params = `["${txid}", 1]`;
    const text = await resultOf(leveldb.get('getrawtransaction')!, params);
    expect(text).toBe(await resultOf(memory.get('getrawtransaction')!, params));
    expect(
      text.endsWith(
        `"blockhash":"${block7.hashHex}","height":7,"confirmations":14,"time":${block7.header.time},"blocktime":${block7.header.time}}`,
      ),
    ).toBe(true);
    const genesisCoinbase = decodeBlock(blocks[0]!).transactions[0]!.txidHex;
    expect((await errorOf(leveldb.get('getrawtransaction')!, `["${genesisCoinbase}"]`)).code).toBe(-5);
  });

  it("getblockchaininfo reports the store's own size on disk", async () => {
    const obj = parseJson(await resultOf(leveldb.get('getblockchaininfo')!, '[]')) as JsonObject;
    expect(num(obj.get('blocks'))).toBe('20');
    expect(Number(num(obj.get('size_on_disk')))).toBeGreaterThan(blocks.reduce((a, b) => a + b.length, 0));
  });
});

describe('regtest after a reorganization in the LevelDB store', () => {
  const dir = tempDir('rpc-reorg');
  const v = regtestReorg();
  const baseHash = (h: number): string => v.manifest.base[h]!.hash;
  const branchHash = (h: number): string => v.manifest.branch[h - v.manifest.forkHeight - 1]!.hash;
  let store: ChainStore;
  let m: Methods;

  beforeAll(async () => {
    store = await openChainStore({ datadir: dir.path, network: REGTEST });
    for (const b of v.base) await store.addBlock(b);
    for (const b of v.branch) await store.addBlock(b);
    m = byName(storeMethods(store, CLOCK));
  });
  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  it('the branch is the active chain', async () => {
    expect(await resultOf(m.get('getblockcount')!, '[]')).toBe('45');
    expect(await resultOf(m.get('getbestblockhash')!, '[]')).toBe(`"${branchHash(45)}"`);
    expect(await resultOf(m.get('getblockhash')!, '[20]')).toBe(`"${branchHash(20)}"`);
  });

  it('a reorganized-out block: confirmations -1, no next block, still served by hash', async () => {
    const obj = parseJson(await resultOf(m.get('getblock')!, `["${baseHash(20)}"]`)) as JsonObject;
    expect(obj.get('hash')).toBe(baseHash(20));
    expect(num(obj.get('confirmations'))).toBe('-1');
    expect(num(obj.get('height'))).toBe('20');
    expect(obj.get('previousblockhash')).toBe(baseHash(19));
    expect(obj.has('nextblockhash')).toBe(false);
  });

  it('the fork point is on the active chain with the branch as its successor', async () => {
    const obj = parseJson(await resultOf(m.get('getblock')!, '["10"]')) as JsonObject;
    expect(obj.get('hash')).toBe(baseHash(10));
    expect(num(obj.get('confirmations'))).toBe('36');
    expect(obj.get('nextblockhash')).toBe(branchHash(11));
  });

  it('getrawtransaction in a reorganized-out block', async () => {
    const txid = (parseJson(await resultOf(m.get('getblock')!, `["${baseHash(20)}"]`)) as JsonObject).get('tx') as string[];
    const text = await resultOf(m.get('getrawtransaction')!, `["${txid[0]}", 1, "${baseHash(20)}"]`);
    expect(text.startsWith('{"in_active_chain":false,"hex":"')).toBe(true);
    expect(text.endsWith(`"blockhash":"${baseHash(20)}","height":-1,"confirmations":0}`)).toBe(true);
    // Not in the best chain's txid index.
    expect(await errorOf(m.get('getrawtransaction')!, `["${txid[0]}"]`)).toEqual({
      code: -5,
      message: 'No such mempool or blockchain transaction. Use gettransaction for wallet transactions.',
    });
  });

  it('getblockchaininfo on regtest: no retargeting (difficulty 1), regtest majority window', async () => {
    const text = await resultOf(m.get('getblockchaininfo')!, '[]');
    // The vectors' times are 2011's, so at the pinned clock the tip is older than a day: still
    // in initial download (regtest's minimum chain work is 0).
    expect(
      text.startsWith(
        `{"chain":"regtest","blocks":45,"initial_block_download_complete":false,"headers":45,"bestblockhash":"${branchHash(45)}","difficulty":1,"verificationprogress":1,`,
      ),
    ).toBe(true);
    // EstimateNetHeight without Blossom: 45 + (clock − median time of blocks 35..45) / 150, to tens.
    const times = v.branch
      .slice(-11)
      .map((b) => decodeBlock(b).header.time)
      .sort((a, b) => a - b);
    const estimated = 45 + Math.floor((CLOCK.clock() - times[5]!) / 150);
    expect(text).toContain(`"estimatedheight":${Math.floor((estimated + 5) / 10) * 10},"commitments":0,"chainSupply":{"monitored":true,`);
    expect(text).toContain('"enforce":{"status":false,"found":46,"required":750,"window":1000}');
    // Regtest activates no upgrade without -nuparams: nothing listed, Sprout branch ids; no wallet
    // awaits notification.
    expect(text.endsWith('"upgrades":{},"consensus":{"chaintip":"00000000","nextblock":"00000000"},"fullyNotified":true}')).toBe(true);
  });
});
