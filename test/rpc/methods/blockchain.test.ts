// getblockcount, getbestblockhash, getblockhash, getblockheader, getblockchaininfo, getdifficulty
// over the in-memory fixture store (mainnet 0..20, side block zcashd-2019 24202).
import { describe, expect, it } from 'vitest';
import { MAINNET, TESTNET } from '../../../src/chain/network.js';
import { toHex } from '../../../src/codec/hex.js';
import { type JsonNumber, type JsonObject, parseJson } from '../../../src/json/index.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { ZCASHD_6_12_2 } from '../../../src/compat/profiles.js';
import { nextWorkAfter } from '../../../src/rpc/methods/blockchain/network-difficulty.js';
import { readHexVector, readJsonVector } from '../../support/vectors.js';
import { errorOf, resultOf } from '../../support/call.js';
import { MemoryChainStore, mainnetGenesisRun, zcashd2019Side } from '../../support/memory-store.js';

const HASHES: string[] = readJsonVector<{ blocks: { where: string; height: number; hash: string }[] }>('lightwalletd', 'index.json')
  .blocks.filter((b) => b.where.startsWith('mainnet_genesis'))
  .sort((a, b) => a.height - b.height)
  .map((b) => b.hash);
const blocks = mainnetGenesisRun();
const side = zcashd2019Side(24202);
// Wall clock pinned to mainnet's last checkpoint time, so verificationprogress is exact.
const CHECKPOINT_TIME = 1752983473;
const store = new MemoryChainStore(MAINNET, blocks, [side]);
const methods = new Map(storeMethods(store, { clock: () => CHECKPOINT_TIME }).map((m) => [m.name, m]));
const m = (name: string): RpcMethod => methods.get(name)!;
const num = (v: unknown): string => (v as JsonNumber).text;

