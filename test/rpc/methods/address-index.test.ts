// The insight explorer methods over stores imported from the real mainnet blocks 0..20
// (lightwalletd testdata) and from a regtest chain with transparent spending: values, member
// order, parameter handling and every error path with zcashd v6.12.2's code and text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET, REGTEST, TESTNET, type NetworkParams } from '../../../src/chain/network.js';
import { decodeBlock } from '../../../src/codec/block.js';
import { decodeTransaction, type Transaction } from '../../../src/codec/tx/transaction.js';
import { encodeTransparentAddress } from '../../../src/codec/script/address.js';
import { toHexReversed } from '../../../src/codec/hex.js';
import { parseJson, type JsonValue } from '../../../src/json/index.js';
import { RpcError, type RpcMethod } from '../../../src/rpc/method.js';
import { NO_EXPERIMENTAL_FEATURES, type ExperimentalFeatures } from '../../../src/rpc/methods/control/experimental-features.js';
import { INDEX_ENTRY_BYTES } from '../../../src/rpc/methods/addressindex/insight-method.js';
import { ADDRESS_WORK_BYTES } from '../../../src/rpc/methods/addressindex/params.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { openChainStore, type ChainStore } from '../../../src/store/index.js';
import { AddressIndexReader, PER_ADDRESS_ITERATORS_UP_TO } from '../../../src/store/indexes/address-index-reader.js';
import { RenderPool } from '../../../src/rpc/workers/render-pool.js';
import { SpentIndexLookup } from '../../../src/rpc/methods/spent-index-lookup.js';
import { SPENT_INPUT_RECORD_BYTES } from '../../../src/render/spent-fields.js';
import {
  encodeV1Transaction,
  fanOutChain,
  COINBASE_MATURITY,
  matureStart,
  nextNode,
  POOL,
  poolAddress,
  rng,
  scriptFor,
  type ChainNode,
} from '../../support/address-index-chain.js';
import { mainnetChain, tempDir } from '../../support/store.js';
import { readJsonVector } from '../../support/vectors.js';

const INSIGHT: ExperimentalFeatures = { ...NO_EXPERIMENTAL_FEATURES, insightExplorer: true };
const LIGHTWALLETD: ExperimentalFeatures = { ...NO_EXPERIMENTAL_FEATURES, lightWalletd: true };
const FOUNDERS = 't3Vz22vK5z2LcKEdg16Yv4FFneEL1zg9ojd';

interface IndexedBlock {
  height: number;
  hash: string;
  previousblockhash: string;
  merkleroot: string;
  size: number;
  time: number;
  bits: string;
  txids: string[];
}
const VECTOR_BLOCKS = readJsonVector<{ blocks: (IndexedBlock & { where: string })[] }>('lightwalletd', 'index.json').blocks.filter((b) =>
  b.where.startsWith('mainnet_genesis'),
);

type Outcome = { result: unknown; text: string } | { error: { code: number; message: string } };

function caller(methods: RpcMethod[], network: NetworkParams, requestMemory?: number) {
  const byName = new Map(methods.map((m) => [m.name, m]));
  return async (name: string, paramsJson: string): Promise<Outcome> => {
    const m = byName.get(name)!;
    const params = parseJson(paramsJson) as JsonValue[];
    try {
      const raw = await m.call(params, { network, requestStop: () => {}, ...(requestMemory === undefined ? {} : { requestMemory }) });
      const text = typeof raw === 'string' ? raw : raw.toString('utf8');
      return { result: JSON.parse(text), text };
    } catch (e) {
      if (e instanceof RpcError) return { error: { code: e.code, message: e.message } };
      return { error: { code: -1, message: (e as Error).message } };
    }
  };
}

async function indexedStore(
  label: string,
  network: NetworkParams,
  blocks: readonly Uint8Array[],
): Promise<{ store: ChainStore; remove(): void }> {
  const dir = tempDir(label);
  const store = await openChainStore({ datadir: dir.path, network });
  for (const b of blocks) await store.addBlock(b);
  return { store, remove: dir.remove };
}

