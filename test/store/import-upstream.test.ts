import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAINNET, REGTEST } from '../../src/chain/network.js';
import { reversedHexToBytes } from '../../src/codec/hex.js';
import {
  ImportError,
  checkStoreIntegrity,
  followUpstream,
  importFromUpstream,
  openChainStore,
  silentLogger,
  type ChainStore,
} from '../../src/store/index.js';
import { hex, mainnetChain, regtestReorg, tempDir, testnetChain } from '../support/store.js';
import { UpstreamServer, waitFor } from '../support/upstream-server.js';

const quiet = { progress: 'silent' as const, logger: silentLogger };

describe('upstream JSON-RPC importer', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: ChainStore;
  let server: UpstreamServer;
  let url: string;
  beforeEach(async () => {
    dir = tempDir('rpc');
    store = await openChainStore({ datadir: dir.path, network: MAINNET });
    server = new UpstreamServer({ user: 'rpcuser', password: 'hunter2' });
    server.setChain(mainnetChain());
    url = await server.start();
  });
  afterEach(async () => {
    await server.stop();
    await store.close();
    dir.remove();
  });

  it('imports mainnet 0..20 in pipelined batches with basic auth, then resumes with nothing to do', async () => {
    const r = await importFromUpstream(store, url, { ...quiet, user: 'rpcuser', password: 'hunter2', batchSize: 4, pipeline: 3 });
    expect(r.added).toBe(21);
    expect(r.tipHeight).toBe(20);
    expect(hex(await store.hashAtHeight(1))).toBe('0007bc227e1c57a4a70e237cad00e7b7ce565155ab49166bc57397a26d339283');
    // 1 getblockcount + 6 windows × 2 batch requests.
    expect(server.requests).toBe(13);
    const again = await importFromUpstream(store, url.replace('http://', 'http://rpcuser:hunter2@'), quiet);
    expect(again.added).toBe(0);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
  });

  it('authenticates with a cookie file', async () => {
    await server.stop();
    server = new UpstreamServer({ user: '__cookie__', password: 'c00k1e' });
    server.setChain(mainnetChain().slice(0, 5));
    url = await server.start();
    const cookie = join(dir.path, '.cookie');
    writeFileSync(cookie, '__cookie__:c00k1e');
    const r = await importFromUpstream(store, url, { ...quiet, cookieFile: cookie });
    expect(r.tipHeight).toBe(4);
    // A wrong path that never ends is refused after 64 KiB, not read until memory runs out.
    const endless = await importFromUpstream(store, url, { ...quiet, cookieFile: '/dev/zero' }).catch((e: unknown) => e);
    expect(endless).toEqual(
      new ImportError('cannot read RPC cookie file /dev/zero: /dev/zero is larger than 65536 bytes, too large for an RPC cookie file'),
    );
  });

  it('reports wrong credentials, garbage, wrong blocks and timeouts with the URL, losing nothing', async () => {
    await importFromUpstream(store, url, { ...quiet, user: 'rpcuser', password: 'hunter2' });
    const auth = { user: 'rpcuser', password: 'hunter2' };
    server.setChain(mainnetChain().slice(0, 21));

    const e1 = await importFromUpstream(store, url, { ...quiet, user: 'rpcuser', password: 'wrong' }).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(ImportError);
    expect((e1 as Error).message).toBe(
      `upstream ${url}: authentication failed (HTTP 401); check --rpc-user/--rpc-password or --rpc-cookie`,
    );

    server.misbehave = 'garbage';
    const e2 = await importFromUpstream(store, url, { ...quiet, ...auth }).catch((e: unknown) => e);
    expect((e2 as Error).message).toBe(`upstream ${url}: reply to getblockcount is not JSON (HTTP 200): "<html>502 Bad Gateway</html>"`);

    server.misbehave = 'bad-hash';
    const e3 = await importFromUpstream(store, url, { ...quiet, ...auth }).catch((e: unknown) => e);
    expect((e3 as Error).message).toMatch(/getblockhash \d+ returned 12345, expected a block hash$/);

    server.misbehave = 'hang';
    const e4 = await importFromUpstream(store, url, { ...quiet, ...auth, timeoutMs: 200 }).catch((e: unknown) => e);
    expect((e4 as Error).message).toBe(`upstream ${url}: no reply to getblockcount within 200 ms`);

    server.misbehave = 'none';
    server.setChain([...mainnetChain(), ...[]]);
    expect((await store.tip())?.height).toBe(20);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);

    await server.stop();
    const e5 = await importFromUpstream(store, url, { ...quiet, ...auth, timeoutMs: 2000 }).catch((e: unknown) => e);
    expect((e5 as Error).message).toMatch(new RegExp(`^upstream ${url}: cannot reach the server \\(ECONNREFUSED\\)$`));
    const e6 = await importFromUpstream(store, 'not a url', quiet).catch((e: unknown) => e);
    expect((e6 as Error).message).toBe('upstream URL "not a url" is not a valid URL (expected e.g. http://127.0.0.1:8232/)');
    expect((await store.tip())?.height).toBe(20);
  });

  it('takes no height beyond an int32 and fetches windows as it goes, so a huge getblockcount costs nothing', async () => {
    const auth = { user: 'rpcuser', password: 'hunter2' };
    server.countOverride = 2 ** 31;
    const e1 = await importFromUpstream(store, url, { ...quiet, ...auth }).catch((e: unknown) => e);
    expect((e1 as Error).message).toBe(`upstream ${url}: getblockcount returned 2147483648, expected a block height`);
    // A height zcashd could print, far beyond the chain: the first window fails, nothing is planned ahead.
    server.countOverride = 2 ** 31 - 1;
    const e2 = await importFromUpstream(store, url, { ...quiet, ...auth }).catch((e: unknown) => e);
    expect((e2 as Error).message).toBe(`upstream ${url}: getblockhash failed: code -8 Block height out of range`);
    expect((await store.tip())?.height).toBe(15);
  });

  it('refuses a reply larger than its answers can need, and waits on a slow one while it keeps coming', async () => {
    const auth = { user: 'rpcuser', password: 'hunter2' };
    server.misbehave = 'endless';
    const e = await importFromUpstream(store, url, { ...quiet, ...auth }).catch((x: unknown) => x);
    expect((e as Error).message).toBe(
      `upstream ${url}: reply to getblockcount is larger than 4066560 bytes, more than its answers can need`,
    );
    // Each reply in ten parts 60 ms apart takes longer than the 200 ms limit on silence, and arrives.
    server.misbehave = 'drip';
    server.dripMs = 60;
    const r = await importFromUpstream(store, url, { ...quiet, ...auth, timeoutMs: 200, batchSize: 21 });
    expect([r.added, r.tipHeight]).toEqual([21, 20]);
  });

  it('stops between blocks when its signal is aborted, with what it stored written out', async () => {
    const auth = { user: 'rpcuser', password: 'hunter2' };
    server.delayMs = 40; // a pass of 21 single-block windows takes a second and more
    const stop = new AbortController();
    const pass = importFromUpstream(store, url, { ...quiet, ...auth, batchSize: 1, pipeline: 1, signal: stop.signal });
    await waitFor(async () => ((await store.tip())?.height ?? -1) >= 2, 'a few blocks');
    stop.abort();
    const r = await pass;
    expect(r.added).toBeLessThan(21);
    expect(r.tipHeight).toBe(r.added - 1);
    expect((await checkStoreIntegrity(store)).problems).toEqual([]);
  });

  it('rejects a block that does not hash to what getblockhash said', async () => {
    server.misbehave = 'wrong-block';
    const e = await importFromUpstream(store, url, { ...quiet, user: 'rpcuser', password: 'hunter2' }).catch((x: unknown) => x);
    expect((e as Error).message).toBe(
      `upstream ${url} (height 0): getblock ${MAINNET.genesisHash} returned block 0007bc227e1c57a4a70e237cad00e7b7ce565155ab49166bc57397a26d339283`,
    );
    expect(await store.tip()).toBeNull();
  });

  it('refuses an upstream of another network', async () => {
    server.setChain(testnetChain());
    const e = await importFromUpstream(store, url, { ...quiet, user: 'rpcuser', password: 'hunter2' }).catch((x: unknown) => x);
    expect((e as Error).message).toContain(
      `upstream ${url} (height 0): block ${hex(reversedHexToBytes('05a60a92d99d85997cce3b87616c089f6124d7342af37106edc76126334a2c38'))} rejected`,
    );
    expect((e as Error).message).toContain('not the mainnet genesis block');
    await importFromUpstream(store, url, { ...quiet, user: 'rpcuser', password: 'hunter2' }).catch(() => undefined);
    server.setChain(mainnetChain().slice(0, 3));
    await importFromUpstream(store, url, { ...quiet, user: 'rpcuser', password: 'hunter2' });
    server.setChain(testnetChain());
    const e2 = await importFromUpstream(store, url, { ...quiet, user: 'rpcuser', password: 'hunter2' }).catch((x: unknown) => x);
    expect((e2 as Error).message).toBe(
      `upstream ${url} serves a different chain: not even its genesis block matches ours (mainnet); wrong network?`,
    );
  });
});

