/**
 * Network upgrades and their consensus branch ids (zcashd v6.12.2 src/consensus/upgrades.cpp,
 * then ZIP 257's NU6.2 and ZIP 258's NU6.3 "Ironwood", which zcashd v6.12.2 does not know):
 * the one table every other module asks. Upgrade names are a closed type, so a misspelt
 * upgrade is a compile error rather than a silent "not active".
 */

/** The upgrades zcashd v6.12.2 knows, in activation order, spelt as getblockchaininfo prints them. */
export const ZCASHD_6_12_2_UPGRADES = ['Overwinter', 'Sapling', 'Blossom', 'Heartwood', 'Canopy', 'NU5', 'NU6', 'NU6.1'] as const;

/** Upgrades after Sprout, in activation order: zcashd v6.12.2's, then NU6.2 and NU6.3. */
export const NETWORK_UPGRADES = [...ZCASHD_6_12_2_UPGRADES, 'NU6.2', 'NU6.3'] as const;

/** A network upgrade's name, from Overwinter to NU6.3. */
export type NetworkUpgrade = (typeof NETWORK_UPGRADES)[number];

/** The consensus branch id of each epoch (Sprout's is 0). Used as little-endian u32 in personalizations. */
export const BRANCH_IDS: Readonly<Record<NetworkUpgrade | 'Sprout', number>> = {
  Sprout: 0x00000000,
  Overwinter: 0x5ba81b19,
  Sapling: 0x76b809bb,
  Blossom: 0x2bb40e60,
  Heartwood: 0xf5b9230b,
  Canopy: 0xe9ff75a6,
  NU5: 0xc2d6d0b4,
  NU6: 0xc8e71055,
  'NU6.1': 0x4dec4df0,
  /** ZIP 257: the Orchard mitigation. */
  'NU6.2': 0x5437f330,
  /** ZIP 258: v6 transactions and the Ironwood pool. */
  'NU6.3': 0x37a5165b,
};

/** Branch ids zcashd v6.12.2's transaction parser accepts in a v5 header (Sprout … NU6.1). */
export const KNOWN_BRANCH_IDS: ReadonlySet<number> = new Set([0, ...ZCASHD_6_12_2_UPGRADES.map((u) => BRANCH_IDS[u])]);
