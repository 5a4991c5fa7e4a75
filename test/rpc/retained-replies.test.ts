// A cached reply, or one written into lent memory, is held on the reply budgets while it is
// written like any other, but giving it back frees none of its memory: only the bytes a reply
// made for itself are reported as garbage to the memory release (which asks V8 for a full
// collection once enough have been), and such a reply is byte for byte the reply rendered afresh.
import { describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex } from '../../src/codec/hex.js';
import { handleJsonRpcBody } from '../../src/rpc/dispatch.js';
import { MemoryBudget, RequestBudget } from '../../src/rpc/http/memory-budget.js';
import type { RpcContext, RpcMethod } from '../../src/rpc/method.js';
import { keptReply, TipScopedReplyCache } from '../../src/rpc/methods/blockchain/reply-cache.js';
import { createDecodeRawTransaction } from '../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { getRawTransactionMethod } from '../../src/rpc/methods/rawtransaction/getrawtransaction.js';
import { transactionReplyMemory } from '../../src/rpc/methods/reply-memory.js';
import { MethodRegistry } from '../../src/rpc/registry.js';
import { isRetained } from '../../src/rpc/retained-replies.js';
import { MemoryChainStore, mainnetGenesisRun, zcashd2019Side } from '../support/memory-store.js';

/** Mainnet 106598 (a side block here): #40 is a 66 kB transaction with 447 inputs. */
const side = zcashd2019Side(106598);
const block = decodeBlock(side.bytes);
const store = new MemoryChainStore(MAINNET, mainnetGenesisRun(), [side]);
const tx = block.transactions[40]!;
const ctx: RpcContext = { network: MAINNET, requestStop: () => {} };

/** One request through the dispatcher on a budget: its reply's bytes and what the release was told. */
async function request(method: RpcMethod, body: string, context: RpcContext = ctx) {
  const global = new MemoryBudget(256 * 1024 * 1024);
  const reported: number[] = [];
  const budget = new RequestBudget(global, 64 * 1024 * 1024, (bytes) => reported.push(bytes));
  const reply = await handleJsonRpcBody(Buffer.from(body), new MethodRegistry([method]), context, { budget });
  const bytes = typeof reply.body === 'string' ? Buffer.from(reply.body) : Buffer.concat(reply.body);
  const held = budget.bytes;
  budget.releaseAll();
  return { status: reply.status, bytes, held, reported, globalAfter: global.inUse };
}

const rpc = (method: string, params: string) => `{"jsonrpc":"1.0","id":7,"method":"${method}","params":[${params}]}`;

const cases: [string, (cached: boolean) => RpcMethod, string][] = [
  [
    'getrawtransaction 1',
    (cached) => getRawTransactionMethod(store, { cacheReplies: cached }),
    rpc('getrawtransaction', `"${tx.txidHex}",1,"${block.hashHex}"`),
  ],
  [
    'decoderawtransaction',
    (cached) => createDecodeRawTransaction(cached ? {} : { cacheBytes: 0 }),
    rpc('decoderawtransaction', `"${toHex(tx.bytes)}"`),
  ],
];

describe('replies answered from a cache', () => {
  for (const [name, method, body] of cases) {
    it(`${name} of mainnet 106598#40: the cached reply is the fresh one, and only its envelope is reported freed`, async () => {
      const fresh = await request(method(false), body);
      expect(fresh.status).toBe(200);
      expect(fresh.bytes.length).toBeGreaterThan(100_000);
      // Rendered for this request alone: all of it is garbage once written.
      expect(fresh.reported).toEqual([fresh.held]);
      expect(fresh.held).toBe(fresh.bytes.length);

      const cached = method(true);
      await request(cached, body);
      const hit = await request(cached, body);
      expect(hit.bytes.equals(fresh.bytes)).toBe(true);
      // Held whole while written, and every byte given back to the process-wide budget...
      expect(hit.held).toBe(hit.bytes.length);
      expect(hit.globalAfter).toBe(0);
      // ...but of it only the envelope around the cached result became garbage.
      const envelope = '{"result":'.length + ',"error":null,"id":7}\n'.length;
      expect(hit.reported).toEqual([envelope]);
    });
  }
});

describe('replies rendered into lent memory', () => {
  for (const [name, method, body] of cases) {
    it(`${name} of mainnet 106598#40 without a cache: only the envelope is reported freed, the lent buffer goes back`, async () => {
      const fresh = await request(method(false), body);
      const releases: (() => void)[] = [];
      const lentBefore = transactionReplyMemory.stats().lent;
      const lent = await request(method(false), body, { ...ctx, replyScope: { hold: (release) => releases.push(release) } });
      expect(releases.length).toBe(1);
      expect(transactionReplyMemory.stats().lent).toBe(lentBefore + 1);
      expect(lent.bytes.equals(fresh.bytes)).toBe(true);
      expect(lent.held).toBe(lent.bytes.length);
      expect(lent.reported).toEqual(['{"result":'.length + ',"error":null,"id":7}\n'.length]);
      releases[0]!();
      expect(transactionReplyMemory.stats().lent).toBe(lentBefore);
    });
  }
});

describe('retained reply memory', () => {
  it('a cache keeps its replies marked as retained, in memory of their own', () => {
    const view = Buffer.from('xx{"a":1}yy').subarray(2, 9);
    const kept = keptReply(view);
    expect(kept.toString()).toBe('{"a":1}');
    expect(kept.buffer.byteLength).toBe(kept.length);
    expect(isRetained(kept)).toBe(true);
    expect(isRetained(view)).toBe(false);
    const cache = new TipScopedReplyCache(1024);
    const reply = Buffer.from('[1,2,3]');
    cache.set('t', 't', 'k', reply);
    expect(isRetained(cache.get<Buffer>('t', 'k')!)).toBe(true);
  });

  it('a request budget reports only the bytes not retained, and nothing when all were', () => {
    const global = new MemoryBudget(1000);
    const reported: number[] = [];
    const budget = new RequestBudget(global, 1000, (bytes) => reported.push(bytes));
    expect(budget.take(100)).toBe('ok');
    expect(budget.take(300, true)).toBe('ok');
    expect(global.inUse).toBe(400);
    budget.releaseAll();
    expect(global.inUse).toBe(0);
    expect(reported).toEqual([100]);
    expect(budget.take(300, true)).toBe('ok');
    budget.releaseAll();
    expect(global.inUse).toBe(0);
    expect(reported).toEqual([100]);
    // A refused take holds nothing, retained or not.
    expect(budget.take(2000, true)).toBe('request');
    expect(budget.take(50)).toBe('ok');
    budget.releaseAll();
    expect(reported).toEqual([100, 50]);
  });
});
