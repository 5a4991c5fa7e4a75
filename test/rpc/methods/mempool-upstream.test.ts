// Mempool and relay methods: forwarded to an -upstream node that answers, errors, stalls or
// refuses, and answered as by a zcashd with an empty mempool and no peers without one.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAINNET, REGTEST } from '../../../src/chain/network.js';
import type { TransactionData } from '../../../src/codec/tx/types.js';
import { DEFAULT_RELAY_POLICY, type RelayPolicy } from '../../../src/chain/tx-policy.js';
import { parseJson, type JsonValue } from '../../../src/json/index.js';
import { RpcError, type RpcMethod } from '../../../src/rpc/method.js';
import { NO_EXPERIMENTAL_FEATURES } from '../../../src/rpc/methods/control/experimental-features.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { UpstreamRelay } from '../../../src/rpc/methods/mempool/upstream-relay.js';
import { openChainStore, type ChainStore } from '../../../src/store/index.js';
import { mainnetChain, tempDir } from '../../support/store.js';
import { readHexVector } from '../../support/vectors.js';

const MEMPOOL_TXID = 'ab'.repeat(32);

interface Seen {
  method: string;
  params: unknown[];
  auth: string | undefined;
  contentType: string | undefined;
}

/** A fake zcashd: canned answers per method, `stall` never answers. */
function fakeUpstream(seen: Seen[]): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const r = JSON.parse(body) as { id: number; method: string; params: unknown[] };
      seen.push({ method: r.method, params: r.params, auth: req.headers.authorization, contentType: req.headers['content-type'] });
      const reply = (text: string): void => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(text);
      };
      switch (r.method) {
        case 'getrawmempool':
          return reply(
            r.params[0] === true
              ? `{"result":{"${MEMPOOL_TXID}":{"size":250,"fee":0.00001000,"modifiedfee":0.00001000,"time":1700000000,"height":20,"descendantcount":1,"descendantsize":250,"descendantfees":1000,"depends":[]}},"error":null,"id":${r.id}}\n`
              : `{"result":["${MEMPOOL_TXID}"],"error":null,"id":${r.id}}\n`,
          );
        case 'getmempoolinfo':
          return reply(`{"result":{"size":1,"bytes":250,"usage":1184},"error":null,"id":${r.id}}\n`);
        case 'sendrawtransaction':
          res.writeHead(500, { 'content-type': 'application/json' });
          return res.end(`{"result":null,"error":{"code":-26,"message":"16: bad-txns-inputs-spent"},"id":${r.id}}\n`);
        case 'getrawtransaction':
          return reply(`{"result":"0400008085202f89","error":null,"id":${r.id}}\n`);
        case 'getaddressmempool':
          return reply(`{"result":[],"error":null,"id":${r.id}}\n`);
        case 'bigmempool': {
          // `params[0]` txids, in 1,000-entry pieces (chunked), or in one piece with its length declared
          const count = r.params[0] as number;
          const piece = Array.from({ length: 1000 }, () => `"${MEMPOOL_TXID}"`).join(',');
          const pieces = Array.from({ length: count / 1000 }, () => piece);
          const text = `{"result":[${pieces.join(',')}],"error":null,"id":${r.id}}\n`;
          if (r.params[1] === 'declared') return reply(text);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write(`{"result":[`);
          pieces.forEach((p, i) => res.write(i ? `,${p}` : p));
          return res.end(`],"error":null,"id":${r.id}}\n`);
        }
        case 'emptyobjects': // few bytes, many values: `params[0]` times `{}`
          return reply(`{"result":[${Array.from({ length: r.params[0] as number }, () => '{}').join(',')}],"error":null,"id":${r.id}}\n`);
        case 'hugedeclared': // a length no request could hold, then nothing
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': 999_999_999 });
          res.flushHeaders();
          return res.write('{"result":[');
        case 'endless': {
          // never ends, until the reader goes away
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"result":[0');
          const more = () => {
            if (!res.destroyed) res.write(',0'.repeat(32_768), () => setImmediate(more));
          };
          res.on('close', () => seen.push({ method: 'endless closed', params: [], auth: undefined, contentType: undefined }));
          return more();
        }
        case 'stall':
          return; // never answers
        default:
          res.writeHead(404, { 'content-type': 'application/json' });
          return res.end(`{"result":null,"error":{"code":-32601,"message":"Method not found"},"id":${r.id}}\n`);
      }
    });
  });
}

type Outcome = { text: string } | { error: { code: number; message: string } };

