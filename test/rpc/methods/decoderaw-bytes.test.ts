// decoderawtransaction with its hex parameter left as bytes of the request body (a long string
// through the server's dispatch) answers byte for byte as with an ordinary string, results and
// errors, and its cache finds by bytes what was kept by string and the other way round.
import { describe, expect, it } from 'vitest';
import { MAINNET, TESTNET, type NetworkParams } from '../../../src/chain/network.js';
import { decodeBlock } from '../../../src/codec/block.js';
import { toHex } from '../../../src/codec/hex.js';
import type { Transaction } from '../../../src/codec/tx/transaction.js';
import { LazyStringScope } from '../../../src/json/lazy-strings.js';
import { parseJson } from '../../../src/json/reader.js';
import { JsonNumber, type JsonObject, type JsonValue } from '../../../src/json/value.js';
import { txToJsonBytes } from '../../../src/render/tx.js';
import { errorReply, handleJsonRpcBody } from '../../../src/rpc/dispatch.js';
import { RpcError, type RpcContext, type RpcMethod } from '../../../src/rpc/method.js';
import { DecodeCache } from '../../../src/rpc/methods/rawtransaction/decode-cache.js';
import { createDecodeRawTransaction } from '../../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { MethodRegistry } from '../../../src/rpc/registry.js';
import { readHexVector } from '../../support/vectors.js';

/** The vectors' largest transactions: 97.5 kB (244 inputs), 66 kB (447 inputs), 54.7 kB (1,500 outputs). */
const LARGE: { tx: Transaction; network: NetworkParams }[] = [
  { tx: decodeBlock(readHexVector('blocks', 'testnet', '141042.hex')).transactions[1]!, network: TESTNET },
  { tx: decodeBlock(readHexVector('zcashd-2019', '106598.hex')).transactions[40]!, network: MAINNET },
  { tx: decodeBlock(readHexVector('zcashd-2019', '171059.hex')).transactions[3]!, network: MAINNET },
];

const ID = new JsonNumber('7');
const body = (params: string) => Buffer.from(`{"id":7,"method":"decoderawtransaction","params":[${params}]}`, 'utf8');

async function viaDispatch(m: RpcMethod, params: string, ctx: RpcContext): Promise<string> {
  const r = await handleJsonRpcBody(body(params), new MethodRegistry([m]), ctx);
  return typeof r.body === 'string' ? r.body : Buffer.concat(r.body).toString('utf8');
}

/** The reply the dispatch gives for `param` as an ordinary string, from the method called directly. */
async function expectedReply(m: RpcMethod, param: string, ctx: RpcContext): Promise<string> {
  try {
    const result = await m.call([param], ctx);
    return `{"result":${typeof result === 'string' ? result : result.toString('utf8')},"error":null,"id":7}\n`;
  } catch (e) {
    if (!(e instanceof RpcError)) throw e;
    return errorReply(e.code, e.message, ID) + '\n';
  }
}

