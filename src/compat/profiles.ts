/**
 * Compatibility profiles (`-compat=<name>`): which zcashd release's replies zecrpc reproduces.
 * A profile names what that release knows: its upgrades (getblockchaininfo's `upgrades`) and
 * what its transaction parser reads (the codec's `TxAcceptance`, used by decoderawtransaction);
 * `zecrpc compare` reads it for the known deviations. Upgrades zcashd v6.12.2 does not know
 * (chain/upgrades-after-zcashd.ts) change nothing a profile that predates them answers. A later
 * profile (e.g. `current`, with NU6.2/NU6.3, v6 transactions and another pool) is one more entry
 * in COMPAT_PROFILES.
 */
import type { NetworkUpgrade } from '../chain/upgrades.js';
import { ZCASHD_6_12_2_ACCEPTANCE, type TxAcceptance } from '../codec/tx/acceptance.js';

export interface CompatProfile {
  /** The `-compat` value. */
  readonly name: string;
  /** The zcashd release whose replies the profile reproduces. */
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
  upgrades: Object.freeze(['Overwinter', 'Sapling', 'Blossom', 'Heartwood', 'Canopy', 'NU5', 'NU6', 'NU6.1'] as const),
  acceptance: ZCASHD_6_12_2_ACCEPTANCE,
});

/** Every profile `-compat` accepts. */
export const COMPAT_PROFILES: readonly CompatProfile[] = [ZCASHD_6_12_2];

/** The profile without `-compat`. */
export const DEFAULT_COMPAT_PROFILE: CompatProfile = ZCASHD_6_12_2;

/** The profile `-compat=<name>` selects, or null for a name no profile has. */
export function compatProfileNamed(name: string): CompatProfile | null {
  return COMPAT_PROFILES.find((p) => p.name === name) ?? null;
}
