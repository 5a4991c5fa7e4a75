// The tip-scoped reply cache: exact per tip, dropped when the tip moves, bounded in size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../../src/chain/network.js';
import { JsonNumber, type JsonObject, parseJson } from '../../../src/json/index.js';
import { getBlockMethod } from '../../../src/rpc/methods/blockchain/getblock.js';
import { TipScopedReplyCache } from '../../../src/rpc/methods/blockchain/reply-cache.js';
import { openChainStore, type ChainStore } from '../../../src/store/index.js';
import { tempDir } from '../../support/store.js';
import { resultOf } from '../../support/call.js';
import { mainnetGenesisRun } from '../../support/memory-store.js';

describe('TipScopedReplyCache', () => {
  it('answers only for the tip it was filled under', () => {
    const c = new TipScopedReplyCache(1000);
    c.set('T1', 'T1', 'k', 'reply');
    expect(c.get('T1', 'k')).toBe('reply');
    expect(c.get('T2', 'k')).toBeUndefined();
    c.set('T2', 'T2', 'other', 'x');
    expect(c.get('T1', 'k')).toBeUndefined();
    expect(c.get('T2', 'k')).toBeUndefined();
  });

  it('never keeps a reply computed while the tip changed', () => {
    const c = new TipScopedReplyCache(1000);
    c.set('T1', 'T2', 'k', 'stale');
    expect(c.get('T1', 'k')).toBeUndefined();
    expect(c.get('T2', 'k')).toBeUndefined();
  });

  it('evicts least recently used entries beyond its budget and skips oversized replies', () => {
    const c = new TipScopedReplyCache(40);
    c.set('T', 'T', 'a', 'a'.repeat(10));
    c.set('T', 'T', 'b', 'b'.repeat(10));
    c.set('T', 'T', 'c', 'c'.repeat(10));
    expect(c.get('T', 'a')).toBe('a'.repeat(10)); // now most recent
    c.set('T', 'T', 'd', 'd'.repeat(10));
    c.set('T', 'T', 'e', 'e'.repeat(10)); // 50 chars: the least recent ('b') goes
    expect(c.get('T', 'b')).toBeUndefined();
    expect(c.get('T', 'a')).toBe('a'.repeat(10));
    c.set('T', 'T', 'big', 'x'.repeat(11)); // over a quarter of the budget
    expect(c.get('T', 'big')).toBeUndefined();
  });
});

describe('TipScopedReplyCache memory', () => {
  it('keeps a slice of a shared buffer in memory of its own, counting what it holds', () => {
    const cache = new TipScopedReplyCache(1 << 20);
    const pooled = Buffer.from('{"result":"00","error":null,"id":1}\n');
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length); // a slice of Node's 8 KiB pool
    cache.set('t', 't', 'small', pooled);
    const kept = cache.get<Buffer>('t', 'small')!;
    expect(kept.equals(pooled)).toBe(true);
    expect(kept.buffer.byteLength).toBe(kept.length);
    const whole = Buffer.allocUnsafeSlow(4096).fill(7);
    cache.set('t', 't', 'whole', whole);
    expect(cache.get<Buffer>('t', 'whole')).toBe(whole); // already its own memory: not copied
    expect(cache.size).toBe(pooled.length + 4096);
  });
});

describe('getblock replies follow the tip of a growing LevelDB store', () => {
  const dir = tempDir('rpc-cache');
  const blocks = mainnetGenesisRun();
  let store: ChainStore;
  beforeAll(async () => {
    store = await openChainStore({ datadir: dir.path, network: MAINNET });
    for (const b of blocks.slice(0, 11)) await store.addBlock(b);
  });
  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  it('confirmations, nextblockhash and "-1" change when blocks arrive', async () => {
    const getblock = getBlockMethod(store);
    const read = async (p: string): Promise<JsonObject> => parseJson(await resultOf(getblock, p)) as JsonObject;
    const conf = (o: JsonObject): string => (o.get('confirmations') as JsonNumber).text;

    const before = await read('["10"]');
    expect(conf(before)).toBe('1');
    expect(before.has('nextblockhash')).toBe(false);
    expect((await read('["10"]')).get('hash')).toBe(before.get('hash')); // served again (cached)
    const tipBefore = (await read('["-1"]')).get('hash');
    expect(tipBefore).toBe(before.get('hash'));

    await store.addBlock(blocks[11]!);
    const after = await read('["10"]');
    expect(conf(after)).toBe('2');
    expect(after.get('nextblockhash')).toBe((await read('["11"]')).get('hash'));
    expect((await read('["-1"]')).get('hash')).not.toBe(tipBefore);
    expect((await read('["-1"]')).get('height')).toEqual(new JsonNumber('11'));
  });
});

describe('a reply whose reads straddle a tip that moves away and back is not kept', () => {
  const dir = tempDir('rpc-cache-aba');
  const blocks = mainnetGenesisRun();
  let store: ChainStore;
  beforeAll(async () => {
    store = await openChainStore({ datadir: dir.path, network: MAINNET });
    for (const b of blocks.slice(0, 12)) await store.addBlock(b);
  });
  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  it('getblock of the tip, its index entry read while it was invalidated and reconsidered: the next request says confirmations 1', async () => {
    const tip = (await store.tip())!;
    expect(tip.height).toBe(11);
    let moveAwayAndBack = true;
    // The store as getblock sees it, except that the first read of a block's index entry happens
    // while block 11 is off the active chain (T1 → T2 → T1 within one request, as a
    // reorganization and its undo would be).
    const racing = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'blockIndex') {
          return async (hash: Uint8Array) => {
            if (!moveAwayAndBack) return target.blockIndex(hash);
            moveAwayAndBack = false;
            expect(await target.invalidateBlock(tip.hash)).toBe(true);
            const seen = await target.blockIndex(hash);
            expect(await target.reconsiderBlock(tip.hash)).toBe(true);
            return seen;
          };
        }
        const value = Reflect.get(target, prop, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const getblock = getBlockMethod(racing);
    const hashHex = Buffer.from(tip.hash).reverse().toString('hex');
    const read = async (): Promise<JsonObject> => parseJson(await resultOf(getblock, `["${hashHex}"]`)) as JsonObject;
    const conf = (o: JsonObject): string => (o.get('confirmations') as JsonNumber).text;

    const straddled = await read();
    expect(moveAwayAndBack).toBe(false);
    expect(conf(straddled)).toBe('-1'); // what the entry read at T2 said
    expect((await store.tip())!.hash).toEqual(tip.hash); // back at T1

    expect(conf(await read())).toBe('1');
  });
});
