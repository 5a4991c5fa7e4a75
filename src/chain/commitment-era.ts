/**
 * The header's 32-byte commitment field (bytes 68..100) by era: what it means at a height, what
 * it must hold (ZIP 221, ZIP 244; zcashd v6.12.2 ConnectBlock and CheckBlockBodyAuthCommitment),
 * and which roots getblock and getblockheader read from it (rpc/blockchain.cpp blockToJSON,
 * blockheaderToJSON; spec §1.2, §2.4). The one place a new upgrade that changes the field's
 * meaning is added: the checks (chain/header-rules.ts), the chain state (state/apply-block.ts),
 * the views of never-connected blocks and the renderers all ask this module.
 */
import { blake2b256Of, personalization } from '../crypto/hash.js';
import { isUpgradeActive, type NetworkParams } from './network.js';

const ZERO32 = new Uint8Array(32);

export type CommitmentEra =
  /** Before Sapling: hashReserved, unchecked. */
  | 'reserved'
  /** Sapling ≤ h < Heartwood: hashFinalSaplingRoot. */
  | 'final-sapling-root'
  /** h = Heartwood activation: must be all zero. */
  | 'heartwood-activation'
  /** Heartwood < h < NU5: hashLightClientRoot = prevRoot(h). */
  | 'light-client-root'
  /** h ≥ NU5: ZIP-244 hashBlockCommitments. */
  | 'block-commitments';

/** The field's name in zcashd's CBlockHeader for each era. */
export const COMMITMENT_FIELD_NAME: Readonly<Record<CommitmentEra, string>> = {
  reserved: 'hashReserved',
  'final-sapling-root': 'hashFinalSaplingRoot',
  'heartwood-activation': 'hashLightClientRoot',
  'light-client-root': 'hashLightClientRoot',
  'block-commitments': 'hashBlockCommitments',
};

export function commitmentEra(network: NetworkParams, height: number): CommitmentEra {
  if (isUpgradeActive(network, 'NU5', height)) return 'block-commitments';
  if (network.activationHeights.Heartwood === height) return 'heartwood-activation';
  if (isUpgradeActive(network, 'Heartwood', height)) return 'light-client-root';
  if (isUpgradeActive(network, 'Sapling', height)) return 'final-sapling-root';
  return 'reserved';
}

/**
 * Whether block `height` comes after Heartwood's activation block, so that prevRoot(h), to which
 * the field commits, is the root of a history tree with leaves (zero before; zero at the
 * activation block, whatever era the field is in there).
 */
export function hasPrevHistoryRoot(network: NetworkParams, height: number): boolean {
  return isUpgradeActive(network, 'Heartwood', height) && network.activationHeights.Heartwood !== height;
}

/** ZIP 244 hashBlockCommitments = BLAKE2b-256("ZcashBlockCommit", prevRoot ‖ authDataRoot ‖ 32 zero bytes). */
export function hashBlockCommitments(prevRoot: Uint8Array, authDataRoot: Uint8Array): Uint8Array {
  if (prevRoot.length !== 32 || authDataRoot.length !== 32) throw new RangeError('hashBlockCommitments: 32-byte roots expected');
  return blake2b256Of(personalization('ZcashBlockCommit'), prevRoot, authDataRoot, ZERO32);
}

/** What the caller computed for the block; each era needs only some of these. */
export interface CommitmentInputs {
  /** 'final-sapling-root': the Sapling tree root after this block. */
  saplingRoot?: Uint8Array;
  /** 'light-client-root' and 'block-commitments': prevRoot(h) (state/history-tree.ts). */
  prevHistoryRoot?: Uint8Array;
  /** 'block-commitments': the block's ZIP-244 auth data root. */
  authDataRoot?: Uint8Array;
}

/** The value the field must hold at `height` (internal order), or null before Sapling. */
export function expectedCommitmentField(network: NetworkParams, height: number, inputs: CommitmentInputs): Uint8Array | null {
  const era = commitmentEra(network, height);
  const need = (v: Uint8Array | undefined, name: keyof CommitmentInputs): Uint8Array => {
    if (!v) throw new RangeError(`expectedCommitmentField: ${era} at height ${height} needs ${name}`);
    return v;
  };
  switch (era) {
    case 'reserved':
      return null;
    case 'final-sapling-root':
      return need(inputs.saplingRoot, 'saplingRoot');
    case 'heartwood-activation':
      return new Uint8Array(32);
    case 'light-client-root':
      return need(inputs.prevHistoryRoot, 'prevHistoryRoot');
    case 'block-commitments':
      return hashBlockCommitments(need(inputs.prevHistoryRoot, 'prevHistoryRoot'), need(inputs.authDataRoot, 'authDataRoot'));
  }
}

/**
 * The roots getblock prints that the header alone decides at `height` (`field` = its commitment
 * field, internal order): the field itself where it is the root, zero where the root is defined
 * as zero there, null where the root is a tree's (the chain state's). `authDataRoot` tells whether
 * getblock's `authdataroot` is the block's ZIP-244 auth data root (from NU5) or zero.
 */
export interface HeaderDerivedRoots {
  finalSaplingRoot: Uint8Array | null;
  chainHistoryRoot: Uint8Array | null;
  authDataRoot: boolean;
}

export function headerDerivedRoots(network: NetworkParams, height: number, field: Uint8Array): HeaderDerivedRoots {
  const authDataRoot = isUpgradeActive(network, 'NU5', height);
  // The genesis block prints zero roots whatever its reserved field holds.
  if (height === 0) return { finalSaplingRoot: ZERO32, chainHistoryRoot: ZERO32, authDataRoot };
  if (!isUpgradeActive(network, 'Heartwood', height)) return { finalSaplingRoot: field, chainHistoryRoot: ZERO32, authDataRoot };
  // Heartwood's activation block has no earlier history tree, even where NU5 activates with it.
  if (!hasPrevHistoryRoot(network, height)) return { finalSaplingRoot: null, chainHistoryRoot: ZERO32, authDataRoot };
  if (!authDataRoot) return { finalSaplingRoot: null, chainHistoryRoot: field, authDataRoot };
  return { finalSaplingRoot: null, chainHistoryRoot: null, authDataRoot };
}
