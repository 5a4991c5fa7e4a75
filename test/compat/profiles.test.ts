import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAINNET, regtestWithActivations } from '../../src/chain/network.js';
import { BRANCH_IDS } from '../../src/chain/upgrades.js';
import { DecodeError } from '../../src/codec/errors.js';
import { TxAcceptance, ZCASHD_6_12_2_ACCEPTANCE } from '../../src/codec/tx/acceptance.js';
import { NU5_VERSION_GROUP_ID, OVERWINTER_VERSION_GROUP_ID, SAPLING_VERSION_GROUP_ID } from '../../src/codec/tx/types.js';
import { toHex } from '../../src/codec/hex.js';
import { decodeTransaction, decodeTransactionHex } from '../../src/codec/tx/transaction.js';
import {
  COMPAT_PROFILES,
  CURRENT,
  compatProfileNamed,
  DEFAULT_COMPAT_PROFILE,
  ZCASHD_6_12_2,
  type CompatProfile,
} from '../../src/compat/profiles.js';
import { knownDeviations } from '../../src/compare/deviations.js';
import { loadNodeConfig } from '../../src/config.js';
import { blockchainInfoToJson } from '../../src/render/chain-info.js';
import { RpcError, type RpcContext } from '../../src/rpc/method.js';
import { createDecodeRawTransaction } from '../../src/rpc/methods/rawtransaction/decoderawtransaction.js';
import { realTxBytes } from '../fuzz/corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-compat-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A profile for a release before NU5 (a test build only): it knows Overwinter … Canopy. */
const PRE_NU5: CompatProfile = {
  name: 'pre-nu5-test',
  zcashd: 'test',
  upgrades: ['Overwinter', 'Sapling', 'Blossom', 'Heartwood', 'Canopy'],
  acceptance: new TxAcceptance({
    branchIds: [0, 0x5ba81b19, 0x76b809bb, 0x2bb40e60, 0xf5b9230b, 0xe9ff75a6],
    formats: [
      { version: 3, versionGroupId: OVERWINTER_VERSION_GROUP_ID },
      { version: 4, versionGroupId: SAPLING_VERSION_GROUP_ID },
      { version: 5, versionGroupId: NU5_VERSION_GROUP_ID },
    ],
  }),
};

// Mainnet 1687107: a v5 coinbase (transparent, read by the quick path) and a v5 transaction with
// Orchard actions (read by the format's reader), both carrying NU5's branch id.
const V5_COINBASE = realTxBytes('mainnet', 1687107, 0);
const V5_ORCHARD = realTxBytes('mainnet', 1687107, 4);

describe('-compat', () => {
  it('defaults to current, accepts 6.12.2 by name, and refuses an unknown profile at start-up', () => {
    expect(loadNodeConfig([`-datadir=${dir}`]).compat).toBe(DEFAULT_COMPAT_PROFILE);
    expect(DEFAULT_COMPAT_PROFILE).toBe(CURRENT);
    expect(loadNodeConfig([`-datadir=${dir}`, '-compat=6.12.2']).compat).toBe(ZCASHD_6_12_2);
    expect(loadNodeConfig([`-datadir=${dir}`, '-compat=current']).compat).toBe(CURRENT);
    expect(() => loadNodeConfig([`-datadir=${dir}`, '-compat=6.12'])).toThrow(
      "Error: Invalid value for -compat: '6.12' (known compatibility profiles: current, 6.12.2)",
    );
    expect(compatProfileNamed('6.12.2')).toBe(ZCASHD_6_12_2);
    expect(compatProfileNamed('')).toBeNull();
    expect(COMPAT_PROFILES.map((p) => p.name)).toEqual(['current', '6.12.2']);
  });

  it("schedules only the upgrades the profile's release knows: 6.12.2 never activates NU6.2 or NU6.3", () => {
    const mainnet612 = loadNodeConfig([`-datadir=${dir}`, '-compat=6.12.2']).network;
    expect([mainnet612.activationHeights['NU6.1'], mainnet612.activationHeights['NU6.2'], mainnet612.activationHeights['NU6.3']]).toEqual([
      3146400,
      null,
      null,
    ]);
    const current = loadNodeConfig([`-datadir=${dir}`]).network;
    expect(current).toBe(MAINNET);
    expect([current.activationHeights['NU6.2'], current.activationHeights['NU6.3']]).toEqual([3364600, 3428143]);
    const regtest = (compat: string) => loadNodeConfig([`-datadir=${dir}`, '-regtest', `-compat=${compat}`, '-nuparams=5437f330:10']);
    expect(regtest('current').network.activationHeights['NU6.2']).toBe(10);
    expect(() => regtest('6.12.2')).toThrow('Error: Invalid network upgrade (5437f330)');
  });

  it('6.12.2 accepts the branch ids of Sprout … NU6.1, not those of the upgrades after it', () => {
    expect(ZCASHD_6_12_2.acceptance.acceptedBranchIds).toEqual([
      0x00000000, 0x5ba81b19, 0x76b809bb, 0x2bb40e60, 0xf5b9230b, 0xe9ff75a6, 0xc2d6d0b4, 0xc8e71055, 0x4dec4df0,
    ]);
    expect(ZCASHD_6_12_2.acceptance.acceptedBranchIds.at(-1)).toBe(BRANCH_IDS['NU6.1']);
    expect(ZCASHD_6_12_2.acceptance).toBe(ZCASHD_6_12_2_ACCEPTANCE);
    expect(ZCASHD_6_12_2.acceptance.acceptsBranchId(BRANCH_IDS['NU6.2'])).toBe(false);
    expect(ZCASHD_6_12_2.upgrades).toEqual(['Overwinter', 'Sapling', 'Blossom', 'Heartwood', 'Canopy', 'NU5', 'NU6', 'NU6.1']);
    expect(Object.isFrozen(ZCASHD_6_12_2)).toBe(true);
  });
});

