/**
 * Network parameters zcashd v6.12.2 hard-codes (src/chainparams.cpp, src/chainparamsbase.cpp,
 * src/consensus/upgrades.cpp) that the decoder, the RPC server and the store need, with NU6.2's
 * (ZIP 257) and NU6.3's (ZIP 258) activation heights, which v6.12.2 does not know.
 */

import { BRANCH_IDS, NETWORK_UPGRADES, type NetworkUpgrade } from './upgrades.js';

/** The three networks zcashd knows. */
export type NetworkName = 'mainnet' | 'testnet' | 'regtest';

export const NETWORK_NAMES: readonly NetworkName[] = ['mainnet', 'testnet', 'regtest'];

/** One upgrade as a network schedules it. */
export interface UpgradeActivation {
  /** zcashd's name as getblockchaininfo prints it. */
  name: NetworkUpgrade;
  branchId: number;
  /** null = not active on this network (regtest without -nuparams). */
  activationHeight: number | null;
}

/** Activation height of every upgrade on one network; null = never (regtest without -nuparams). */
export type ActivationHeights = Readonly<Record<NetworkUpgrade, number | null>>;

/** One network's consensus parameters: upgrade heights, address prefixes, proof-of-work limits and the other facts its rules read. */
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
  activationHeights: ActivationHeights;
  /** The same schedule as a list, Overwinter onward in activation order (for iteration). */
  upgrades: readonly UpgradeActivation[];
  /**
   * fCoinbaseMustBeShielded: a transparent coinbase output may be spent only to shielded outputs.
   * Set on mainnet and testnet; on regtest only with `-regtestshieldcoinbase`.
   */
  coinbaseMustBeShielded: boolean;
  /**
   * The Orchard soft fork (ZIP 257's temporary mitigation): from this height until NU6.2 activates,
   * no transaction may carry Orchard actions. null = never (regtest: Zebra's regtest and zcashd's
   * -nuparams schedule none; and a node that knows no NU6.2, since the releases that enforced the
   * soft fork came after zcashd v6.12.2).
   */
  orchardSoftForkHeight: number | null;
}

function schedule(heights: ActivationHeights): Pick<NetworkParams, 'activationHeights' | 'upgrades'> {
  return {
    activationHeights: heights,
    upgrades: NETWORK_UPGRADES.map((name) => ({ name, branchId: BRANCH_IDS[name], activationHeight: heights[name] })),
  };
}

const NEVER: ActivationHeights = Object.fromEntries(NETWORK_UPGRADES.map((u) => [u, null])) as Record<NetworkUpgrade, null>;

/** Mainnet's consensus parameters. */
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
  coinbaseMustBeShielded: true,
  orchardSoftForkHeight: 3363426,
  ...schedule({
    Overwinter: 347500,
    Sapling: 419200,
    Blossom: 653600,
    Heartwood: 903000,
    Canopy: 1046400,
    NU5: 1687104,
    NU6: 2726400,
    'NU6.1': 3146400,
    'NU6.2': 3364600,
    'NU6.3': 3428143,
  }),
};

/** Testnet's consensus parameters. */
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
  coinbaseMustBeShielded: true,
  orchardSoftForkHeight: 4048500,
  ...schedule({
    Overwinter: 207500,
    Sapling: 280000,
    Blossom: 584000,
    Heartwood: 903800,
    Canopy: 1028500,
    NU5: 1842420,
    NU6: 2976000,
    'NU6.1': 3536500,
    'NU6.2': 4052000,
    'NU6.3': 4134000,
  }),
};

/** Regtest's consensus parameters with no upgrade scheduled, as zcashd's regtest without `-nuparams`. */
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
  coinbaseMustBeShielded: false,
  orchardSoftForkHeight: null,
  ...schedule(NEVER),
};

/**
 * Regtest with upgrades scheduled, as zcashd's `-nuparams=<branch id>:<height>` does (zcashd
 * regtest activates nothing by default). An upgrade needs every earlier one scheduled at or before
 * its own height: zcashd's upgrade logic assumes that order, and a chain without it has no meaning.
 */
export function regtestWithActivations(heights: Partial<Record<NetworkUpgrade, number>>): NetworkParams {
  const activations: Record<NetworkUpgrade, number | null> = { ...NEVER };
  let previous: { name: NetworkUpgrade; height: number | null } | null = null;
  for (const name of NETWORK_UPGRADES) {
    const height = heights[name];
    if (height !== undefined) {
      if (!Number.isSafeInteger(height) || height < 1)
        throw new RangeError(`${name} activation height ${height} is not a positive integer`);
      if (previous && (previous.height === null || previous.height > height)) {
        throw new RangeError(
          `${name} activates at ${height} but ${previous.name} activates ${previous.height === null ? 'never' : `at ${previous.height}`}`,
        );
      }
      activations[name] = height;
    }
    previous = { name, height: activations[name] };
  }
  return { ...REGTEST, ...schedule(activations) };
}

/**
 * The schedule of a node that knows no upgrade after `last` (a `-compat` profile's release): the
 * later upgrades never activate. The same object when none of them is scheduled.
 */
export function withoutUpgradesAfter(params: NetworkParams, last: NetworkUpgrade): NetworkParams {
  const later = NETWORK_UPGRADES.slice(NETWORK_UPGRADES.indexOf(last) + 1);
  if (later.every((u) => params.activationHeights[u] === null)) return params;
  const heights = { ...params.activationHeights };
  for (const u of later) heights[u] = null;
  // The soft fork ends at NU6.2 and shipped with the releases that scheduled it.
  const orchardSoftForkHeight = heights['NU6.2'] === null ? null : params.orchardSoftForkHeight;
  return { ...params, ...schedule(heights), orchardSoftForkHeight };
}

/** The consensus parameters of the network named. */
export function networkParams(name: NetworkName): NetworkParams {
  return name === 'mainnet' ? MAINNET : name === 'testnet' ? TESTNET : REGTEST;
}

/** The latest upgrade active at `height` (null = Sprout). */
export function upgradeAt(params: NetworkParams, height: number): UpgradeActivation | null {
  let current: UpgradeActivation | null = null;
  for (const u of params.upgrades) {
    if (u.activationHeight !== null && height >= u.activationHeight) current = u;
  }
  return current;
}

/** Whether `height` falls in the Orchard soft fork: at or past its height, before NU6.2. */
export function isOrchardSoftForkActive(params: NetworkParams, height: number): boolean {
  const from = params.orchardSoftForkHeight;
  return from !== null && height >= from && !isUpgradeActive(params, 'NU6.2', height);
}

export function isUpgradeActive(params: NetworkParams, upgrade: NetworkUpgrade, height: number): boolean {
  const at = params.activationHeights[upgrade];
  return at !== null && height >= at;
}

/** CurrentEpochBranchId: the consensus branch id of the epoch `height` belongs to. */
export function branchIdAt(params: NetworkParams, height: number): number {
  return upgradeAt(params, height)?.branchId ?? BRANCH_IDS.Sprout;
}

/** BIP34/66/65 majority parameters (chainparams.cpp: nMajorityEnforce/Reject, nMajorityWindow). */
export const MAJORITY_RULES: Readonly<Record<NetworkName, { enforce: number; reject: number; window: number }>> = {
  mainnet: { enforce: 750, reject: 950, window: 4000 },
  testnet: { enforce: 51, reject: 75, window: 400 },
  regtest: { enforce: 750, reject: 950, window: 1000 },
};

export { BRANCH_IDS, KNOWN_BRANCH_IDS, NETWORK_UPGRADES, type NetworkUpgrade } from './upgrades.js';
