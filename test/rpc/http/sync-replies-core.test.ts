// A reply a method's cache holds for the tip as it is now is answered at once, without a promise
// (rpc-core.ts `execute`, dispatch.ts, getrawtransaction's TipScopedReplyCache.getAtChanges):
// through a server's core, with the bytes of the promise path and of a server without the cache;
// never once the tip has moved; and never past a busy or full work queue.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../../src/chain/network.js';
import { loadNodeConfig } from '../../../src/config.js';
import { parseJson, type JsonNumber, type JsonObject } from '../../../src/json/index.js';
import { createRpcCore, type ExecutedRequest, type RpcCore } from '../../../src/rpc/http/rpc-core.js';
import { WORK_QUEUE_FULL } from '../../../src/rpc/http/reply.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { getRawTransactionMethod } from '../../../src/rpc/methods/rawtransaction/getrawtransaction.js';
import { MemoryChainStore, mainnetGenesisIndex, mainnetGenesisRun, zcashd2019Side } from '../../support/memory-store.js';

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-sync-replies-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const INDEX = mainnetGenesisIndex();
const blocks = mainnetGenesisRun();
const side = zcashd2019Side(24202);
const B5 = INDEX[5]!;
const TX5 = B5.txids[0]!;

/** The fixture store with a tip the test moves down the chain, each move counted as a store counts them. */
class MovableStore extends MemoryChainStore {
  private movedTo: number | null = null;
  private moves = 0;

  moveTip(height: number): void {
    this.movedTo = height;
    this.moves++;
  }

  override async tip(): Promise<{ hash: Uint8Array; height: number } | null> {
    if (this.movedTo === null) return super.tip();
    return { hash: (await this.hashAtHeight(this.movedTo))!, height: this.movedTo };
  }

  override tipChanges(): number {
    return this.moves;
  }
}

const core = (methods: RpcMethod[], extra: string[] = []): RpcCore =>
  createRpcCore({
    config: loadNodeConfig([`-datadir=${dir}`, '-rpcuser=alice', '-rpcpassword=secret', ...extra]),
    methods,
    renderThreads: 0,
  });
const call = (params: string, id = 1) => `{"id":${id},"method":"getrawtransaction","params":[${params}]}`;

interface Answer {
  status: number;
  text: string;
  summary: ExecutedRequest['summary'];
}
const answerOf = (r: ExecutedRequest): Answer => {
  const out = {
    status: r.reply.status,
    text: typeof r.reply.body === 'string' ? r.reply.body : Buffer.concat(r.reply.body).toString('utf8'),
    summary: r.summary,
  };
  r.done();
  return out;
};
/** The answer, and whether it came at once (no promise). */
async function run(c: RpcCore, body: string): Promise<Answer & { atOnce: boolean }> {
  const r = c.execute(Buffer.from(body, 'utf8'));
  return { ...answerOf(await r), atOnce: !(r instanceof Promise) };
}
const confirmationsIn = (a: Answer): string =>
  (((parseJson(a.text) as JsonObject).get('result') as JsonObject).get('confirmations') as JsonNumber).text;

describe('a reply held for the current tip', () => {
  it('comes at once, with the bytes of its first answer and of a server without the cache', async () => {
    const store = new MemoryChainStore(MAINNET, blocks, [side]);
    const cached = core([getRawTransactionMethod(store)]);
    const uncached = core([getRawTransactionMethod(store, { cacheReplies: false })]);
    const zeroHash = '0'.repeat(64);
    try {
      // Forms naming one request share its reply (`"TX5"` is `"TX5", 0`): only a request not
      // answered before waits.
      for (const [params, heldBefore] of [
        [`"${TX5}", 1`, false],
        [`"${TX5}"`, false],
        [`"${TX5}", 0`, true],
        [`"${TX5}", 2`, true],
        [`"${TX5}", 1, "${B5.hash}"`, false],
        [`"${TX5}", 1, "${zeroHash}"`, false],
        [`"${TX5.toUpperCase()}", 1`, false],
        [`"00${TX5}", 1`, true],
        [`"${TX5}", 1, "${B5.hash.toUpperCase()}"`, false],
      ] as const) {
        const want = await run(uncached, call(params));
        expect(want.status, params).toBe(200);
        const first = await run(cached, call(params));
        expect(first, params).toEqual({ ...want, atOnce: heldBefore });
        const again = await run(cached, call(params, 7));
        expect(again, params).toEqual({ ...(await run(uncached, call(params, 7))), atOnce: true });
      }
      // A batch takes the promise path, with the same bytes.
      const batch = `[${call(`"${TX5}", 1`)},${call(`"${TX5}", 0`, 2)},${call('"00"', 3)}]`;
      const b = await run(cached, batch);
      expect(b.atOnce).toBe(false);
      expect(b).toEqual({ ...(await run(uncached, batch)), atOnce: false });
      // Errors as before, at once or not.
      for (const params of ['"xyz", 1', `"${TX5}", true`, `"${TX5}", 1, "0"`]) {
        expect((await run(cached, call(params))).text, params).toBe((await run(uncached, call(params))).text);
      }
      expect(cached.stats()).toMatchObject({ running: 0, waiting: 0, replyBytes: 0 });
    } finally {
      await cached.close();
      await uncached.close();
    }
  });

  it('is not served once the tip has moved: the next request is answered for the new tip, then held for it', async () => {
    const store = new MovableStore(MAINNET, blocks, [side]);
    const c = core([getRawTransactionMethod(store)]);
    const body = call(`"${TX5}", 1, "${B5.hash}"`);
    try {
      expect(confirmationsIn(await run(c, body))).toBe('16');
      const held = await run(c, body);
      expect(held.atOnce).toBe(true);
      expect(confirmationsIn(held)).toBe('16');
      store.moveTip(19);
      const moved = await run(c, body);
      expect(moved.atOnce).toBe(false);
      expect(confirmationsIn(moved)).toBe('15');
      const heldAgain = await run(c, body);
      expect(heldAgain.atOnce).toBe(true);
      expect(confirmationsIn(heldAgain)).toBe('15');
    } finally {
      await c.close();
    }
  });

  it('waits for a busy work queue and is refused by a full one, as any request', async () => {
    const store = new MemoryChainStore(MAINNET, blocks, [side]);
    let letGo = (): void => undefined;
    const holding: RpcMethod = {
      name: 'holdslot',
      category: 'hidden',
      required: 0,
      optional: 0,
      help: 'holdslot',
      call: () => new Promise<string>((resolve) => (letGo = () => resolve('true'))),
    };
    const c = core([getRawTransactionMethod(store), holding], ['-rpcthreads=1', '-rpcworkqueue=1']);
    const body = call(`"${TX5}", 1`);
    try {
      const want = await run(c, body);
      expect((await run(c, body)).atOnce).toBe(true);
      const held = c.execute(Buffer.from('{"id":9,"method":"holdslot","params":[]}'));
      const waiting = c.execute(Buffer.from(body));
      expect(waiting).toBeInstanceOf(Promise);
      expect(c.stats()).toMatchObject({ running: 1, waiting: 1 });
      const refused = await c.execute(Buffer.from(body));
      expect(refused.reply).toBe(WORK_QUEUE_FULL);
      letGo();
      expect(answerOf(await held).text).toBe('{"result":true,"error":null,"id":9}\n');
      expect({ ...answerOf(await waiting), atOnce: false }).toEqual({ ...want, atOnce: false });
      expect(c.stats()).toMatchObject({ running: 0, waiting: 0, replyBytes: 0 });
      expect((await run(c, body)).atOnce).toBe(true);
    } finally {
      await c.close();
    }
  });
});
