// `zecrpc serve` with -mocktime and setlogfilter: the node's clock reaches the methods, and a
// filter changes which lines the running node logs.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startNode } from '../../src/cli/serve.js';
import { tempDir } from '../support/store.js';

async function rpc(port: number, method: string, params: unknown[] = []): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    headers: { authorization: 'Basic ' + Buffer.from('u:p').toString('base64') },
    body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params }),
  });
  return (await res.text()).trimEnd();
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('zecrpc serve: the clock and the log filter', () => {
  it('-mocktime fixes the time setmocktime then moves; setlogfilter turns request lines on and back off', async () => {
    const dir = tempDir('serve-clock-log');
    cleanups.push(dir.remove);
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const node = await startNode(
      [`-datadir=${dir.path}`, '-regtest', '-rpcport=0', '-rpcuser=u', '-rpcpassword=p', '-mocktime=1600000000'],
      {
        logTo: sink,
      },
    );
    cleanups.push(() => node.shutdown());
    const port = node.server.port;
    const requestLines = () => lines.filter((l) => l.includes('request completed')).length;

    expect(await rpc(port, 'getnettotals')).toContain('"timemillis":1600000000000,');
    expect(await rpc(port, 'setmocktime', [1700000000])).toBe('{"result":null,"error":null,"id":1}');
    expect(await rpc(port, 'getnettotals')).toContain('"timemillis":1700000000000,');
    expect(requestLines()).toBe(0);

    expect(await rpc(port, 'setlogfilter', ['error,main=info,rpc=debug'])).toBe('{"result":null,"error":null,"id":1}');
    await rpc(port, 'getblockcount');
    const afterOn = requestLines();
    expect(afterOn, lines.join('\n')).toBeGreaterThan(0);

    expect(await rpc(port, 'setlogfilter', [''])).toBe('{"result":null,"error":null,"id":1}');
    await rpc(port, 'getblockcount');
    expect(requestLines()).toBe(afterOn);
  });

  it('refuses -mocktime with -clockoffset before opening anything', async () => {
    const dir = tempDir('serve-clock-both');
    cleanups.push(dir.remove);
    await expect(
      startNode([`-datadir=${dir.path}`, '-regtest', '-rpcport=0', '-mocktime=5', '-clockoffset=5'], { log: false }),
    ).rejects.toThrow('Error: -mocktime and -clockoffset cannot be used together');
  });
});
