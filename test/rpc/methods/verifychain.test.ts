// verifychain over the fixture store (mainnet 0..20 connected through the real state
// transition): true at every level and depth, and false exactly from the level whose check a
// damaged store fails (bytes of another block, a wrong txid list, a missing chain-state record).
import { describe, expect, it } from 'vitest';
import { MAINNET } from '../../../src/chain/network.js';
import { verifyChainMethod } from '../../../src/rpc/methods/blockchain/verifychain.js';
import type { ChainStoreReader } from '../../../src/store/types.js';
import { errorOf, resultOf } from '../../support/call.js';
import { MemoryChainStore, mainnetGenesisRun } from '../../support/memory-store.js';

const blocks = mainnetGenesisRun();
const store = new MemoryChainStore(MAINNET, blocks);

/** The store with one read of block `height` replaced. */
function damaged(height: number, what: 'blockBytes' | 'blockTxids' | 'blockState', value: unknown): ChainStoreReader {
  let target: string | null = null;
  return new Proxy(store, {
    get(t, prop, receiver) {
      if (prop === what) {
        return async (hash: Uint8Array) => {
          target ??= Buffer.from((await t.hashAtHeight(height))!).toString('hex');
          return Buffer.from(hash).toString('hex') === target ? value : (t[what] as (h: Uint8Array) => Promise<unknown>).call(t, hash);
        };
      }
      const v: unknown = Reflect.get(t, prop, receiver);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
}

describe('verifychain', () => {
  it('a sound store verifies at every level and depth', async () => {
    const m = verifyChainMethod(store);
    for (const params of ['[]', '[0]', '[4]', '[9]', '[-3]', '[3, 0]', '[4, 1]', '[4, 500]', '[2, -1]']) {
      expect(await resultOf(m, params)).toBe('true');
    }
    expect(await errorOf(m, '["3"]')).toEqual({ code: -1, message: 'JSON value is not an integer as expected' });
    expect(await errorOf(m, '[3, 1.5]')).toEqual({ code: -1, message: 'JSON integer out of range' });
  });

  it('each damage fails from its level on, and only within the checked depth', async () => {
    const otherBlock = damaged(12, 'blockBytes', blocks[13]);
    expect(await resultOf(verifyChainMethod(otherBlock), '[0]')).toBe('false');
    const wrongTxids = damaged(12, 'blockTxids', [new Uint8Array(32)]);
    expect(await resultOf(verifyChainMethod(wrongTxids), '[1]')).toBe('true');
    expect(await resultOf(verifyChainMethod(wrongTxids), '[2]')).toBe('false');
    const noState = damaged(12, 'blockState', null);
    expect(await resultOf(verifyChainMethod(noState), '[2]')).toBe('true');
    expect(await resultOf(verifyChainMethod(noState), '[3]')).toBe('false');
    expect(await resultOf(verifyChainMethod(noState), '[4, 0]')).toBe('false');
    // Depth 8 checks heights 20 down to 12; depth 7 stops at 13.
    expect(await resultOf(verifyChainMethod(otherBlock), '[0, 8]')).toBe('false');
    expect(await resultOf(verifyChainMethod(otherBlock), '[0, 7]')).toBe('true');
  });
});