describe('registration', () => {
  it("registers every read method with zcashd's category and parameter counts", () => {
    expect([...methods.values()].map((x) => [x.name, x.category, x.required, x.optional])).toEqual([
      ['getbestblockhash', 'blockchain', 0, 0],
      ['getblock', 'blockchain', 1, 1],
      ['getblockchaininfo', 'blockchain', 0, 0],
      ['getblockcount', 'blockchain', 0, 0],
      ['getblockhash', 'blockchain', 1, 0],
      ['getblockheader', 'blockchain', 1, 1],
      ['getdifficulty', 'blockchain', 0, 0],
      ['z_getsubtreesbyindex', 'blockchain', 2, 1],
      ['z_gettreestate', 'blockchain', 1, 0],
      ['decoderawtransaction', 'rawtransactions', 1, 0],
      ['getrawtransaction', 'rawtransactions', 1, 2],
      ['decodescript', 'rawtransactions', 1, 0],
      ['createrawtransaction', 'rawtransactions', 2, 2],
      ['getinfo', 'control', 0, 0],
      ['getexperimentalfeatures', 'control', 0, 0],
      ['getmempoolinfo', 'blockchain', 0, 0],
      ['getrawmempool', 'blockchain', 0, 1],
      ['sendrawtransaction', 'rawtransactions', 1, 1],
      ['getblocksubsidy', 'mining', 0, 1],
      ['validateaddress', 'util', 1, 0],
      ['z_validateaddress', 'util', 1, 0],
      ['createmultisig', 'util', 2, 0],
      ['verifymessage', 'util', 3, 0],
      ['z_listunifiedreceivers', 'wallet', 1, 0],
      ['getlocalsolps', 'mining', 0, 0],
      ['getnetworksolps', 'mining', 0, 2],
      ['getnetworkhashps', 'mining', 0, 2],
      ['getmininginfo', 'mining', 0, 0],
      ['prioritisetransaction', 'mining', 3, 0],
      ['getblocktemplate', 'mining', 0, 1],
      ['submitblock', 'mining', 1, 1],
      ['getgenerate', 'generating', 0, 0],
      ['setgenerate', 'generating', 1, 1],
      ['generate', 'generating', 1, 0],
      ['getmemoryinfo', 'control', 0, 0],
      ['setlogfilter', 'control', 1, 0],
      ['setmocktime', 'hidden', 1, 0],
      ['getconnectioncount', 'network', 0, 0],
      ['getdeprecationinfo', 'network', 0, 0],
      ['ping', 'network', 0, 0],
      ['getpeerinfo', 'network', 0, 0],
      ['addnode', 'network', 2, 0],
      ['disconnectnode', 'network', 1, 0],
      ['getaddednodeinfo', 'network', 1, 1],
      ['getnettotals', 'network', 0, 0],
      ['getnetworkinfo', 'network', 0, 0],
      ['setban', 'network', 2, 2],
      ['listbanned', 'network', 0, 0],
      ['clearbanned', 'network', 0, 0],
      ['gettxoutproof', 'blockchain', 1, 1],
      ['verifytxoutproof', 'blockchain', 1, 0],
      ['verifychain', 'blockchain', 0, 2],
    ]);
  });

  it("carries zcashd's help texts (first lines as `help` lists them)", () => {
    expect([...methods.values()].map((x) => x.help.split('\n')[0])).toEqual([
      'getbestblockhash',
      'getblock "hash|height" ( verbosity )',
      'getblockchaininfo',
      'getblockcount',
      'getblockhash index',
      'getblockheader "hash" ( verbose )',
      'getdifficulty',
      'z_getsubtreesbyindex "pool" start_index ( limit )',
      'z_gettreestate "hash|height"',
      'decoderawtransaction "hexstring"',
      'getrawtransaction "txid" ( verbose "blockhash" )',
      'decodescript "hex"',
      'createrawtransaction [{"txid":"id","vout":n},...] {"address":amount,...} ( locktime ) ( expiryheight )',
      'getinfo',
      'getexperimentalfeatures',
      'getmempoolinfo',
      'getrawmempool ( verbose )',
      'sendrawtransaction "hexstring" ( allowhighfees )',
      'getblocksubsidy height',
      'validateaddress "zcashaddress"',
      'z_validateaddress "address"',
      'createmultisig nrequired ["key",...]',
      'verifymessage "zcashaddress" "signature" "message"',
      'z_listunifiedreceivers unified_address',
      'getlocalsolps',
      'getnetworksolps ( blocks height )',
      'getnetworkhashps ( blocks height )',
      'getmininginfo',
      'prioritisetransaction <txid> <priority delta> <fee delta>',
      'getblocktemplate ( "jsonrequestobject" )',
      'submitblock "hexdata" ( "jsonparametersobject" )',
      'getgenerate',
      'setgenerate generate ( genproclimit )',
      'generate numblocks',
      'getmemoryinfo',
      'setlogfilter "directives"',
      'setmocktime timestamp',
      'getconnectioncount',
      'getdeprecationinfo',
      'ping',
      'getpeerinfo',
      'addnode "node" "add|remove|onetry"',
      'disconnectnode "node" ',
      'getaddednodeinfo dns ( "node" )',
      'getnettotals',
      'getnetworkinfo',
      'setban "ip(/netmask)" "add|remove" (bantime) (absolute)',
      'listbanned',
      'clearbanned',
      'gettxoutproof ["txid",...] ( blockhash )',
      'verifytxoutproof "proof"',
      'verifychain ( checklevel numblocks )',
    ]);
    // zcashd's gettxoutproof, verifytxoutproof and setmocktime help texts have no examples;
    // setmocktime's ends without a newline.
    const withoutExamples = new Set(['gettxoutproof', 'verifytxoutproof', 'setmocktime']);
    for (const x of methods.values()) {
      const newlineAtEnd = x.name !== 'setmocktime';
      expect([x.name, x.help.endsWith('\n'), x.help.includes('\nExamples')]).toEqual([x.name, newlineAtEnd, !withoutExamples.has(x.name)]);
    }
    expect(m('getblockcount').help).toBe(
      'getblockcount\n\nReturns the height of the most recent block in the best valid block chain (equivalently,\n' +
        'the number of blocks in this chain excluding the genesis block).\n\nResult:\n' +
        'n    (numeric) The height of the most recent block.\n\nExamples:\n> zcash-cli getblockcount \n' +
        `> curl --user myusername --data-binary '{"jsonrpc": "1.0", "id":"curltest", "method": "getblockcount", "params": [] }' -H 'content-type: text/plain;' http://127.0.0.1:8232/\n`,
    );
    // zcashd's own quirks are kept: "Result" without a colon, zcash-cli examples with units.
    expect(m('getbestblockhash').help).toContain('\nResult\n"hex"      (string) the block hash hex encoded\n\nExamples\n');
    expect(m('getblock').help).toContain('(numeric, optional) total chain supply after this block, in ZEC\n');
    expect(m('getrawtransaction').help).toContain('> zcash-cli getrawtransaction "mytxid" 1 "myblockhash"\n');
  });
});

