import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toHexReversed } from '../../src/codec/hex.js';
import { normalizeServeArgs, startNode, type ServeHandle } from '../../src/cli/serve.js';
import { importHex } from '../../src/sync/hex.js';
import { mainnetChain, regtestReorg, REGTEST_REORG_DIR, tempDir } from '../support/store.js';
import { UpstreamServer, waitFor } from '../support/upstream-server.js';

async function rpc(port: number, auth: string, method: string, params: unknown[] = []): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    headers: { authorization: 'Basic ' + Buffer.from(auth).toString('base64') },
    body: JSON.stringify({ jsonrpc: '1.0', id: 'e2e', method, params }),
  });
  return { status: res.status, text: await res.text() };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('zecrpc serve (the main job)', () => {
  it('serves an imported regtest chain with cookie auth, survives the reorg, and stops cleanly', async () => {
    const dir = tempDir('serve-e2e');
    cleanups.push(dir.remove);
    // Import first (LevelDB allows one process; the server opens the same store afterwards).
    const { openChainStore } = await import('../../src/store/index.js');
    const { REGTEST } = await import('../../src/chain/network.js');
    const store = await openChainStore({ datadir: join(dir.path, 'regtest'), network: REGTEST });
    await importHex(store, [join(REGTEST_REORG_DIR, 'base.hex'), join(REGTEST_REORG_DIR, 'branch.hex')], { progress: 'silent' });
    await store.close();

    const node: ServeHandle = await startNode([`-datadir=${dir.path}`, '-regtest', '-rpcport=0'], { log: false });
    const cookieFile = join(dir.path, 'regtest', '.cookie');
    const cookie = readFileSync(cookieFile, 'utf8');
    const v = regtestReorg();
    const port = node.server.port;

    const branchTip = v.manifest.branch.at(-1)!;
    expect(branchTip.height).toBe(45);
    const count = await rpc(port, cookie, 'getblockcount');
    expect(count.text).toBe(`{"result":45,"error":null,"id":"e2e"}\n`);
    const best = await rpc(port, cookie, 'getbestblockhash');
    expect(best.text).toBe(`{"result":"${branchTip.hash}","error":null,"id":"e2e"}\n`);
    // a block of the abandoned branch (base height 11, above the fork at 10): confirmations -1, no nextblockhash
    const abandoned = v.manifest.base.find((b) => b.height === 11)!;
    const orphan = await rpc(port, cookie, 'getblock', [abandoned.hash, 1]);
    expect(orphan.text).toContain('"confirmations":-1,');
    expect(orphan.text).not.toContain('nextblockhash');
    const raw = await rpc(port, cookie, 'getblock', ['0', 0]);
    expect(raw.text).toBe(`{"result":"${Buffer.from(v.base[0]!).toString('hex')}","error":null,"id":"e2e"}\n`);
    // decoderawtransaction is served too
    const dec = await rpc(port, cookie, 'decoderawtransaction', ['00']);
    expect(dec.status).toBe(500);
    expect(dec.text).toContain('"code":-22');

    const stop = await rpc(port, cookie, 'stop');
    expect(stop.text).toBe('{"result":"Zcash server stopping","error":null,"id":"e2e"}\n');
    await node.stopped;
    expect(existsSync(cookieFile)).toBe(false);
  });

  it("refuses -uacomment values zcashd refuses, with zcashd's messages, before opening anything", async () => {
    const dir = tempDir('serve-uacomment');
    cleanups.push(dir.remove);
    const start = (...args: string[]) => startNode([`-datadir=${dir.path}`, '-regtest', '-rpcport=0', ...args], { log: false });
    await expect(start('-uacomment=a(b)')).rejects.toThrow('Error: User Agent comment (a(b)) contains unsafe characters.');
    await expect(start('-uacomment=ok', '-uacomment=<script>')).rejects.toThrow(
      'Error: User Agent comment (<script>) contains unsafe characters.',
    );
    // "/MagicBean:6.12.2(" + 238 characters + ")/" is 258 characters; 234 and an empty one ("; ") make the 256 zcashd allows
    await expect(start(`-uacomment=${'x'.repeat(238)}`)).rejects.toThrow(
      'Error: Total length of network version string 258 exceeds maximum of 256 characters. Reduce the number and/or size of uacomments.',
    );
    expect(existsSync(join(dir.path, 'regtest', 'zecrpc'))).toBe(false); // the store was never opened
    const node = await start(`-uacomment=${'x'.repeat(234)}`, '-uacomment=');
    cleanups.push(() => node.shutdown());
    const info = await rpc(node.server.port, readFileSync(join(dir.path, 'regtest', '.cookie'), 'utf8'), 'getinfo');
    expect(info.text).toContain(`"subversion":"/MagicBean:6.12.2(${'x'.repeat(234)}; )/"`);
  });

  it("prints -paytxfee and -minrelaytxfee in getinfo, and refuses in zcashd's order before opening anything", async () => {
    const dir = tempDir('serve-fees');
    cleanups.push(dir.remove);
    const start = (...args: string[]) => startNode([`-datadir=${dir.path}`, '-regtest', '-rpcport=0', ...args], { log: false });
    // init.cpp: experimental features, then -minrelaytxfee and -paytxfee, then -uacomment.
    await expect(start('-insightexplorer', '-paytxfee=abc')).rejects.toThrow(/experimentalfeatures/);
    await expect(start('-uacomment=a(b)', '-paytxfee=abc')).rejects.toThrow("Error: Invalid amount for -paytxfee=<amount>: 'abc'");
    expect(existsSync(join(dir.path, 'regtest', 'zecrpc'))).toBe(false); // the store was never opened
    const node = await start('-paytxfee=0.0001', '-minrelaytxfee=0.00002');
    cleanups.push(() => node.shutdown());
    const info = await rpc(node.server.port, readFileSync(join(dir.path, 'regtest', '.cookie'), 'utf8'), 'getinfo');
    expect(info.text).toContain('"paytxfee":0.00010000,"relayfee":0.00002000,');
  });

  it('refuses an -upstreampoll no timer can wait (1 ms to 2^31 − 1 ms) before opening anything', async () => {
    const dir = tempDir('serve-upstreampoll');
    cleanups.push(dir.remove);
    const start = (poll: string) =>
      startNode([`-datadir=${dir.path}`, '-regtest', '-rpcport=0', '-upstream=http://127.0.0.1:1/', `-upstreampoll=${poll}`], {
        log: false,
      });
    for (const poll of ['3000000', '1e308', '0.0001', '0', '-1', 'soon', '']) {
      await expect(start(poll)).rejects.toThrow(
        `Error: Invalid value for -upstreampoll: '${poll}' (expected seconds from 0.001 to 2147483)`,
      );
    }
    expect(existsSync(join(dir.path, 'regtest', 'zecrpc'))).toBe(false); // the store was never opened
  });

  it('keeps the file an -rpccookiefile it refuses names, and the store it opened', async () => {
    const dir = tempDir('serve-cookie-refused');
    cleanups.push(dir.remove);
    const keep = join(dir.path, 'regtest', 'keep.conf');
    mkdirSync(dirname(keep), { recursive: true });
    writeFileSync(keep, 'rpcallowip=127.0.0.1\n');
    await expect(startNode([`-datadir=${dir.path}`, '-regtest', '-rpcport=0', '-rpccookiefile=keep.conf'], { log: false })).rejects.toThrow(
      `Refusing to write the RPC cookie file ${keep}: a file that is not an RPC cookie is there (choose another -rpccookiefile)`,
    );
    expect(readFileSync(keep, 'utf8')).toBe('rpcallowip=127.0.0.1\n');
    const node = await startNode([`-datadir=${dir.path}`, '-regtest', '-rpcport=0'], { log: false }); // the store was closed
    cleanups.push(() => node.shutdown());
  });

  it("never replaces a running node's cookie when its port is taken, and removes its own when start-up fails later", async () => {
    const dir = tempDir('serve-cookie-order');
    cleanups.push(dir.remove);
    const shared = join(dir.path, 'shared.cookie');
    const first = await startNode([`-datadir=${join(dir.path, 'a')}`, '-regtest', '-rpcport=0', `-rpccookiefile=${shared}`], {
      log: false,
    });
    cleanups.push(() => first.shutdown());
    const cookie = readFileSync(shared, 'utf8');
    // a second node on the same port and cookie path: it cannot bind, so it never writes
    await expect(
      startNode([`-datadir=${join(dir.path, 'b')}`, '-regtest', `-rpcport=${first.server.port}`, `-rpccookiefile=${shared}`], {
        log: false,
      }),
    ).rejects.toThrow(`port ${first.server.port} is already in use`);
    expect(readFileSync(shared, 'utf8')).toBe(cookie);
    expect((await rpc(first.server.port, cookie, 'getblockcount')).text).toContain('"result":0');
    // a node that listened, then failed to start following its upstream: its cookie goes with it
    const late = join(dir.path, 'late.cookie');
    await expect(
      startNode(
        [
          `-datadir=${join(dir.path, 'c')}`,
          '-regtest',
          '-rpcport=0',
          `-rpccookiefile=${late}`,
          '-upstream=http://127.0.0.1:1/',
          `-upstreamcookie=${join(dir.path, 'missing')}`,
        ],
        { log: false },
      ),
    ).rejects.toThrow('cannot read RPC cookie file');
    expect(existsSync(late)).toBe(false);
  });

  it('-debug=rpc logs each request with method, id, status, bytes, ms and client address; ISO times when asked (a terminal)', async () => {
    for (const isoTime of [true, false]) {
      const dir = tempDir('serve-request-log');
      cleanups.push(dir.remove);
      const lines: string[] = [];
      const node = await startNode([`-datadir=${dir.path}`, '-rpcport=0', '-rpcuser=u', '-rpcpassword=p', '-debug=rpc'], {
        logTo: { write: (s: string) => void lines.push(s) },
        isoTime,
      });
      cleanups.push(() => node.shutdown());
      const count = await rpc(node.server.port, 'u:p', 'getblockcount');
      expect(count.text).toBe('{"result":0,"error":null,"id":"e2e"}\n');
      await waitFor(async () => lines.some((l) => l.includes('request completed')), 'the request line');
      const entry = JSON.parse(lines.find((l) => l.includes('request completed'))!) as Record<string, unknown>;
      expect(entry).toMatchObject({
        rpc: { method: 'getblockcount', id: '"e2e"' },
        statusCode: 200,
        bytes: Buffer.byteLength(count.text),
        remoteAddress: expect.stringMatching(/127\.0\.0\.1$/) as unknown,
      });
      expect(typeof entry.ms).toBe('number');
      if (isoTime) expect(entry.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      else expect(typeof entry.time).toBe('number');
      await node.shutdown();
    }
  });

  it('follows an upstream node given with -upstream', async () => {
    const dir = tempDir('serve-upstream');
    cleanups.push(dir.remove);
    const upstream = new UpstreamServer({ user: 'up', password: 'pw' });
    upstream.setChain(mainnetChain().slice(0, 15));
    const url = await upstream.start();
    cleanups.push(() => upstream.stop());
    const args = normalizeServeArgs([
      `-datadir=${dir.path}`,
      '-rpcport=0',
      '-rpcuser=u',
      '-rpcpassword=p',
      '--upstream',
      url,
      '-upstreamuser=up',
      '-upstreampassword=pw',
      '-upstreampoll=0.1',
    ]);
    expect(args).toContain(`-upstream=${url}`);
    const node = await startNode(args, { log: false });
    cleanups.push(() => node.shutdown());
    await waitFor(async () => (await node.store.tip())?.height === 14, 'the store to reach upstream height 14');
    upstream.setChain(mainnetChain());
    await waitFor(async () => (await node.store.tip())?.height === 20, 'the follower to pick up new blocks');
    const hash = await rpc(node.server.port, 'u:p', 'getblockhash', [20]);
    expect(hash.text).toBe(`{"result":"${toHexReversed((await node.store.hashAtHeight(20))!)}","error":null,"id":"e2e"}\n`);
  });
});
