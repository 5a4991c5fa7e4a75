import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  COMMITMENT_FIELD_NAME,
  commitmentEra,
  hasPrevHistoryRoot,
  headerDerivedRoots,
  type CommitmentEra,
} from '../../src/chain/commitment-era.js';
import { isUpgradeActive, MAINNET, regtestWithActivations } from '../../src/chain/network.js';
import { activeFundingStreams, fundingStreams } from '../../src/chain/funding-streams.js';
import { blockSubsidy, hasFoundersReward } from '../../src/chain/subsidy.js';
import { loadNodeConfig } from '../../src/config.js';

const dir = mkdtempSync(join(tmpdir(), 'zecrpc-era-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Regtest as `zecrpc serve -regtest -nuparams=…` builds it: Overwinter 1, Sapling 2, Blossom 3, Heartwood 4, Canopy 5, NU5 6. */
function nuparamsRegtest() {
  const nuparams = ['5ba81b19:1', '76b809bb:2', '2bb40e60:3', 'f5b9230b:4', 'e9ff75a6:5', 'c2d6d0b4:6'];
  return loadNodeConfig([`-datadir=${dir}`, '-regtest', ...nuparams.map((v) => `-nuparams=${v}`)]).network;
}

describe('one upgrade-activity API, taking the network parameters', () => {
  it('honours -nuparams: regtest upgrades activate where the options schedule them', () => {
    const network = nuparamsRegtest();
    expect(isUpgradeActive(network, 'Blossom', 2)).toBe(false);
    expect(isUpgradeActive(network, 'Blossom', 3)).toBe(true);
    expect(isUpgradeActive(network, 'Canopy', 4)).toBe(false);
    expect(isUpgradeActive(network, 'Canopy', 5)).toBe(true);
    expect(isUpgradeActive(network, 'NU6', 1_000_000)).toBe(false);
  });

  it('the subsidy and reward rules read the scheduled parameters, not the name: regtest by name activates nothing', () => {
    const network = nuparamsRegtest();
    // Blossom at 3 halves the per-block subsidy from there on (ZIP 208); Canopy at 5 ends the founders' reward.
    expect(blockSubsidy(2, network)).toBe(1_250_000_000n);
    expect(blockSubsidy(3, network)).toBe(625_000_000n);
    expect(hasFoundersReward(4, network)).toBe(true);
    expect(hasFoundersReward(5, network)).toBe(false);
    // A network name stands for its default schedule: regtest without -nuparams.
    expect(blockSubsidy(3, 'regtest')).toBe(1_250_000_000n);
    expect(hasFoundersReward(5, 'regtest')).toBe(true);
    // Regtest defines no funding streams, with or without Canopy.
    expect(fundingStreams(network)).toEqual([]);
    expect(activeFundingStreams(5, network)).toEqual([]);
  });
});

describe('commitment era (the header field at bytes 68..100)', () => {
  it('follows the -nuparams schedule, era by era, with zcashd field names', () => {
    const network = nuparamsRegtest();
    const eras: [number, CommitmentEra, string][] = [
      [0, 'reserved', 'hashReserved'],
      [1, 'reserved', 'hashReserved'],
      [2, 'final-sapling-root', 'hashFinalSaplingRoot'],
      [3, 'final-sapling-root', 'hashFinalSaplingRoot'],
      [4, 'heartwood-activation', 'hashLightClientRoot'],
      [5, 'light-client-root', 'hashLightClientRoot'],
      [6, 'block-commitments', 'hashBlockCommitments'],
    ];
    for (const [height, era, name] of eras) {
      expect(commitmentEra(network, height), `height ${height}`).toBe(era);
      expect(COMMITMENT_FIELD_NAME[era]).toBe(name);
    }
  });

  it('mainnet eras change at the upgrade heights', () => {
    expect(commitmentEra(MAINNET, 419_199)).toBe('reserved');
    expect(commitmentEra(MAINNET, 419_200)).toBe('final-sapling-root');
    expect(commitmentEra(MAINNET, 903_000)).toBe('heartwood-activation');
    expect(commitmentEra(MAINNET, 903_001)).toBe('light-client-root');
    expect(commitmentEra(MAINNET, 1_687_104)).toBe('block-commitments');
  });

  it('says which roots getblock reads from the header in each era', () => {
    const network = nuparamsRegtest();
    const field = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
    const zero = new Uint8Array(32);
    expect(headerDerivedRoots(network, 0, field)).toEqual({ finalSaplingRoot: zero, chainHistoryRoot: zero, authDataRoot: false });
    expect(headerDerivedRoots(network, 1, field)).toEqual({ finalSaplingRoot: field, chainHistoryRoot: zero, authDataRoot: false });
    expect(headerDerivedRoots(network, 3, field)).toEqual({ finalSaplingRoot: field, chainHistoryRoot: zero, authDataRoot: false });
    expect(headerDerivedRoots(network, 4, field)).toEqual({ finalSaplingRoot: null, chainHistoryRoot: zero, authDataRoot: false });
    expect(headerDerivedRoots(network, 5, field)).toEqual({ finalSaplingRoot: null, chainHistoryRoot: field, authDataRoot: false });
    expect(headerDerivedRoots(network, 6, field)).toEqual({ finalSaplingRoot: null, chainHistoryRoot: null, authDataRoot: true });
  });

  it('Heartwood activating with NU5 still has no earlier history root', () => {
    const network = regtestWithActivations({ Overwinter: 1, Sapling: 1, Blossom: 1, Heartwood: 3, Canopy: 3, NU5: 3 });
    expect(commitmentEra(network, 3)).toBe('block-commitments');
    expect(hasPrevHistoryRoot(network, 3)).toBe(false);
    expect(hasPrevHistoryRoot(network, 4)).toBe(true);
    const field = new Uint8Array(32).fill(7);
    expect(headerDerivedRoots(network, 3, field).chainHistoryRoot).toEqual(new Uint8Array(32));
    expect(headerDerivedRoots(network, 4, field).chainHistoryRoot).toBeNull();
  });
});
