// /rest/getutxos (zcashd v6.12.2 src/rest.cpp rest_getutxos) over the real LevelDB store holding
// mainnet blocks 0..20: block 1's two coinbase outputs (50,000 zatoshis to a P2PK script, 12,500
// to the founders' P2SH) are unspent, the genesis coinbase is never a coin; each format's exact
// bytes built here from the vector blocks, the POSTed bodies as zcashd reads them, and every
// error's status and text.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { loadNodeConfig } from '../../src/config.js';
import { startRpcServer, type RunningRpcServer } from '../../src/rpc/http/server.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { UpstreamRelay } from '../../src/rpc/methods/mempool/upstream-relay.js';
import { openChainStore, type ChainStore } from '../../src/store/index.js';
import { mainnetGenesisRun } from '../support/memory-store.js';
import { tempDir } from '../support/store.js';
import { encodeV1Transaction, matureStart, scriptFor } from '../support/address-index-chain.js';
import { REGTEST } from '../../src/chain/network.js';
import { decodeTransaction } from '../../src/codec/tx/transaction.js';
import { buildBlock } from '../../test-vectors/regtest-builder.js';

const AUTH = 'Basic ' + Buffer.from('u:p').toString('base64');
const blocks = mainnetGenesisRun();
const genesisCoinbase = decodeBlock(blocks[0]!).transactions[0]!;
const coinbase1 = decodeBlock(blocks[1]!).transactions[0]!;
const tip = decodeBlock(blocks[20]!);
const cb1 = coinbase1.txidHex;

/** Block 1's coinbase outputs, as the vector holds them. */
const P2PK = '21027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875ac';
const FOUNDERS_P2SH = 'a9147d46a730d31f97b1930d3368a967c309bd4d136a87';

const dir = tempDir('rest-getutxos');
let store: ChainStore;
let server: RunningRpcServer;

beforeAll(async () => {
  store = await openChainStore({ datadir: dir.path, network: MAINNET });
  for (const b of blocks) await store.addBlock(b);
  server = await startRpcServer({
    config: loadNodeConfig([`-datadir=${dir.path}`, '-rpcport=0', '-rpcuser=u', '-rpcpassword=p', '-rest']),
    methods: storeMethods(store),
    renderThreads: 0,
  });
});
afterAll(async () => {
  await server.close();
  await store.close();
  dir.remove();
});

interface Answer {
  status: number;
  type: string | null;
  body: Buffer;
}

const request = async (path: string, body?: Buffer | string): Promise<Answer> => {
  const r = await fetch(
    `http://127.0.0.1:${server.port}${path}`,
    body === undefined ? {} : { method: 'POST', body: typeof body === 'string' ? body : new Uint8Array(body) },
  );
  return { status: r.status, type: r.headers.get('content-type'), body: Buffer.from(await r.arrayBuffer()) };
};

const refusal = (status: number, message: string): Answer => ({ status, type: 'text/plain', body: Buffer.from(`${message}\r\n`) });

/** gettxout's result text for an outpoint. */
const gettxout = async (txid: string, n: number): Promise<string> => {
  const r = await fetch(`http://127.0.0.1:${server.port}/`, {
    method: 'POST',
    headers: { authorization: AUTH },
    body: JSON.stringify({ id: null, method: 'gettxout', params: [txid, n, true] }),
  });
  const text = await r.text();
  return text.slice('{"result":'.length, text.length - ',"error":null,"id":null}\n'.length);
};

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};
/** A serialised COutPoint. */
const outpoint = (txidHex: string, n: number) => Buffer.concat([Buffer.from(txidHex, 'hex').reverse(), u32(n)]);

/** BIP 64's reply: height, tip, bitmap, then nTxVer ‖ nHeight ‖ CTxOut per unspent output. */
const binaryReply = (bitmap: number[], coins: { value: number; script: string }[]) =>
  Buffer.concat([
    u32(20),
    Buffer.from(tip.hash),
    Buffer.from([bitmap.length, ...bitmap, coins.length]),
    ...coins.map((c) => Buffer.concat([u32(1), u32(1), u64(c.value), Buffer.from([c.script.length / 2]), Buffer.from(c.script, 'hex')])),
  ]);

