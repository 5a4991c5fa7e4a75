// -allowdeprecated, -preferredtxversion and -txexpirydelta as zcashd v6.12.2 reads them
// (deprecation.cpp, init.cpp, wallet.cpp's ParameterInteraction) and what each changes:
// z_validateaddress's `type`, getdeprecationinfo's `deprecationheight`, createrawtransaction's
// version and expiry height.
import { describe, expect, it } from 'vitest';
import { MAINNET, type NetworkParams } from '../../../src/chain/network.js';
import { decodeTransactionHex } from '../../../src/codec/tx/transaction.js';
import { allowDeprecatedOption, ConfigError, txCreationOption } from '../../../src/config.js';
import { parseJson, type JsonValue } from '../../../src/json/index.js';
import { handleJsonRpcBody } from '../../../src/rpc/dispatch.js';
import { createRawTransactionMethod } from '../../../src/rpc/methods/rawtransaction/createrawtransaction.js';
import { storeMethods } from '../../../src/rpc/methods/index.js';
import { MethodRegistry } from '../../../src/rpc/registry.js';
import type { ChainStoreReader } from '../../../src/store/types.js';
import { txToJsonBytes } from '../../../src/render/tx.js';
import { fixtureStore } from '../../support/memory-store.js';

const multi = (values: string[]) => ({ getArgs: (name: string) => (name === 'allowdeprecated' ? values : []) });
const single = (args: Record<string, string>) => ({ getArg: (name: string) => args[name] });

const ALLOWABLE =
  '"none", "createrawtransaction", "fundrawtransaction", "getnetworkhashps", "keypoolrefill", "settxfee", "signrawtransaction", ' +
  '"z_gettotalbalance", "addrtype", "deprecationinfo_deprecationheight", "gbt_oldhashes", "getnewaddress", "getrawchangeaddress", ' +
  '"legacy_privacy", "wallettxvjoinsplit", "z_getbalance", "z_getnewaddress", "z_listaddresses"';

describe('-allowdeprecated', () => {
  it("adds the named features to zcashd's defaults, or with none turns every one off", () => {
    expect([...allowDeprecatedOption(multi([]))].sort()).toEqual([
      'createrawtransaction',
      'fundrawtransaction',
      'getnetworkhashps',
      'keypoolrefill',
      'settxfee',
      'signrawtransaction',
      'z_gettotalbalance',
    ]);
    expect(allowDeprecatedOption(multi(['addrtype'])).has('addrtype')).toBe(true);
    expect(allowDeprecatedOption(multi(['none'])).size).toBe(0);
    expect(allowDeprecatedOption(multi(['none', 'none'])).size).toBe(0);
  });

  it("refuses none with others and names it does not know, with zcashd's messages", () => {
    expect(() => allowDeprecatedOption(multi(['none', 'addrtype']))).toThrow(
      new ConfigError('When using -allowdeprecated=none no other values may be provided for -allowdeprecated.'),
    );
    expect(() => allowDeprecatedOption(multi(['zz', 'addrtype', 'aa']))).toThrow(
      new ConfigError(`Unrecognized argument(s) to -allowdeprecated: "aa", "zz";\nPlease select from the following values: ${ALLOWABLE}`),
    );
  });

  async function rpc(options: Parameters<typeof storeMethods>[1], method: string, params: string, network: NetworkParams) {
    const registry = new MethodRegistry(storeMethods(fixtureStore(), options));
    const reply = await handleJsonRpcBody(Buffer.from(`{"id":1,"method":"${method}","params":${params}}`), registry, {
      network,
      requestStop: () => {},
    });
    return (typeof reply.body === 'string' ? reply.body : Buffer.concat(reply.body).toString('utf8')).trimEnd();
  }

  it("addrtype adds z_validateaddress's deprecated type member after address_type", async () => {
    // The mainnet Sapling address of address-utils.test.ts (zcashd's z_validateaddress test).
    const sapling = 'zs1z7rejlpsa98s2rrrfkwmaxu53e4ue0ulcrw0h4x5g8jl04tak0d3mm47vdtahatqrlkngh9slya';
    const without = await rpc({}, 'z_validateaddress', `["${sapling}"]`, MAINNET);
    const withType = await rpc(
      { allowDeprecated: allowDeprecatedOption(multi(['addrtype'])) },
      'z_validateaddress',
      `["${sapling}"]`,
      MAINNET,
    );
    expect(without).toContain('"isvalid":true,');
    expect(without).toContain('"address_type":"sapling",');
    expect(without).not.toContain('"type"');
    expect(withType).toBe(without.replace('"address_type":"sapling",', '"address_type":"sapling","type":"sapling",'));
  });

  it('deprecationinfo_deprecationheight adds getdeprecationinfo’s deprecationheight on mainnet, before end_of_service', async () => {
    const plain = await rpc({ clock: () => 1_764_000_000 }, 'getdeprecationinfo', '[]', MAINNET);
    expect(plain).not.toContain('"deprecationheight":');
    const withHeight = await rpc(
      { clock: () => 1_764_000_000, allowDeprecated: allowDeprecatedOption(multi(['deprecationinfo_deprecationheight'])) },
      'getdeprecationinfo',
      '[]',
      MAINNET,
    );
    expect(withHeight).toBe(plain.replace('"end_of_service":', '"deprecationheight":3417100,"end_of_service":'));
  });
});

