// createrawtransaction: zcashd v6.12.2's bytes per the next block's upgrade (v1, v3, v4, v5),
// its default expiry heights, its checks and errors (src/test/rpc_tests.cpp,
// qa/rpc-tests/wallet_overwintertx.py), each transaction read back by the codebase's decoder.
import { describe, expect, it } from 'vitest';
import { MAINNET, REGTEST, TESTNET, regtestWithActivations, type NetworkParams } from '../../../src/chain/network.js';
import { decodeTransactionHex } from '../../../src/codec/tx/transaction.js';
import { parseJson, type JsonValue } from '../../../src/json/index.js';
import { RpcError } from '../../../src/rpc/method.js';
import { createRawTransactionMethod, defaultExpiryHeight } from '../../../src/rpc/methods/rawtransaction/createrawtransaction.js';
import { txToJsonBytes } from '../../../src/render/tx.js';
import type { ChainStoreReader } from '../../../src/store/types.js';

type Outcome = { result: string } | { error: { code: number; message: string } };

/** A store whose only fact is its tip height (−1: empty). */
const storeAt = (height: number): ChainStoreReader =>
  ({ tip: async () => (height < 0 ? null : { height, hash: new Uint8Array(32) }) }) as unknown as ChainStoreReader;

async function call(tipHeight: number, paramsJson: string, network: NetworkParams): Promise<Outcome> {
  const method = createRawTransactionMethod(storeAt(tipHeight));
  try {
    const raw = await method.call(parseJson(paramsJson) as JsonValue[], { network, requestStop: () => {} });
    return { result: typeof raw === 'string' ? raw : raw.toString('utf8') };
  } catch (e) {
    if (e instanceof RpcError) return { error: { code: e.code, message: e.message } };
    return { error: { code: -1, message: (e as Error).message } };
  }
}
const err = (code: number, message: string): Outcome => ({ error: { code, message } });
/** The transaction as decoderawtransaction shows it (the codebase's own decoder and renderer). */
const decoded = (hex: string, network: NetworkParams): Record<string, unknown> =>
  JSON.parse(txToJsonBytes(decodeTransactionHex(hex), network).toString()) as Record<string, unknown>;
const hexOf = (out: Outcome): string => {
  if (!('result' in out)) throw new Error(`unexpected error ${JSON.stringify(out)}`);
  return JSON.parse(out.result) as string;
};

const PREVOUT = '[{"txid":"b4cc287e58f87cdae59417329f710f3ecd75a4ee1d2872b7248f50977c8493f3","vout":1}]';
const REVERSED_TXID = 'f393847c97508f24b772281deea475cd3e0f719f321794e5da7cf8587e28ccb4';
const REGTEST_ADDRESS = 'tmHU5HLMu3yS8eoNvbrU1NWeJaGf6jxehru';
const REGTEST_SCRIPT = '76a914550dc92d3ff8d1f0cb6499fddf2fe43b745330cd88ac';
const MAINNET_ADDRESS = 't1T8yaLVhNqxA5KJcmiqqFN88e8DNp2PBfF'; // zcashd base58_keys_valid.json
const MAINNET_SCRIPT = '76a91465a16059864a2fdbc7c99a4723a8395bc6f188eb88ac';

