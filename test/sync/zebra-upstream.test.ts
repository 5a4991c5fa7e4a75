// Following today's chain from a Zebra node: a Zebra-shaped node (test/support/zebra-node.ts)
// serves the real nu6.3 blocks; a store started from a checkpoint it gives imports and follows
// the blocks after it, and the pool totals it carries equal Zebra's own chainValueZat.
//
// The vectors hold no Sapling or Orchard tree state at these heights, so the node is handed the
// empty frontier for both: not mainnet's or testnet's. Nothing before NU6.3's activation depends
// on them (the history tree before a checkpoint is unknown, so those headers' commitments go
// unverified, and Orchard anchors before a checkpoint are reported, not refused).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET, TESTNET, type NetworkParams } from '../../src/chain/network.js';
import { blockWork } from '../../src/chain/pow.js';
import { decodeBlockHeader } from '../../src/codec/block.js';
import { parseJson, type JsonNumber, type JsonObject, type JsonValue } from '../../src/json/index.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { openChainStore, type ChainStore } from '../../src/store/index.js';
import { fetchCheckpoint } from '../../src/sync/checkpoint.js';
import { JsonRpcClient } from '../../src/sync/rpc-client.js';
import { followUpstream, importFromUpstream } from '../../src/sync/upstream.js';
import { resultOf } from '../support/call.js';
import { tempDir } from '../support/store.js';
import { waitFor } from '../support/upstream-server.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { vi } from 'vitest';
import { runImport } from '../../src/cli/import.js';
import { vectorPath } from '../support/vectors.js';
import { NU63_RANGE, ZebraNode, nu63Block, zebraPools, type Nu63Network } from '../support/zebra-node.js';

const PARAMS: Record<Nu63Network, NetworkParams> = { mainnet: MAINNET, testnet: TESTNET };
const EMPTY_FRONTIERS = { sapling: { finalState: '000000' }, orchard: { finalState: '000000' } };

async function post(url: string, body: unknown): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return res.text();
}

/** `valuePools` of our getblock 1 for `height`, by id: the total in zatoshis, or null when not monitored. */
async function ourTotals(store: ChainStore, height: number): Promise<Map<string, bigint | null>> {
  const getblock = storeMethods(store).find((m) => m.name === 'getblock')!;
  const block = parseJson(await resultOf(getblock, `["${height}"]`)) as JsonObject;
  const out = new Map<string, bigint | null>();
  for (const pool of block.get('valuePools') as JsonValue[]) {
    const p = pool as JsonObject;
    const zat = p.get('chainValueZat') as JsonNumber | undefined;
    out.set(p.get('id') as string, zat === undefined ? null : BigInt(zat.text));
  }
  return out;
}

/**
 * Our getblock's totals after `height` are Zebra's chainValueZat for every pool, Ironwood from
 * NU6.3 on; the transparent total is not monitored (the coins before the checkpoint are unknown).
 */
async function expectZebraTotals(store: ChainStore, network: Nu63Network, height: number): Promise<void> {
  const ours = await ourTotals(store, height);
  const ids = ['transparent', 'sprout', 'sapling', 'orchard', 'lockbox'];
  if (height >= NU63_RANGE[network].activation) ids.push('ironwood');
  expect([height, [...ours.keys()]]).toEqual([height, ids]);
  for (const p of zebraPools(network, height)) {
    const want = p.id === 'transparent' ? null : BigInt(p.chainValueZat);
    if (ours.has(p.id)) expect([height, p.id, ours.get(p.id)]).toEqual([height, p.id, want]);
  }
}

const commitmentUnverified = (log: string[], hash: string, height: number): boolean =>
  log.some((l) => l.includes(`hashBlockCommitments) of block ${hash} at ${height}: the history tree before it is unknown`));

describe('the Zebra-shaped node speaks as Zebra 6.2.3 does', () => {
  const zebra = new ZebraNode('testnet');
  let url: string;
  beforeAll(async () => {
    url = await zebra.start();
  });
  afterAll(() => zebra.stop());

  it('answers a height outside its best chain with the captured reply, byte for byte', async () => {
    const captured = readFileSync(vectorPath('nu6.3', 'zebra-rpc', 'testnet-error-block-out-of-range.json'), 'utf8').trim();
    expect(await post(url, { jsonrpc: '2.0', id: 1, method: 'getblock', params: ['4200000', 1] })).toBe(captured);
  });

  it('refuses batch items that do not say JSON-RPC 2.0, which the importer therefore sends', async () => {
    expect(JSON.parse(await post(url, [{ jsonrpc: '1.0', id: 7, method: 'getblockcount', params: [] }]))).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } },
    ]);
    const client = await JsonRpcClient.create(url);
    expect(await client.batch([{ method: 'getblockhash', params: [4134000] }])).toEqual([
      '000003943e1a2c60c17b69ed4d448ea9296019a247f1134b507917941957fccd',
    ]);
    await expect(client.call('getblockhash', [4134011])).rejects.toThrow(
      `upstream ${url}: getblockhash failed: code -1 Provided index is greater than the current tip`,
    );
  });
});