const BLOCK1_COINS = [
  { value: 50_000, script: P2PK },
  { value: 12_500, script: FOUNDERS_P2SH },
];

describe('/rest/getutxos', () => {
  it('reports the unspent outputs with checkmempool: JSON members in zcashd’s order, from the coins view', async () => {
    const path = `/rest/getutxos/checkmempool/${cb1}-0/${cb1}-1/${genesisCoinbase.txidHex}-0/${cb1}-2.json`;
    const reply = await request(path);
    expect([reply.status, reply.type]).toEqual([200, 'application/json']);
    const [out0, out1] = [await gettxout(cb1, 0), await gettxout(cb1, 1)];
    const pick = (gettxoutText: string, member: string) => JSON.stringify((JSON.parse(gettxoutText) as Record<string, unknown>)[member]);
    expect(reply.body.toString()).toBe(
      `{"chainHeight":20,"chaintipHash":"${tip.hashHex}","bitmap":"1100","utxos":[` +
        `{"txvers":1,"height":1,"value":0.00050000,"scriptPubKey":${pick(out0, 'scriptPubKey')}},` +
        `{"txvers":1,"height":1,"value":0.00012500,"scriptPubKey":${pick(out1, 'scriptPubKey')}}]}\n`,
    );
    // The script members are ScriptPubKeyToJSON's with the hex, as gettxout writes them.
    expect(reply.body.toString()).toContain(
      `"scriptPubKey":{"asm":"027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875 OP_CHECKSIG","hex":"${P2PK}","reqSigs":1,"type":"pubkey","addresses":["t1`,
    );
    expect(reply.body.toString()).toContain(`"hex":"${FOUNDERS_P2SH}","reqSigs":1,"type":"scripthash","addresses":["t3`);
  });

  it('serialises the same answer as BIP 64’s bytes for .bin and their hex for .hex', async () => {
    const path = `/rest/getutxos/checkmempool/${cb1}-0/${cb1}-1/${genesisCoinbase.txidHex}-0`;
    const expected = binaryReply([0b0011], BLOCK1_COINS);
    expect(await request(`${path}.bin`)).toEqual({ status: 200, type: 'application/octet-stream', body: expected });
    expect(await request(`${path}.hex`)).toEqual({ status: 200, type: 'text/plain', body: Buffer.from(`${expected.toString('hex')}\n`) });
    // Nine outpoints take a second bitmap byte; bit i is outpoint i, least significant first.
    const nine = Array.from({ length: 9 }, (_, i) => `${cb1}-${i === 8 ? 1 : 5}`).join('/');
    expect((await request(`/rest/getutxos/checkmempool/${nine}.bin`)).body).toEqual(binaryReply([0, 1], [BLOCK1_COINS[1]!]));
  });

  it('finds nothing without checkmempool, as zcashd’s dummy coins view does', async () => {
    expect((await request(`/rest/getutxos/${cb1}-0/${cb1}-1.json`)).body.toString()).toBe(
      `{"chainHeight":20,"chaintipHash":"${tip.hashHex}","bitmap":"00","utxos":[]}\n`,
    );
    expect((await request(`/rest/getutxos/${cb1}-0.bin`)).body).toEqual(binaryReply([0], []));
  });

  it('parses outpoints as zcashd: SetHex keeps the last 64 digits, ParseInt32 takes a sign, n wraps to uint32', async () => {
    const found = `{"chainHeight":20,"chaintipHash":"${tip.hashHex}","bitmap":"11","utxos":[`;
    expect((await request(`/rest/getutxos/checkmempool/00${cb1}-+0/${cb1}-0001.json`)).body.toString().startsWith(found)).toBe(true);
    // -1 is output 4294967295 (no such output), "55" alone is txid 0x55 output 55.
    expect((await request(`/rest/getutxos/checkmempool/${cb1}--1/55.json`)).body.toString()).toContain('"bitmap":"00"');
  });

  it('reads a POSTed body as zcashd does: its length first, so a bare outpoint vector is read with checkmempool', async () => {
    // The stream is CompactSize(37) ‖ body: the flag is 37 (true), the vector is the body itself.
    const vector = Buffer.concat([Buffer.from([1]), outpoint(cb1, 1)]);
    expect((await request('/rest/getutxos.bin', vector)).body).toEqual(binaryReply([1], [BLOCK1_COINS[1]!]));
    const hexBody = ` ${vector.toString('hex')}\n`;
    expect((await request('/rest/getutxos.hex', hexBody)).body.toString()).toBe(
      `${binaryReply([1], [BLOCK1_COINS[1]!]).toString('hex')}\n`,
    );
    // BIP 64's own form (flag ‖ vector) is read one byte off: one outpoint made of the wrong bytes.
    const bip64 = Buffer.concat([Buffer.from([1, 2]), outpoint(cb1, 0), outpoint(cb1, 1)]);
    expect((await request('/rest/getutxos.bin', bip64)).body).toEqual(binaryReply([0], []));
    // Hex with no digit pair is no body to read: no outpoints, an empty bitmap.
    expect((await request('/rest/getutxos.hex', 'zz')).body.toString()).toBe(`${binaryReply([], []).toString('hex')}\n`);
    expect(server.stats().bodyBytes).toBe(0);
  });

  it('answers at most 15 outpoints, counted after the whole request is read', async () => {
    const many = (count: number) => Array.from({ length: count }, () => `${cb1}-0`).join('/');
    const fifteen = await request(`/rest/getutxos/checkmempool/${many(15)}.json`);
    expect([fifteen.status, (JSON.parse(fifteen.body.toString()) as { bitmap: string }).bitmap]).toEqual([200, '1'.repeat(15)]);
    expect(await request(`/rest/getutxos/checkmempool/${many(16)}.json`)).toEqual(
      refusal(500, 'Error: max outpoints exceeded (max: 15, tried: 16)'),
    );
    // A body of 253 bytes or more has a three-byte length, 0xfd ‖ uint16: the flag is 0xfd, the
    // count the length's low byte. 784 = 0x0310 bytes: 16 outpoints, all there to read.
    expect(await request('/rest/getutxos.bin', Buffer.alloc(784))).toEqual(
      refusal(500, 'Error: max outpoints exceeded (max: 15, tried: 16)'),
    );
    // 272 = 0x0110 bytes: 16 outpoints that are not all there.
    expect(await request('/rest/getutxos.bin', Buffer.alloc(272))).toEqual(refusal(500, 'Parse error'));
    // Under 253 bytes the count is the body's first byte.
    const short = Buffer.concat([Buffer.from([16]), ...Array.from({ length: 6 }, () => outpoint(cb1, 0))]);
    expect(await request('/rest/getutxos.bin', short)).toEqual(refusal(500, 'Parse error'));
  });

  it('answers each malformed request with zcashd’s status and text', async () => {
    const formats = 'output format not found (available: .bin, .hex, .json)';
    const cases: [string, string | undefined, number, string][] = [
      ['/rest/getutxos.json', undefined, 500, 'Error: empty request'],
      ['/rest/getutxos/checkmempool.json', undefined, 500, 'Error: empty request'],
      ['/rest/getutxos/checkmempool/.json', undefined, 500, 'Parse error'],
      [`/rest/getutxos/checkmempool/${cb1}-x.json`, undefined, 500, 'Parse error'],
      [`/rest/getutxos/checkmempool/${cb1}-4294967295.json`, undefined, 500, 'Parse error'],
      [`/rest/getutxos/checkmempool/${cb1.slice(1)}-0.json`, undefined, 500, 'Parse error'],
      [`/rest/getutxos/checkmempool/${cb1}-0`, undefined, 404, formats],
      [`/rest/getutxos/checkmempool/${cb1}-0.xml`, undefined, 404, formats],
      // URI errors come before the format's.
      ['/rest/getutxos/zz-0.xml', undefined, 500, 'Parse error'],
      ['/rest/getutxos.json', '{"checkmempool', 500, 'Error: empty request'],
      ['/rest/getutxos.bin', '{"checkmempool', 500, 'Parse error'],
      ['/rest/getutxos/checkmempool.bin', '', 500, 'Error: empty request'],
      [`/rest/getutxos/checkmempool/${cb1}-0.bin`, 'x', 500, 'Combination of URI scheme inputs and raw post data is not allowed'],
      // 0xfd 0x0001: a CompactSize that should have been one byte.
      ['/rest/getutxos.bin', '\xfd\x01\x00', 500, 'Parse error'],
    ];
    for (const [path, body, status, message] of cases) {
      const b = body === undefined ? undefined : Buffer.from(body, 'latin1');
      expect([path, await request(path, b)]).toEqual([path, refusal(status, message)]);
    }
    expect(server.stats().bodyBytes).toBe(0);
  });
});