describe('createrawtransaction: bytes', () => {
  it('rpc_tests.cpp rpc_raw_create_overwinter_v3: regtest with Overwinter always active, expiry 21', async () => {
    const network = regtestWithActivations({ Overwinter: 1 });
    const hex = hexOf(await call(0, `[${PREVOUT}, {"${REGTEST_ADDRESS}":11}]`, network));
    // zcashd's sample bytes, with the expiry height (0x15) its test reads back.
    expect(hex).toBe(
      '030000807082c40301' +
        REVERSED_TXID +
        '0100000000ffffffff' +
        '0100ab904100000000' +
        '19' +
        REGTEST_SCRIPT +
        '00000000' +
        '15000000' +
        '00',
    );
    expect(decoded(hex, network)).toMatchObject({
      overwintered: true,
      version: 3,
      versiongroupid: '03c48270',
      expiryheight: 21,
      locktime: 0,
    });
  });

  it('regtest without upgrades: a v1 transaction, locktime sets the sequence to 0xfffffffe', async () => {
    const hex = hexOf(await call(0, `[${PREVOUT}, {"${REGTEST_ADDRESS}":0.5}, 7]`, REGTEST));
    expect(hex).toBe(
      '01000000' + '01' + REVERSED_TXID + '01000000' + '00' + 'feffffff' + '01' + '80f0fa0200000000' + '19' + REGTEST_SCRIPT + '07000000',
    );
    // an expiry height needs Overwinter (rpc_tests.cpp: "createrawtransaction [] {} 0 0")
    expect(await call(0, '[[], {}, 0, 0]', REGTEST)).toEqual(
      err(-8, 'Invalid parameter, expiryheight can only be used if Overwinter is active when the transaction is mined'),
    );
  });

  it('mainnet, Sapling era: v4 with the pre-Blossom expiry delta', async () => {
    const hex = hexOf(await call(500_000, `[[], {"${MAINNET_ADDRESS}":"21000000"}]`, MAINNET));
    expect(hex).toBe(
      '04000080' +
        '85202f89' +
        '00' +
        '01' +
        '0040075af0750700' +
        '19' +
        MAINNET_SCRIPT +
        '00000000' +
        '35a10700' +
        '0000000000000000' +
        '000000',
    );
    expect(decoded(hex, MAINNET)).toMatchObject({ version: 4, expiryheight: 500_001 + 20 });
  });

  it('mainnet, NU6.1 era: v5 with the branch id of the next block and the post-Blossom delta', async () => {
    const tip = 3_200_000;
    const hex = hexOf(
      await call(tip, `[[{"txid":"${'00'.repeat(31)}01","vout":0,"sequence":-1}], {"${MAINNET_ADDRESS}":1e-8}, 0, 3200100]`, MAINNET),
    );
    expect(hex).toBe(
      '05000080' +
        '0a27a726' +
        'f04dec4d' + // NU6.1's branch id, 0x4dec4df0
        '00000000' +
        '64d43000' +
        '01' +
        '01' +
        '00'.repeat(31) +
        '00000000' +
        '00' +
        'ffffffff' +
        '01' +
        '0100000000000000' +
        '19' +
        MAINNET_SCRIPT +
        '000000',
    );
    const json = decoded(hex, MAINNET) as { vout: { scriptPubKey: { addresses: string[] } }[] };
    expect(json).toMatchObject({
      version: 5,
      expiryheight: 3200100,
      vin: [{ txid: '00'.repeat(31) + '01', vout: 0, sequence: 4294967295 }],
    });
    expect(json.vout[0]!.scriptPubKey.addresses).toEqual([MAINNET_ADDRESS]);
  });

  it('default expiry heights: +20 before Blossom, +40 after, capped below the next activation', () => {
    expect(defaultExpiryHeight(MAINNET, 347_500)).toBe(347_520);
    expect(defaultExpiryHeight(MAINNET, 653_590)).toBe(653_599); // Blossom at 653600
    expect(defaultExpiryHeight(MAINNET, 653_600)).toBe(653_640);
    expect(defaultExpiryHeight(MAINNET, 3_146_380)).toBe(3_146_399); // NU6.1 at 3146400
    expect(defaultExpiryHeight(TESTNET, 3_600_000)).toBe(3_600_040);
  });

  it('an empty chain: the next block is height 0', async () => {
    expect(hexOf(await call(-1, '[[], {}]', REGTEST))).toBe('01000000' + '00' + '00' + '00000000');
  });
});

