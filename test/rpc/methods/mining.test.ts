// getblocksubsidy against zcashd v6.12.2's own expectations (src/wallet/test/rpc_wallet_tests.cpp:
// the miner's share, the founders' reward, and each funding stream's recipient, value and address
// at mainnet's upgrade boundaries), byte for byte as zcashd writes the object.
import { describe, expect, it } from 'vitest';
import { MAINNET, REGTEST, TESTNET, type NetworkParams } from '../../../src/chain/network.js';
import { handleJsonRpcBody } from '../../../src/rpc/dispatch.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { MethodRegistry } from '../../../src/rpc/registry.js';
import { MemoryChainStore, mainnetGenesisRun } from '../../support/memory-store.js';

async function call(params: string, network: NetworkParams = MAINNET, store = new MemoryChainStore(MAINNET, mainnetGenesisRun())) {
  const registry = new MethodRegistry(storeMethods(store));
  const reply = await handleJsonRpcBody(Buffer.from(`{"id":1,"method":"getblocksubsidy","params":${params}}`), registry, {
    network,
    requestStop: () => {},
  });
  const text = typeof reply.body === 'string' ? reply.body : Buffer.concat(reply.body).toString('utf8');
  return JSON.parse(text.replace(/:(-?\d+\.\d{8})/g, ':"$1"')) as { result: unknown; error: { code: number; message: string } | null };
}

const ecc = (address: string) => ({
  recipient: 'Electric Coin Company',
  specification: 'https://zips.z.cash/zip-0214',
  value: '0.21875000',
  valueZat: 21875000,
  address,
});
const zf = {
  recipient: 'Zcash Foundation',
  specification: 'https://zips.z.cash/zip-0214',
  value: '0.15625000',
  valueZat: 15625000,
  address: 't3dvVE3SQEi7kqNzwrfNePxZ1d4hUyztBA1',
};
const mg = {
  recipient: 'Major Grants',
  specification: 'https://zips.z.cash/zip-0214',
  value: '0.25000000',
  valueZat: 25000000,
  address: 't3XyYW8yBFRuMnfvm5KLGFbEVz25kckZXym',
};

describe('getblocksubsidy', () => {
  it("matches zcashd's rpc_wallet_tests at mainnet's Canopy, NU6 and NU6.1 heights", async () => {
    const canopy = {
      miner: '2.50000000',
      founders: '0.00000000',
      fundingstreamstotal: '0.62500000',
      lockboxtotal: '0.00000000',
      totalblocksubsidy: '3.12500000',
    };
    expect((await call('[1046400]')).result).toEqual({ fundingstreams: [ecc('t3LmX1cxWPPPqL4TZHx42HU3U5ghbFjRiif'), zf, mg], ...canopy });
    expect((await call('[2726399]')).result).toEqual({ fundingstreams: [ecc('t3XHAGxRP2FNfhAjxGjxbrQPYtQQjc3RCQD'), zf, mg], ...canopy });
    const nu6 = (grants: string, lockbox: string) => ({
      fundingstreams: [
        {
          recipient: grants,
          specification: 'https://zips.z.cash/zip-0214',
          value: '0.12500000',
          valueZat: 12500000,
          address: 't3cFfPt1Bcvgez9ZbMBFWeZsskxTkPzGCow',
        },
      ],
      lockboxstreams: [{ recipient: lockbox, specification: 'https://zips.z.cash/zip-0214', value: '0.18750000', valueZat: 18750000 }],
      miner: '1.25000000',
      founders: '0.00000000',
      fundingstreamstotal: '0.12500000',
      lockboxtotal: '0.18750000',
      totalblocksubsidy: '1.56250000',
    });
    expect((await call('[2726400]')).result).toEqual(nu6('Zcash Community Grants NU6', 'Lockbox NU6'));
    expect((await call('[3146400]')).result).toEqual(
      nu6('Zcash Community Grants to third halving', 'Coinholder-Controlled Fund to third halving'),
    );
    expect((await call('[4406400]')).result).toEqual({
      miner: '0.78125000',
      founders: '0.00000000',
      fundingstreamstotal: '0.00000000',
      lockboxtotal: '0.00000000',
      totalblocksubsidy: '0.78125000',
    });
  });

  it("splits the founders' reward off before Canopy, slow start included, and takes the tip height by default", async () => {
    expect((await call('[20000]')).result).toEqual({
      miner: '10.00000000',
      founders: '2.50000000',
      fundingstreamstotal: '0.00000000',
      lockboxtotal: '0.00000000',
      totalblocksubsidy: '12.50000000',
    });
    // The fixture store's tip is block 20: slow start, 20 × 12.5 / 20000 ZEC.
    const atTip = await call('[]');
    expect(atTip.result).toEqual((await call('[20]')).result);
    expect(atTip.result).toMatchObject({ totalblocksubsidy: '0.01250000', founders: '0.00250000', miner: '0.01000000' });
    expect((await call('[0]')).result).toMatchObject({ totalblocksubsidy: '0.00000000', founders: '0.00000000' });
    // Testnet's and regtest's schedules (regtest: no slow start, 12.5 ZEC, founders' reward until 143).
    expect((await call('[1]', REGTEST)).result).toMatchObject({ miner: '10.00000000', founders: '2.50000000' });
    expect((await call('[144]', REGTEST)).result).toMatchObject({ miner: '6.25000000', founders: '0.00000000' });
    expect((await call('[1028500]', TESTNET)).result).toHaveProperty('fundingstreams');
  });

  it("refuses what zcashd refuses, with zcashd's errors", async () => {
    expect((await call('[-1]')).error).toEqual({ code: -8, message: 'Block height out of range' });
    expect((await call('["1000"]')).error).toEqual({ code: -1, message: 'JSON value is not an integer as expected' });
    expect((await call('[2147483648]')).error).toEqual({ code: -1, message: 'JSON integer out of range' });
    // The dispatcher's parameter count (zcashd's src/rpc/common.h: none required, one optional), then the help text.
    const tooMany = (await call('[1, 2]')).error!;
    expect([tooMany.code, tooMany.message.split('\n\n')[0], tooMany.message.split('\n\n')[1]]).toEqual([
      -32602,
      'Too many parameters for method `getblocksubsidy`. Needed at least 0 and at most 1, but received 2',
      'getblocksubsidy height',
    ]);
    expect((await call('[]', MAINNET, new MemoryChainStore(MAINNET, []))).error).toEqual({
      code: -8,
      message: 'Block height out of range',
    });
  });
});
