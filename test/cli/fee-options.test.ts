// -minrelaytxfee and -paytxfee as zcashd v6.12.2 reads them (util/moneystr.cpp ParseMoney,
// init.cpp, CWallet::ParameterInteraction), and getinfo printing them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { feeRates, parseMoney } from '../../src/cli/fee-options.js';
import { loadNodeConfig } from '../../src/config.js';
import { MAINNET } from '../../src/chain/network.js';
import { getInfoMethod } from '../../src/rpc/methods/control/getinfo.js';
import type { ChainStoreReader } from '../../src/store/types.js';

const args = (values: Record<string, string>) => ({ getArg: (name: string) => values[name] });

describe('parseMoney', () => {
  it("reads zcashd's own test values (util_tests.cpp util_ParseMoney)", () => {
    const cases: [string, bigint][] = [
      ['0.0', 0n],
      ['12345.6789', 1_234_567_890_000n],
      ['100000000.00', 10_000_000_000_000_000n],
      ['1.00', 100_000_000n],
      ['0.1', 10_000_000n],
      ['0.00000001', 1n],
    ];
    for (const [text, zat] of cases) expect(parseMoney(text)).toBe(zat);
    expect(parseMoney('92233720368.54775808')).toBeNull();
  });

  it('takes spaces around the value, an empty value and a bare point; refuses anything else', () => {
    for (const [text, zat] of [
      ['', 0n],
      [' \t1.5 ', 150_000_000n],
      ['1.', 100_000_000n],
      ['.', 0n],
      ['.5', 50_000_000n],
      ['9999999999.99999999', 999_999_999_999_999_999n],
      ['1\0junk', 100_000_000n], // read as C reads the string: up to the NUL
    ] as const) {
      expect(parseMoney(text)).toBe(zat);
    }
    for (const text of ['-1', '+1', '1e3', '0x10', '1,5', '1.2.3', '1 2', '0.000000001', '10000000000', 'a', '1.5x', '1. 5x']) {
      expect(parseMoney(text)).toBeNull();
    }
  });
});

describe('feeRates', () => {
  it("defaults to zcashd's: paytxfee 0, relayfee 100 zatoshis per 1000 bytes", () => {
    expect(feeRates(args({}))).toEqual({ payTxFee: 0n, minRelayTxFee: 100n, warnings: [] });
  });

  it("refuses what zcashd refuses, with zcashd's messages", () => {
    expect(() => feeRates(args({ minrelaytxfee: 'abc' }))).toThrow("Error: Invalid amount for -minrelaytxfee=<amount>: 'abc'");
    expect(() => feeRates(args({ paytxfee: '1e-5' }))).toThrow("Error: Invalid amount for -paytxfee=<amount>: '1e-5'");
    // Below the relay rate, including 0 (-nopaytxfee): CWallet::ParameterInteraction's check.
    expect(() => feeRates(args({ paytxfee: '0' }))).toThrow(
      "Error: Invalid amount for -paytxfee=<amount>: '0' (must be at least the minimum relay fee rate 0.00000100 ZEC per 1000 bytes)",
    );
    expect(() => feeRates(args({ paytxfee: '0.0001', minrelaytxfee: '0.001' }))).toThrow(
      "Error: Invalid amount for -paytxfee=<amount>: '0.0001' (must be at least the minimum relay fee rate 0.00100000 ZEC per 1000 bytes)",
    );
  });

  it('prints a warning zcashd gives before its error, as zcashd does', () => {
    expect(() => feeRates(args({ paytxfee: '0.5', minrelaytxfee: '1' }))).toThrow(
      'Warning: -paytxfee is set to a very high fee rate! This is the fee rate you will pay if you send a transaction.\n' +
        "Error: Invalid amount for -paytxfee=<amount>: '0.5' (must be at least the minimum relay fee rate 1.00000000 ZEC per 1000 bytes)",
    );
  });

  it('takes the rates given, warns of a very high paytxfee, and caps it as CFeeRate does', () => {
    expect(feeRates(args({ paytxfee: '0.0001', minrelaytxfee: '0.00005' }))).toEqual({
      payTxFee: 10_000n,
      minRelayTxFee: 5_000n,
      warnings: [],
    });
    const high = feeRates(args({ paytxfee: '0.02' }));
    expect(high.payTxFee).toBe(2_000_000n);
    expect(high.warnings).toEqual([
      '-paytxfee is set to a very high fee rate! This is the fee rate you will pay if you send a transaction.',
    ]);
    // CFeeRate(fee, 1000): at most INT64_MAX / MAX_BLOCK_SIZE zatoshis per 1000 bytes.
    expect(feeRates(args({ paytxfee: '50000' })).payTxFee).toBe(4_611_686_018_427n);
    // -minrelaytxfee is taken as given (CFeeRate(n)), with no cap.
    expect(feeRates(args({ minrelaytxfee: '9999999999.99999999' })).minRelayTxFee).toBe(999_999_999_999_999_999n);
  });

  it('reads them from zcash.conf and the command line, -no forms included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zecrpc-fees-'));
    try {
      writeFileSync(join(dir, 'zcash.conf'), 'paytxfee=0.0002\nminrelaytxfee=0.00002\n');
      expect(feeRates(loadNodeConfig([`-datadir=${dir}`]))).toMatchObject({ payTxFee: 20_000n, minRelayTxFee: 2_000n });
      expect(feeRates(loadNodeConfig([`-datadir=${dir}`, '-paytxfee=0.0003'])).payTxFee).toBe(30_000n);
      expect(() => feeRates(loadNodeConfig([`-datadir=${dir}`, '-nopaytxfee']))).toThrow("-paytxfee=<amount>: '0' (must be at least");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("getinfo's fee members", () => {
  const store = { tip: async () => null, blockIndex: async () => null } as unknown as ChainStoreReader;
  const ctx = { network: MAINNET, requestStop: () => {} };

  it('prints paytxfee before relayfee, as a zcashd with the wallet compiled in does', async () => {
    const reply = String(await getInfoMethod(store, { clock: () => 1 }).call([], ctx));
    expect(reply).toContain('"testnet":false,"paytxfee":0.00000000,"relayfee":0.00000100,"errors":""');
    const set = String(
      await getInfoMethod(store, {
        clock: () => 1,
        feeRates: { payTxFee: 4_611_686_018_427n, minRelayTxFee: 999_999_999_999_999_999n },
      }).call([], ctx),
    );
    expect(set).toContain('"paytxfee":46116.86018427,"relayfee":9999999999.99999999,');
  });
});