describe('createrawtransaction: zcashd’s errors', () => {
  const net = MAINNET;
  const tip = 3_200_000;
  it.each([
    ['[null, {}]', err(-8, 'Invalid parameter, arguments 1 and 2 must be non-null')],
    ['[[], null]', err(-8, 'Invalid parameter, arguments 1 and 2 must be non-null')],
    ['["not_array", {}]', err(-3, 'Expected type array, got string')],
    ['[[], []]', err(-3, 'Expected type object, got array')],
    ['[{}, {}]', err(-3, 'Expected type array, got object')],
    ['[[], {}, "0"]', err(-3, 'Expected type number, got string')],
    ['[[], {}, 0, true]', err(-3, 'Expected type number, got bool')],
    ['[[], {}, -1]', err(-8, 'Invalid parameter, locktime out of range')],
    ['[[], {}, 4294967296]', err(-8, 'Invalid parameter, locktime out of range')],
    ['[[], {}, 1.5]', err(-1, 'JSON integer out of range')],
    ['[[], {}, 0, -1]', err(-8, 'Invalid parameter, expiryheight must be nonnegative and less than 500000000.')],
    ['[[], {}, 0, 500000000]', err(-8, 'Invalid parameter, expiryheight must be nonnegative and less than 500000000.')],
    ['[[], {}, 0, 3200003]', err(-8, 'Invalid parameter, expiryheight should be at least 3200004 to avoid transaction expiring soon')],
    ['[[5], {}]', err(-1, 'JSON value is not an object as expected')],
    ['[[{"vout":0}], {}]', err(-8, "txid must be hexadecimal string (not '')")],
    ['[[{"txid":"xyz","vout":0}], {}]', err(-8, "txid must be hexadecimal string (not 'xyz')")],
    ['[[{"txid":"00"}], {}]', err(-8, 'Invalid parameter, missing vout key')],
    ['[[{"txid":"00","vout":"1"}], {}]', err(-8, 'Invalid parameter, missing vout key')],
    ['[[{"txid":"00","vout":-1}], {}]', err(-8, 'Invalid parameter, vout must be positive')],
    ['[[{"txid":"00","vout":2147483648}], {}]', err(-1, 'JSON integer out of range')],
    ['[[{"txid":"00","vout":0,"sequence":4294967295}], {}]', err(-1, 'JSON integer out of range')],
    [
      '[[], {"zs1z7rejlpsa98s2rrrfkwmaxu53e4ue0ulcrw0h4x5g8jl04tak0d3mm47vdtahatqrlkngh9slya":1}]',
      err(-5, 'Invalid Zcash address: zs1z7rejlpsa98s2rrrfkwmaxu53e4ue0ulcrw0h4x5g8jl04tak0d3mm47vdtahatqrlkngh9slya'),
    ],
    [`[[], {"${REGTEST_ADDRESS}":1}]`, err(-5, `Invalid Zcash address: ${REGTEST_ADDRESS}`)],
    [`[[], {"${MAINNET_ADDRESS}":1, " ${MAINNET_ADDRESS}":2}]`, err(-8, `Invalid parameter, duplicated address:  ${MAINNET_ADDRESS}`)],
    [`[[], {"${MAINNET_ADDRESS}":1, "${MAINNET_ADDRESS}":2}]`, err(-8, `Invalid parameter, duplicated address: ${MAINNET_ADDRESS}`)],
    [`[[], {"${MAINNET_ADDRESS}":true}]`, err(-3, 'Amount is not a number or string')],
    [`[[], {"${MAINNET_ADDRESS}":"1.5x"}]`, err(-3, 'Invalid amount')],
    [`[[], {"${MAINNET_ADDRESS}":0.000000001}]`, err(-3, 'Invalid amount')],
    [`[[], {"${MAINNET_ADDRESS}":-1}]`, err(-3, 'Amount out of range')],
    [`[[], {"${MAINNET_ADDRESS}":21000000.00000001}]`, err(-3, 'Amount out of range')],
    [`[[], {"${MAINNET_ADDRESS}":1e10}]`, err(-3, 'Invalid amount')],
  ])('%s', async (paramsJson, outcome) => {
    expect(await call(tip, paramsJson, net)).toEqual(outcome);
  });

  it('qa/rpc-tests/wallet_overwintertx.py: the expiring-soon bound and the largest expiry height', async () => {
    const regtest = regtestWithActivations({ Overwinter: 1, Sapling: 1, Blossom: 1 });
    expect(await call(199, '[[], {}, 0, 200]', regtest)).toEqual(
      err(-8, 'Invalid parameter, expiryheight should be at least 203 to avoid transaction expiring soon'),
    );
    const hex = hexOf(await call(199, '[[], {}, 0, 499999999]', regtest));
    expect(decoded(hex, regtest)).toMatchObject({ version: 4, expiryheight: 499_999_999 });
    expect(decoded(hexOf(await call(199, '[[], {}, 0, 0]', regtest)), regtest)).toMatchObject({ expiryheight: 0 });
  });

  it('amounts: numbers and strings with an exponent, exactly', async () => {
    const hex = hexOf(await call(tip, `[[], {"${MAINNET_ADDRESS}":"1.23456789e2"}]`, net));
    expect(hex.slice(44, 60)).toBe(Buffer.from(BigInt(12_345_678_900).toString(16).padStart(16, '0'), 'hex').reverse().toString('hex'));
  });
});