/** The first height whose block may spend a coinbase (block 1's): the spending chains start there. */
const M = COINBASE_MATURITY;
describe('insight explorer methods on the real mainnet blocks 0..20', () => {
  let store: ChainStore;
  let remove: () => void;
  let call: ReturnType<typeof caller>;
  beforeAll(async () => {
    ({ store, remove } = await indexedStore('rpc-addr-main', MAINNET, mainnetChain()));
    call = caller(storeMethods(store, { features: INSIGHT }), MAINNET);
  });
  afterAll(async () => {
    await store.close();
    remove();
  });

  it('getaddresstxids lists the coinbase of every block but genesis, in block order', async () => {
    const want = VECTOR_BLOCKS.slice(1).map((b) => b.txids[0]);
    expect(await call('getaddresstxids', `["${FOUNDERS}"]`)).toMatchObject({ result: want });
    expect(await call('getaddresstxids', `[{"addresses":["${FOUNDERS}","${FOUNDERS}"]}]`)).toMatchObject({ result: want });
    expect(await call('getaddresstxids', `[{"addresses":["${FOUNDERS}"],"start":5,"end":7}]`)).toMatchObject({ result: want.slice(4, 7) });
    // start past the tip is the tip; end 0 or past the tip is the tip.
    expect(await call('getaddresstxids', `[{"addresses":["${FOUNDERS}"],"start":100}]`)).toMatchObject({ result: want.slice(19) });
    expect(await call('getaddresstxids', `[{"addresses":["${FOUNDERS}"],"start":19,"end":900}]`)).toMatchObject({ result: want.slice(18) });
  });

  it("stops reading index entries at the request memory, with the reply budget's -7, before reading on", async () => {
    // Each method's charge per entry: the founders' address has 20 deltas and 20 unspent
    // outputs; 20 blocks have timestamps (genesis has none, as in zcashd).
    // The memory of `entries` entries, besides what the listed addresses take (ADDRESS_WORK_BYTES each).
    const withRoomFor = (method: keyof typeof INDEX_ENTRY_BYTES, entries: number, addresses = 1) =>
      caller(
        storeMethods(store, { features: INSIGHT }),
        MAINNET,
        entries * INDEX_ENTRY_BYTES[method] + (method === 'getblockhashes' ? 0 : addresses * ADDRESS_WORK_BYTES),
      );
    const one = `[{"addresses":["${FOUNDERS}"]}]`;
    const twice = `[{"addresses":["${FOUNDERS}","${FOUNDERS}"]}]`;
    const refused = {
      error: {
        code: -7,
        message: 'Reply too large: it would exceed the per-request memory budget of 0 MiB (ask for fewer or smaller results per request)',
      },
    };
    for (const method of ['getaddresstxids', 'getaddressdeltas', 'getaddressutxos'] as const) {
      expect([method, await withRoomFor(method, 20)(method, one)]).toEqual([
        method,
        expect.objectContaining({ result: expect.anything() }),
      ]);
      expect([method, await withRoomFor(method, 20, 2)(method, twice)]).toEqual([method, refused]); // the allowance counts across addresses
      expect([method, await withRoomFor(method, 40, 1)(method, twice)]).toEqual([method, refused]); // and the second address takes its share
      expect([method, await withRoomFor(method, 19)(method, one)]).toEqual([method, refused]);
    }
    // Room for 2^32 entries (a 2.5 TiB -rpcrequestmemory) reads them all: LevelDB takes its read
    // limit as a 32-bit integer, where 2^32 + 1 would be 1.
    const unbounded = caller(storeMethods(store, { features: INSIGHT }), MAINNET);
    for (const method of ['getaddresstxids', 'getaddressdeltas', 'getaddressutxos'] as const) {
      expect([method, await withRoomFor(method, 2 ** 32)(method, one)]).toEqual([method, await unbounded(method, one)]);
    }
    const now = 2 ** 31 - 1; // every block time is below it
    expect(await withRoomFor('getblockhashes', 2 ** 32)('getblockhashes', `[${now}, 0]`)).toEqual(
      await unbounded('getblockhashes', `[${now}, 0]`),
    );
    expect(await withRoomFor('getblockhashes', 20)('getblockhashes', `[${now}, 0]`)).toHaveProperty('result');
    expect(await withRoomFor('getblockhashes', 19)('getblockhashes', `[${now}, 0]`)).toEqual(refused);
    // A list longer than the request's memory allows is refused before it is decoded, by every
    // method taking one: 205 addresses need 205 × 1,280 bytes (here all the same, valid, never paid).
    const unpaid = encodeTransparentAddress('p2pkh', new Uint8Array(20), MAINNET);
    const list = (n: number) => `[{"addresses":[${Array.from({ length: n }, () => `"${unpaid}"`).join(',')}]}]`;
    const room = 205 * ADDRESS_WORK_BYTES;
    const refusedAt = (bytes: number) => ({
      error: { ...refused.error, message: refused.error.message.replace('0 MiB', `${Math.round(bytes / 2 ** 20)} MiB`) },
    });
    for (const method of ['getaddresstxids', 'getaddressdeltas', 'getaddressutxos', 'getaddressbalance', 'getaddressmempool']) {
      const within = caller(storeMethods(store, { features: INSIGHT }), MAINNET, room + 20 * 1024);
      const short = caller(storeMethods(store, { features: INSIGHT }), MAINNET, room - 1);
      expect([method, await within(method, list(205))]).toEqual([method, expect.objectContaining({ result: expect.anything() })]);
      expect([method, await short(method, list(205))]).toEqual([method, refusedAt(room - 1)]);
      expect([method, await short(method, list(204))]).toEqual([method, expect.objectContaining({ result: expect.anything() })]);
    }
    // getaddressbalance sums a batch at a time, whatever the history's length: no entry limit, only its addresses' share.
    const total = 2 * Array.from({ length: 20 }, (_, i) => 12_500 * (i + 1)).reduce((a, b) => a + b, 0);
    expect(
      await caller(storeMethods(store, { features: INSIGHT }), MAINNET, 2 * ADDRESS_WORK_BYTES)('getaddressbalance', twice),
    ).toMatchObject({
      result: { balance: total, received: total },
    });
  });

  it("getaddressbalance: the founders' 20 % of the slow-start subsidy, 12,500 zatoshis × height", async () => {
    const total = Array.from({ length: 20 }, (_, i) => 12_500 * (i + 1)).reduce((a, b) => a + b, 0);
    const r = await call('getaddressbalance', `[{"addresses":["${FOUNDERS}"]}]`);
    expect(r).toMatchObject({ text: `{"balance":${total},"received":${total}}` });
    // Listed twice, counted twice (zcashd reads the index once per listed address).
    expect(await call('getaddressbalance', `[{"addresses":["${FOUNDERS}","${FOUNDERS}"]}]`)).toMatchObject({
      text: `{"balance":${2 * total},"received":${2 * total}}`,
    });
  });

  it('getaddressdeltas: members in zcashd order, chainInfo only with a positive start and end', async () => {
    const r = await call('getaddressdeltas', `[{"addresses":["${FOUNDERS}"],"start":3,"end":4}]`);
    const b3 = VECTOR_BLOCKS[3]!;
    const b4 = VECTOR_BLOCKS[4]!;
    expect(r).toMatchObject({
      text:
        `[{"address":"${FOUNDERS}","blockindex":0,"height":3,"index":1,"satoshis":37500,"txid":"${b3.txids[0]}"},` +
        `{"address":"${FOUNDERS}","blockindex":0,"height":4,"index":1,"satoshis":50000,"txid":"${b4.txids[0]}"}]`,
    });
    const withInfo = await call('getaddressdeltas', `[{"addresses":["${FOUNDERS}"],"start":3,"end":4,"chainInfo":true}]`);
    expect(withInfo).toMatchObject({
      result: { start: { hash: b3.hash, height: 3 }, end: { hash: b4.hash, height: 4 } },
    });
    expect(Object.keys((withInfo as { result: object }).result)).toEqual(['deltas', 'start', 'end']);
    // start 0: a plain array even with chainInfo.
    expect(
      Array.isArray(((await call('getaddressdeltas', `[{"addresses":["${FOUNDERS}"],"chainInfo":true}]`)) as { result: unknown }).result),
    ).toBe(true);
  });

  it("getaddressutxos: every founders' output, and the tip with chainInfo", async () => {
    const r = (await call('getaddressutxos', `[{"addresses":["${FOUNDERS}"],"chainInfo":true}]`)) as {
      result: { utxos: Record<string, unknown>[]; hash: string; height: number };
    };
    expect(r.result.hash).toBe(VECTOR_BLOCKS[20]!.hash);
    expect(r.result.height).toBe(20);
    expect(r.result.utxos.map((u) => u.height)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(Object.keys(r.result.utxos[0]!)).toEqual(['address', 'txid', 'outputIndex', 'script', 'satoshis', 'height']);
    const u1 = r.result.utxos[0]!;
    expect(u1).toEqual({
      address: FOUNDERS,
      txid: VECTOR_BLOCKS[1]!.txids[0],
      outputIndex: 1,
      script: Buffer.from(decodeBlock(mainnetChain()[1]!).transactions[0]!.data.vout[1]!.scriptPubKey).toString('hex'),
      satoshis: 12_500,
      height: 1,
    });
    expect(await call('getaddressutxos', `["${FOUNDERS}"]`)).toMatchObject({ result: r.result.utxos });
  });

  it('getblockdeltas of block 1: header facts from the vectors, the miner output without an address', async () => {
    const b1 = VECTOR_BLOCKS[1]!;
    const r = (await call('getblockdeltas', `["${b1.hash}"]`)) as { result: Record<string, unknown>; text: string };
    expect(Object.keys(r.result)).toEqual([
      'hash',
      'confirmations',
      'size',
      'height',
      'version',
      'merkleroot',
      'deltas',
      'time',
      'mediantime',
      'nonce',
      'bits',
      'difficulty',
      'chainwork',
      'previousblockhash',
      'nextblockhash',
    ]);
    expect(r.result).toMatchObject({
      hash: b1.hash,
      confirmations: 20,
      size: b1.size,
      height: 1,
      merkleroot: b1.merkleroot,
      time: b1.time,
      mediantime: b1.time,
      bits: b1.bits,
      previousblockhash: b1.previousblockhash,
      nextblockhash: VECTOR_BLOCKS[2]!.hash,
    });
    expect(r.result.deltas).toEqual([
      {
        txid: b1.txids[0],
        index: 0,
        inputs: [],
        outputs: [
          { satoshis: 50_000, index: 0 },
          { address: FOUNDERS, satoshis: 12_500, index: 1 },
        ],
      },
    ]);
    // mediantime of block 20: the median of blocks 10..20's times.
    const times = VECTOR_BLOCKS.slice(10, 21)
      .map((b) => b.time)
      .sort((a, b) => a - b);
    expect(await call('getblockdeltas', `["${VECTOR_BLOCKS[20]!.hash}"]`)).toMatchObject({
      result: { mediantime: times[5], confirmations: 1 },
    });
  });

  it('getblockhashes: blocks by logical time, low inclusive, high exclusive', async () => {
    const [b5, b6, b7] = [VECTOR_BLOCKS[5]!, VECTOR_BLOCKS[6]!, VECTOR_BLOCKS[7]!];
    expect(await call('getblockhashes', `[${b7.time}, ${b5.time}]`)).toMatchObject({ result: [b5.hash, b6.hash] });
    expect(await call('getblockhashes', `[${b7.time + 1}, ${b7.time}, {"logicalTimes":true,"noOrphans":true}]`)).toMatchObject({
      text: `[{"blockhash":"${b7.hash}","logicalts":${b7.time}}]`,
    });
    expect(await call('getblockhashes', `[${b5.time}, ${b7.time}]`)).toMatchObject({ result: [] });
    // Genesis is never indexed (zcashd's ConnectBlock returns before the insight indexes).
    expect(await call('getblockhashes', `[${VECTOR_BLOCKS[1]!.time}, 0]`)).toMatchObject({ result: [] });
    expect(await call('getblockhashes', '[1, 2, 3]')).toEqual({ error: { code: -1, message: 'JSON value is not an object as expected' } });
  });

  it("answers every bad request with zcashd's code and text", async () => {
    const testnetAddr = encodeTransparentAddress('p2sh', Buffer.alloc(20, 1), TESTNET);
    const cases: [string, string, number, string][] = [
      ['getaddressbalance', `["${testnetAddr}"]`, -5, 'Invalid address'],
      ['getaddressbalance', '["t1notanaddress"]', -5, 'Invalid address'],
      ['getaddressbalance', '[5]', -5, 'Invalid address'],
      ['getaddressbalance', '[{"addresses":"x"}]', -5, 'Addresses is expected to be an array'],
      ['getaddressbalance', '[{}]', -5, 'Addresses is expected to be an array'],
      ['getaddressbalance', `[{"addresses":["${FOUNDERS}", 7]}]`, -1, 'JSON value is not a string as expected'],
      [
        'getaddresstxids',
        `[{"addresses":["${FOUNDERS}"],"start":10,"end":5}]`,
        -5,
        'End value is expected to be greater than or equal to start',
      ],
      ['getaddresstxids', `[{"addresses":["${FOUNDERS}"],"start":-1}]`, -5, 'Start height must be nonnegative'],
      ['getaddresstxids', `[{"addresses":["${FOUNDERS}"],"end":-1}]`, -5, 'End height must be nonnegative'],
      ['getaddresstxids', `[{"addresses":["${FOUNDERS}"],"start":"1"}]`, -1, 'JSON value is not an integer as expected'],
      // The height range is checked before the addresses.
      ['getaddressdeltas', '[{"addresses":["bad"],"start":-1}]', -5, 'Start height must be nonnegative'],
      ['getaddressutxos', `[{"addresses":["${FOUNDERS}"],"chainInfo":1}]`, -1, 'JSON value is not a boolean as expected'],
      ['getaddressmempool', '["bad"]', -5, 'Invalid address'],
      ['getspentinfo', '[{"txid":5,"index":0}]', -5, 'Invalid txid, must be a string'],
      ['getspentinfo', '[{"txid":"00","index":"0"}]', -5, 'Invalid index, must be an integer'],
      ['getspentinfo', '[{"txid":"zz","index":0}]', -8, "txid must be hexadecimal string (not 'zz')"],
      ['getspentinfo', `[{"txid":"${VECTOR_BLOCKS[1]!.txids[0]}","index":0}]`, -5, 'Unable to get spent info'],
      ['getblockdeltas', '["00000000000000000000000000000000000000000000000000000000000000ff"]', -5, 'Block not found'],
      ['getblockdeltas', '[1]', -1, 'JSON value is not a string as expected'],
    ];
    for (const [method, params, code, message] of cases) {
      expect([method, params, await call(method, params)]).toEqual([method, params, { error: { code, message } }]);
    }
    // getspentinfo's usage check: anything but one object is its help text, code -1.
    const help = await call('getspentinfo', '["x"]');
    expect(help).toMatchObject({ error: { code: -1 } });
    expect((help as { error: { message: string } }).error.message.startsWith('getspentinfo {"txid": "txidhex", "index": n}\n')).toBe(true);
    // The lenient hash parse of getblockdeltas: surrounding junk and a 0x prefix are ignored.
    expect(await call('getblockdeltas', `["0x${VECTOR_BLOCKS[2]!.hash}zz"]`)).toMatchObject({ result: { height: 2 } });
  });
});

describe('insight explorer methods without their flags', () => {
  let store: ChainStore;
  let remove: () => void;
  beforeAll(async () => {
    ({ store, remove } = await indexedStore('rpc-addr-flags', MAINNET, mainnetChain().slice(0, 3)));
  });
  afterAll(async () => {
    await store.close();
    remove();
  });

  it('answer -1 "… is disabled" and carry the warning in their help', async () => {
    const methods = storeMethods(store);
    const call = caller(methods, MAINNET);
    for (const name of [
      'getaddressbalance',
      'getaddressdeltas',
      'getaddressmempool',
      'getaddresstxids',
      'getaddressutxos',
      'getblockdeltas',
      'getspentinfo',
    ]) {
      const params = name === 'getspentinfo' ? '[{"txid":"00","index":0}]' : name === 'getblockdeltas' ? '["00"]' : `["${FOUNDERS}"]`;
      expect(await call(name, params)).toEqual({
        error: {
          code: -1,
          message: `Error: ${name} is disabled. Run './zcash-cli help ${name}' for instructions on how to enable this feature.`,
        },
      });
    }
    expect(await call('getblockhashes', '[1, 0]')).toMatchObject({
      error: {
        message: "Error: getblockhashes is disabled. Run './zcash-cli help getblockhashes' for instructions on how to enable this feature.",
      },
    });
    const help = methods.find((m) => m.name === 'getaddressbalance')!.help;
    expect(help).toContain(
      'Returns the balance for addresses.\n' +
        '\nWARNING: getaddressbalance is disabled.\n' +
        'To enable it, restart zcashd with the following command line options:\n' +
        '-experimentalfeatures and -insightexplorer or:\n-experimentalfeatures and -lightwalletd\n\n' +
        'Alternatively add these two lines to the zcash.conf file:\n\n' +
        'experimentalfeatures=1\ninsightexplorer=1\n\nor:\n\nexperimentalfeatures=1\nlightwalletd=1\n' +
        '\nArguments:\n',
    );
    const spentHelp = methods.find((m) => m.name === 'getspentinfo')!.help;
    expect(spentHelp).toContain('-experimentalfeatures and -insightexplorer\n\n');
    // Enabled: no warning.
    expect(storeMethods(store, { features: INSIGHT }).find((m) => m.name === 'getaddressbalance')!.help).not.toContain('WARNING');
  });

  it('with -lightwalletd alone: the address index answers; spent info, block hashes and input deltas do not', async () => {
    const call = caller(storeMethods(store, { features: LIGHTWALLETD }), MAINNET);
    expect(await call('getaddressbalance', `["${FOUNDERS}"]`)).toMatchObject({ text: '{"balance":37500,"received":37500}' });
    expect(await call('getspentinfo', '[{"txid":"00","index":0}]')).toMatchObject({
      error: { code: -1, message: expect.stringContaining('getspentinfo is disabled') },
    });
    expect(await call('getblockhashes', '[2000000000, 0]')).toEqual({
      error: { code: -5, message: 'No information available for block hashes' },
    });
    // A coinbase-only block needs no spent index.
    expect(await call('getblockdeltas', `["${VECTOR_BLOCKS[1]!.hash}"]`)).toMatchObject({ result: { height: 1 } });
  });

  it('getexperimentalfeatures and getinfo', async () => {
    const call = caller(storeMethods(store, { features: { ...INSIGHT, lightWalletd: true }, clock: () => 1_700_000_000 }), MAINNET);
    expect(await call('getexperimentalfeatures', '[]')).toMatchObject({ text: '["insightexplorer","lightwalletd"]' });
    expect(await caller(storeMethods(store), MAINNET)('getexperimentalfeatures', '[]')).toMatchObject({ text: '[]' });
    const info = await call('getinfo', '[]');
    expect(info).toMatchObject({
      text:
        '{"version":6120250,"build":"v6.12.2","subversion":"/MagicBean:6.12.2/","protocolversion":170140,"blocks":2,"timeoffset":0,' +
        '"connections":0,"proxy":"","difficulty":1,"testnet":false,"paytxfee":0.00000000,"relayfee":0.00000100,"errors":"","errorstimestamp":1700000000}',
    });
    const testnet = await caller(storeMethods(store, { uaComments: ['a', 'b'] }), TESTNET)('getinfo', '[]');
    expect(testnet).toMatchObject({ result: { testnet: true, subversion: '/MagicBean:6.12.2(a; b)/' } });
  });
});

describe('insight explorer methods over transparent spending (regtest)', () => {
  let store: ChainStore;
  let remove: () => void;
  let call: ReturnType<typeof caller>;
  const nodes: ChainNode[] = matureStart();
  beforeAll(async () => {
    const random = rng(77);
    for (let h = 1; h <= 30; h++) nodes.push(nextNode(nodes.at(-1)!, 'rpc', random, 4));
    ({ store, remove } = await indexedStore(
      'rpc-addr-regtest',
      REGTEST,
      nodes.map((n) => n.block.bytes),
    ));
    call = caller(storeMethods(store, { features: INSIGHT }), REGTEST);
  });
  afterAll(async () => {
    await store.close();
    remove();
  });

  it('getaddressutxos and getaddressbalance agree with the chain model for every pool address', async () => {
    const tip = nodes.at(-1)!;
    for (let i = 0; i < 6; i++) {
      const address = poolAddress(i);
      const r = (await call('getaddressutxos', `["${address}"]`)) as { result: { txid: string; outputIndex: number; satoshis: number }[] };
      const got = r.result.map((u) => `${u.txid}:${u.outputIndex}:${u.satoshis}`).sort();
      const scriptHex = (s: Uint8Array) => Buffer.from(s).toString('hex');
      const own = (await call('getaddressutxos', `["${address}"]`)) as { result: { script: string }[] };
      const mine = tip.utxos.filter((u) => own.result.length > 0 && scriptHex(u.script) === own.result[0]!.script);
      expect(got).toEqual(mine.map((u) => `${toHexReversed(u.txid)}:${u.n}:${u.value}`).sort());
      const balance = mine.reduce((s, u) => s + u.value, 0);
      expect(await call('getaddressbalance', `["${address}"]`)).toMatchObject({ result: { balance } });
    }
  });

  it("reads through one request's cursor exactly what a read per address returns, in any order, range and limit", async () => {
    const reader = new AddressIndexReader(store.database);
    const all = async <T>(g: AsyncIterable<T[]>): Promise<T[]> => {
      const out: T[] = [];
      for await (const batch of g) out.push(...batch);
      return out;
    };
    const forward = [0, 1, 2, 3, 4, 5];
    const orders = [forward, [...forward].reverse(), [3, 3, 0, 5, 0, 2, 4, 1]];
    const ranges = [
      [0, 0],
      [M + 5, M + 20],
      [M + 12, M + 12],
      [M + 29, 0],
    ];
    let compared = 0;
    for (const order of orders) {
      const cursor = reader.cursor();
      try {
        for (const i of order) {
          const { type, hash } = POOL[i]!;
          for (const limit of [undefined, 1, 2, 17]) {
            for (const [start, end] of ranges) {
              const want = await all(reader.deltaBatches(type, hash, start!, end!, limit));
              expect(await all(cursor.deltaBatches(type, hash, start!, end!, limit))).toEqual(want);
              expect(await all(cursor.deltaTransactionBatches(type, hash, start!, end!, limit))).toEqual(
                await all(reader.deltaTransactionBatches(type, hash, start!, end!, limit)),
              );
              compared += want.length;
            }
            expect(await all(cursor.unspentBatches(type, hash, limit))).toEqual(await all(reader.unspentBatches(type, hash, limit)));
          }
        }
      } finally {
        await cursor.close();
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('answers a list longer than PER_ADDRESS_ITERATORS_UP_TO (read through a cursor) as its addresses one by one', async () => {
    const order = [0, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0, 2, 2, 3, 1, 0, 4];
    expect(order.length).toBeGreaterThan(PER_ADDRESS_ITERATORS_UP_TO);
    const list = (indexes: number[]) => `[{"addresses":[${indexes.map((i) => `"${poolAddress(i)}"`).join(',')}]}]`;
    type Deltas = { result: unknown[] };
    const one = await Promise.all(order.map(async (i) => ((await call('getaddressdeltas', list([i]))) as Deltas).result));
    const many = (await call('getaddressdeltas', list(order))) as Deltas;
    expect(many.result).toEqual(one.flat());
    expect(many.result.length).toBeGreaterThan(100);
    type Balance = { result: { balance: number; received: number } };
    const sums = await Promise.all(order.map(async (i) => ((await call('getaddressbalance', list([i]))) as Balance).result));
    expect(((await call('getaddressbalance', list(order))) as Balance).result).toEqual({
      balance: sums.reduce((a, b) => a + b.balance, 0),
      received: sums.reduce((a, b) => a + b.received, 0),
    });
    const distinct = [...new Set(order)];
    type Txids = { result: string[] };
    expect(((await call('getaddresstxids', list(order))) as Txids).result).toEqual(
      ((await call('getaddresstxids', list(distinct))) as Txids).result,
    );
  });

  it('getspentinfo and getblockdeltas name the spending input of every spent output', async () => {
    let checked = 0;
    for (const node of nodes.slice(1)) {
      const block = decodeBlock(node.block.bytes);
      const deltas = (await call('getblockdeltas', `["${block.hashHex}"]`)) as {
        result: { deltas: { txid: string; inputs: { satoshis: number; index: number; prevtxid: string; prevout: number }[] }[] };
      };
      for (const [i, tx] of block.transactions.entries()) {
        if (tx.isCoinbase) continue;
        for (const [j, input] of tx.data.vin.entries()) {
          const prevTxid = toHexReversed(input.prevout.hash);
          expect(await call('getspentinfo', `[{"txid":"${prevTxid}","index":${input.prevout.index}}]`)).toMatchObject({
            text: `{"txid":"${tx.txidHex}","index":${j},"height":${node.block.height}}`,
          });
          const d = deltas.result.deltas[i]!.inputs[j]!;
          expect([d.index, d.prevtxid, d.prevout]).toEqual([j, prevTxid, input.prevout.index]);
          expect(d.satoshis).toBeLessThanOrEqual(0);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe("-insightexplorer's spent index in transaction objects (regtest)", () => {
  // zcashd's TxToJSON (rawtransaction.cpp) with fSpentIndex: each input that is not a coinbase's
  // gets the spent output's value, valueSat and (P2PKH/P2SH) address before `sequence`; each
  // spent output gets spentTxId, spentIndex and spentHeight after `scriptPubKey`. Expected values
  // come from the active chain's own blocks, not from the index. The tests run in order: the
  // store starts with blocks 1..M + 10 of the main branch, the first test connects M + 11 and
  // M + 12, the last one reorganizes to a longer branch forking after block M + 9.
  let store: ChainStore;
  let remove: () => void;
  let insight: ReturnType<typeof caller>;
  let plain: ReturnType<typeof caller>;
  let lightwalletd: ReturnType<typeof caller>;
  const pool = new RenderPool({ threads: 1, inlineMaxBytes: 0 });
  const main: ChainNode[] = matureStart();
  const branch: ChainNode[] = [];
  type FundingTx = { vout: { value: number; valueSat: number; scriptPubKey: { type: string; addresses?: string[] } }[] };
  /** What the active chain says: each transaction's outputs, and the input that spent each outpoint ("txid:n"). */
  interface ChainFacts {
    funding: Map<string, FundingTx>;
    spenders: Map<string, { txid: string; index: number; height: number }>;
  }
  /** Inputs checked whose spent script has an address, and those whose has none. */
  let addressed = 0;
  let unaddressed = 0;
  beforeAll(async () => {
    const random = rng(91);
    for (let h = 1; h <= 12; h++) main.push(nextNode(main.at(-1)!, 'rpc', random, 4));
    const other = rng(92);
    let parent = main[M + 9]!;
    for (let h = 10; h <= 13; h++) branch.push((parent = nextNode(parent, 'fork', other, 4)));
    ({ store, remove } = await indexedStore(
      'rpc-spent-fields',
      REGTEST,
      main.slice(0, M + 11).map((n) => n.block.bytes),
    ));
    insight = caller(storeMethods(store, { features: INSIGHT }), REGTEST);
    plain = caller(storeMethods(store, { features: NO_EXPERIMENTAL_FEATURES }), REGTEST);
    lightwalletd = caller(storeMethods(store, { features: LIGHTWALLETD }), REGTEST);
  });
  afterAll(async () => {
    await pool.close();
    await store.close();
    remove();
  });

  const hexOf = (tx: Transaction) => Buffer.from(tx.bytes).toString('hex');

  async function factsOf(active: readonly ChainNode[]): Promise<ChainFacts> {
    const facts: ChainFacts = { funding: new Map(), spenders: new Map() };
    for (const node of active.slice(1)) {
      for (const tx of decodeBlock(node.block.bytes).transactions) {
        const json = (await plain('decoderawtransaction', `["${hexOf(tx)}"]`)) as { result: unknown };
        facts.funding.set(tx.txidHex, json.result as FundingTx);
        if (tx.isCoinbase) continue;
        for (const [j, input] of tx.data.vin.entries()) {
          const spender = { txid: tx.txidHex, index: j, height: node.block.height };
          facts.spenders.set(`${toHexReversed(input.prevout.hash)}:${input.prevout.index}`, spender);
        }
      }
    }
    return facts;
  }

  type TxObject = { txid: string; vin: Record<string, unknown>[]; vout: Record<string, unknown>[] };

  /** Checks one transaction object against the chain; returns how many members it checked. */
  function expectSpentFields(tx: TxObject, facts: ChainFacts): number {
    let checked = 0;
    for (const input of tx.vin) {
      if ('coinbase' in input) {
        expect(Object.keys(input)).toEqual(['coinbase', 'sequence']);
        continue;
      }
      const outpoint = `${input.txid as string}:${input.vout as number}`;
      if (!facts.spenders.has(outpoint)) {
        // Not spent on the active chain (an input of a block off it): the index has nothing.
        expect(Object.keys(input)).toEqual(['txid', 'vout', 'scriptSig', 'sequence']);
        continue;
      }
      const spent = facts.funding.get(input.txid as string)!.vout[input.vout as number]!;
      // DestFromAddressHash: the index's P2PKH and P2SH types have an address, other scripts none.
      const { type, addresses } = spent.scriptPubKey;
      if (type === 'pubkeyhash' || type === 'scripthash') {
        expect(Object.keys(input)).toEqual(['txid', 'vout', 'scriptSig', 'value', 'valueSat', 'address', 'sequence']);
        expect(input.address).toBe(addresses![0]);
        addressed++;
      } else {
        expect(Object.keys(input)).toEqual(['txid', 'vout', 'scriptSig', 'value', 'valueSat', 'sequence']);
        unaddressed++;
      }
      expect([input.value, input.valueSat]).toEqual([spent.value, spent.valueSat]);
      checked++;
    }
    for (const [n, output] of tx.vout.entries()) {
      const spender = facts.spenders.get(`${tx.txid}:${n}`);
      if (!spender) {
        expect(Object.keys(output)).toEqual(['value', 'valueZat', 'valueSat', 'n', 'scriptPubKey']);
        continue;
      }
      expect(Object.keys(output)).toEqual(['value', 'valueZat', 'valueSat', 'n', 'scriptPubKey', 'spentTxId', 'spentIndex', 'spentHeight']);
      expect([output.spentTxId, output.spentIndex, output.spentHeight]).toEqual([spender.txid, spender.index, spender.height]);
      checked++;
    }
    return checked;
  }

  /**
   * The reply with the spent index's members cut out of its text: it must then be the plain
   * reply byte for byte (so a spent P2PKH output, written member by member, prints exactly what
   * the fragment writer prints for an unspent one).
   */
  const withoutSpentFields = (text: string): string =>
    text
      .replace(/,"value":\d+\.\d{8},"valueSat":\d+(,"address":"[1-9A-HJ-NP-Za-km-z]+")?(?=,"sequence":)/g, '')
      .replace(/,"spentTxId":"[0-9a-f]{64}","spentIndex":\d+,"spentHeight":\d+(?=})/g, '');

  /** Every transaction of `active` through getrawtransaction and decoderawtransaction. */
  async function expectTransactions(active: readonly ChainNode[]): Promise<number> {
    const facts = await factsOf(active);
    let checked = 0;
    for (const node of active.slice(1)) {
      for (const tx of decodeBlock(node.block.bytes).transactions) {
        for (const [name, params] of [
          ['getrawtransaction', `["${tx.txidHex}", 1]`],
          ['decoderawtransaction', `["${hexOf(tx)}"]`],
        ] as const) {
          const got = (await insight(name, params)) as { text: string };
          checked += expectSpentFields(JSON.parse(got.text) as TxObject, facts);
          const without = ((await plain(name, params)) as { text: string }).text;
          expect(withoutSpentFields(got.text)).toBe(without);
          // zcashd's fSpentIndex is -insightexplorer's alone.
          expect(((await lightwalletd(name, params)) as { text: string }).text).toBe(without);
        }
      }
    }
    return checked;
  }

  /** getblock 2 of each block, inline and in a render thread, against `facts`. */
  async function expectBlocks(blocks: readonly ChainNode[], facts: ChainFacts): Promise<number> {
    const uncached = storeMethods(store, { features: INSIGHT, cacheReplies: false }).find((m) => m.name === 'getblock')!;
    let checked = 0;
    for (const node of blocks) {
      const hash = decodeBlock(node.block.bytes).hashHex;
      const got = (await insight('getblock', `["${hash}", 2]`)) as { text: string; result: { tx: TxObject[] } };
      for (const tx of got.result.tx) checked += expectSpentFields(tx, facts);
      const params = parseJson(`["${hash}", 2]`) as JsonValue[];
      const threaded = await uncached.call(params, { network: REGTEST, requestStop: () => {}, blockRenderer: pool });
      expect(Buffer.from(threaded).toString('utf8')).toBe(got.text);
      const without = ((await plain('getblock', `["${hash}", 2]`)) as { text: string }).text;
      expect(withoutSpentFields(got.text)).toBe(without);
    }
    return checked;
  }

  it('follow the chain: decoderawtransaction is not answered from a cache once outputs are spent', async () => {
    const facts = await factsOf(main);
    const spentAt = (tx: Transaction, n: number) => facts.spenders.get(`${tx.txidHex}:${n}`)?.height ?? 0;
    // A transaction of the stored blocks with an output that block M + 11 or M + 12 spends.
    const tx = main
      .slice(1, M + 11)
      .flatMap((n) => decodeBlock(n.block.bytes).transactions)
      .find((t) => t.data.vout.some((_, n) => spentAt(t, n) > M + 10))!;
    const n = tx.data.vout.findIndex((_, i) => spentAt(tx, i) > M + 10);
    const before = JSON.parse(((await insight('decoderawtransaction', `["${hexOf(tx)}"]`)) as { text: string }).text) as TxObject;
    expect(before.vout[n]).not.toHaveProperty('spentTxId');
    for (const node of main.slice(M + 11)) await store.addBlock(node.block.bytes);
    const after = JSON.parse(((await insight('decoderawtransaction', `["${hexOf(tx)}"]`)) as { text: string }).text) as TxObject;
    expect(after.vout[n]).toHaveProperty('spentHeight', spentAt(tx, n));
    expect(expectSpentFields(after, facts)).toBeGreaterThan(0);
  });

  it('getrawtransaction verbose and decoderawtransaction carry them, in zcashd order, with zcashd amounts', async () => {
    expect(await expectTransactions(main)).toBeGreaterThan(40);
    expect([addressed, unaddressed].every((n) => n > 0)).toBe(true);
    // The members as bytes: an amount with eight decimals, then the same in zatoshis.
    const facts = await factsOf(main);
    const spentOf = (t: Transaction) => facts.funding.get(toHexReversed(t.data.vin[0]!.prevout.hash))!.vout[t.data.vin[0]!.prevout.index]!;
    const spending = main
      .slice(1)
      .flatMap((n) => decodeBlock(n.block.bytes).transactions)
      .find((t) => !t.isCoinbase && spentOf(t).scriptPubKey.type === 'pubkeyhash')!;
    const text = ((await insight('getrawtransaction', `["${spending.txidHex}", 1]`)) as { text: string }).text;
    const spent = spentOf(spending);
    const amount = `${Math.floor(spent.valueSat / 1e8)}.${String(spent.valueSat % 1e8).padStart(8, '0')}`;
    expect(text).toContain(`"},"value":${amount},"valueSat":${spent.valueSat},"address":"${spent.scriptPubKey.addresses![0]}","sequence":`);
  });

  it("refuse a transaction that does not decode with zcashd's -22, as without them", async () => {
    for (const hex of ['00', '0400008085202f89', 'zz']) {
      const plainError = await plain('decoderawtransaction', `["${hex}"]`);
      expect(plainError).toMatchObject({ error: { code: -22 } });
      expect(await insight('decoderawtransaction', `["${hex}"]`)).toEqual(plainError);
    }
  });

  it('getblock verbosity 2 carries them, rendered inline and in a render thread alike', async () => {
    expect(await expectBlocks(main.slice(1), await factsOf(main))).toBeGreaterThan(20);
  });

  it('after a reorganization, show what the new active chain spent, on its blocks and on the abandoned ones', async () => {
    for (const node of branch) await store.addBlock(node.block.bytes);
    const active = [...main.slice(0, M + 10), ...branch];
    expect(await store.tip()).toMatchObject({ height: M + 13 });
    expect(await expectTransactions(active)).toBeGreaterThan(40);
    const facts = await factsOf(active);
    expect(await expectBlocks(active.slice(1), facts)).toBeGreaterThan(20);
    // The abandoned blocks: their inputs show what the active chain spent of the same outputs
    // (GetSpentIndex is by outpoint), their own outputs nothing.
    await expectBlocks(main.slice(M + 10), facts);
  });

  it("reads a spending block's txid list only to name an output's spender, never for an input", async () => {
    let listsRead = 0;
    const db = store.database;
    const counting = new Proxy(db, {
      get(target, key) {
        if (key === 'getMany') {
          return (ks: Buffer[], options: unknown) => {
            listsRead += ks.filter((k) => k[0] === 0x75).length; // `u`: a block's txid list
            return target.getMany(ks, options as never);
          };
        }
        const v = Reflect.get(target, key) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const lookup = new SpentIndexLookup(new AddressIndexReader(counting));
    const active = [...main.slice(0, M + 10), ...branch];
    const facts = await factsOf(active);
    const spending = active.flatMap((n) => decodeBlock(n.block.bytes).transactions).filter((t) => !t.isCoinbase);
    // Inputs only: an unmined transaction spending what the chain's transactions spent.
    const vin = spending.flatMap((t) => t.data.vin).slice(0, 20);
    const inputsOnly = decodeTransaction(encodeV1Transaction(vin, []));
    const records = await lookup.records([inputsOnly]);
    expect(vin.every((_, i) => records[i * SPENT_INPUT_RECORD_BYTES] === 1)).toBe(true);
    expect(listsRead).toBe(0);
    // Outputs: a transaction whose outputs the chain spent, each spender named.
    const spent = spending.find((t) => t.data.vout.some((_, n) => facts.spenders.has(`${t.txidHex}:${n}`)))!;
    await lookup.records([spent]);
    expect(listsRead).toBeGreaterThan(0);
  });
});

describe('insight explorer methods over histories longer than a read batch (regtest)', () => {
  // Block M + 1 (the first that may spend a coinbase) pays pool address 0 2,500 outputs in one
  // transaction, then 1,200 transactions each pay pool address 2 one output: reads of 1,000
  // entries at a time meet both.
  const blocks = fanOutChain({ blocks: 3, entries: 2500, fanOut: 2500, spreadPerBlock: 1200, fanned: 0, spread: 2 });
  const paying = decodeBlock(blocks[M + 1]!.bytes);
  let store: ChainStore;
  let remove: () => void;
  let call: ReturnType<typeof caller>;
  beforeAll(async () => {
    ({ store, remove } = await indexedStore(
      'rpc-addr-batches',
      REGTEST,
      blocks.map((b) => b.bytes),
    ));
    call = caller(storeMethods(store, { features: INSIGHT }), REGTEST);
  });
  afterAll(async () => {
    await store.close();
    remove();
  });

  it('getaddressutxos and getaddressdeltas list every entry, in the index order, across batches', async () => {
    const fanOut = paying.transactions[1]!;
    const script = Buffer.from(scriptFor(0)).toString('hex');
    const utxos = (await call('getaddressutxos', `["${poolAddress(0)}"]`)) as { result: Record<string, unknown>[] };
    expect(utxos.result).toHaveLength(2500);
    // The index orders an address's outputs by txid, then by output index as stored: little-endian bytes.
    const le = (n: number) => Buffer.from(Uint32Array.of(n).buffer);
    const indexOrder = Array.from({ length: 2500 }, (_, n) => n).sort((a, b) => Buffer.compare(le(a), le(b)));
    expect(utxos.result).toEqual(
      indexOrder.map((n) => ({ address: poolAddress(0), txid: fanOut.txidHex, outputIndex: n, script, satoshis: 1000, height: M + 1 })),
    );
    const deltas = (await call('getaddressdeltas', `[{"addresses":["${poolAddress(0)}"]}]`)) as { result: Record<string, unknown>[] };
    expect(deltas.result).toEqual(
      indexOrder.map((n) => ({ address: poolAddress(0), blockindex: 1, height: M + 1, index: n, satoshis: 1000, txid: fanOut.txidHex })),
    );
  });

  it('getaddresstxids merges two addresses into block order, each transaction once', async () => {
    const want = paying.transactions.slice(1).map((t) => t.txidHex);
    expect(want).toHaveLength(1201);
    const both = `[{"addresses":["${poolAddress(2)}","${poolAddress(0)}","${poolAddress(2)}"]}]`;
    expect(await call('getaddresstxids', both)).toMatchObject({ result: want });
    expect(await call('getaddresstxids', `["${poolAddress(2)}"]`)).toMatchObject({ result: want.slice(1) });
  });

  it('refuses a read that outgrows its allowance inside a batch, and the store reads on afterwards', async () => {
    const room = (entries: number) =>
      caller(storeMethods(store, { features: INSIGHT }), REGTEST, entries * INDEX_ENTRY_BYTES.getaddressdeltas + ADDRESS_WORK_BYTES);
    const params = `[{"addresses":["${poolAddress(0)}"]}]`;
    expect(await room(1500)('getaddressdeltas', params)).toMatchObject({ error: { code: -7 } });
    expect(await room(2500)('getaddressdeltas', params)).toHaveProperty('result');
    expect(await call('getaddressbalance', `["${poolAddress(0)}"]`)).toMatchObject({ result: { balance: 2_500_000, received: 2_500_000 } });
  });

  it('hands on replies in memory of their own size, as the reply budget charges them', async () => {
    const methods = new Map(storeMethods(store, { features: INSIGHT }).map((m) => [m.name, m]));
    const ctx = { network: REGTEST, requestStop: () => {} };
    const reply = async (name: string, params: string) => (await methods.get(name)!.call(parseJson(params) as JsonValue[], ctx)) as Buffer;
    // An empty reply in a shared pool slab, not in its own 16 KiB writer buffer; a long one in at most an eighth more than its length.
    const empty = await reply('getaddressdeltas', `["${poolAddress(1)}"]`);
    expect([empty.toString(), empty.buffer.byteLength <= Buffer.poolSize]).toEqual(['[]', true]);
    for (const [name, params] of [
      ['getaddressdeltas', `["${poolAddress(0)}"]`],
      ['getaddressutxos', `["${poolAddress(0)}"]`],
      ['getaddresstxids', `["${poolAddress(2)}"]`],
    ]) {
      const long = await reply(name!, params!);
      expect([name, long.length > 50_000, long.buffer.byteLength <= long.length * 1.125]).toEqual([name, true, true]);
    }
  });

  it('closes every index iterator it opens: on a refusal mid-read, a reader that stops early, and a failing consumer', async () => {
    const open = new Set<object>();
    let opened = 0;
    const tracked = <T extends { close(): Promise<void> }>(it: T): T => {
      open.add(it);
      opened++;
      const close = it.close.bind(it);
      it.close = async () => {
        open.delete(it);
        await close();
      };
      return it;
    };
    const db = store.database;
    const watched = {
      iterator: (o: object) => tracked(db.iterator(o)),
      keys: (o: object) => tracked(db.keys(o)),
      getSync: (k: Buffer) => db.getSync(k),
    } as unknown as typeof db;
    const reader = new AddressIndexReader(watched);
    const small = caller(
      storeMethods(store, { features: INSIGHT, addressIndex: reader }),
      REGTEST,
      1500 * INDEX_ENTRY_BYTES.getaddressutxos,
    );
    expect(await small('getaddressutxos', `["${poolAddress(0)}"]`)).toMatchObject({ error: { code: -7 } });
    for await (const batch of reader.deltaBatches(POOL[0]!.type, POOL[0]!.hash, 0, 0)) if (batch.length > 0) break;
    await expect(
      (async () => {
        for await (const batch of reader.unspentBatches(POOL[0]!.type, POOL[0]!.hash))
          if (batch.length > 0) throw new Error('consumer failed');
      })(),
    ).rejects.toThrow('consumer failed');
    reader.timestampBatches(2 ** 31 - 1, 0); // never iterated: nothing opened
    expect([opened, open.size]).toEqual([3, 0]);

    // getaddressbalance reads an address once however often it is listed, and counts it each time.
    const balance = caller(storeMethods(store, { features: INSIGHT, addressIndex: reader }), REGTEST);
    const listed = `[{"addresses":[${Array.from({ length: 2000 }, () => `"${poolAddress(0)}"`).join(',')}]}]`;
    expect(await balance('getaddressbalance', listed)).toMatchObject({ text: '{"balance":5000000000,"received":5000000000}' });
    expect([opened, open.size]).toEqual([4, 0]);
  });

  it("getaddressbalance sums exactly past 2^53, as zcashd's int64 sums do", async () => {
    // No chain pays one address 84 M ZEC in the time of a test: an index reader yielding 4,000
    // deltas of an odd amount just under MAX_MONEY (8.4e18 zatoshis in all, below 2^63 but far
    // past 2^53, where adding such numbers stops being exact) stands in for the store's.
    const value = 2_099_999_999_999_999;
    const bigHistory = {
      ranges: () => ({
        async *deltaBatches() {
          for (let i = 0; i < 4; i++) yield Array.from({ length: 1000 }, () => ({ value }));
        },
        close: async () => undefined,
      }),
    } as unknown as AddressIndexReader;
    const call = caller(storeMethods(store, { features: INSIGHT, addressIndex: bigHistory }), REGTEST);
    const want = (4000n * BigInt(value)).toString();
    expect(await call('getaddressbalance', `["${poolAddress(0)}"]`)).toMatchObject({ text: `{"balance":${want},"received":${want}}` });
  });
});
