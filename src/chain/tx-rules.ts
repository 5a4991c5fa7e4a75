/**
 * The transaction rules zcashd v6.12.2 applies without proofs, signatures, scripts or a coins
 * view (src/main.cpp), as pure functions returning zcashd's reject code and reason, or null:
 *
 *  - CheckTransactionWithoutProofVerification: context-free structure and value ranges;
 *  - ContextualCheckTransaction: the rules of the epoch at a height (versions, expiry, the
 *    coinbase's funding-stream and lockbox-disbursement outputs);
 *  - IsFinalTx and IsExpiredTx;
 *  - the rules that came after v6.12.2: v6 transactions (ZIP 229) with their Ironwood component
 *    checked as zcashd checks the Orchard one, the Orchard soft fork and NU6.2's proof length
 *    (ZIP 257), NU6.3's Orchard-pool restrictions (ZIP 258).
 *
 * Not checked here, because each needs what zecrpc does not verify: Sprout proofs (CheckTransaction),
 * and in ContextualCheckTransaction the trial decryption of a coinbase's Sapling outputs (from
 * Heartwood: "bad-cb-output-desc-invalid-ct" and the ZIP 212 plaintext version) and Orchard
 * actions ("bad-cb-action-invalid-ciphertext"), and from NU6.3 the lead byte 0x03 of a coinbase's
 * Ironwood outputs (ZIP 258). zcashd's ZFUTURE epoch is never active here.
 */
import { bytesEqual, toHex, toHexReversed } from '../codec/hex.js';
import type { Transaction } from '../codec/tx/transaction.js';
import { firstDuplicateInput, spendsNullPrevout } from '../codec/tx/transparent.js';
import {
  MAX_MONEY,
  NU5_VERSION_GROUP_ID,
  NU6_3_VERSION_GROUP_ID,
  OVERWINTER_VERSION_GROUP_ID,
  SAPLING_VERSION_GROUP_ID,
  ZFUTURE_VERSION_GROUP_ID,
  type OrchardBundle,
  type TransactionData,
} from '../codec/tx/types.js';
import { isValidPallasPoint } from '../crypto/curves.js';
import { fundingStreamElements, lockboxDisbursementsAt, recipientScript } from './funding-streams.js';
import { branchIdAt, isOrchardSoftForkActive, isUpgradeActive, type NetworkParams } from './network.js';

/** zcashd's reject codes (src/consensus/validation.h). */
export const REJECT_INVALID = 0x10;
export const REJECT_DUPLICATE = 0x12;
export const REJECT_NONSTANDARD = 0x40;

/** A rule a transaction breaks: zcashd's reject code and reason, and what was found. */
export interface TxRuleViolation {
  code: number;
  reason: string;
  /** What zecrpc found, for logs (zcashd's reason alone is what its RPC replies carry). */
  detail: string;
}

const violation = (reason: string, detail: string, code = REJECT_INVALID): TxRuleViolation => ({ code, reason, detail });

/** MAX_TX_SIZE_AFTER_SAPLING (= MAX_BLOCK_SIZE) and MAX_TX_SIZE_BEFORE_SAPLING. */
export const MAX_TX_SIZE_AFTER_SAPLING = 2_000_000;
export const MAX_TX_SIZE_BEFORE_SAPLING = 100_000;
/** TX_EXPIRY_HEIGHT_THRESHOLD: expiry heights at or above it are refused. */
export const TX_EXPIRY_HEIGHT_THRESHOLD = 500_000_000;
/** LOCKTIME_THRESHOLD: lock times below it are heights, from it on Unix times. */
export const LOCKTIME_THRESHOLD = 500_000_000;
/** 2^16 − 1: the most Sapling spends, Sapling outputs or Orchard actions one transaction may have. */
const MAX_SHIELDED_ELEMENTS = 0xffff;
const ORCHARD_SPENDS_ENABLED = 1;
const ORCHARD_OUTPUTS_ENABLED = 2;

const isMoneyRange = (v: number): boolean => v >= 0 && v <= MAX_MONEY;
const allZero = (b: Uint8Array): boolean => b.every((x) => x === 0);

function bundleFlags(bundle: OrchardBundle | null | undefined): { spends: boolean; outputs: boolean } {
  const flags = bundle?.flags ?? 0;
  return { spends: (flags & ORCHARD_SPENDS_ENABLED) !== 0, outputs: (flags & ORCHARD_OUTPUTS_ENABLED) !== 0 };
}

