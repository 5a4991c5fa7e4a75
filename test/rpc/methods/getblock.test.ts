// getblock over the in-memory fixture store: mainnet 0..20 as the best chain (tip 20), zcashd-2019
// block 24202 as a side-chain block and block 42464 known by header only. The height/hash
// table is rpc-http-json.md §5.1's worked table, shifted to tip 20.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../../../src/chain/network.js';
import { toHex } from '../../../src/codec/hex.js';
import { JsonNumber, type JsonObject, parseJson, type JsonValue } from '../../../src/json/index.js';
import type { RpcMethod } from '../../../src/rpc/method.js';
import { getBlockMethod } from '../../../src/rpc/methods/blockchain/getblock.js';
import { readJsonVector, vectorPath } from '../../support/vectors.js';
import { errorOf, resultOf } from '../../support/call.js';
import { MemoryChainStore, mainnetGenesisRun, zcashd2019Side } from '../../support/memory-store.js';

interface IndexedBlock {
  where: string;
  height: number;
  hash: string;
  txids: string[];
}
const HASHES: string[] = readJsonVector<{ blocks: IndexedBlock[] }>('lightwalletd', 'index.json')
  .blocks.filter((b) => b.where.startsWith('mainnet_genesis'))
  .sort((a, b) => a.height - b.height)
  .map((b) => b.hash);
const GENESIS = '00040fe8ec8471911baa1db1266ea15dd06b4a8a5c453883c000b031973dce08';
const BLOCK1 = '0007bc227e1c57a4a70e237cad00e7b7ce565155ab49166bc57397a26d339283';
const UNKNOWN = 'ab'.repeat(32);

const side = zcashd2019Side(24202);
const headerOnly = { ...zcashd2019Side(42464), headerOnly: true };
const blocks = mainnetGenesisRun();
let getblock: RpcMethod;

beforeAll(() => {
  getblock = getBlockMethod(new MemoryChainStore(MAINNET, blocks, [side, headerOnly]));
});

function member(text: string, key: string): JsonValue | undefined {
  return (parseJson(text) as JsonObject).get(key);
}
const token = (v: JsonValue | undefined): string | undefined => (v instanceof JsonNumber ? v.text : undefined);
async function hashOf(params: string): Promise<string> {
  return member(await resultOf(getblock, params), 'hash') as string;
}

describe('getblock argument handling (§5.1, tip 20)', () => {
  it('sanity: the fixture chain is mainnet 0..20', () => {
    expect(HASHES).toHaveLength(21);
    expect(HASHES[0]).toBe(GENESIS);
    expect(HASHES[1]).toBe(BLOCK1);
  });

  it.each([
    ['["12"]', 12],
    ['["-1"]', 20],
    ['["-21"]', 0],
    ['["01"]', 1],
    ['["007"]', 7],
    ['["00"]', 0],
    ['["0"]', 0],
    [`["${'0'.repeat(61)}12"]`, 12],
  ])('%s → height %i', async (params, height) => expect(await hashOf(params)).toBe(HASHES[height]));

  it.each([
    '["+5"]',
    '["abc"]',
    '[""]',
    '["-0"]',
    '["-01"]',
    '[" 5"]',
    '["5 "]',
    '["1e3"]',
    '["2147483648"]',
    '["99999999999"]',
    '["abc","x"]',
  ])('%s → -8 Invalid block height parameter', async (params) =>
    expect(await errorOf(getblock, params)).toEqual({ code: -8, message: 'Invalid block height parameter' }),
  );

  it.each(['["-22"]', '["21"]', '["2147483647"]', '["-2147483648"]'])('%s → -8 Block height out of range', async (params) =>
    expect(await errorOf(getblock, params)).toEqual({ code: -8, message: 'Block height out of range' }),
  );

  it('zecrpc deviation: a JSON number is a height (zcashd: "JSON value is not a string as expected")', async () => {
    expect(await hashOf('[12]')).toBe(HASHES[12]);
    expect(await hashOf('[-1]')).toBe(HASHES[20]);
    expect(await hashOf('[-0]')).toBe(HASHES[0]);
    expect(await errorOf(getblock, '[21]')).toEqual({ code: -8, message: 'Block height out of range' });
    expect(await errorOf(getblock, '[1.5]')).toEqual({ code: -1, message: 'JSON integer out of range' });
    expect(await errorOf(getblock, '[1e1]')).toEqual({ code: -1, message: 'JSON integer out of range' });
  });

  it.each(['[null]', '[true]', '[[]]', '[{}]'])('%s → -1 not a string', async (params) =>
    expect(await errorOf(getblock, params)).toEqual({ code: -1, message: 'JSON value is not a string as expected' }),
  );

  it.each([
    `["${UNKNOWN}"]`,
    `["${'z'.repeat(64)}"]`,
    // 16 four-byte characters are 64 bytes: a hash to zcashd (the zero hash), not a height.
    `["${'💩'.repeat(16)}"]`,
  ])('%s → -5 Block not found', async (params) =>
    expect(await errorOf(getblock, params)).toEqual({ code: -5, message: 'Block not found' }),
  );

  it('parses hashes of 64 or more bytes leniently', async () => {
    expect(await hashOf(`["0x${GENESIS.slice(2)}"]`)).toBe(GENESIS); // 64 chars: a 62-digit hash, left-padded
    expect(await hashOf(`["0x${BLOCK1}"]`)).toBe(BLOCK1);
    expect(await hashOf(`["00${BLOCK1}"]`)).toBe(BLOCK1);
    expect(await hashOf(`[" ${BLOCK1}"]`)).toBe(BLOCK1);
    expect(await hashOf(`["${BLOCK1}zz"]`)).toBe(BLOCK1);
    expect(await hashOf(`["${BLOCK1.toUpperCase()}"]`)).toBe(BLOCK1);
  });
});