// A spent outpoint: a regtest chain whose block 101 spends block 1's mature coinbase output 0.
describe('/rest/getutxos on a chain that spends', () => {
  const regtestDir = tempDir('rest-getutxos-spent');
  const nodes = matureStart('getutxos');
  const spentCoinbase = decodeBlock(nodes[1]!.block.bytes).transactions[0]!;
  const spend = encodeV1Transaction(
    [{ prevout: { hash: spentCoinbase.txid, index: 0 }, scriptSig: Uint8Array.of(0x01, 0x01), sequence: 0xffffffff }],
    [{ value: spentCoinbase.data.vout[0]!.value, scriptPubKey: scriptFor(0) }],
  );
  const spender = decodeTransaction(spend);
  const block101 = buildBlock({ parent: nodes[100]!.block, tag: 'getutxos', extraTxs: [spend] });
  let regtestStore: ChainStore;
  let regtestServer: RunningRpcServer;

  beforeAll(async () => {
    regtestStore = await openChainStore({ datadir: regtestDir.path, network: REGTEST });
    for (const n of nodes) await regtestStore.addBlock(n.block.bytes);
    await regtestStore.addBlock(block101.bytes);
    regtestServer = await startRpcServer({
      config: loadNodeConfig([`-datadir=${regtestDir.path}`, '-regtest', '-rpcport=0', '-rpcuser=u', '-rpcpassword=p', '-rest']),
      methods: storeMethods(regtestStore),
      renderThreads: 0,
    });
  });
  afterAll(async () => {
    await regtestServer.close();
    await regtestStore.close();
    regtestDir.remove();
  });

  it('reports the spent output as 0 and the output that spent it as 1, at its height', async () => {
    const path = `/rest/getutxos/checkmempool/${spentCoinbase.txidHex}-0/${spender.txidHex}-0.json`;
    const r = await fetch(`http://127.0.0.1:${regtestServer.port}${path}`);
    const reply = JSON.parse(await r.text()) as {
      chainHeight: number;
      chaintipHash: string;
      bitmap: string;
      utxos: Record<string, unknown>[];
    };
    expect(reply).toMatchObject({ chainHeight: 101, chaintipHash: decodeBlock(block101.bytes).hashHex, bitmap: '01' });
    expect(reply.utxos).toHaveLength(1);
    expect(reply.utxos[0]).toMatchObject({
      txvers: 1,
      height: 101,
      value: spentCoinbase.data.vout[0]!.value / 1e8,
      scriptPubKey: { hex: Buffer.from(scriptFor(0)).toString('hex'), type: 'pubkeyhash' },
    });
  });
});