describe('followUpstream', () => {
  it('follows the tip by polling and follows upstream through a 20-block reorganization', async () => {
    const dir = tempDir('follow');
    const store = await openChainStore({ datadir: dir.path, network: REGTEST });
    const server = new UpstreamServer(null);
    const v = regtestReorg();
    const fork = v.manifest.forkHeight;
    server.setChain(v.base.slice(0, 20));
    const url = await server.start();
    const follower = await followUpstream(store, url, { ...quiet, pollMs: 25, batchSize: 8 });
    try {
      await waitFor(async () => (await store.tip())?.height === 19, 'initial sync');
      server.setChain(v.base);
      await waitFor(async () => (await store.tip())?.height === 30, 'new upstream blocks');
      // Upstream reorganizes onto the branch.
      server.setChain([...v.base.slice(0, fork + 1), ...v.branch]);
      await waitFor(async () => hex((await store.tip())?.hash) === v.manifest.branch.at(-1)!.hash, 'the reorganization');
      expect(follower.lastError).toBeNull();
      for (let h = fork + 1; h <= 30; h++) {
        expect((await store.blockIndex(reversedHexToBytes(v.manifest.base[h]!.hash)))!.onBestChain).toBe(false);
      }
      // A broken upstream is retried, not fatal.
      server.misbehave = 'garbage';
      await waitFor(async () => follower.lastError !== null, 'a failed poll');
      expect(follower.lastError!.message).toContain('is not JSON');
      server.misbehave = 'none';
      await waitFor(async () => follower.lastError === null, 'recovery');
    } finally {
      await follower.stop();
      await server.stop();
    }
    const report = await checkStoreIntegrity(store);
    expect(report.problems).toEqual([]);
    expect(report.tipHeight).toBe(45);
    await store.close();
    dir.remove();
  });

  it('stops at once when asked, even with a request in flight that would wait two minutes', async () => {
    const dir = tempDir('follow-stop');
    const store = await openChainStore({ datadir: dir.path, network: REGTEST });
    const server = new UpstreamServer(null);
    server.setChain(regtestReorg().base);
    server.misbehave = 'hang';
    const url = await server.start();
    try {
      const follower = await followUpstream(store, url, { ...quiet, timeoutMs: 120_000 });
      await waitFor(async () => server.requests > 0, 'the first request');
      await follower.stop(); // within the test's time limit only if the request ends with the stop
      expect(follower.lastError).toBeNull();
    } finally {
      await server.stop();
      await store.close();
      dir.remove();
    }
  });
});