describe('getblock verbosity', () => {
  it.each(['0', 'false', '-0'])('[hash, %s] → hex of the stored block', async (v) => {
    expect(await resultOf(getblock, `["${BLOCK1}", ${v}]`)).toBe(`"${toHex(blocks[1]!)}"`);
  });

  it.each(['1', 'true'])('[hash, %s] → object with txids', async (v) => {
    const text = await resultOf(getblock, `["${BLOCK1}", ${v}]`);
    expect(member(text, 'tx')).toEqual(['851bf6fbf7a976327817c738c489d7fa657752445430922d94c983c0b9ed4609']);
    expect(text).toBe(await resultOf(getblock, `["${BLOCK1}"]`));
  });

  it('[hash, 2] → the same object with transaction objects', async () => {
    const text = await resultOf(getblock, `["${BLOCK1}", 2]`);
    const txs = member(text, 'tx') as JsonObject[];
    expect(txs).toHaveLength(1);
    expect(txs[0]!.get('txid')).toBe('851bf6fbf7a976327817c738c489d7fa657752445430922d94c983c0b9ed4609');
    // getblock's tx objects carry no block fields (TxToJSON with a null block hash).
    expect(txs[0]!.has('blockhash')).toBe(false);
    expect(txs[0]!.has('confirmations')).toBe(false);
    expect(member(text, 'chainwork')).toBe(member(await resultOf(getblock, `["${BLOCK1}", 1]`), 'chainwork'));
  });

  it.each(['3', '-1'])('[hash, %s] → -8 Verbosity must be in range from 0 to 2', async (v) =>
    expect(await errorOf(getblock, `["${BLOCK1}", ${v}]`)).toEqual({ code: -8, message: 'Verbosity must be in range from 0 to 2' }),
  );

  it('checks the verbosity range before looking the hash up', async () =>
    expect(await errorOf(getblock, `["${UNKNOWN}", 3]`)).toEqual({ code: -8, message: 'Verbosity must be in range from 0 to 2' }));

  it.each(['1.0', '1e0', '2147483648'])('[hash, %s] → -1 JSON integer out of range', async (v) =>
    expect(await errorOf(getblock, `["${BLOCK1}", ${v}]`)).toEqual({ code: -1, message: 'JSON integer out of range' }),
  );

  it.each(['"1"', 'null', '[]', '{}'])('[hash, %s] → -1 not a boolean', async (v) =>
    expect(await errorOf(getblock, `["${BLOCK1}", ${v}]`)).toEqual({ code: -1, message: 'JSON value is not a boolean as expected' }),
  );
});