/**
 * A v6 transaction's two Orchard-protocol components, each checked as zcashd checks the Orchard
 * bundle; the Ironwood component's reasons name it in the Orchard reasons' style (ZIP 258 makes
 * each Ironwood rule the analog of an Orchard one).
 */
const ACTION_COMPONENTS = [
  { name: 'Orchard', reasonName: 'orchard', valueBalanceName: 'valueBalanceOrchard', of: (d: TransactionData) => d.orchard },
  { name: 'Ironwood', reasonName: 'ironwood', valueBalanceName: 'valueBalanceIronwood', of: (d: TransactionData) => d.ironwood ?? null },
] as const;

/** The first value listed twice, as RPC hex, or null: zcashd's std::set duplicate checks. */
function firstDuplicate(values: Iterable<Uint8Array>): string | null {
  const seen = new Set<string>();
  for (const v of values) {
    const key = toHex(v);
    if (seen.has(key)) return toHexReversed(v);
    seen.add(key);
  }
  return null;
}

function* joinSplitNullifiers(tx: TransactionData): Iterable<Uint8Array> {
  for (const js of tx.joinSplits) yield* js.nullifiers;
}

/** `CheckTransactionWithoutProofVerification`, in zcashd's order. */
export function checkTransactionWithoutProofs(tx: Transaction): TxRuleViolation | null {
  const d = tx.data;
  if (!d.overwintered && d.version < 1) return violation('bad-txns-version-too-low', `version ${d.version}`);
  if (d.overwintered) {
    if (d.version < 3) return violation('bad-tx-overwinter-version-too-low', `version ${d.version}`);
    const g = d.versionGroupId >>> 0;
    if (
      g !== OVERWINTER_VERSION_GROUP_ID &&
      g !== SAPLING_VERSION_GROUP_ID &&
      g !== NU5_VERSION_GROUP_ID &&
      g !== NU6_3_VERSION_GROUP_ID &&
      g !== ZFUTURE_VERSION_GROUP_ID
    )
      return violation('bad-tx-version-group-id', `version group id ${g.toString(16)}`);
  }
  for (const c of ACTION_COMPONENTS) {
    const actions = c.of(d)?.actions ?? [];
    for (let i = 0; i < actions.length; i++) {
      const a = actions[i]!;
      if (allZero(a.rk)) return violation(`bad-${c.reasonName}-action-identity-point`, `${c.name} action ${i}: rk is the identity`);
      if (allZero(a.ephemeralKey) || !isValidPallasPoint(a.ephemeralKey))
        return violation(
          `bad-${c.reasonName}-action-identity-point`,
          `${c.name} action ${i}: ephemeralKey is not a non-identity Pallas point`,
        );
    }
  }
  const spends = d.sapling?.spends.length ?? 0;
  const outputs = d.sapling?.outputs.length ?? 0;
  const orchard = bundleFlags(d.orchard);
  const ironwood = bundleFlags(d.ironwood);
  if (d.vin.length === 0 && d.joinSplits.length === 0 && spends === 0 && !orchard.spends && !ironwood.spends)
    return violation('bad-txns-no-source-of-funds', 'no inputs, JoinSplits, Sapling spends or enabled Orchard or Ironwood spends');
  if (d.vout.length === 0 && d.joinSplits.length === 0 && outputs === 0 && !orchard.outputs && !ironwood.outputs)
    return violation('bad-txns-no-sink-of-funds', 'no outputs, JoinSplits, Sapling outputs or enabled Orchard or Ironwood outputs');
  if (tx.size > MAX_TX_SIZE_AFTER_SAPLING) return violation('bad-txns-oversize', `${tx.size} bytes`);

  let valueOut = 0;
  for (let i = 0; i < d.vout.length; i++) {
    const v = d.vout[i]!.value;
    if (v < 0) return violation('bad-txns-vout-negative', `output ${i} value ${v}`);
    if (v > MAX_MONEY) return violation('bad-txns-vout-toolarge', `output ${i} value ${v}`);
    valueOut += v;
    if (!isMoneyRange(valueOut)) return violation('bad-txns-txouttotal-toolarge', `outputs total ${valueOut} after output ${i}`);
  }
  const saplingBalance = d.sapling?.valueBalance ?? 0;
  if (spends === 0 && outputs === 0 && saplingBalance !== 0)
    return violation('bad-txns-valuebalance-nonzero', `valueBalanceSapling ${saplingBalance} without spends or outputs`);
  if (saplingBalance > MAX_MONEY || saplingBalance < -MAX_MONEY)
    return violation('bad-txns-valuebalance-toolarge', `valueBalanceSapling ${saplingBalance}`);
  if (saplingBalance <= 0) {
    valueOut += -saplingBalance;
    if (!isMoneyRange(valueOut)) return violation('bad-txns-txouttotal-toolarge', `outputs total ${valueOut} with valueBalanceSapling`);
  }
  if (spends > MAX_SHIELDED_ELEMENTS) return violation('bad-tx-too-many-sapling-spends', `${spends} Sapling spends`);
  if (outputs > MAX_SHIELDED_ELEMENTS) return violation('bad-tx-too-many-sapling-outputs', `${outputs} Sapling outputs`);
  for (const c of ACTION_COMPONENTS) {
    const bundle = c.of(d);
    const n = bundle?.actions.length ?? 0;
    const flags = bundleFlags(bundle);
    if (n > MAX_SHIELDED_ELEMENTS) return violation(`bad-tx-too-many-${c.reasonName}-actions`, `${n} ${c.name} actions`);
    if (n > 0 && !flags.outputs && !flags.spends)
      return violation(`bad-tx-${c.reasonName}-flags-disable-actions`, `${n} ${c.name} actions with spends and outputs disabled`);
    const balance = bundle?.valueBalance ?? 0;
    if (balance > MAX_MONEY || balance < -MAX_MONEY) return violation('bad-txns-valuebalance-toolarge', `${c.valueBalanceName} ${balance}`);
    if (balance <= 0) {
      valueOut += -balance;
      if (!isMoneyRange(valueOut)) return violation('bad-txns-txouttotal-toolarge', `outputs total ${valueOut} with ${c.valueBalanceName}`);
    }
  }
  for (let j = 0; j < d.joinSplits.length; j++) {
    const { vpubOld, vpubNew } = d.joinSplits[j]!;
    if (vpubOld < 0) return violation('bad-txns-vpub_old-negative', `JoinSplit ${j} vpub_old ${vpubOld}`);
    if (vpubNew < 0) return violation('bad-txns-vpub_new-negative', `JoinSplit ${j} vpub_new ${vpubNew}`);
    if (vpubOld > MAX_MONEY) return violation('bad-txns-vpub_old-toolarge', `JoinSplit ${j} vpub_old ${vpubOld}`);
    if (vpubNew > MAX_MONEY) return violation('bad-txns-vpub_new-toolarge', `JoinSplit ${j} vpub_new ${vpubNew}`);
    if (vpubNew !== 0 && vpubOld !== 0)
      return violation('bad-txns-vpubs-both-nonzero', `JoinSplit ${j} vpub_old ${vpubOld}, vpub_new ${vpubNew}`);
    valueOut += vpubOld;
    if (!isMoneyRange(valueOut)) return violation('bad-txns-txouttotal-toolarge', `outputs total ${valueOut} after JoinSplit ${j}`);
  }
  let valueIn = 0;
  for (let j = 0; j < d.joinSplits.length; j++) {
    const vpubNew = d.joinSplits[j]!.vpubNew;
    valueIn += vpubNew;
    if (!isMoneyRange(vpubNew) || !isMoneyRange(valueIn))
      return violation('bad-txns-txintotal-toolarge', `inputs total ${valueIn} after JoinSplit ${j}`);
  }
  if (saplingBalance >= 0) {
    valueIn += saplingBalance;
    if (!isMoneyRange(valueIn)) return violation('bad-txns-txintotal-toolarge', `inputs total ${valueIn} with valueBalanceSapling`);
  }
  for (const c of ACTION_COMPONENTS) {
    const balance = c.of(d)?.valueBalance ?? 0;
    if (balance >= 0) {
      valueIn += balance;
      if (!isMoneyRange(valueIn)) return violation('bad-txns-txintotal-toolarge', `inputs total ${valueIn} with ${c.valueBalanceName}`);
    }
  }

  const duplicate = firstDuplicateInput(d.vin);
  if (duplicate >= 0) {
    const p = d.vin[duplicate]!.prevout;
    return violation('bad-txns-inputs-duplicate', `input ${duplicate} spends ${toHexReversed(p.hash)}:${p.index} again`);
  }
  const jsDuplicate = d.joinSplits.length > 0 ? firstDuplicate(joinSplitNullifiers(d)) : null;
  if (jsDuplicate) return violation('bad-joinsplits-nullifiers-duplicate', `nullifier ${jsDuplicate}`);
  const saplingDuplicate = spends > 1 ? firstDuplicate(d.sapling!.spends.map((s) => s.nullifier)) : null;
  if (saplingDuplicate) return violation('bad-spend-description-nullifiers-duplicate', `nullifier ${saplingDuplicate}`);
  for (const c of ACTION_COMPONENTS) {
    const actions = c.of(d)?.actions ?? [];
    const duplicate = actions.length > 1 ? firstDuplicate(actions.map((a) => a.nullifier)) : null;
    if (duplicate) return violation(`bad-${c.reasonName}-nullifiers-duplicate`, `nullifier ${duplicate}`);
  }

  if (tx.isCoinbase) {
    if (d.joinSplits.length > 0) return violation('bad-cb-has-joinsplits', `${d.joinSplits.length} JoinSplits`);
    if (spends > 0) return violation('bad-cb-has-spend-description', `${spends} Sapling spends`);
    if (orchard.spends) return violation('bad-cb-has-orchard-spend', 'enableSpendsOrchard is set');
    // ZIP 229: a coinbase's Ironwood component may create notes but spend none.
    if (ironwood.spends) return violation('bad-cb-has-ironwood-spend', 'enableSpends is set in flagsIronwood');
    const scriptSigLength = d.vin[0]!.scriptSig.length;
    if (scriptSigLength < 2 || scriptSigLength > 100) return violation('bad-cb-length', `coinbase scriptSig of ${scriptSigLength} bytes`);
  } else {
    for (let i = 0; i < d.vin.length; i++) {
      if (spendsNullPrevout(d.vin[i]!)) return violation('bad-txns-prevout-null', `input ${i} spends the null outpoint`);
    }
  }
  return null;
}