describe.each(['mainnet', 'testnet'] as const)('%s: a checkpoint from Zebra, then its blocks', (network) => {
  const { first, activation, last } = NU63_RANGE[network];
  const zebra = new ZebraNode(network);
  const dir = tempDir(`zebra-${network}`);
  const log: string[] = [];
  let store: ChainStore;
  let url: string;

  beforeAll(async () => {
    zebra.setTreeState(first, EMPTY_FRONTIERS);
    url = await zebra.start();
    store = await openChainStore({ datadir: dir.path, network: PARAMS[network], log: (l) => log.push(l) });
  });
  afterAll(async () => {
    await store.close();
    await zebra.stop();
    dir.remove();
  });

  it('takes the checkpoint: Zebra has no chain work and no Sprout tree, each logged once', async () => {
    // The vectors hold no header before the first block, so the checkpoint is that one header.
    const cp = await fetchCheckpoint(await JsonRpcClient.create(url), first, { headers: 1, log: (l) => log.push(l) });
    const header = decodeBlockHeader(nu63Block(network, first).subarray(0, 1487));
    expect([cp.height, cp.headers.length, cp.chainWork, cp.chainTx, cp.state.history]).toEqual([
      first,
      1,
      blockWork(header.bits),
      null,
      'unknown',
    ]);
    expect(log).toEqual([
      `checkpoint: ${url} reports no chain work for block ${first}; chain work counts from height ${first} (getblock's and getblockheader's chainwork show the work from there on)`,
      `checkpoint: ${url} gives no Sprout tree state at height ${first}; the Sprout tree starts empty (z_gettreestate's sprout member and getblockchaininfo's commitments count from the checkpoint)`,
    ]);
    // Zebra's totals, including pools it calls not monitored because they hold nothing.
    const zebraTotal = (id: string) => BigInt(zebraPools(network, first).find((p) => p.id === id)!.chainValueZat);
    for (const id of ['sprout', 'sapling', 'orchard', 'lockbox', 'ironwood'] as const)
      expect([id, cp.state.totals?.[id]]).toEqual([id, zebraTotal(id)]);
    expect(cp.state.totals?.transparent).toBeUndefined();
    await store.startFromCheckpoint(cp);
    log.length = 0;
  });

  it("imports the next NU6.2-era block; its totals are Zebra's chainValueZat", async () => {
    zebra.tip = first + 1;
    const result = await importFromUpstream(store, url, { progress: 'silent' });
    expect([result.added, result.tipHeight]).toEqual([1, first + 1]);
    await expectZebraTotals(store, network, first + 1);
    expect(commitmentUnverified(log, zebra.hashAt(first + 1), first + 1)).toBe(true);
  });

  it('connects the activation block, and checks the next header against the new history tree', async () => {
    // The activation block's commitment covers the previous epoch's history root: not known here.
    // The next header commits to a tree whose one leaf holds the activation block's Sapling,
    // Orchard and Ironwood roots; the first two come from the checkpoint's frontiers, which are
    // not the chain's, so the check refuses it (with Zebra's real frontiers it would pass).
    zebra.tip = last;
    await expect(importFromUpstream(store, url, { progress: 'silent' })).rejects.toThrow(
      new RegExp(
        `^upstream ${url} \\(height ${activation + 1}\\): block ${zebra.hashAt(activation + 1)} at height ${activation + 1} rejected \\(bad-block-commitments-hash\\)`,
      ),
    );
    expect((await store.tip())?.height).toBe(activation);
    for (let h = first + 2; h <= activation; h++) await expectZebraTotals(store, network, h);
    expect(commitmentUnverified(log, zebra.hashAt(activation), activation)).toBe(true);
    expect(log.some((l) => l.includes(`at ${activation + 1}`) && l.includes('hashBlockCommitments'))).toBe(false);
  });
});

