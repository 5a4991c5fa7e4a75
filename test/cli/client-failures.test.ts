// zecrpc-cli against servers that fail, in zcash-cli's words (bitcoin-cli.cpp over libevent
// 2.1.12): a connection never made is "unknown (code -1)", one the server closes or resets before
// its reply is whole is EVREQ_HTTP_EOF, "EOF reached (code 1)", and a `help` answered with an
// error object (zcashd warming up) is UniValue's get_str() error. Exit status 1 for all.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runClient } from '../../src/cli/client.js';

const datadir = mkdtempSync(join(tmpdir(), 'zecrpc-client-'));
const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
  rmSync(datadir, { recursive: true, force: true });
});

/** A server that does `onConnection` with each connection; resolves to its port. */
async function fakeServer(onConnection: (socket: Socket) => void): Promise<number> {
  const server = createServer(onConnection);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** zecrpc-cli with `command` (getblockcount by default) against the server at `port`. */
async function cli(port: number, ...command: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stderr += t), readStdin: () => '' };
  const words = command.length > 0 ? command : ['getblockcount'];
  const code = await runClient([`-datadir=${datadir}`, '-regtest', `-rpcport=${port}`, '-rpcuser=u', '-rpcpassword=p', ...words], io);
  return { code, stdout, stderr };
}

const hint = '\n(make sure server is running and you are connecting to the correct RPC port)\n';

describe('zecrpc-cli against servers that fail', () => {
  it('a server that closes without a reply, or midway through one, is "EOF reached (code 1)"', async () => {
    const closes = await fakeServer((socket) => socket.once('data', () => socket.end()));
    expect(await cli(closes)).toEqual({ code: 1, stdout: '', stderr: `error: couldn't connect to server: EOF reached (code 1)${hint}` });
    const halfReply = await fakeServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"result":'));
    });
    expect(await cli(halfReply)).toEqual({ code: 1, stdout: '', stderr: `error: couldn't connect to server: EOF reached (code 1)${hint}` });
    const resets = await fakeServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    expect((await cli(resets)).stderr).toBe(`error: couldn't connect to server: EOF reached (code 1)${hint}`);
  });

  it('a connection never made is "unknown (code -1)"', async () => {
    const port = await fakeServer(() => {});
    servers.pop()!.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(await cli(port)).toEqual({ code: 1, stdout: '', stderr: `error: couldn't connect to server: unknown (code -1)${hint}` });
  });

  it("reads the help of a wrongly called method as zcash-cli does: a non-string answer is UniValue's type error", async () => {
    const warmingUp = await fakeServer((socket) => {
      socket.once('data', () => {
        const body = '{"result":null,"error":{"code":-28,"message":"Loading block index..."},"id":1}\n';
        socket.end(`HTTP/1.1 500 Internal Server Error\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      });
    });
    // getblock wants one or two arguments: zcash-cli asks the server for its help, here an error object.
    expect(await cli(warmingUp, 'getblock')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: JSON value is not a string as expected\n',
    });
  });
});