/** `IsExpiredTx`: a non-coinbase transaction whose non-zero expiry height is below `height`. */
export function isExpiredTx(tx: Transaction, height: number): boolean {
  const expiry = tx.data.expiryHeight;
  if (expiry === 0 || tx.isCoinbase) return false;
  return height >>> 0 > expiry >>> 0;
}

/** `IsFinalTx` at `height`, with `blockTime` deciding lock times at or above LOCKTIME_THRESHOLD. */
export function isFinalTx(tx: Transaction, height: number, blockTime: number): boolean {
  const lockTime = tx.data.lockTime;
  if (lockTime === 0) return true;
  if (lockTime < (lockTime < LOCKTIME_THRESHOLD ? height : blockTime)) return true;
  for (const i of tx.data.vin) if (i.sequence !== 0xffffffff) return false;
  return true;
}

/**
 * What a coinbase owes, matched as zcashd matches it: each output settles at most one expected
 * (script, amount) pair, the first equal one. Returns how many pairs stay unpaid.
 */
function unpaid(tx: TransactionData, owed: { script: Uint8Array; amount: bigint }[]): number {
  const left = [...owed];
  for (const out of tx.vout) {
    const value = BigInt(out.value);
    const k = left.findIndex((e) => e.amount === value && bytesEqual(e.script, out.scriptPubKey));
    if (k >= 0) left.splice(k, 1);
  }
  return left.length;
}