describe.each(['mainnet', 'testnet'] as const)(
  "%s: a checkpoint from Zebra at NU6.3's activation block, then the v6 blocks after it",
  (network) => {
    const { activation, last } = NU63_RANGE[network];
    const zebra = new ZebraNode(network);
    const dir = tempDir(`zebra-nu63-${network}`);
    const log: string[] = [];
    let store: ChainStore;

    afterAll(async () => {
      await store.close();
      await zebra.stop();
      dir.remove();
    });

    it("imports them in batches small enough for Zebra; after each, the totals are Zebra's chainValueZat", async () => {
      // The Ironwood tree is empty after its activation block (no Ironwood action in it).
      zebra.setTreeState(activation, { ...EMPTY_FRONTIERS, ironwood: { finalState: '000000' } });
      // A reply holds the largest of these blocks and little more: batches are refused and asked for in halves.
      const largest = Math.max(...Array.from({ length: last - activation }, (_, i) => nu63Block(network, activation + 1 + i).length));
      zebra.maxResponseBytes = 2 * largest + 400;
      const url = await zebra.start();
      store = await openChainStore({ datadir: dir.path, network: PARAMS[network], log: (l) => log.push(l) });
      const cp = await fetchCheckpoint(await JsonRpcClient.create(url), activation, { headers: 1 });
      // Zebra says the empty Ironwood pool is not monitored; its value, 0, is known all the same.
      expect(cp.state.totals?.ironwood).toBe(0n);
      await store.startFromCheckpoint(cp);
      const result = await importFromUpstream(store, url, { progress: 'silent' });
      expect([result.added, result.tipHeight]).toEqual([last - activation, last]);
      expect(zebra.refusedBatches).toBeGreaterThan(0);
      for (let h = activation + 1; h <= last; h++) await expectZebraTotals(store, network, h);
      // The checkpoint carries no history tree: every header's commitment after it is reported, not checked.
      for (let h = activation + 1; h <= last; h++) expect(commitmentUnverified(log, zebra.hashAt(h), h)).toBe(true);
    });
  },
);

describe('-upstream: the follower keeps up with a Zebra node as its tip moves', () => {
  const zebra = new ZebraNode('mainnet');
  const dir = tempDir('zebra-follow');
  let store: ChainStore;

  afterAll(async () => {
    await store.close();
    await zebra.stop();
    dir.remove();
  });

  it('follows from the checkpoint to each new tip', async () => {
    const { first } = NU63_RANGE.mainnet;
    zebra.setTreeState(first, EMPTY_FRONTIERS);
    zebra.tip = first;
    const url = await zebra.start();
    store = await openChainStore({ datadir: dir.path, network: MAINNET });
    await store.startFromCheckpoint(await fetchCheckpoint(await JsonRpcClient.create(url), first, { headers: 1 }));
    const follower = await followUpstream(store, url, { pollMs: 10, progress: 'silent', logger: { info: () => {}, warn: () => {} } });
    try {
      zebra.tip = first + 1;
      await waitFor(async () => (await store.tip())?.height === first + 1, `the follower to reach ${first + 1}`);
      expect(follower.lastError).toBeNull();
      expect(zebra.calls).toContain('getblock');
    } finally {
      await follower.stop();
    }
  });
});

describe('zecrpc import --checkpoint FILE --rpc URL, from a Zebra node', () => {
  const { activation, last } = NU63_RANGE.testnet;
  const zebra = new ZebraNode('testnet');
  const dir = tempDir('zebra-cli');

  afterAll(async () => {
    vi.restoreAllMocks();
    await zebra.stop();
    dir.remove();
  });

  it('starts at the activation block and imports the ten v6 blocks after it', async () => {
    const url = await zebra.start();
    const pools = zebraPools('testnet', activation);
    const total = (id: string) => String(pools.find((p) => p.id === id)!.chainValueZat);
    const file = join(dir.path, 'checkpoint.json');
    writeFileSync(
      file,
      JSON.stringify({
        height: activation,
        headers: [Buffer.from(nu63Block('testnet', activation).subarray(0, 1487)).toString('hex')],
        // Zebra reports no chain work: the header's own, as a checkpoint fetched from it counts.
        chainWork: blockWork(decodeBlockHeader(nu63Block('testnet', activation).subarray(0, 1487)).bits).toString(),
        state: {
          sprout: '000000',
          sapling: '000000',
          orchard: '000000',
          ironwood: '000000',
          totals: Object.fromEntries(['sprout', 'sapling', 'orchard', 'lockbox', 'ironwood'].map((id) => [id, total(id)])),
        },
      }),
    );
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((t: string | Uint8Array) => (out.push(String(t)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await runImport([`-datadir=${dir.path}`, '-testnet', '--checkpoint', file, '--rpc', url, '--progress', 'silent']);
    vi.restoreAllMocks();
    expect(out.join('')).toMatch(
      new RegExp(
        `^imported ${last - activation} blocks \\(0 already stored, 0 side-chain, 0 reorganizations\\) in [\\d.]+ s, [\\d.]+ MB/s; tip ${last} ${zebra.hashAt(last)}\\n$`,
      ),
    );
  });
});
