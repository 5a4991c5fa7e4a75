import { describe, expect, it } from 'vitest';
import { MAINNET, TESTNET } from '../../../src/chain/network.js';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHex } from '../../../src/codec/hex.js';
import { txToJson } from '../../../src/render/tx.js';
import { DecodeCache } from '../../../src/rpc/methods/rawtransaction/decode-cache.js';
import { createDecodeRawTransaction } from '../../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { readHexVector } from '../../support/vectors.js';

const txs = decodeBlock(readHexVector('blocks', 'mainnet', '1687107.hex')).transactions;
const text = (r: string | Buffer) => (typeof r === 'string' ? r : r.toString('utf8'));

describe('decoderawtransaction result cache', () => {
  it('returns the same bytes as a fresh decode, per network', async () => {
    const m = createDecodeRawTransaction();
    for (const tx of txs) {
      const hex = toHex(tx.bytes);
      for (const network of [MAINNET, TESTNET]) {
        const ctx = { network, requestStop() {} };
        const first = text(await m.call([hex], ctx));
        const second = text(await m.call([hex], ctx));
        expect(first).toBe(txToJson(tx, network));
        expect(second).toBe(first);
      }
    }
    // transparent outputs render different addresses per network, so entries must not mix
    const coinbase = toHex(txs[0]!.bytes);
    expect(text(await m.call([coinbase], { network: MAINNET, requestStop() {} }))).toContain('"t1');
    expect(text(await m.call([coinbase], { network: TESTNET, requestStop() {} }))).not.toContain('"t1');
  });

  it('can be disabled, and stays within its byte budget', async () => {
    const off = createDecodeRawTransaction({ cacheBytes: 0 });
    const hex = toHex(txs[1]!.bytes);
    expect(text(await off.call([hex], { network: MAINNET, requestStop() {} }))).toBe(txToJson(txs[1]!, MAINNET));
    const small = createDecodeRawTransaction({ cacheBytes: 400_000 });
    for (let round = 0; round < 3; round++) {
      for (const tx of txs) {
        const r = text(await small.call([toHex(tx.bytes)], { network: MAINNET, requestStop() {} }));
        expect(r).toBe(txToJson(tx, MAINNET));
      }
    }
  });

  it('tells the server how much it keeps (hex and result), and decodes afresh after the server drops it', async () => {
    const m = createDecodeRawTransaction();
    const ctx = { network: MAINNET, requestStop() {} };
    const hex = toHex(txs[1]!.bytes);
    expect(m.cache?.bytes).toBe(0);
    const first = text(await m.call([hex], ctx));
    expect(m.cache?.bytes).toBe(hex.length + Buffer.byteLength(first));
    m.cache!.clear();
    expect(m.cache?.bytes).toBe(0);
    expect(text(await m.call([hex], ctx))).toBe(first);
    expect(createDecodeRawTransaction({ cacheBytes: 0 }).cache).toBeUndefined();
  });

  it('renders lowercase hex for uppercase, mixed-case and trailing-byte inputs', async () => {
    const m = createDecodeRawTransaction({ cacheBytes: 0 });
    const ctx = { network: MAINNET, requestStop() {} };
    for (const tx of txs.slice(0, 4)) {
      const hex = toHex(tx.bytes);
      const expected = txToJson(tx, MAINNET);
      expect(text(await m.call([hex.toUpperCase()], ctx))).toBe(expected);
      expect(text(await m.call([hex.slice(0, 10) + hex.slice(10).toUpperCase()], ctx))).toBe(expected);
      // zcashd ignores trailing bytes; they must not leak into `hex` or any field
      expect(text(await m.call([hex + 'abcd'], ctx))).toBe(expected);
    }
  });
});

describe('DecodeCache', () => {
  // The reader hands the method the cache's own copy of a held hex (json/known-strings.ts); found
  // by identity, it must still be answered only in the scope it was kept for.
  it("answers the cache's own copy of a hex in its own scope only", () => {
    const cache = new DecodeCache(1 << 20);
    const hex = Buffer.from(toHex(txs[1]!.bytes), 'latin1');
    expect(cache.plainStringEqualTo(hex)).toBeUndefined();
    cache.set('main', hex, Buffer.from('mainnet reply'));
    const held = cache.plainStringEqualTo(Buffer.from(hex))!;
    expect(held).not.toBe(hex);
    expect(held.equals(hex)).toBe(true);
    expect(cache.get('main', held)?.toString()).toBe('mainnet reply');
    expect(cache.get('test', held)).toBeUndefined();
    cache.set('test', held, Buffer.from('testnet reply'));
    expect([cache.get('main', held)?.toString(), cache.get('test', hex)?.toString()]).toEqual(['mainnet reply', 'testnet reply']);
    // One byte off is no held string, whatever the scope.
    const other = Buffer.from(hex);
    other[other.length - 1] = other[other.length - 1]! ^ 0x01;
    expect(cache.plainStringEqualTo(other)).toBeUndefined();
    expect(cache.get('main', other)).toBeUndefined();
  });
});