/**
 * `ContextualCheckTransaction` at `height` (the block the transaction is in, or the next block
 * for a loose transaction), in zcashd's order. `isMined` only changes zcashd's ban score, so it
 * is not taken.
 */
export function contextualCheckTransaction(tx: Transaction, network: NetworkParams, height: number): TxRuleViolation | null {
  const d = tx.data;
  const active = (u: Parameters<typeof isUpgradeActive>[1]) => isUpgradeActive(network, u, height);
  const overwinter = active('Overwinter');
  const sapling = active('Sapling');
  const heartwood = active('Heartwood');
  const canopy = active('Canopy');
  const nu5 = active('NU5');
  const nu6 = active('NU6');
  const nu6point1 = active('NU6.1');
  const nu6point3 = active('NU6.3');
  const group = d.versionGroupId >>> 0;
  const coinbase = tx.isCoinbase;

  if (!overwinter && d.overwintered) return violation('tx-overwinter-not-active', `a v${d.version} transaction at height ${height}`);
  if (overwinter) {
    if (!d.overwintered) return violation('tx-overwintered-flag-not-set', `a v${d.version} transaction at height ${height}`);
    if (isExpiredTx(tx, height)) return violation('tx-overwinter-expired', `expiry height ${d.expiryHeight} is below ${height}`);
    if (!sapling) {
      if (d.version > 3) return violation('bad-tx-overwinter-version-too-high', `version ${d.version}`);
      if (group !== OVERWINTER_VERSION_GROUP_ID)
        return violation('bad-overwinter-tx-version-group-id', `version group id ${group.toString(16)}`);
    }
  }
  if (sapling) {
    if (group === SAPLING_VERSION_GROUP_ID) {
      if (d.version < 4) return violation('bad-tx-sapling-version-too-low', `version ${d.version}`);
      if (d.version > 4) return violation('bad-tx-sapling-version-too-high', `version ${d.version}`);
    }
    if (!nu5 && group !== SAPLING_VERSION_GROUP_ID)
      return violation('bad-sapling-tx-version-group-id', `version group id ${group.toString(16)}`);
  } else if (tx.size > MAX_TX_SIZE_BEFORE_SAPLING) {
    return violation('bad-txns-oversize', `${tx.size} bytes before Sapling`);
  }
  if (!heartwood && coinbase && (d.sapling?.outputs.length ?? 0) > 0)
    return violation('bad-cb-has-output-description', `${d.sapling!.outputs.length} Sapling outputs in a coinbase before Heartwood`);
  if (canopy) {
    for (let j = 0; j < d.joinSplits.length; j++) {
      if (d.joinSplits[j]!.vpubOld > 0)
        return violation('bad-txns-vpub_old-nonzero', `JoinSplit ${j} vpub_old ${d.joinSplits[j]!.vpubOld}`);
    }
    if (coinbase) {
      const elements = fundingStreamElements(height, network);
      const owed = elements
        .filter((e) => e.recipient.kind === 'address')
        .map((e) => ({ script: recipientScript((e.recipient as { address: string }).address, network), amount: e.amount }));
      // zcashd settles one lockbox element without an output from NU6 on.
      let lockboxes = elements.filter((e) => e.recipient.kind === 'lockbox').length;
      if (nu6 && lockboxes > 0) lockboxes--;
      const missing = unpaid(d, owed) + lockboxes;
      if (missing > 0) return violation('cb-funding-stream-missing', `${missing} funding stream output(s) missing at height ${height}`);
    }
  }
  if (nu5) {
    // From NU6.3 the v6 group joins v4's and v5's (ZIP 229); before it a v6 transaction is refused
    // here, as any group NU5 does not know.
    const v6 = nu6point3 && group === NU6_3_VERSION_GROUP_ID;
    if (group !== SAPLING_VERSION_GROUP_ID && group !== NU5_VERSION_GROUP_ID && !v6)
      return violation('bad-nu5-tx-version-group-id', `version group id ${group.toString(16)}`);
    if (group === SAPLING_VERSION_GROUP_ID && d.consensusBranchId !== null)
      return violation('bad-tx-has-consensus-branch-id', 'a v4 transaction with a consensus branch id');
    if (v6) {
      if (d.version < 6) return violation('bad-tx-zip229-version-too-low', `version ${d.version}`);
      if (d.version > 6) return violation('bad-tx-zip229-version-too-high', `version ${d.version}`);
    }
    if (group === NU5_VERSION_GROUP_ID) {
      if (d.version < 5) return violation('bad-tx-zip225-version-too-low', `version ${d.version}`);
      if (d.version > 5) return violation('bad-tx-zip225-version-too-high', `version ${d.version}`);
    }
    if (group === NU5_VERSION_GROUP_ID || v6) {
      if (d.consensusBranchId === null) return violation('bad-tx-consensus-branch-id-missing', 'no consensus branch id');
      const expected = branchIdAt(network, height) >>> 0;
      if (d.consensusBranchId >>> 0 !== expected) {
        return violation(
          'bad-tx-consensus-branch-id-mismatch',
          `consensus branch id ${(d.consensusBranchId >>> 0).toString(16).padStart(8, '0')}, the epoch's is ${expected.toString(16).padStart(8, '0')}`,
        );
      }
      if (d.joinSplits.length > 0)
        return violation('bad-tx-has-joinsplits', `${d.joinSplits.length} JoinSplits in a v${d.version} transaction`);
    }
    if (!coinbase && d.expiryHeight >>> 0 >= TX_EXPIRY_HEIGHT_THRESHOLD)
      return violation('bad-tx-expiry-height-too-high', `expiry height ${d.expiryHeight}`);
  } else {
    if (d.expiryHeight >>> 0 >= TX_EXPIRY_HEIGHT_THRESHOLD)
      return violation('bad-tx-expiry-height-too-high', `expiry height ${d.expiryHeight}`);
    if (d.orchard) return violation('bad-tx-has-orchard-actions', 'Orchard actions before NU5');
    if (d.consensusBranchId !== null) return violation('bad-tx-has-consensus-branch-id', 'a consensus branch id before NU5');
  }
  if (nu6point1 && coinbase) {
    const owed = lockboxDisbursementsAt(height, network).map((x) => ({ script: recipientScript(x.address, network), amount: x.amount }));
    const missing = owed.length > 0 ? unpaid(d, owed) : 0;
    if (missing > 0)
      return violation('cb-lockbox-disbursement-missing', `${missing} lockbox disbursement output(s) missing at height ${height}`);
  }
  return checkOrchardProtocolEraRules(tx, network, height);
}

