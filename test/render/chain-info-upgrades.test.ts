// getblockchaininfo's `upgrades` and `consensus` under both profiles, on mainnet and testnet at the
// heights around NU6.2 and NU6.3: `-compat=current` lists NU6.2 as zcashd v6.20.0 prints it and
// NU6.3 in the same shape, with the names and activation heights Zebra 6.2.3 printed for the same
// chain (nu6.3/zebra-rpc); `-compat=6.12.2` lists exactly v6.12.2's upgrades and never leaves
// NU6.1's branch id.
import { describe, expect, it } from 'vitest';
import { MAINNET, TESTNET, type NetworkParams } from '../../src/chain/network.js';
import { CURRENT, networkUnderProfile, ZCASHD_6_12_2, type CompatProfile } from '../../src/compat/profiles.js';
import { blockchainInfoToJson } from '../../src/render/chain-info.js';
import { readJsonVector } from '../support/vectors.js';

interface Upgrade {
  name: string;
  activationheight: number;
  status: string;
  info?: string;
}
interface Info {
  upgrades: Record<string, Upgrade>;
  consensus: { chaintip: string; nextblock: string };
}

function info(network: NetworkParams, profile: CompatProfile, tipHeight: number): Info {
  const scheduled = networkUnderProfile(network, profile);
  return JSON.parse(
    blockchainInfoToJson({
      network: scheduled,
      profile,
      tipHeight,
      tipHash: new Uint8Array(32),
      tipChainWork: 0n,
      bestHeaderHeight: tipHeight,
      difficulty: 1,
      verificationProgress: 1,
      sizeOnDisk: 0,
      initialBlockDownloadComplete: true,
      estimatedHeight: tipHeight,
      state: null,
    }),
  ) as Info;
}

const zebra = (name: string): Info & { blocks: number } => {
  const reply = readJsonVector<{ result?: Info & { blocks: number } } & Info & { blocks: number }>('nu6.3', 'zebra-rpc', name);
  return reply.result ?? reply;
};

describe('-compat=current', () => {
  it('prints NU6.2 as zcashd v6.20.0 does and NU6.3 in the same shape, after NU6.1', () => {
    const { upgrades } = info(MAINNET, CURRENT, 3428142);
    expect(Object.keys(upgrades).slice(-3)).toEqual(['4dec4df0', '5437f330', '37a5165b']);
    expect(upgrades['5437f330']).toEqual({
      name: 'NU6.2',
      activationheight: 3364600,
      status: 'active',
      info: 'See https://z.cash/upgrade/nu6.2/ for details.',
    });
    expect(upgrades['37a5165b']).toEqual({
      name: 'NU6.3',
      activationheight: 3428143,
      status: 'pending',
      info: 'See https://z.cash/upgrade/nu6.3/ for details.',
    });
  });

  it("has Zebra's upgrade names, heights and statuses for the same tips", () => {
    for (const [network, file] of [
      [MAINNET, 'mainnet-getblockchaininfo-end.json'],
      [TESTNET, 'testnet-getblockchaininfo-end.json'],
    ] as const) {
      const theirs = zebra(file);
      const ours = info(network, CURRENT, theirs.blocks);
      for (const [id, u] of Object.entries(ours.upgrades)) {
        expect({ name: u.name, activationheight: u.activationheight, status: u.status }, `${network.name} ${id}`).toEqual({
          name: theirs.upgrades[id]!.name,
          activationheight: theirs.upgrades[id]!.activationheight,
          status: theirs.upgrades[id]!.status,
        });
      }
      expect(Object.keys(ours.upgrades).sort()).toEqual(Object.keys(theirs.upgrades).sort());
      expect(ours.consensus).toEqual(theirs.consensus);
    }
  });

  it('moves the consensus branch ids across both activations', () => {
    const at = (h: number) => info(MAINNET, CURRENT, h).consensus;
    expect(at(3364598)).toEqual({ chaintip: '4dec4df0', nextblock: '4dec4df0' });
    expect(at(3364599)).toEqual({ chaintip: '4dec4df0', nextblock: '5437f330' });
    expect(at(3428142)).toEqual({ chaintip: '5437f330', nextblock: '37a5165b' });
    expect(at(3428143)).toEqual({ chaintip: '37a5165b', nextblock: '37a5165b' });
    expect(info(TESTNET, CURRENT, 4133999).consensus).toEqual({ chaintip: '5437f330', nextblock: '37a5165b' });
  });
});

describe('-compat=6.12.2', () => {
  it("lists exactly v6.12.2's upgrades and stays in NU6.1's epoch past both activations", () => {
    for (const network of [MAINNET, TESTNET]) {
      const tip = network.activationHeights['NU6.3']! + 10;
      const old = info(network, ZCASHD_6_12_2, tip);
      expect(Object.values(old.upgrades).map((u) => u.name)).toEqual(ZCASHD_6_12_2.upgrades);
      expect(old.consensus).toEqual({ chaintip: '4dec4df0', nextblock: '4dec4df0' });
      // The upgrades both profiles know print the same.
      const now = info(network, CURRENT, tip);
      for (const [id, u] of Object.entries(old.upgrades)) expect(now.upgrades[id]).toEqual(u);
    }
  });
});
