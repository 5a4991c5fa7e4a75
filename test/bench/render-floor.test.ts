/**
 * The uncached render floor (bench/lib/render-floor-server.ts) builds its replies from the
 * request's hex or the transaction's bytes on every request: it must answer each exactly as
 * recorded, again and again from reused memory and under concurrent requests, and refuse to
 * start when a reply's txid is not the hash of the transaction it would decode.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '../../bench/lib/child-server.js';
import { largeTransactions } from '../../bench/lib/large-transactions.js';
import { captureReply, replyParts } from '../../bench/lib/raw-http.js';
import { toHex } from '../../src/codec/hex.js';
import { txToJsonBytes } from '../../src/render/tx.js';

const rpc = (method: string, params: string): string => `{"jsonrpc":"1.0","id":1,"method":"${method}","params":[${params}]}`;
const HEAD = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n';

/** A whole recorded HTTP reply around `result`, base64 as the replies file holds it. */
const recorded = (result: Buffer): string =>
  Buffer.concat([Buffer.from(HEAD), Buffer.from('{"result":'), result, Buffer.from(',"error":null,"id":1}\n')]).toString('base64');

const txs = largeTransactions().filter((t) => t.name === 'test-141042#1' || t.name === 'main-3428145#3');
/** Each body with the reply body the floor must give. */
const exchanges: { body: string; want: Buffer }[] = [];
for (const t of txs) {
  const json = txToJsonBytes(t.tx, t.params);
  exchanges.push({ body: rpc('decoderawtransaction', `"${toHex(t.tx.bytes)}"`), want: json });
  // getrawtransaction's verbose layout: the transaction's hex first, then decoderawtransaction's fields.
  exchanges.push({
    body: rpc('getrawtransaction', `"${t.tx.txidHex}",1`),
    want: Buffer.concat([Buffer.from(`{"hex":"${toHex(t.tx.bytes)}",`), json.subarray(1)]),
  });
}
const whole = (want: Buffer): Buffer => Buffer.concat([Buffer.from('{"result":'), want, Buffer.from(',"error":null,"id":1}\n')]);

describe('the uncached render floor', () => {
  let dir: string;
  let floor: ChildServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zecrpc-render-floor-'));
    const file = join(dir, 'replies.json');
    writeFileSync(file, JSON.stringify(exchanges.map((e) => ({ body: e.body, reply: recorded(e.want) }))));
    floor = await startChildServer('bench/lib/render-floor-server.ts', { REPLIES: file });
  });
  afterAll(async () => {
    await floor?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers each request with the recorded bytes, one after the other and eight at once', async () => {
    for (let round = 0; round < 3; round++) {
      for (const e of exchanges) expect(replyParts(await captureReply(floor.port, e.body)).body.equals(whole(e.want))).toBe(true);
    }
    const burst = await Promise.all(exchanges.flatMap((e) => [e, e]).map((e) => captureReply(floor.port, e.body)));
    burst.forEach((r, i) => expect(replyParts(r).body.equals(whole(exchanges[i >> 1]!.want))).toBe(true));
  });

  it('will not start when a reply shows a txid that is not the hash of the hex it decodes', async () => {
    const t = txs[0]!;
    const json = txToJsonBytes(t.tx, t.params).toString('latin1');
    const wrongTxid = json.replace(t.tx.txidHex, '00'.repeat(32));
    expect(wrongTxid).not.toBe(json);
    const file = join(dir, 'wrong.json');
    const body = rpc('decoderawtransaction', `"${toHex(t.tx.bytes)}"`);
    writeFileSync(file, JSON.stringify([{ body, reply: recorded(Buffer.from(wrongTxid, 'latin1')) }]));
    await expect(startChildServer('bench/lib/render-floor-server.ts', { REPLIES: file })).rejects.toThrow(/exited/);
  });
});