describe('getblockcount / getbestblockhash', () => {
  it('report the tip', async () => {
    expect(await resultOf(m('getblockcount'), '[]')).toBe('20');
    expect(await resultOf(m('getbestblockhash'), '[]')).toBe(`"${HASHES[20]}"`);
  });

  it('an empty store: height -1, no best block', async () => {
    const empty = new Map(storeMethods(new MemoryChainStore(MAINNET, [])).map((x) => [x.name, x]));
    expect(await resultOf(empty.get('getblockcount')!, '[]')).toBe('-1');
    expect((await errorOf(empty.get('getbestblockhash')!, '[]')).code).toBe(-1);
    expect(await resultOf(empty.get('getdifficulty')!, '[]')).toBe('1');
  });
});

describe('getblockhash', () => {
  it.each([
    ['[0]', 0],
    ['[1]', 1],
    ['[20]', 20],
    ['[-1]', 20],
    ['[-21]', 0],
    ['[-0]', 0],
  ])('%s → block %i', async (params, h) => expect(await resultOf(m('getblockhash'), params)).toBe(`"${HASHES[h]}"`));

  it.each([
    ['[21]', -8, 'Block height out of range'],
    ['[-22]', -8, 'Block height out of range'],
    ['["1"]', -1, 'JSON value is not an integer as expected'],
    ['[true]', -1, 'JSON value is not an integer as expected'],
    ['[1.0]', -1, 'JSON integer out of range'],
    ['[1e3]', -1, 'JSON integer out of range'],
    ['[2147483648]', -1, 'JSON integer out of range'],
  ])('%s → %i %s', async (params, code, message) => expect(await errorOf(m('getblockhash'), params)).toEqual({ code, message }));
});

describe('getblockheader', () => {
  it("verbose=false gives the serialized header (the block's first 1487 bytes)", async () => {
    expect(await resultOf(m('getblockheader'), `["${HASHES[3]}", false]`)).toBe(`"${toHex(blocks[3]!.subarray(0, 1487))}"`);
  });

  it("verbose (default true) gives zcashd's header object in order", async () => {
    const text = await resultOf(m('getblockheader'), `["${HASHES[3]}"]`);
    expect(text).toBe(await resultOf(m('getblockheader'), `["${HASHES[3]}", true]`));
    const obj = parseJson(text) as JsonObject;
    expect(obj.entries.map(([k]) => k)).toEqual([
      'hash',
      'confirmations',
      'height',
      'version',
      'merkleroot',
      'finalsaplingroot',
      'time',
      'nonce',
      'solution',
      'bits',
      'difficulty',
      'chainwork',
      'previousblockhash',
      'nextblockhash',
    ]);
    expect(obj.get('hash')).toBe(HASHES[3]);
    expect(num(obj.get('confirmations'))).toBe('18');
    expect(num(obj.get('height'))).toBe('3');
    expect(num(obj.get('time'))).toBe('1477671629');
    expect(obj.get('chainwork')).toBe('0'.repeat(60) + '8000');
    expect(obj.get('previousblockhash')).toBe(HASHES[2]);
    expect(obj.get('nextblockhash')).toBe(HASHES[4]);
  });

  it("a side-chain header has confirmations -1 and zcashd 2019's chain work", async () => {
    const obj = parseJson(await resultOf(m('getblockheader'), `["${String(side.golden.hash)}"]`)) as JsonObject;
    expect(num(obj.get('confirmations'))).toBe('-1');
    expect(obj.get('chainwork')).toBe(side.golden.chainwork);
    expect(obj.get('previousblockhash')).toBe(side.golden.previousblockhash);
    expect(obj.has('nextblockhash')).toBe(false);
  });

  it.each([
    [`["${HASHES[3]}", 1]`, -1, 'JSON value is not a boolean as expected'],
    [`["${HASHES[3]}", null]`, -1, 'JSON value is not a boolean as expected'],
    ['[3]', -1, 'JSON value is not a string as expected'],
    // No height form: "3" is the hash 00…03.
    ['["3"]', -5, 'Block not found'],
    [`["${'ab'.repeat(32)}"]`, -5, 'Block not found'],
    // The verbose flag is parsed before the lookup.
    [`["${'ab'.repeat(32)}", 0]`, -1, 'JSON value is not a boolean as expected'],
  ])('%s → %i %s', async (params, code, message) => expect(await errorOf(m('getblockheader'), params)).toEqual({ code, message }));

  it('parses the hash leniently', async () => {
    expect(await resultOf(m('getblockheader'), `["0x${HASHES[3]}zz", false]`)).toBe(`"${toHex(blocks[3]!.subarray(0, 1487))}"`);
  });
});

