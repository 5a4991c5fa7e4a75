/**
 * Which transactions the decoder accepts: the consensus branch ids a v5 or v6 header may carry
 * and the overwintered (version, version group id) pairs it reads. zcashd v6.12.2's parser is
 * the default, so every entry point that passes nothing decodes exactly as that release does;
 * the current chain's acceptance adds NU6.2's and NU6.3's branch ids and the v6 format (ZIP 229).
 *
 * An acceptance refuses as zcashd does: an unaccepted format with "Unknown transaction format"
 * (the C++ parser's check), an unaccepted branch id with "CTransaction::UpdateHash: Invalid
 * transaction format" (the Rust re-parse's).
 */
import type { NetworkParams } from '../../chain/network.js';
import { BRANCH_IDS, KNOWN_BRANCH_IDS } from '../../chain/upgrades.js';
import {
  NU5_VERSION_GROUP_ID,
  NU6_3_VERSION_GROUP_ID,
  OVERWINTER_VERSION_GROUP_ID,
  SAPLING_VERSION_GROUP_ID,
  ZFUTURE_TX_VERSION,
  ZFUTURE_VERSION_GROUP_ID,
} from './types.js';

/** An overwintered transaction format by its header: version (low 31 bits) and version group id. */
export interface TxFormatKey {
  readonly version: number;
  readonly versionGroupId: number;
}

/** What a caller asks the decoder to accept; `txAcceptance` resolves it. */
export interface TxAcceptanceSpec {
  readonly branchIds: Iterable<number>;
  readonly formats: Iterable<TxFormatKey>;
}

/**
 * A resolved acceptance: the sets as int32 arrays scanned in place, since the check runs once
 * per decoded transaction and a Set lookup of a number above 2^31 (every branch id since
 * Overwinter) hashes a heap number.
 */
export class TxAcceptance {
  /** Branch ids as int32s, newest first (the ids most transactions carry). */
  private readonly branchIds: Int32Array;
  /** Accepted formats as (version, group id) int32 pairs. */
  private readonly formats: Int32Array;

  constructor(spec: TxAcceptanceSpec) {
    this.branchIds = Int32Array.from([...spec.branchIds].reverse(), (id) => id | 0);
    const keys = [...spec.formats];
    this.formats = new Int32Array(2 * keys.length);
    keys.forEach((k, i) => {
      this.formats[2 * i] = k.version | 0;
      this.formats[2 * i + 1] = k.versionGroupId | 0;
    });
  }

  /** `id` is a decoded uint32, so `id | 0` identifies it. */
  acceptsBranchId(id: number): boolean {
    const x = id | 0;
    const ids = this.branchIds;
    for (let i = 0; i < ids.length; i++) if (ids[i] === x) return true;
    return false;
  }

  /** Whether the overwintered format (version, version group id) is read at all. */
  acceptsFormat(version: number, versionGroupId: number): boolean {
    const v = version | 0;
    const g = versionGroupId | 0;
    const f = this.formats;
    for (let i = 0; i < f.length; i += 2) if (f[i] === v && f[i + 1] === g) return true;
    return false;
  }

  /** The accepted branch ids, oldest first. */
  get acceptedBranchIds(): number[] {
    return [...this.branchIds].reverse().map((id) => id >>> 0);
  }
}

/** The overwintered formats zcashd v6.12.2 reads (zfuture is read, then refused by the Rust re-parse). */
const ZCASHD_FORMATS: readonly TxFormatKey[] = [
  { version: 4, versionGroupId: SAPLING_VERSION_GROUP_ID },
  { version: 5, versionGroupId: NU5_VERSION_GROUP_ID },
  { version: 3, versionGroupId: OVERWINTER_VERSION_GROUP_ID },
  { version: ZFUTURE_TX_VERSION, versionGroupId: ZFUTURE_VERSION_GROUP_ID },
];

/** The v6 format (ZIP 229), valid from NU6.3. */
export const V6_FORMAT_KEY: TxFormatKey = { version: 6, versionGroupId: NU6_3_VERSION_GROUP_ID };

/** zcashd v6.12.2's parser: branch ids Sprout … NU6.1, formats v1–v5. The default everywhere. */
export const ZCASHD_6_12_2_ACCEPTANCE = new TxAcceptance({ branchIds: KNOWN_BRANCH_IDS, formats: ZCASHD_FORMATS });

/** Today's chain: zcashd v6.12.2's acceptance plus NU6.2's and NU6.3's branch ids and v6. */
export const CURRENT_CHAIN_ACCEPTANCE = new TxAcceptance({
  branchIds: [...KNOWN_BRANCH_IDS, BRANCH_IDS['NU6.2'], BRANCH_IDS['NU6.3']],
  formats: [...ZCASHD_FORMATS, V6_FORMAT_KEY],
});

/**
 * What a block stored by zecrpc may hold: it passed block acceptance under some schedule, so
 * reading it back accepts everything any schedule accepts.
 */
export const STORED_BLOCK_ACCEPTANCE = CURRENT_CHAIN_ACCEPTANCE;

/**
 * What a new block or transaction may carry on a network as scheduled: zcashd v6.12.2's parser
 * while the schedule stops at NU6.1 (the `-compat=6.12.2` schedule, or regtest without the later
 * upgrades), today's once NU6.2 or NU6.3 is scheduled. Whether a transaction's branch id is its
 * epoch's is a consensus rule (chain/tx-rules.ts), not the parser's.
 */
export function acceptanceForNetwork(params: NetworkParams): TxAcceptance {
  const later = params.activationHeights['NU6.2'] !== null || params.activationHeights['NU6.3'] !== null;
  return later ? CURRENT_CHAIN_ACCEPTANCE : ZCASHD_6_12_2_ACCEPTANCE;
}