/** ZIP 257: an Orchard-protocol proof's canonical length for `actions` actions. */
export function canonicalActionProofSize(actions: number): number {
  return 2720 + 2272 * actions;
}

const ENABLE_CROSS_ADDRESS = 4;
/** Flag bits no upgrade defines: bits 3–7 (ZIP 229). */
const UNDEFINED_ACTION_FLAGS = 0xf8;

/**
 * The rules on Orchard-protocol components that came after zcashd v6.12.2 (none of them is
 * zcashd's; docs/validation.md lists them): the Orchard soft fork and NU6.2 (ZIP 257), NU6.3's
 * Orchard-pool restrictions (ZIP 258) and v6's flag bits (ZIP 229). Each holds for every
 * transaction version that can carry the component.
 */
function checkOrchardProtocolEraRules(tx: Transaction, network: NetworkParams, height: number): TxRuleViolation | null {
  const d = tx.data;
  const orchardActions = d.orchard?.actions.length ?? 0;
  if (orchardActions > 0 && isOrchardSoftForkActive(network, height))
    return violation('bad-tx-orchard-actions-disabled', `${orchardActions} Orchard actions during the Orchard soft fork`);
  if (isUpgradeActive(network, 'NU6.2', height)) {
    for (const c of ACTION_COMPONENTS) {
      const bundle = c.of(d);
      if (bundle && bundle.proof.length !== canonicalActionProofSize(bundle.actions.length)) {
        return violation(
          `bad-tx-${c.reasonName}-proof-length`,
          `${c.name} proof of ${bundle.proof.length} bytes for ${bundle.actions.length} actions, not ${canonicalActionProofSize(bundle.actions.length)}`,
        );
      }
    }
  }
  if (!isUpgradeActive(network, 'NU6.3', height)) return null;
  if (tx.isCoinbase && orchardActions > 0)
    return violation('bad-cb-has-orchard-actions', `${orchardActions} Orchard actions in a coinbase from NU6.3`);
  for (const c of ACTION_COMPONENTS) {
    const flags = c.of(d)?.flags ?? 0;
    if ((flags & UNDEFINED_ACTION_FLAGS) !== 0)
      return violation(`bad-tx-${c.reasonName}-flags-reserved`, `flags${c.name} ${flags.toString(2).padStart(8, '0')}`);
  }
  if (d.orchard && (d.orchard.flags & ENABLE_CROSS_ADDRESS) !== 0)
    return violation('bad-tx-orchard-cross-address-enabled', 'enableCrossAddress is set in flagsOrchard from NU6.3');
  if (d.orchard && d.orchard.valueBalance < 0)
    return violation(
      'bad-tx-orchard-negative-valuebalance',
      `valueBalanceOrchard ${d.orchard.valueBalance} adds to the Orchard pool from NU6.3`,
    );
  return null;
}