function caller(methods: RpcMethod[], network = MAINNET) {
  const byName = new Map(methods.map((m) => [m.name, m]));
  return async (name: string, paramsJson: string): Promise<Outcome> => {
    try {
      const raw = await byName.get(name)!.call(parseJson(paramsJson) as JsonValue[], { network, requestStop: () => {} });
      return { text: typeof raw === 'string' ? raw : raw.toString('utf8') };
    } catch (e) {
      if (e instanceof RpcError) return { error: { code: e.code, message: e.message } };
      return { error: { code: -1, message: (e as Error).message } };
    }
  };
}

describe('mempool and relay methods', () => {
  const seen: Seen[] = [];
  const server = fakeUpstream(seen);
  let url = '';
  let store: ChainStore;
  const dir = tempDir('mempool-upstream');
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://alice:secret@127.0.0.1:${(server.address() as AddressInfo).port}/`;
    store = await openChainStore({ datadir: dir.path, network: MAINNET });
    for (const b of mainnetChain()) await store.addBlock(b);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await store.close();
    dir.remove();
  });

  it("relay the upstream node's result text and its errors verbatim, with its credentials", async () => {
    const upstream = new UpstreamRelay(url, { timeoutMs: 60_000 });
    const call = caller(storeMethods(store, { upstream, features: { ...NO_EXPERIMENTAL_FEATURES, lightWalletd: true } }));
    expect(await call('getrawmempool', '[]')).toEqual({ text: `["${MEMPOOL_TXID}"]` });
    // Amount tokens keep their exact text.
    expect(await call('getrawmempool', '[true]')).toMatchObject({ text: expect.stringContaining('"fee":0.00001000,') });
    expect(await call('getmempoolinfo', '[]')).toEqual({ text: '{"size":1,"bytes":250,"usage":1184}' });
    expect(await call('sendrawtransaction', '["00"]')).toEqual({ error: { code: -26, message: '16: bad-txns-inputs-spent' } });
    expect(await call('getaddressmempool', '["t3Vz22vK5z2LcKEdg16Yv4FFneEL1zg9ojd"]')).toEqual({ text: '[]' });
    // A txid the store does not have goes upstream; one it has is answered locally.
    expect(await call('getrawtransaction', `["${MEMPOOL_TXID}"]`)).toEqual({ text: '"0400008085202f89"' });
    const n = seen.length;
    const stored = '851bf6fbf7a976327817c738c489d7fa657752445430922d94c983c0b9ed4609';
    expect(await call('getrawtransaction', `["${stored}"]`)).toMatchObject({ text: expect.stringMatching(/^"01000000/) });
    expect(seen.length).toBe(n);
    expect(seen[0]).toEqual({
      method: 'getrawmempool',
      params: [],
      auth: 'Basic ' + Buffer.from('alice:secret').toString('base64'),
      contentType: 'application/json',
    });
    expect(seen.map((s) => s.method)).toEqual([
      'getrawmempool',
      'getrawmempool',
      'getmempoolinfo',
      'sendrawtransaction',
      'getaddressmempool',
      'getrawtransaction',
    ]);
  });

  it('read the upstream cookie file for each call, and name one they cannot read', async () => {
    const cookie = join(mkdtempSync(join(tmpdir(), 'zecrpc-relay-cookie-')), '.cookie');
    writeFileSync(cookie, '__cookie__:c00k1e\n');
    const relay = new UpstreamRelay(url, { cookieFile: cookie, timeoutMs: 60_000 });
    await relay.call('getmempoolinfo', []);
    expect(seen.at(-1)).toMatchObject({ method: 'getmempoolinfo', auth: 'Basic ' + Buffer.from('__cookie__:c00k1e').toString('base64') });
    const shown = url.replace('alice:secret@', '');
    const missing = new UpstreamRelay(url, { cookieFile: `${cookie}.gone`, timeoutMs: 60_000 });
    await expect(missing.call('getmempoolinfo', [])).rejects.toMatchObject({
      code: -9,
      message: `upstream node ${shown}: cannot read its cookie file ${cookie}.gone (ENOENT)`,
    });
    if (!existsSync('/dev/zero')) return;
    const endless = new UpstreamRelay(url, { cookieFile: '/dev/zero', timeoutMs: 60_000 });
    await expect(endless.call('getmempoolinfo', [])).rejects.toMatchObject({
      code: -9,
      message: `upstream node ${shown}: cannot read its cookie file /dev/zero (/dev/zero is larger than 65536 bytes, too large for an RPC cookie file)`,
    });
  });

  it("relay a reply only as far as the request's memory allows, and -7 beyond it", async () => {
    // No time limit that a loaded machine could reach: what is tested here is memory, and a reply that is
    // never finished would end the test at its own limit.
    const relay = new UpstreamRelay(url, { timeoutMs: 600_000 });
    const ctx = (mib: number) => ({ requestMemory: mib * 1024 * 1024 });
    const tooLarge = (mib: number) =>
      new RpcError(
        -7,
        `Reply too large: it would exceed the per-request memory budget of ${mib} MiB (ask for fewer or smaller results per request)`,
      );
    // 20,000 txids, 1.34 MB of text: within 16 MiB (about 7 MB to relay), chunked or declared
    for (const framing of ['chunked', 'declared']) {
      const params = parseJson(`[20000,"${framing}"]`) as JsonValue[];
      const whole = await relay.call('bigmempool', params, ctx(16));
      expect(whole.length).toBe(2 + 20_000 * 67 - 1);
      const unlimited = await relay.call('bigmempool', params); // no limit without a context
      expect(unlimited.length === whole.length && unlimited.toString() === whole.toString()).toBe(true);
      await expect(relay.call('bigmempool', params, ctx(4))).rejects.toEqual(tooLarge(4)); // past a third: not read on
    }
    // 300 KB of `{},`: its parsed tree, not its length, is past 16 MiB
    const objects = parseJson('[100000]') as JsonValue[];
    await expect(relay.call('emptyobjects', objects, ctx(16))).rejects.toEqual(tooLarge(16));
    expect((await relay.call('emptyobjects', objects, ctx(64))).length).toBe(2 + 100_000 * 3 - 1);
    // a declared length past a third is refused before the body, which never comes: read, it would never end
    await expect(relay.call('hugedeclared', [], ctx(16))).rejects.toEqual(tooLarge(16));
    // a reply that never ends is read to a third and dropped: the upstream sees its reader go
    await expect(relay.call('endless', [], ctx(16))).rejects.toEqual(tooLarge(16));
    await vi.waitFor(() => expect(seen.at(-1)?.method).toBe('endless closed'), { timeout: 50_000 });
  });

  it('send a call again on a new connection when the upstream resets an idle kept-alive one under it', async () => {
    // The upstream answers each connection's first request and resets the connection on the second, as a
    // server closing an idle connection just as a request is written on it: no reply was given.
    const requestsOn = new WeakMap<object, number>();
    let connections = 0;
    const resetting = createServer((req, res) => {
      const n = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, n);
      if (n > 1) return req.socket.resetAndDestroy();
      req.resume().on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"result":${n},"error":null,"id":1}\n`);
      });
    });
    resetting.on('connection', () => connections++);
    await new Promise<void>((r) => resetting.listen(0, '127.0.0.1', r));
    const relay = new UpstreamRelay(`http://127.0.0.1:${(resetting.address() as AddressInfo).port}/`, { timeoutMs: 60_000 });
    try {
      for (let i = 0; i < 3; i++) expect((await relay.call('getmempoolinfo', [])).toString()).toBe('1');
      expect(connections).toBe(3);
      // An upstream that resets every request: one more try, then -9 naming the reset.
      const alwaysResets = createServer((req) => req.socket.resetAndDestroy());
      await new Promise<void>((r) => alwaysResets.listen(0, '127.0.0.1', r));
      const failing = new UpstreamRelay(`http://127.0.0.1:${(alwaysResets.address() as AddressInfo).port}/`, { timeoutMs: 60_000 });
      await expect(failing.call('getmempoolinfo', [])).rejects.toMatchObject({
        code: -9,
        message: expect.stringContaining('cannot reach it (ECONNRESET)'),
      });
      await new Promise((r) => alwaysResets.close(r));
    } finally {
      await new Promise((r) => resetting.close(r));
    }
  });

  it('turn a stalled or refusing upstream into a prompt -9 error', async () => {
    // The upstream never answers: only the relay's own time limit can end the call (else the test's would).
    const stalled = new UpstreamRelay(url, { timeoutMs: 300 });
    await expect(stalled.call('stall', [])).rejects.toMatchObject({
      code: -9,
      message: expect.stringContaining('no reply to stall within 300 ms'),
    });
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const freePort = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const refused = new UpstreamRelay(`http://127.0.0.1:${freePort}/`, { timeoutMs: 60_000 });
    await expect(refused.call('getrawmempool', [])).rejects.toMatchObject({
      code: -9,
      message: expect.stringContaining('cannot reach it (ECONNREFUSED)'),
    });
  });

  it("without an upstream: an empty mempool, and sendrawtransaction runs zcashd's checks then says it is not connected", async () => {
    const call = caller(storeMethods(store));
    expect(await call('getrawmempool', '[]')).toEqual({ text: '[]' });
    expect(await call('getrawmempool', '[true]')).toEqual({ text: '{}' });
    expect(await call('getrawmempool', '[1]')).toEqual({ error: { code: -1, message: 'JSON value is not a boolean as expected' } });
    expect(await call('getmempoolinfo', '[]')).toEqual({ text: '{"size":0,"bytes":0,"usage":0}' });
    expect(await caller(storeMethods(store), REGTEST)('getmempoolinfo', '[]')).toEqual({
      text: '{"size":0,"bytes":0,"usage":0,"fullyNotified":true}',
    });
    expect(await call('sendrawtransaction', '[1]')).toEqual({ error: { code: -3, message: 'Expected type string, got number' } });
    expect(await call('sendrawtransaction', '["0g"]')).toMatchObject({ error: { code: -22 } });
    // RPCTypeCheck without fAllowNull: null is a wrong type in either slot, checked before decoding.
    expect(await call('sendrawtransaction', '[null]')).toEqual({ error: { code: -3, message: 'Expected type string, got null' } });
    expect(await call('sendrawtransaction', '[null, "x"]')).toEqual({ error: { code: -3, message: 'Expected type string, got null' } });
    expect(await call('sendrawtransaction', '["0g", null]')).toEqual({ error: { code: -3, message: 'Expected type bool, got null' } });
    // Block 1's coinbase is in the best chain.
    const block1 = Buffer.from(readHexVector('blocks', 'mainnet', '1.hex'));
    const { decodeBlock } = await import('../../../src/codec/block.js');
    const tx = decodeBlock(block1).transactions[0]!;
    expect(await call('sendrawtransaction', `["${Buffer.from(tx.bytes).toString('hex')}"]`)).toEqual({
      error: { code: -27, message: 'transaction already in block chain' },
    });
    expect(await call('sendrawtransaction', `["${Buffer.from(tx.bytes).toString('hex')}", "yes"]`)).toEqual({
      error: { code: -3, message: 'Expected type bool, got string' },
    });
    // A v5 transaction at the next height of a chain below Overwinter: ContextualCheckTransaction.
    const v5 = decodeBlock(readHexVector('blocks', 'mainnet', '1687108.hex')).transactions[1]!;
    expect(await call('sendrawtransaction', `["${Buffer.from(v5.bytes).toString('hex')}"]`)).toEqual({
      error: { code: -26, message: '16: tx-overwinter-not-active' },
    });
  });

  it("without an upstream: AcceptToMemoryPool's checks before the coins view, in zcashd's order and words", async () => {
    const { decodeBlock } = await import('../../../src/codec/block.js');
    const { decodeTransaction, encodeTransaction } = await import('../../../src/codec/tx/transaction.js');
    const send = async (network: typeof MAINNET, tx: Uint8Array) =>
      caller(storeMethods(store), network)('sendrawtransaction', `["${Buffer.from(tx).toString('hex')}"]`);
    // A real v1 transaction's outputs (P2PKH), spending the first output of block 1's coinbase,
    // which the 21-block store holds unspent: every check zecrpc makes passes.
    const real = decodeBlock(readHexVector('blocks', 'mainnet', '347499.hex')).transactions[1]!;
    const block1Coinbase = decodeBlock(readHexVector('blocks', 'mainnet', '1.hex')).transactions[0]!;
    const changed = (f: (d: TransactionData) => void): Uint8Array => {
      const d: TransactionData = {
        ...real.data,
        vin: [{ prevout: { hash: block1Coinbase.txid, index: 0 }, scriptSig: Uint8Array.of(0x01, 0x00), sequence: 0xffffffff }],
        vout: real.data.vout.map((o) => ({ value: o.value, scriptPubKey: o.scriptPubKey })),
      };
      f(d);
      return encodeTransaction(d);
    };
    const notConnected = { error: { code: -9, message: 'Zcash is not connected!' } };
    const rejected = (message: string) => ({ error: { code: -26, message } });
    expect(
      await send(
        MAINNET,
        changed(() => undefined),
      ),
    ).toEqual(notConnected);
    // The coins view: an input whose transaction has no unspent output, then one whose output is not unspent.
    expect(await send(MAINNET, real.bytes)).toEqual({ error: { code: -25, message: 'Missing inputs' } });
    expect(
      await send(
        MAINNET,
        changed((d) => (d.vin[0]!.prevout.index = 5)),
      ),
    ).toEqual(rejected('18: bad-txns-inputs-spent'));
    // CheckTransaction, then ContextualCheckTransaction, then the coinbase rule.
    expect(
      await send(
        MAINNET,
        changed((d) => (d.vout = [])),
      ),
    ).toEqual(rejected('16: bad-txns-no-sink-of-funds'));
    expect(
      await send(
        MAINNET,
        changed((d) => d.vin.push(d.vin[0]!)),
      ),
    ).toEqual(rejected('16: bad-txns-inputs-duplicate'));
    const coinbase = decodeBlock(readHexVector('blocks', 'mainnet', '347499.hex')).transactions[0]!;
    expect(await send(MAINNET, coinbase.bytes)).toEqual(rejected('16: coinbase'));
    // IsStandardTx on mainnet and testnet; regtest takes non-standard transactions.
    const p2pkh = real.data.vout[0]!.scriptPubKey;
    const opReturn = (n: number) => Uint8Array.of(0x6a, 0x4c, n - 3, ...new Uint8Array(n - 3));
    const cases: [string, Uint8Array][] = [
      ['64: scriptsig-not-pushonly', changed((d) => (d.vin[0]!.scriptSig = Uint8Array.of(0x76)))],
      ['64: scriptsig-size', changed((d) => (d.vin[0]!.scriptSig = Uint8Array.of(0x4d, 0x71, 0x06, ...new Uint8Array(0x671))))],
      ['64: scriptpubkey', changed((d) => d.vout.push({ value: 0, scriptPubKey: opReturn(84) }))],
      ['64: scriptpubkey', changed((d) => d.vout.push({ value: 100_000, scriptPubKey: Uint8Array.of(0x51) }))],
      ['64: dust', changed((d) => d.vout.push({ value: 53, scriptPubKey: p2pkh }))],
      [
        '64: multi-op-return',
        changed((d) => d.vout.push({ value: 0, scriptPubKey: opReturn(83) }, { value: 0, scriptPubKey: opReturn(10) })),
      ],
    ];
    for (const [message, tx] of cases) {
      expect(await send(MAINNET, tx), message).toEqual(rejected(message));
      expect(await send(REGTEST, tx), message).toEqual(notConnected);
    }
    // The 54-zatoshi P2PKH output is dust no more (3 × ⌊100 × (34 + 148) / 1000⌋), one OP_RETURN of 83 bytes is standard.
    expect(
      await send(
        MAINNET,
        changed((d) => d.vout.push({ value: 54, scriptPubKey: p2pkh }, { value: 0, scriptPubKey: opReturn(83) })),
      ),
    ).toEqual(notConnected);
    // -datacarrier, -datacarriersize, -permitbaremultisig change what is standard.
    const bareMultisig = Uint8Array.of(0x51, 0x21, ...new Uint8Array(32).fill(2), 0x02, 0x51, 0xae); // 1-of-1
    const withPolicy = (policy: RelayPolicy, tx: Uint8Array) =>
      caller(storeMethods(store, { relayPolicy: policy }))('sendrawtransaction', `["${Buffer.from(tx).toString('hex')}"]`);
    const smallData = changed((d) => d.vout.push({ value: 0, scriptPubKey: opReturn(11) }));
    const multisig = changed((d) => d.vout.push({ value: 100_000, scriptPubKey: bareMultisig }));
    expect(await send(MAINNET, smallData)).toEqual(notConnected);
    expect(await send(MAINNET, multisig)).toEqual(notConnected);
    expect(await withPolicy({ ...DEFAULT_RELAY_POLICY, dataCarrier: false }, smallData)).toEqual(rejected('64: scriptpubkey'));
    expect(await withPolicy({ ...DEFAULT_RELAY_POLICY, maxDataCarrierBytes: 10 }, smallData)).toEqual(rejected('64: scriptpubkey'));
    expect(await withPolicy({ ...DEFAULT_RELAY_POLICY, maxDataCarrierBytes: 11 }, smallData)).toEqual(notConnected);
    expect(await withPolicy({ ...DEFAULT_RELAY_POLICY, permitBareMultisig: false }, multisig)).toEqual(rejected('64: bare-multisig'));
    // A lock time the next block cannot meet: non-final (the tip is block 20).
    const locked = changed((d) => {
      d.lockTime = 21;
      d.vin[0]!.sequence = 0;
    });
    expect(await send(MAINNET, locked)).toEqual(rejected('64: non-final'));
    expect(decodeTransaction(locked).data.lockTime).toBe(21);
    const unlocked = changed((d) => {
      d.lockTime = 20;
      d.vin[0]!.sequence = 0;
    });
    expect(await send(MAINNET, unlocked)).toEqual(notConnected);
  });
});