// checkmempool with -upstream: each outpoint is the upstream's gettxout (its mempool over its chain).
describe('/rest/getutxos with -upstream', () => {
  const upstreamDir = tempDir('rest-getutxos-upstream');
  const mempoolTxid = 'ab'.repeat(32);
  const elsewhereTxid = 'cd'.repeat(32);
  const P2PKH = '76a914' + '11'.repeat(20) + '88ac';
  const scriptJson = `{"asm":"OP_DUP OP_HASH160 ${'11'.repeat(20)} OP_EQUALVERIFY OP_CHECKSIG","hex":"${P2PKH}","reqSigs":1,"type":"pubkeyhash","addresses":["t1KzZ5n2TPEGYXTZ3WYGL1AYEumEQaRoHaL"]}`;
  /** zcashd's gettxout replies the test upstream gives: a coin its mempool created, one at another tip. */
  const coins = new Map<string, string>([
    [
      `${mempoolTxid}:1`,
      `{"bestblock":"${tip.hashHex}","confirmations":0,"value":1.25000000,"scriptPubKey":${scriptJson},"version":4,"coinbase":false}`,
    ],
    [
      `${elsewhereTxid}:0`,
      `{"bestblock":"${'00'.repeat(32)}","confirmations":3,"value":1.00000000,"scriptPubKey":${scriptJson},"version":4,"coinbase":false}`,
    ],
  ]);
  let upstream: Server;
  let relayed: RunningRpcServer;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        const call = JSON.parse(text) as { id: number; method: string; params: [string, number, boolean] };
        const result = call.method === 'gettxout' ? (coins.get(`${call.params[0]}:${call.params[1]}`) ?? 'null') : 'null';
        res.setHeader('content-type', 'application/json');
        res.end(`{"result":${result},"error":null,"id":${call.id}}\n`);
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`;
    relayed = await startRpcServer({
      config: loadNodeConfig([`-datadir=${upstreamDir.path}`, '-rpcport=0', '-rpcuser=u', '-rpcpassword=p', '-rest']),
      methods: storeMethods(store, { upstream: new UpstreamRelay(url, { timeoutMs: 5000 }) }),
      renderThreads: 0,
    });
  });
  afterAll(async () => {
    await relayed.close();
    upstream.closeAllConnections();
    await new Promise<void>((r) => upstream.close(() => r()));
    upstreamDir.remove();
  });

  it('gives a coin the upstream’s mempool created zcashd’s MEMPOOL_HEIGHT', async () => {
    const r = await fetch(`http://127.0.0.1:${relayed.port}/rest/getutxos/checkmempool/${mempoolTxid}-1/${mempoolTxid}-0.bin`);
    const body = Buffer.from(await r.arrayBuffer());
    expect(body).toEqual(
      Buffer.concat([
        u32(20),
        Buffer.from(tip.hash),
        Buffer.from([1, 0b01, 1]),
        u32(4),
        u32(0x7fffffff),
        u64(125_000_000),
        Buffer.from([25]),
        Buffer.from(P2PKH, 'hex'),
      ]),
    );
    const json = await fetch(`http://127.0.0.1:${relayed.port}/rest/getutxos/checkmempool/${mempoolTxid}-1.json`);
    expect(await json.text()).toBe(
      `{"chainHeight":20,"chaintipHash":"${tip.hashHex}","bitmap":"1","utxos":[{"txvers":4,"height":2147483647,"value":1.25000000,"scriptPubKey":${scriptJson}}]}\n`,
    );
  });

  it('refuses with 503 a confirmed coin counted from a tip this node does not have yet', async () => {
    const r = await fetch(`http://127.0.0.1:${relayed.port}/rest/getutxos/checkmempool/${elsewhereTxid}-0.json`);
    expect([r.status, await r.text()]).toEqual([
      503,
      `Service temporarily unavailable: coins read at tip ${'00'.repeat(32)}, not at this node's tip ${tip.hashHex}\r\n`,
    ]);
  });
});
