/**
 * The uncached render floor with its per-request work on render threads (FLOOR_THREADS,
 * bench/lib/floor-thread.ts): every reply a thread builds, handed over through shared memory,
 * comes back byte for byte as recorded, one at a time and with more requests in flight than job
 * slots; it prints its threads' ids; a method it replays is replayed and a request it has no plan
 * for is answered 404. It will not start when a thread's reply would not be the recorded one, nor
 * with a thread count that is not a whole number ≥ 1.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
const whole = (result: Buffer): Buffer => Buffer.concat([Buffer.from('{"result":'), result, Buffer.from(',"error":null,"id":1}\n')]);

// test-141042#1 (v2, SHA-256d) and main-3428145#3 (v6: ZIP 244, Orchard points, one address).
const txs = largeTransactions().filter((t) => t.name === 'test-141042#1' || t.name === 'main-3428145#3');
const exchanges: { body: string; want: Buffer }[] = txs.flatMap((t) => {
  const json = txToJsonBytes(t.tx, t.params);
  return [
    { body: rpc('decoderawtransaction', `"${toHex(t.tx.bytes)}"`), want: whole(json) },
    {
      body: rpc('getrawtransaction', `"${t.tx.txidHex}",1`),
      want: whole(Buffer.concat([Buffer.from(`{"hex":"${toHex(t.tx.bytes)}",`), json.subarray(1)])),
    },
  ];
});
/** A method the floor replays rather than builds. */
const replayed = { body: rpc('getblock', '"00",2'), want: whole(Buffer.from('{"replayed":true}')) };

describe('the uncached render floor on render threads', () => {
  let dir: string;
  let file: string;
  const servers: ChildServer[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'zecrpc-render-floor-thread-'));
    file = join(dir, 'replies.json');
    const recorded = [...exchanges, replayed].map((e) => ({
      body: e.body,
      reply: Buffer.concat([Buffer.from(HEAD), e.want]).toString('base64'),
    }));
    writeFileSync(file, JSON.stringify(recorded));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  for (const threads of [1, 2]) {
    it(`answers every request exactly as recorded on ${threads} thread(s), with more requests in flight than slots`, async () => {
      // Two slots: the twelve requests at once below queue for them.
      const floor = await startChildServer('bench/lib/render-floor-server.ts', {
        REPLIES: file,
        FLOOR_THREADS: String(threads),
        FLOOR_SLOTS: '2',
      });
      servers.push(floor);
      // Its render threads, printed for the bench to read their CPU: tasks of its process, other than its event loop.
      expect(floor.threads).toHaveLength(threads);
      for (const tid of floor.threads) {
        expect(tid).not.toBe(floor.pid);
        expect(existsSync(`/proc/${floor.pid}/task/${tid}`)).toBe(true);
      }
      for (let round = 0; round < 3; round++) {
        for (const e of exchanges) expect(replyParts(await captureReply(floor.port, e.body)).body.equals(e.want)).toBe(true);
      }
      const burst = [...exchanges, ...exchanges, ...exchanges];
      const replies = await Promise.all(burst.map((e) => captureReply(floor.port, e.body)));
      replies.forEach((r, i) => {
        expect(r.status).toBe(200);
        expect(replyParts(r).body.equals(burst[i]!.want)).toBe(true);
      });
      expect(replyParts(await captureReply(floor.port, replayed.body)).body.equals(replayed.want)).toBe(true);
      // One hex digit changed: no plan matches those bytes.
      const unknown = exchanges[0]!.body.replace(/"params":\["(.)/, (_, c: string) => `"params":["${c === '0' ? '1' : '0'}`);
      expect(unknown).not.toBe(exchanges[0]!.body);
      expect((await captureReply(floor.port, unknown)).status).toBe(404);
      // Still answering after the 404.
      expect(replyParts(await captureReply(floor.port, exchanges[1]!.body)).body.equals(exchanges[1]!.want)).toBe(true);
    });
  }

  it('will not start when a thread would build a reply other than the recorded one', async () => {
    const t = txs[0]!;
    const json = txToJsonBytes(t.tx, t.params).toString('latin1');
    const wrongTxid = json.replace(t.tx.txidHex, '00'.repeat(32));
    expect(wrongTxid).not.toBe(json);
    const wrong = join(dir, 'wrong.json');
    const reply = Buffer.concat([Buffer.from(HEAD), whole(Buffer.from(wrongTxid, 'latin1'))]).toString('base64');
    writeFileSync(wrong, JSON.stringify([{ body: exchanges[0]!.body, reply }]));
    await expect(startChildServer('bench/lib/render-floor-server.ts', { REPLIES: wrong, FLOOR_THREADS: '1' })).rejects.toThrow(/exited/);
  });

  it('refuses a thread count that is not a whole number ≥ 1', () => {
    for (const bad of ['0', '1.5', 'two']) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/lib/render-floor-server.ts'], {
        env: { ...process.env, REPLIES: file, FLOOR_THREADS: bad },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain(`FLOOR_THREADS must be a whole number ≥ 1, not ${bad}`);
    }
  });
});
