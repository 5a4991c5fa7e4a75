// A client that pipelines requests, reads nothing and then resets the connection leaves nothing
// reserved: the replies still queued behind the one being written (Node gives a queued response
// no socket, and no 'close' when the connection goes) give back their reply budget and lent
// buffers too. Testnet 141042's transaction #1: a 574 kB decoderawtransaction reply, rendered
// uncached into lent memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHex } from '../../../src/codec/hex.js';
import { loadNodeConfig } from '../../../src/config.js';
import { startRpcServer } from '../../../src/rpc/http/server.js';
import { createDecodeRawTransaction } from '../../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { readHexVector } from '../../support/vectors.js';

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-pipelined-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const AUTH = 'Basic ' + Buffer.from('alice:secret').toString('base64');
const big = decodeBlock(readHexVector('blocks', 'testnet', '141042.hex')).transactions[1]!;
/** What a reply holds of the budget: at least its result's text. */
const REPLY_BYTES = 500_000;

/** Resolves once `read` has returned the same value 10 times in a row, 50 ms apart. */
async function settled(read: () => number): Promise<void> {
  let [last, same] = [read(), 0];
  while (same < 10) {
    await new Promise((r) => setTimeout(r, 50));
    const now = read();
    same = now === last ? same + 1 : 0;
    last = now;
  }
}

it('gives back every reservation of clients that pipelined 30 large requests and reset', async () => {
  const config = loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', '-rpcuser=alice', '-rpcpassword=secret', '-testnet']);
  const serve = await startRpcServer({ config, methods: [createDecodeRawTransaction({ cacheBytes: 0 })], renderThreads: 0 });
  try {
    const body = `{"id":1,"method":"decoderawtransaction","params":["${toHex(big.bytes)}"]}`;
    const one = `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    for (let round = 1; round <= 2; round++) {
      const client = connect(serve.port, '127.0.0.1');
      client.pause(); // reads nothing: the socket fills, later replies queue behind the first
      await new Promise((r) => client.once('connect', r));
      client.write(one.repeat(30));
      // Replies held beyond the one the socket is taking, the later ones queued without a socket:
      // the server has stopped reading once the count stays put (a pause that only looks like it
      // resets earlier, which the assertions below hold for as well).
      await vi.waitFor(() => expect(serve.stats().replyBytes).toBeGreaterThanOrEqual(3 * REPLY_BYTES), { timeout: 60_000, interval: 20 });
      await settled(() => serve.stats().replyBytes);
      client.resetAndDestroy();
      await vi.waitFor(() => expect(serve.stats()).toMatchObject({ connections: 0, replyBytes: 0, lentReplyBuffers: 0 }), {
        timeout: 30_000,
        interval: 20,
      });
    }
  } finally {
    await serve.close();
  }
}, 120_000);
