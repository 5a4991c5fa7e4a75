/**
 * Compatibility profiles (`-compat=<name>`): which zcashd release's replies zecrpc reproduces.
 * A profile names what that release knows: its upgrades (getblockchaininfo's `upgrades`, and the
 * network schedule the node runs: a release that does not know an upgrade never activates it,
 * so its store refuses the blocks that release could not have accepted) and what its
 * transaction parser reads (the codec's `TxAcceptance`, used by decoderawtransaction);
 * `zecrpc compare` reads it for the known deviations.
 */
import type { NetworkParams } from '../chain/network.js';
import { withoutUpgradesAfter } from '../chain/network.js';
import { NETWORK_UPGRADES, ZCASHD_6_12_2_UPGRADES, type NetworkUpgrade } from '../chain/upgrades.js';
import { CURRENT_CHAIN_ACCEPTANCE, ZCASHD_6_12_2_ACCEPTANCE, type TxAcceptance } from '../codec/tx/acceptance.js';

/** A compatibility profile (`-compat`): the zcashd release whose replies are reproduced, the upgrades it knows and the transactions its parser accepts. */
export interface CompatProfile {
  /** The `-compat` value. */
  readonly name: string;
  /** The zcashd release whose replies the profile reproduces, or whose format it extends. */
  readonly zcashd: string;
  /** The network upgrades the release knows, in activation order (getblockchaininfo's `upgrades`). */
  readonly upgrades: readonly NetworkUpgrade[];
  /**
   * What the release's transaction parser reads: the consensus branch ids a v5 (or v6) header may
   * carry and the formats (codec/tx/acceptance.ts).
   */
  readonly acceptance: TxAcceptance;
}

/** zcashd v6.12.2 (src/consensus/upgrades.cpp: Sprout … NU6.1; transactions v1–v5). */
export const ZCASHD_6_12_2: CompatProfile = Object.freeze({
  name: '6.12.2',
  zcashd: 'v6.12.2',
  upgrades: ZCASHD_6_12_2_UPGRADES,
  acceptance: ZCASHD_6_12_2_ACCEPTANCE,
});

/**
 * Today's consensus in zcashd v6.12.2's format: NU6.2 and NU6.3, v6 transactions and the
 * Ironwood pool, printed where zcashd never printed anything (docs/compatibility.md).
 */
export const CURRENT: CompatProfile = Object.freeze({
  name: 'current',
  zcashd: 'v6.12.2, extended',
  upgrades: NETWORK_UPGRADES,
  acceptance: CURRENT_CHAIN_ACCEPTANCE,
});

/** Every profile `-compat` accepts. */
export const COMPAT_PROFILES: readonly CompatProfile[] = [CURRENT, ZCASHD_6_12_2];

/** The profile without `-compat`. */
export const DEFAULT_COMPAT_PROFILE: CompatProfile = CURRENT;

/** The profile `-compat=<name>` selects, or null for a name no profile has. */
export function compatProfileNamed(name: string): CompatProfile | null {
  return COMPAT_PROFILES.find((p) => p.name === name) ?? null;
}

/** The network as a node of this profile schedules it: upgrades the release does not know never activate. */
export function networkUnderProfile(params: NetworkParams, profile: CompatProfile): NetworkParams {
  const last = profile.upgrades[profile.upgrades.length - 1];
  return last === undefined ? params : withoutUpgradesAfter(params, last);
}
