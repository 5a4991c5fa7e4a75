// zcashd's REST interface (src/rest.cpp at v6.12.2) behind -rest: each route against the RPC
// result zcashd builds it from, on the mainnet vector blocks 0–20, and its errors' texts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../src/chain/network.js';
import { decodeBlock } from '../../src/codec/block.js';
import { toHex, toHexReversed } from '../../src/codec/hex.js';
import { loadNodeConfig } from '../../src/config.js';
import { startRpcServer, type RunningRpcServer } from '../../src/rpc/http/server.js';
import { storeMethods } from '../../src/rpc/methods/index.js';
import { MemoryChainStore, mainnetGenesisRun } from '../support/memory-store.js';
import { readHexVector } from '../support/vectors.js';

const AUTH = 'Basic ' + Buffer.from('u:p').toString('base64');
const block1 = readHexVector('blocks', 'mainnet', '1.hex');
const decoded1 = decodeBlock(block1);
const hash1 = toHexReversed(decoded1.hash);
const block2 = decodeBlock(readHexVector('blocks', 'mainnet', '2.hex'));

let dir: string;
let on: RunningRpcServer;
let off: RunningRpcServer;

const start = (...args: string[]) =>
  startRpcServer({
    config: loadNodeConfig([`-datadir=${dir}`, '-rpcport=0', '-rpcuser=u', '-rpcpassword=p', ...args]),
    // One fixed clock: getblockchaininfo's verificationprogress must not change between the REST and RPC calls compared.
    methods: storeMethods(new MemoryChainStore(MAINNET, mainnetGenesisRun()), { clock: () => 1_764_000_000 }),
    renderThreads: 0,
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zecrpc-rest-'));
  on = await start('-rest');
  off = await start();
});
afterAll(async () => {
  await on.close();
  await off.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = async (s: RunningRpcServer, path: string) => {
  const r = await fetch(`http://127.0.0.1:${s.port}${path}`);
  return { status: r.status, type: r.headers.get('content-type'), body: Buffer.from(await r.arrayBuffer()) };
};
/** The JSON-RPC result's text, as zcashd's REST writes it (`UniValue::write()` and a newline). */
const result = async (method: string, params: unknown[]) => {
  const r = await fetch(`http://127.0.0.1:${on.port}/`, {
    method: 'POST',
    headers: { authorization: AUTH },
    body: JSON.stringify({ id: null, method, params }),
  });
  const text = await r.text();
  return text.slice('{"result":'.length, text.length - ',"error":null,"id":null}\n'.length) + '\n';
};

describe('-rest', () => {
  it('serves blocks as their bytes, hex, and getblock’s verbosity 2 (and 1 for notxdetails)', async () => {
    expect(await get(on, `/rest/block/${hash1}.bin`)).toEqual({ status: 200, type: 'application/octet-stream', body: Buffer.from(block1) });
    expect(await get(on, `/rest/block/${hash1}.hex`)).toEqual({ status: 200, type: 'text/plain', body: Buffer.from(`${toHex(block1)}\n`) });
    const full = await get(on, `/rest/block/${hash1}.json`);
    expect([full.status, full.type, full.body.toString()]).toEqual([200, 'application/json', await result('getblock', [hash1, 2])]);
    const summary = await get(on, `/rest/block/notxdetails/${hash1}.json`);
    expect(summary.body.toString()).toBe(await result('getblock', [hash1, 1]));
    expect(summary.body.toString()).toContain(`"tx":["${decoded1.transactions[0]!.txidHex}"]`);
  });

  it('serves transactions and headers', async () => {
    const coinbase = decoded1.transactions[0]!;
    expect((await get(on, `/rest/tx/${coinbase.txidHex}.bin`)).body).toEqual(Buffer.from(coinbase.bytes));
    expect((await get(on, `/rest/tx/${coinbase.txidHex}.json`)).body.toString()).toBe(
      await result('getrawtransaction', [coinbase.txidHex, 1]),
    );
    const two = await get(on, `/rest/headers/2/${hash1}.hex`);
    expect(two.body.toString()).toBe(`${toHex(decoded1.header.bytes)}${toHex(block2.header.bytes)}\n`);
    const json = await get(on, `/rest/headers/2/${hash1}.json`);
    const [h1, h2] = [await result('getblockheader', [hash1, true]), await result('getblockheader', [toHexReversed(block2.hash), true])];
    expect(json.body.toString()).toBe(`[${h1.slice(0, -1)},${h2.slice(0, -1)}]\n`);
    // From the tip on, only what the chain holds.
    const tip = await result('getbestblockhash', []);
    expect((await get(on, `/rest/headers/5/${JSON.parse(tip) as string}.bin`)).body.length).toBe(decoded1.header.bytes.length);
  });

  it('serves the chain’s and the mempool’s state as JSON only', async () => {
    expect((await get(on, '/rest/chaininfo.json')).body.toString()).toBe(await result('getblockchaininfo', []));
    expect((await get(on, '/rest/mempool/info.json')).body.toString()).toBe(await result('getmempoolinfo', []));
    expect((await get(on, '/rest/mempool/contents.json')).body.toString()).toBe(await result('getrawmempool', [true]));
    expect(await get(on, '/rest/chaininfo.bin')).toEqual({
      status: 404,
      type: 'text/plain',
      body: Buffer.from('output format not found (available: json)\r\n'),
    });
  });

  it('answers malformed paths with zcashd’s status and text', async () => {
    const unknown = 'ab'.repeat(32);
    const cases: [string, number, string][] = [
      [`/rest/block/${hash1}`, 404, 'output format not found (available: .bin, .hex, .json)'],
      [`/rest/block/${hash1}.xml`, 404, 'output format not found (available: .bin, .hex, .json)'],
      ['/rest/block/00.json', 400, 'Invalid hash: 00'],
      [`/rest/block/${unknown}.json`, 404, `${unknown} not found`],
      [`/rest/tx/${unknown}.hex`, 404, `${unknown} not found`],
      [`/rest/headers/${hash1}.json`, 400, 'No header count specified. Use /rest/headers/<count>/<hash>.<ext>.'],
      [`/rest/headers/0/${hash1}.json`, 400, 'Header count out of range: 0'],
      [`/rest/headers/2001/${hash1}.json`, 400, 'Header count out of range: 2001'],
      [`/rest/headers/1/${hash1}`, 404, 'output format not found (available: .bin, .hex)'],
    ];
    for (const [path, status, message] of cases) {
      expect(await get(on, path)).toEqual({ status, type: 'text/plain', body: Buffer.from(`${message}\r\n`) });
    }
    // This store keeps no coins view: without checkmempool nothing is looked up (rest-getutxos.test.ts).
    expect(await get(on, '/rest/getutxos/checkmempool/00-0.json')).toEqual({
      status: 500,
      type: 'text/plain',
      body: Buffer.from('Error: this node keeps no coins view to look outpoints up in\r\n'),
    });
  });

  it('is off by default, as in zcashd', async () => {
    expect(await get(off, '/rest/chaininfo.json')).toMatchObject({ status: 404, body: Buffer.alloc(0) });
  });
});
