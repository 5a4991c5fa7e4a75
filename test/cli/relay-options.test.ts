// zcashd's -datacarrier, -datacarriersize and -permitbaremultisig as init.cpp reads them.
import { describe, expect, it } from 'vitest';
import { relayPolicy } from '../../src/cli/relay-options.js';

function config(args: Record<string, string>) {
  return {
    getArg: (name: string) => args[name],
    getBoolArg: (name: string, fallback: boolean) => (name in args ? !['0', ''].includes(args[name]!) : fallback),
  };
}

describe('relay policy options', () => {
  it("defaults to zcashd's: OP_RETURN up to 83 bytes, bare multisig standard", () => {
    expect(relayPolicy(config({}))).toEqual({ dataCarrier: true, maxDataCarrierBytes: 83, permitBareMultisig: true });
    expect(relayPolicy(config({ datacarrier: '0', permitbaremultisig: '0' }))).toMatchObject({
      dataCarrier: false,
      permitBareMultisig: false,
    });
  });

  it('reads -datacarriersize with atoi64 into an unsigned, as zcashd stores it', () => {
    const size = (text: string) => relayPolicy(config({ datacarriersize: text })).maxDataCarrierBytes;
    expect(size('40')).toBe(40);
    expect(size('  100xyz')).toBe(100);
    expect(size('abc')).toBe(0);
    expect(size('-1')).toBe(4294967295);
    expect(size('4294967296')).toBe(0);
    expect(size('99999999999999999999')).toBe(4294967295);
  });
});