describe('decoderawtransaction with its hex as body bytes', () => {
  it('renders the vectors’ largest transactions byte for byte as from a string, cached and not', async () => {
    for (const cacheBytes of [0, 32 * 1024 * 1024]) {
      for (const { tx, network } of LARGE) {
        const hex = toHex(tx.bytes);
        const ctx = { network, requestStop() {} };
        const reply = await viaDispatch(createDecodeRawTransaction({ cacheBytes }), `"${hex}"`, ctx);
        expect(reply).toBe(`{"result":${txToJsonBytes(tx, network).toString('utf8')},"error":null,"id":7}\n`);
        expect(reply).toBe(await expectedReply(createDecodeRawTransaction({ cacheBytes }), hex, ctx));
      }
    }
  });

  it('answers lowercase, uppercase and mixed-case hex alike, its `hex` lowercase, bytes after the transaction left out', async () => {
    const { tx, network } = LARGE[0]!;
    const hex = toHex(tx.bytes);
    const mixed = [...hex].map((c, i) => (i % 7 === 3 ? c.toUpperCase() : c)).join('');
    const want = `{"result":${txToJsonBytes(tx, network).toString('utf8')},"error":null,"id":7}\n`;
    expect(want).toContain(`"hex":"${hex}"`);
    for (const cacheBytes of [0, 32 * 1024 * 1024]) {
      for (const text of [hex, hex.toUpperCase(), mixed, hex + '00ff', hex + 'AB', hex.toUpperCase() + 'cd']) {
        const ctx = { network, requestStop() {} };
        expect(await viaDispatch(createDecodeRawTransaction({ cacheBytes }), `"${text}"`, ctx)).toBe(want);
        expect(await expectedReply(createDecodeRawTransaction({ cacheBytes }), text, ctx)).toBe(want);
      }
    }
  });

  it('never makes the parameter a string: its slot is still unread after a miss and a hit', async () => {
    const { tx, network } = LARGE[0]!;
    const scope = new LazyStringScope();
    const params = (parseJson(body(`"${toHex(tx.bytes)}"`), { lazyStrings: scope }) as JsonObject).get('params') as JsonValue[];
    for (const m of [createDecodeRawTransaction({ cacheBytes: 0 }), createDecodeRawTransaction()]) {
      for (let i = 0; i < 2; i++) {
        const result = await m.call(params, { network, requestStop() {} });
        expect(Buffer.from(result).equals(txToJsonBytes(tx, network))).toBe(true);
        expect(Object.getOwnPropertyDescriptor(params, 0)?.get).toBeDefined();
      }
    }
    scope.end();
  });

  it('refuses what the string path refuses, with the same code and message', async () => {
    const hex = toHex(LARGE[0]!.tx.bytes);
    const ctx = { network: TESTNET, requestStop() {} };
    const bad = [
      hex.slice(0, -1),
      hex.slice(0, 70_000) + 'x' + hex.slice(70_001),
      hex.slice(0, 100_000),
      hex.slice(0, 100_000).toUpperCase(),
      hex + '00',
      '0'.repeat(64 * 1024),
    ];
    for (const t of bad) {
      const m = createDecodeRawTransaction({ cacheBytes: 0 });
      expect(await viaDispatch(m, `"${t}"`, ctx)).toBe(await expectedReply(m, t, ctx));
    }
    expect(await viaDispatch(createDecodeRawTransaction(), `"${hex.slice(0, -1)}"`, ctx)).toContain('"code":-22');
    // Not a string at all: the type error, from a long array element too.
    expect(await viaDispatch(createDecodeRawTransaction(), `["${hex}"]`, ctx)).toBe(
      errorReply(-3, 'Expected type string, got array', ID) + '\n',
    );
  });

  it('finds by bytes what it kept by string, and by string what it kept by bytes', async () => {
    const { tx, network } = LARGE[1]!;
    const hex = toHex(tx.bytes);
    const want = txToJsonBytes(tx, network).toString('utf8');
    for (const firstByBytes of [true, false]) {
      const hits: boolean[] = [];
      const ctx = { network, requestStop() {}, noteCacheLookup: (_: string, hit: boolean) => hits.push(hit) };
      const m = createDecodeRawTransaction();
      const first = firstByBytes ? await viaDispatch(m, `"${hex}"`, ctx) : await expectedReply(m, hex, ctx);
      const second = firstByBytes ? await expectedReply(m, hex, ctx) : await viaDispatch(m, `"${hex}"`, ctx);
      expect(hits).toEqual([false, true]);
      expect(first).toBe(second);
      expect(first).toContain(want);
      expect(m.cache!.bytes).toBe(hex.length + want.length);
    }
  });
});

describe('the decode cache', () => {
  it('keeps at most 8 entries of one fingerprint, compares them whole, and stays within its bytes', () => {
    const cache = new DecodeCache(10_000_000);
    // 4,096 bytes are sampled every 16th byte (and the last 64): keys differing at byte 1 share a fingerprint.
    const key = (i: number) => {
      const k = Buffer.alloc(4096, 0x30);
      k[1] = 0x40 + i;
      return k;
    };
    for (let i = 0; i < 10; i++) cache.set('main', key(i), Buffer.from(`result ${i}`));
    expect(cache.get('main', key(0))).toBeUndefined();
    expect(cache.get('main', key(1))).toBeUndefined();
    for (let i = 2; i < 10; i++) expect(cache.get('main', key(i))?.toString()).toBe(`result ${i}`);
    expect(cache.get('test', key(5))).toBeUndefined();
    expect(cache.bytes).toBe(8 * (4096 + 8));
    // Replacing an entry counts it once.
    cache.set('main', key(5), Buffer.from('again'));
    expect(cache.get('main', key(5))?.toString()).toBe('again');
    expect(cache.bytes).toBe(7 * (4096 + 8) + 4096 + 5);
    cache.clear();
    expect(cache.bytes).toBe(0);
    expect(cache.get('main', key(5))).toBeUndefined();

    const small = new DecodeCache(3 * 1100 * 8);
    for (let i = 0; i < 40; i++) small.set('main', Buffer.alloc(1000, i), Buffer.alloc(100, i));
    expect(small.bytes).toBeLessThanOrEqual(3 * 1100 * 8);
    expect(small.get('main', Buffer.alloc(1000, 39))?.equals(Buffer.alloc(100, 39))).toBe(true);
    expect(small.get('main', Buffer.alloc(1000, 0))).toBeUndefined();
  });

  it('keeps its own copy of a key that is a view of reused memory', () => {
    const cache = new DecodeCache(1_000_000);
    const memory = Buffer.from('00'.repeat(1000), 'latin1');
    cache.set('main', memory.subarray(0, 1000), Buffer.from('kept'));
    memory.fill(0x31, 0, 1000);
    expect(cache.get('main', Buffer.from('0'.repeat(1000), 'latin1'))?.toString()).toBe('kept');
    expect(cache.get('main', memory.subarray(0, 1000))).toBeUndefined();
  });
});
