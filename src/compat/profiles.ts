/**
 * Compatibility profiles (`-compat=<name>`): which zcashd release's replies zecrpc reproduces.
 * A profile states what that release knows rather than deriving it from the upgrade table, so
 * that adding an upgrade to chain/upgrades.ts (NU6.2, NU6.3) changes nothing a profile that
 * predates it answers: the codec's branch-id acceptance (decoderawtransaction, block bodies),
 * the renderers (getblockchaininfo's `upgrades`) and `zecrpc compare`'s known deviations all
 * read it. A later profile (e.g. `current`, with NU6.2/NU6.3, v6 transactions and another
 * pool) is one more entry in COMPAT_PROFILES.
 */
import { BRANCH_IDS, type NetworkUpgrade } from '../chain/upgrades.js';

export interface CompatProfile {
  /** The `-compat` value. */
  readonly name: string;
  /** The zcashd release whose replies the profile reproduces. */
  readonly zcashd: string;
  /** The network upgrades the release knows, in activation order (getblockchaininfo's `upgrades`). */
  readonly upgrades: readonly NetworkUpgrade[];
  /**
   * The consensus branch ids the release's transaction parser accepts in a v5 header (its
   * Rust re-parse refuses any other), Sprout's first, in activation order.
   */
  readonly acceptedBranchIds: readonly number[];
}

const ZCASHD_6_12_2_UPGRADES = ['Overwinter', 'Sapling', 'Blossom', 'Heartwood', 'Canopy', 'NU5', 'NU6', 'NU6.1'] as const;

/** zcashd v6.12.2 (src/consensus/upgrades.cpp: Sprout … NU6.1). */
export const ZCASHD_6_12_2: CompatProfile = Object.freeze({
  name: '6.12.2',
  zcashd: 'v6.12.2',
  upgrades: ZCASHD_6_12_2_UPGRADES,
  acceptedBranchIds: Object.freeze([BRANCH_IDS.Sprout, ...ZCASHD_6_12_2_UPGRADES.map((u) => BRANCH_IDS[u])]),
});

/** Every profile `-compat` accepts. */
export const COMPAT_PROFILES: readonly CompatProfile[] = [ZCASHD_6_12_2];

/** The profile without `-compat`. */
export const DEFAULT_COMPAT_PROFILE: CompatProfile = ZCASHD_6_12_2;

/** The profile `-compat=<name>` selects, or null for a name no profile has. */
export function compatProfileNamed(name: string): CompatProfile | null {
  return COMPAT_PROFILES.find((p) => p.name === name) ?? null;
}

/** Branch ids the profile's parser accepts, as a set (for callers that are not on a hot path). */
export function acceptedBranchIdSet(profile: CompatProfile): ReadonlySet<number> {
  return new Set(profile.acceptedBranchIds);
}