describe("the codec's branch-id acceptance is the profile's", () => {
  it('the default profile reads real v5 transactions (NU5 branch id) on both paths', () => {
    expect(decodeTransaction(V5_COINBASE).data.consensusBranchId).toBe(BRANCH_IDS.NU5);
    expect(decodeTransaction(V5_ORCHARD).data.consensusBranchId).toBe(BRANCH_IDS.NU5);
    expect(decodeTransaction(V5_ORCHARD, ZCASHD_6_12_2.acceptance).txidHex).toBe(decodeTransaction(V5_ORCHARD).txidHex);
  });

  it('a profile that does not know NU5 refuses them as its parser would', () => {
    for (const bytes of [V5_COINBASE, V5_ORCHARD]) {
      let error: unknown;
      try {
        decodeTransaction(bytes, PRE_NU5.acceptance);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DecodeError);
      expect((error as DecodeError).reason).toBe('invalid-tx-format');
      expect(() => decodeTransactionHex(toHex(bytes), PRE_NU5.acceptance)).toThrow(DecodeError);
    }
  });

  it("decoderawtransaction decodes with the context's profile (and caches per profile)", async () => {
    const method = createDecodeRawTransaction();
    const ctx = (profile?: CompatProfile): RpcContext => ({
      network: MAINNET,
      requestStop: () => undefined,
      ...(profile ? { profile } : {}),
    });
    const hex = toHex(V5_ORCHARD);
    const accepted = await method.call([hex], ctx());
    expect(String(accepted)).toContain(`"txid":"${decodeTransaction(V5_ORCHARD).txidHex}"`);
    await expect(Promise.resolve().then(() => method.call([hex], ctx(PRE_NU5)))).rejects.toMatchObject({ code: -22 });
    await expect(Promise.resolve().then(() => method.call([hex], ctx(PRE_NU5)))).rejects.toBeInstanceOf(RpcError);
    expect(String(await method.call([hex], ctx(ZCASHD_6_12_2)))).toBe(String(accepted));
  });
});

describe('the renderers and compare read the profile', () => {
  it("getblockchaininfo lists only the upgrades the profile's release knows", () => {
    const network = regtestWithActivations({ Overwinter: 1, Sapling: 1, Blossom: 1, Heartwood: 1, Canopy: 1, NU5: 2 });
    const facts = {
      network,
      tipHeight: 3,
      tipHash: new Uint8Array(32),
      tipChainWork: 0n,
      bestHeaderHeight: 3,
      difficulty: 1,
      verificationProgress: 1,
      sizeOnDisk: 0,
      initialBlockDownloadComplete: true,
      estimatedHeight: 3,
      state: null,
    };
    const all = blockchainInfoToJson(facts);
    expect(blockchainInfoToJson({ ...facts, profile: ZCASHD_6_12_2 })).toBe(all);
    expect(all).toContain('"c2d6d0b4":{"name":"NU5"');
    const preNu5 = blockchainInfoToJson({ ...facts, profile: PRE_NU5 });
    expect(preNu5).not.toContain('"NU5"');
    expect(preNu5).toContain('"e9ff75a6":{"name":"Canopy"');
  });

  it('compare knows the deviations registered for the profile', () => {
    expect(knownDeviations().map((d) => d.name)).toEqual(['getblock-numeric-height']);
    expect(knownDeviations(CURRENT).map((d) => d.name)).toEqual(['getblock-numeric-height']);
    expect(knownDeviations(ZCASHD_6_12_2)[0]!.documentedIn).toBe('docs/compatibility.md, getblock-numeric-height');
    expect(knownDeviations(PRE_NU5)).toEqual([]);
  });
});