describe('-preferredtxversion and -txexpirydelta', () => {
  it("read with atoi and refused as zcashd refuses them, -txexpirydelta's first", () => {
    expect(txCreationOption(single({}))).toEqual({ preferredTxVersion: 5, expiryDelta: null });
    expect(txCreationOption(single({ preferredtxversion: '4', txexpirydelta: '100' }))).toEqual({
      preferredTxVersion: 4,
      expiryDelta: 100,
    });
    expect(txCreationOption(single({ preferredtxversion: ' 5x' }))).toEqual({ preferredTxVersion: 5, expiryDelta: null });
    expect(() => txCreationOption(single({ preferredtxversion: '6' }))).toThrow(
      'Error: Invalid value for -preferredtxversion=<version>: 6',
    );
    expect(() => txCreationOption(single({ preferredtxversion: 'v5' }))).toThrow(
      'Error: Invalid value for -preferredtxversion=<version>: 0',
    );
    expect(() => txCreationOption(single({ txexpirydelta: '3', preferredtxversion: '6' }))).toThrow(
      "Error: Invalid value for -txexpirydelta='3' (must be least 4)",
    );
    expect(() => txCreationOption(single({ txexpirydelta: '-7' }))).toThrow(
      "Error: Invalid value for -txexpirydelta='-7' (must be least 4)",
    );
  });

  const storeAt = (height: number): ChainStoreReader =>
    ({ tip: async () => ({ height, hash: new Uint8Array(32) }) }) as unknown as ChainStoreReader;

  async function create(tip: number, options: ReturnType<typeof txCreationOption>): Promise<Record<string, unknown>> {
    const method = createRawTransactionMethod(storeAt(tip), options);
    const raw = await method.call(parseJson('[[], {"t1T8yaLVhNqxA5KJcmiqqFN88e8DNp2PBfF": 1}]') as JsonValue[], {
      network: MAINNET,
      requestStop: () => {},
    });
    const hex = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8')) as string;
    return JSON.parse(txToJsonBytes(decodeTransactionHex(hex), MAINNET).toString()) as Record<string, unknown>;
  }

  it('createrawtransaction: v4 where NU5 is active with -preferredtxversion=4; the expiry delta from -txexpirydelta', async () => {
    const tip = 3_200_000;
    expect(await create(tip, { preferredTxVersion: 5, expiryDelta: null })).toMatchObject({ version: 5, expiryheight: tip + 1 + 40 });
    expect(await create(tip, { preferredTxVersion: 4, expiryDelta: null })).toMatchObject({
      version: 4,
      versiongroupid: '892f2085',
      expiryheight: tip + 1 + 40,
    });
    expect(await create(tip, { preferredTxVersion: 5, expiryDelta: 1000 })).toMatchObject({ version: 5, expiryheight: tip + 1 + 1000 });
    // Capped below the next upgrade, as the default delta is (NU6.1 activates at 3,146,400).
    expect(await create(3_146_000, { preferredTxVersion: 5, expiryDelta: 1000 })).toMatchObject({ expiryheight: 3_146_399 });
    await expect(create(tip, { preferredTxVersion: 5, expiryDelta: 499_000_000 })).rejects.toThrow(
      'CreateNewContextualCMutableTransaction: invalid expiry height',
    );
  });
});
