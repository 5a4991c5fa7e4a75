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
  // The reader hands the method the cache's own string of a held hex (json/known-strings.ts),
  // which the method turns back into the kept copy (heldCopyOf); found by identity, it must
  // still be answered only in the scope it was kept for.
  it("answers the cache's own copy of a hex in its own scope only", () => {
    const cache = new DecodeCache(1 << 20);
    const hex = Buffer.from(toHex(txs[1]!.bytes), 'latin1');
    expect(cache.plainStringEqualTo(hex)).toBeUndefined();
    cache.set('main', hex, Buffer.from('mainnet reply'));
    const held = cache.plainStringEqualTo(Buffer.from(hex))!;
    expect(held).toBe(hex.toString('latin1'));
    const copy = cache.heldCopyOf(held)!;
    expect(copy).not.toBe(hex);
    expect(copy.equals(hex)).toBe(true);
    expect(cache.get('main', copy)?.toString()).toBe('mainnet reply');
    expect(cache.get('test', copy)).toBeUndefined();
    cache.set('test', copy, Buffer.from('testnet reply'));
    expect([cache.get('main', copy)?.toString(), cache.get('test', hex)?.toString()]).toEqual(['mainnet reply', 'testnet reply']);
    // The same copy for both scopes: the string is still the one held.
    expect(cache.heldCopyOf(held)).toBe(copy);
    // One byte off is no held string, whatever the scope.
    const other = Buffer.from(hex);
    other[other.length - 1] = other[other.length - 1]! ^ 0x01;
    expect(cache.plainStringEqualTo(other)).toBeUndefined();
    expect(cache.heldCopyOf(other.toString('latin1'))).toBeUndefined();
    expect(cache.get('main', other)).toBeUndefined();
  });

  it('counts the string of a repeated hex in its size, made once, and gives it up with the entry', () => {
    const hex = Buffer.from(toHex(txs[1]!.bytes), 'latin1');
    const reply = Buffer.from('reply');
    const cache = new DecodeCache(1 << 20);
    cache.set('main', hex, reply);
    expect(cache.bytes).toBe(hex.length + reply.length);
    // A string equal to the hex but never handed out is not found by identity; its bytes are.
    expect(cache.heldCopyOf(hex.toString('latin1'))).toBeUndefined();
    const held = cache.plainStringEqualTo(hex)!;
    expect(cache.bytes).toBe(2 * hex.length + reply.length);
    expect(cache.plainStringEqualTo(Buffer.from(hex))).toBe(held);
    expect(cache.bytes).toBe(2 * hex.length + reply.length);
    // Entries of other hex push it out (oldest first), the string with it: a cache that made no
    // string then holds exactly what this one does.
    const hexOf = (i: number) => Buffer.from(i.toString(16).padStart(8, '0').repeat(125), 'latin1');
    const [withText, without] = [new DecodeCache(10_000), new DecodeCache(10_000)];
    for (const c of [withText, without]) c.set('main', hexOf(0), reply);
    const first = withText.plainStringEqualTo(hexOf(0))!;
    expect(withText.bytes).toBe(without.bytes + 1000);
    for (let i = 1; i <= 20; i++) for (const c of [withText, without]) c.set('main', hexOf(i), reply);
    expect([withText.heldCopyOf(first), withText.get('main', hexOf(0)), without.get('main', hexOf(0))]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(withText.get('main', hexOf(20))).toEqual(reply);
    expect(withText.bytes).toBe(without.bytes);
    expect(withText.bytes).toBeLessThanOrEqual(10_000);
    cache.clear();
    expect([cache.bytes, cache.heldCopyOf(held), cache.plainStringEqualTo(hex)]).toEqual([0, undefined, undefined]);
  });

  it('finds no held string of a length it made none of, and forgets a length with its last string', () => {
    const cache = new DecodeCache(1 << 20);
    const a = Buffer.from(toHex(txs[1]!.bytes), 'latin1');
    const b = Buffer.from(a);
    b[b.length - 2] = b[b.length - 2] === 0x30 ? 0x31 : 0x30;
    const long = Buffer.from(toHex(txs[2]!.bytes), 'latin1');
    for (const h of [a, b, long]) cache.set('main', h, Buffer.from('r'));
    const heldLong = cache.plainStringEqualTo(Buffer.from(long))!;
    // a and b share a length, but no string of it was made: neither is a held string.
    expect([cache.heldCopyOf(a.toString('latin1')), cache.heldCopyOf(b.toString('latin1'))]).toEqual([undefined, undefined]);
    expect(cache.heldCopyOf(heldLong)!.equals(long)).toBe(true);
    const heldA = cache.plainStringEqualTo(Buffer.from(a))!;
    expect(cache.heldCopyOf(heldA)!.equals(a)).toBe(true);
    expect(cache.heldCopyOf(b.toString('latin1'))).toBeUndefined();
    cache.clear();
    expect([cache.heldCopyOf(heldA), cache.heldCopyOf(heldLong), cache.bytes]).toEqual([undefined, undefined, 0]);
  });

  // The request's size estimate asks for a held string where a run starts, before it has found
  // the run's closing quote: the cache tries the lengths of the hex requests have repeated.
  it('finds a repeated hex where a run starts by its length, ending at a quote, within a few lengths', () => {
    const cache = new DecodeCache(1 << 20);
    const hex = Buffer.from(toHex(txs[1]!.bytes), 'latin1');
    const at = (text: Buffer) => Buffer.concat([Buffer.from('["'), text, Buffer.from('"]')]);
    cache.set('main', hex, Buffer.from('r'));
    // Kept but never repeated: its length is not tried yet.
    expect(cache.plainStringFrom(at(hex), 2, 0)).toBeUndefined();
    const held = cache.plainStringEqualTo(Buffer.from(hex))!;
    expect(cache.plainStringFrom(at(hex), 2, 0)).toBe(held);
    expect(cache.plainStringFrom(at(hex), 2, hex.length + 1)).toBeUndefined();
    // The same bytes followed by more than the quote, or one byte off, are no held string.
    expect(cache.plainStringFrom(at(Buffer.concat([hex, Buffer.from('00')])), 2, 0)).toBeUndefined();
    const off = Buffer.from(hex);
    off[10] = off[10] === 0x30 ? 0x31 : 0x30;
    expect(cache.plainStringFrom(at(off), 2, 0)).toBeUndefined();
    // A body ending right after the run (no quote) is no held string either.
    expect(cache.plainStringFrom(Buffer.concat([Buffer.from('["'), hex]), 2, 0)).toBeUndefined();
    // Past eight repeated lengths nothing is tried: the caller searches for the quote instead.
    const others = Array.from({ length: 8 }, (_, i) => Buffer.from('ab'.repeat(100 + i), 'latin1'));
    for (const [i, h] of others.entries()) {
      cache.set('main', h, Buffer.from('r'));
      cache.plainStringEqualTo(Buffer.from(h));
      expect(cache.plainStringFrom(at(hex), 2, 0), `${i + 2} lengths`).toBe(i < 7 ? held : undefined);
    }
    expect(cache.plainStringEqualTo(hex)).toBe(held);
  });

  it('tells apart hex of the same length (the fingerprint then picks the entry)', () => {
    const cache = new DecodeCache(1 << 20);
    const a = Buffer.from(toHex(txs[1]!.bytes), 'latin1');
    const b = Buffer.from(a);
    b[b.length - 2] = b[b.length - 2] === 0x30 ? 0x31 : 0x30;
    const c = Buffer.from(a);
    c[100] = c[100] === 0x30 ? 0x31 : 0x30;
    cache.set('main', a, Buffer.from('a'));
    cache.set('main', b, Buffer.from('b'));
    const texts = [a, b].map((h) => cache.plainStringEqualTo(Buffer.from(h))!);
    expect(texts).toEqual([a.toString('latin1'), b.toString('latin1')]);
    expect(texts.map((t) => cache.get('main', cache.heldCopyOf(t)!)?.toString())).toEqual(['a', 'b']);
    expect([cache.get('main', Buffer.from(a)), cache.get('main', Buffer.from(b))].map(String)).toEqual(['a', 'b']);
    expect([cache.plainStringEqualTo(c), cache.heldCopyOf(c.toString('latin1')), cache.get('main', c)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});
