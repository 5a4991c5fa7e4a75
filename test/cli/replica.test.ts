// A node following an upstream as a replica: sub-second polling, and its lag readable in the
// log and over RPC (getblockchaininfo's `headers` is the upstream's height while blocks lag).
import { afterEach, describe, expect, it } from 'vitest';
import { upstreamPollMs, startNode } from '../../src/cli/serve.js';
import { regtestReorg, tempDir } from '../support/store.js';
import { UpstreamServer, waitFor } from '../support/upstream-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function chainInfo(port: number): Promise<{ blocks: number; headers: number; bestblockhash: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    headers: { authorization: 'Basic ' + Buffer.from('u:p').toString('base64') },
    body: JSON.stringify({ jsonrpc: '1.0', id: 'r', method: 'getblockchaininfo', params: [] }),
  });
  return ((await res.json()) as { result: { blocks: number; headers: number; bestblockhash: string } }).result;
}

describe('-upstreampoll', () => {
  it('takes decimal seconds down to a millisecond', () => {
    expect(['0.25', '.5', '5', '0.001', '1.', '2147483.647'].map(upstreamPollMs)).toEqual([250, 500, 5000, 1, 1000, 2147483647]);
    expect(upstreamPollMs(undefined)).toBe(5000);
  });

  it.each(['0x10', ' 1', '1 ', '1e-1', '+1', '0.0004', '.', '1,5'])('refuses %j', (value) => {
    expect(() => upstreamPollMs(value)).toThrow(
      `Error: Invalid value for -upstreampoll: '${value}' (expected seconds from 0.001 to 2147483)`,
    );
  });
});

describe('a replica following an upstream', () => {
  it("reports the upstream's height as headers while its blocks lag, logs its lag, and follows a reorganization", async () => {
    const dir = tempDir('replica-lag');
    cleanups.push(dir.remove);
    const v = regtestReorg();
    const upstream = new UpstreamServer(null);
    upstream.setChain(v.base);
    const url = await upstream.start();
    cleanups.push(() => upstream.stop());
    const lines: string[] = [];
    const node = await startNode(
      [`-datadir=${dir.path}`, '-regtest', '-rpcport=0', '-rpcuser=u', '-rpcpassword=p', `-upstream=${url}`, '-upstreampoll=0.05'],
      {
        logTo: { write: (line: string) => void lines.push(line) },
      },
    );
    cleanups.push(() => node.shutdown());
    const port = node.server.port;
    await waitFor(async () => (await chainInfo(port)).blocks === 30, 'the replica to reach height 30');
    expect((await chainInfo(port)).headers).toBe(30);
    await waitFor(async () => lines.some((l) => l.includes('; upstream height 30, 0 behind')), 'the lag log line');

    // Upstream moves to a longer branch but its blocks do not arrive: the height is known, the blocks are not.
    const branchChain = [...v.base.slice(0, v.manifest.forkHeight + 1), ...v.branch];
    upstream.misbehave = 'wrong-block';
    upstream.setChain(branchChain);
    await waitFor(async () => (await chainInfo(port)).headers === 45, 'headers to show the upstream height');
    const lagging = await chainInfo(port);
    expect([lagging.blocks, lagging.headers, lagging.bestblockhash]).toEqual([30, 45, v.manifest.base[30]!.hash]);

    upstream.misbehave = 'none';
    await waitFor(async () => (await chainInfo(port)).bestblockhash === v.manifest.branch.at(-1)!.hash, 'the reorganization');
    const caughtUp = await chainInfo(port);
    expect([caughtUp.blocks, caughtUp.headers]).toEqual([45, 45]);
    await waitFor(
      async () => lines.some((l) => l.includes('1 reorganization(s)') && l.includes('; upstream height 45, 0 behind')),
      'the reorg log line',
    );
  });
});
