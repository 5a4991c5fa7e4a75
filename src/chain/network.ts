/**
 * Network parameters zcashd v6.12.2 hard-codes (src/chainparams.cpp, src/chainparamsbase.cpp,
 * src/consensus/upgrades.cpp) that the decoder, the RPC server and the store need.
 */

export type NetworkName = 'mainnet' | 'testnet' | 'regtest';

export const NETWORK_NAMES: readonly NetworkName[] = ['mainnet', 'testnet', 'regtest'];

export interface NetworkUpgrade {
  /** zcashd's name as getblockchaininfo prints it. */
  name: string;
  branchId: number;
  /** null = not active on this network (regtest without -nuparams). */
  activationHeight: number | null;
}

export interface NetworkParams {
  name: NetworkName;
  /** getblockchaininfo `chain`. */
  chain: 'main' | 'test' | 'regtest';
  /** Data directory sub-folder below the base data dir ('' for mainnet). */
  dataSubdir: string;
  defaultRpcPort: number;
  /** P2P message start (blk*.dat framing). */
  magic: Uint8Array;
  /** Base58Check version prefixes of transparent addresses. */
  p2pkhPrefix: Uint8Array;
  p2shPrefix: Uint8Array;
  /** Compact powLimit (difficulty 1). */
  powLimitBits: number;
  genesisHash: string;
  /** Equihash solution size in bytes. */
  solutionSize: number;
  /** Overwinter onward, in activation order. */
  upgrades: readonly NetworkUpgrade[];
}

const upgradesFor = (heights: readonly (number | null)[]): NetworkUpgrade[] =>
  (
    [
      ['Overwinter', 0x5ba81b19],
      ['Sapling', 0x76b809bb],
      ['Blossom', 0x2bb40e60],
      ['Heartwood', 0xf5b9230b],
      ['Canopy', 0xe9ff75a6],
      ['NU5', 0xc2d6d0b4],
      ['NU6', 0xc8e71055],
      ['NU6.1', 0x4dec4df0],
    ] as const
  ).map(([name, branchId], i) => ({ name, branchId, activationHeight: heights[i] ?? null }));

export const MAINNET: NetworkParams = {
  name: 'mainnet',
  chain: 'main',
  dataSubdir: '',
  defaultRpcPort: 8232,
  magic: Uint8Array.of(0x24, 0xe9, 0x27, 0x64),
  p2pkhPrefix: Uint8Array.of(0x1c, 0xb8),
  p2shPrefix: Uint8Array.of(0x1c, 0xbd),
  powLimitBits: 0x1f07ffff,
  genesisHash: '00040fe8ec8471911baa1db1266ea15dd06b4a8a5c453883c000b031973dce08',
  solutionSize: 1344,
  upgrades: upgradesFor([347500, 419200, 653600, 903000, 1046400, 1687104, 2726400, 3146400]),
};

export const TESTNET: NetworkParams = {
  name: 'testnet',
  chain: 'test',
  dataSubdir: 'testnet3',
  defaultRpcPort: 18232,
  magic: Uint8Array.of(0xfa, 0x1a, 0xf9, 0xbf),
  p2pkhPrefix: Uint8Array.of(0x1d, 0x25),
  p2shPrefix: Uint8Array.of(0x1c, 0xba),
  powLimitBits: 0x2007ffff,
  genesisHash: '05a60a92d99d85997cce3b87616c089f6124d7342af37106edc76126334a2c38',
  solutionSize: 1344,
  upgrades: upgradesFor([207500, 280000, 584000, 903800, 1028500, 1842420, 2976000, 3536500]),
};

export const REGTEST: NetworkParams = {
  name: 'regtest',
  chain: 'regtest',
  dataSubdir: 'regtest',
  defaultRpcPort: 18232,
  magic: Uint8Array.of(0xaa, 0xe8, 0x3f, 0x5f),
  p2pkhPrefix: Uint8Array.of(0x1d, 0x25),
  p2shPrefix: Uint8Array.of(0x1c, 0xba),
  powLimitBits: 0x200f0f0f,
  genesisHash: '029f11d80ef9765602235e1bc9727e3eb6ba20839319f761fee920d63401e327',
  solutionSize: 36,
  upgrades: upgradesFor([]),
};

export function networkParams(name: NetworkName): NetworkParams {
  return name === 'mainnet' ? MAINNET : name === 'testnet' ? TESTNET : REGTEST;
}

/** The latest upgrade active at `height` (null = Sprout). */
export function upgradeAt(params: NetworkParams, height: number): NetworkUpgrade | null {
  let current: NetworkUpgrade | null = null;
  for (const u of params.upgrades) {
    if (u.activationHeight !== null && height >= u.activationHeight) current = u;
  }
  return current;
}

export function isUpgradeActive(params: NetworkParams, upgradeName: string, height: number): boolean {
  const u = params.upgrades.find((x) => x.name === upgradeName);
  return !!u && u.activationHeight !== null && height >= u.activationHeight;
}