describe('network difficulty (GetNextWorkRequired)', () => {
  it('reproduces the real retargets of mainnet blocks 18..20', async () => {
    const bits: number[] = [];
    for (const last of [15, 16, 17, 18, 19]) {
      const s = new MemoryChainStore(MAINNET, blocks.slice(0, last + 1));
      bits.push(await nextWorkAfter(s, await s.blockIndex((await s.tip())!.hash)));
    }
    // Blocks 16..20 carry 1f07ffff, 1f07ffff, 1f07ffff, 1f06b851, 1f06a820.
    expect(bits.map((b) => b.toString(16))).toEqual(['1f07ffff', '1f07ffff', '1f07ffff', '1f06b851', '1f06a820']);
  });

  it('getdifficulty: the difficulty of the work required after tip 20 (1f069722)', async () => {
    expect(await resultOf(m('getdifficulty'), '[]')).toBe('1.213891448602242');
  });
});

describe('getblockchaininfo', () => {
  it('prints every member in zcashd order', async () => {
    const obj = parseJson(await resultOf(m('getblockchaininfo'), '[]')) as JsonObject;
    expect(obj.entries.map(([k]) => k)).toEqual([
      'chain',
      'blocks',
      'initial_block_download_complete',
      'headers',
      'bestblockhash',
      'difficulty',
      'verificationprogress',
      'chainwork',
      'pruned',
      'size_on_disk',
      'estimatedheight',
      'commitments',
      'chainSupply',
      'valuePools',
      'softforks',
      'upgrades',
      'consensus',
    ]);
    expect(obj.get('chain')).toBe('main');
    expect(num(obj.get('blocks'))).toBe('20');
    expect(num(obj.get('headers'))).toBe('20');
    expect(obj.get('bestblockhash')).toBe(HASHES[20]);
    expect(num(obj.get('difficulty'))).toBe('1.213891448602242');
    // 21 transactions, all before the checkpoint: 21 / 15537904 at the checkpoint's own time.
    expect(num(obj.get('verificationprogress'))).toBe('1.35153364314775e-06');
    // 19 × 8192 + work(1f06b851) + work(1f06a820), computed independently.
    expect(obj.get('chainwork')).toBe('0'.repeat(59) + '2ac8d');
    expect(obj.get('pruned')).toBe(false);
    const sizes = blocks.reduce((a, b) => a + b.length, 0) + side.bytes.length;
    expect(num(obj.get('size_on_disk'))).toBe(String(sizes));
    // Chain work 0x2ac8d is far below mainnet's nMinimumChainWork: still in initial download.
    expect(obj.get('initial_block_download_complete')).toBe(false);
    // EstimateNetHeight from the tip's median time past 1477671787 (blocks 10..20) at the clock
    // 1752983473: pre-Blossom 653580 blocks × 150 s reach Blossom at 1575708787, then
    // (1752983473 − 1575708787) / 75 = 2363662 more blocks → 3017262, rounded to tens.
    expect(num(obj.get('estimatedheight'))).toBe('3017260');
    expect(num(obj.get('commitments'))).toBe('0');
    // Coinbases of blocks 1..20 pay 62500 · h each: 62500 · 210.
    const pool = (id: string, zat: string) =>
      `{"id":"${id}","monitored":true,"chainValue":${(Number(zat) / 1e8).toFixed(8)},"chainValueZat":${zat}}`;
    const text = await resultOf(m('getblockchaininfo'), '[]');
    expect(text).toContain('"chainSupply":{"monitored":true,"chainValue":0.13125000,"chainValueZat":13125000},');
    expect(text).toContain(
      `"valuePools":[${pool('transparent', '13125000')},${['sprout', 'sapling', 'orchard', 'lockbox'].map((id) => pool(id, '0')).join(',')}],`,
    );
  });

  it('softforks: 21 version-4 blocks in the window, thresholds not reached', async () => {
    const text = await resultOf(m('getblockchaininfo'), '[]');
    const expected = ['bip34', 2, 'bip66', 3, 'bip65', 4]
      .reduce<string[]>(
        (acc, x, i, all) =>
          i % 2
            ? acc
            : [
                ...acc,
                `{"id":"${x}","version":${all[i + 1]},` +
                  `"enforce":{"status":false,"found":21,"required":750,"window":4000},` +
                  `"reject":{"status":false,"found":21,"required":950,"window":4000}}`,
              ],
        [],
      )
      .join(',');
    expect(text).toContain(`"softforks":[${expected}]`);
  });

  it('upgrades: every mainnet upgrade pending at height 20, Sprout branch ids', async () => {
    const text = await resultOf(m('getblockchaininfo'), '[]', { profile: ZCASHD_6_12_2 });
    const obj = parseJson(text) as JsonObject;
    const upgrades = obj.get('upgrades') as JsonObject;
    expect(upgrades.entries.map(([k]) => k)).toEqual([
      '5ba81b19',
      '76b809bb',
      '2bb40e60',
      'f5b9230b',
      'e9ff75a6',
      'c2d6d0b4',
      'c8e71055',
      '4dec4df0',
    ]);
    expect(text).toContain(
      '"upgrades":{"5ba81b19":{"name":"Overwinter","activationheight":347500,"status":"pending","info":"See https://z.cash/upgrade/overwinter/ for details."},',
    );
    expect(text).toContain(
      '"4dec4df0":{"name":"NU6.1","activationheight":3146400,"status":"pending","info":"See https://z.cash/upgrade/nu6.1/ for details."}}',
    );
    expect(text.endsWith('"consensus":{"chaintip":"00000000","nextblock":"00000000"}}')).toBe(true);
  });

  it('upgrades under the default profile: NU6.2 and NU6.3 after NU6.1, as zcashd v6.20.0 prints NU6.2', async () => {
    const text = await resultOf(m('getblockchaininfo'), '[]');
    const upgrades = (parseJson(text) as JsonObject).get('upgrades') as JsonObject;
    expect(upgrades.entries.map(([k]) => k).slice(-3)).toEqual(['4dec4df0', '5437f330', '37a5165b']);
    expect(text).toContain(
      '"4dec4df0":{"name":"NU6.1","activationheight":3146400,"status":"pending","info":"See https://z.cash/upgrade/nu6.1/ for details."},' +
        '"5437f330":{"name":"NU6.2","activationheight":3364600,"status":"pending","info":"See https://z.cash/upgrade/nu6.2/ for details."},' +
        '"37a5165b":{"name":"NU6.3","activationheight":3428143,"status":"pending","info":"See https://z.cash/upgrade/nu6.3/ for details."}}',
    );
  });

  it('reports the best header height the store gives', async () => {
    const s = new MemoryChainStore(MAINNET, blocks);
    s.headersHeight = 25;
    const info = storeMethods(s, { clock: () => CHECKPOINT_TIME }).find((x) => x.name === 'getblockchaininfo')!;
    expect(num((parseJson(await resultOf(info, '[]')) as JsonObject).get('headers'))).toBe('25');
  });

  it('testnet: chain "test", testnet majority window and upgrade heights', async () => {
    const s = new MemoryChainStore(TESTNET, [readHexVector('blocks', 'testnet', '0.hex'), readHexVector('blocks', 'testnet', '1.hex')]);
    const info = storeMethods(s).find((x) => x.name === 'getblockchaininfo')!;
    const text = await resultOf(info, '[]');
    expect(text.startsWith('{"chain":"test","blocks":1,"initial_block_download_complete":false,"headers":1,"bestblockhash":"')).toBe(true);
    expect(text).toContain('"enforce":{"status":false,"found":2,"required":51,"window":400}');
    expect(text).toContain('"c2d6d0b4":{"name":"NU5","activationheight":1842420,"status":"pending"');
  });

  it('an empty store has no tip to describe', async () => {
    const info = storeMethods(new MemoryChainStore(MAINNET, [])).find((x) => x.name === 'getblockchaininfo')!;
    expect(await errorOf(info, '[]')).toEqual({ code: -1, message: 'No blocks in the chain store' });
  });
});