describe('getblock chain context', () => {
  it('genesis: 21 confirmations, next block, no previous block, zcashd-2019 fields', async () => {
    const text = await resultOf(getblock, '["0"]');
    const golden = readJsonVector<Record<string, unknown>>('zcashd-2019', '0.getblock.json');
    const obj = parseJson(text) as JsonObject;
    for (const k of [
      'hash',
      'size',
      'height',
      'version',
      'merkleroot',
      'finalsaplingroot',
      'tx',
      'time',
      'nonce',
      'solution',
      'bits',
      'chainwork',
    ]) {
      expect([k, obj.get(k) instanceof JsonNumber ? Number(token(obj.get(k))) : obj.get(k)]).toEqual([k, golden[k]]);
    }
    expect(token(obj.get('difficulty'))).toBe('1');
    expect(token(obj.get('confirmations'))).toBe('21');
    expect(obj.get('nextblockhash')).toBe(BLOCK1);
    expect(obj.has('previousblockhash')).toBe(false);
    expect(obj.get('chainwork')).toBe('0'.repeat(60) + '2000');
    expect(obj.entries.map(([k]) => k).slice(0, 4)).toEqual(['hash', 'confirmations', 'size', 'height']);
  });

  it('tip: 1 confirmation, no next block', async () => {
    const obj = parseJson(await resultOf(getblock, '["20"]')) as JsonObject;
    expect(token(obj.get('confirmations'))).toBe('1');
    expect(obj.get('previousblockhash')).toBe(HASHES[19]);
    expect(obj.has('nextblockhash')).toBe(false);
  });

  it('block 1 chainwork is 2 × 8192', async () =>
    expect(member(await resultOf(getblock, '["1"]'), 'chainwork')).toBe('0'.repeat(60) + '4000'));

  it('a side-chain block: confirmations -1, no next block, fields equal to zcashd 2019', async () => {
    const golden = side.golden;
    const obj = parseJson(await resultOf(getblock, `["${String(golden.hash)}"]`)) as JsonObject;
    expect(token(obj.get('confirmations'))).toBe('-1');
    expect(obj.has('nextblockhash')).toBe(false);
    for (const k of [
      'hash',
      'height',
      'size',
      'version',
      'merkleroot',
      'finalsaplingroot',
      'tx',
      'time',
      'nonce',
      'bits',
      'chainwork',
      'previousblockhash',
    ]) {
      const v = obj.get(k);
      expect([k, v instanceof JsonNumber ? Number(v.text) : v]).toEqual([k, golden[k]]);
    }
    // The captured text of the difficulty token (%.16g), compared as text.
    const raw = readFileSync(vectorPath('zcashd-2019', '24202.getblock.json'), 'utf8');
    expect(token(obj.get('difficulty'))).toBe(/"difficulty": ([^,\n]+)/.exec(raw)![1]);
  });

  it("a block known only by its header → -32603 Can't read block from disk", async () => {
    expect(await errorOf(getblock, `["${String(headerOnly.golden.hash)}"]`)).toEqual({
      code: -32603,
      message: "Can't read block from disk",
    });
    expect(await errorOf(getblock, `["${String(headerOnly.golden.hash)}", 0]`)).toEqual({
      code: -32603,
      message: "Can't read block from disk",
    });
  });

  it('an empty store: every height is out of range', async () => {
    const empty = getBlockMethod(new MemoryChainStore(MAINNET, []));
    expect(await errorOf(empty, '["0"]')).toEqual({ code: -8, message: 'Block height out of range' });
    expect(await errorOf(empty, `["${GENESIS}"]`)).toEqual({ code: -5, message: 'Block not found' });
  });
});

describe('getblock registration', () => {
  it("has zcashd's parameter counts and help text", () => {
    expect([getblock.name, getblock.category, getblock.required, getblock.optional]).toEqual(['getblock', 'blockchain', 1, 1]);
    expect(getblock.help.split('\n')[0]).toBe('getblock "hash|height" ( verbosity )');
    expect(
      getblock.help.endsWith(`"method": "getblock", "params": [12800] }' -H 'content-type: text/plain;' http://127.0.0.1:8232/\n`),
    ).toBe(true);
  });
});
