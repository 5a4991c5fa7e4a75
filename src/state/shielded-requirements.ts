/**
 * zcashd's CheckShieldedRequirements for the registered pools (state/pools.ts), in its order:
 * per pool, every nullifier the transaction reveals must not have been revealed before, and every
 * anchor it uses must be a root the chain had. One walk serves the block connect
 * (apply-block.ts, which adds Sprout's JoinSplit anchors) and the mempool's acceptance
 * (sendrawtransaction), so both report the same first failure.
 */
import type { TransactionData } from '../codec/tx/types.js';
import { SHIELDED_POOL_ENTRIES, type ShieldedPoolEntry, type ShieldedPoolId } from './pools.js';

export interface ShieldedRequirementView {
  /** Whether the nullifier was revealed before (by the chain, or earlier in the block). */
  nullifierRevealed(pool: ShieldedPoolId, nullifier: Uint8Array): boolean;
  /** Whether `root` is a root the pool's tree had; undefined when anchors are not checked. */
  anchorKnown?: ((pool: ShieldedPoolId, root: Uint8Array) => boolean) | undefined;
}

export interface ShieldedRequirementFailure {
  pool: ShieldedPoolEntry;
  kind: 'duplicate-nullifier' | 'unknown-anchor';
  /** zcashd's reject reason: `bad-txns-<pool>-duplicate-nullifier`, `bad-txns-<pool>-unknown-anchor`. */
  rule: `bad-txns-${ShieldedPoolId}-${'duplicate-nullifier' | 'unknown-anchor'}`;
  /** The nullifier or anchor. */
  value: Uint8Array;
  /** What revealed or used it ("Sapling spend 2", "the Orchard bundle"). */
  part: string;
}

/**
 * Walks the transaction's requirements and hands each failure to `report`, which returns whether
 * to go on (a connect from a checkpoint reports an unknown anchor and continues).
 */
export function checkShieldedRequirements(
  tx: TransactionData,
  view: ShieldedRequirementView,
  report: (failure: ShieldedRequirementFailure) => boolean,
): void {
  // One visitor for every pool (this runs for every transaction of every block).
  let pool: ShieldedPoolEntry;
  let going = true;
  const visit = (kind: 'nullifier' | 'anchor', value: Uint8Array, index: number): boolean => {
    const id = pool.id as ShieldedPoolId;
    const failed = kind === 'nullifier' ? view.nullifierRevealed(id, value) : view.anchorKnown ? !view.anchorKnown(id, value) : false;
    if (!failed) return true;
    const what = kind === 'nullifier' ? 'duplicate-nullifier' : 'unknown-anchor';
    going = report({ pool, kind: what, rule: `bad-txns-${id}-${what}`, value, part: pool.part(kind, index) });
    return going;
  };
  for (const entry of SHIELDED_POOL_ENTRIES) {
    pool = entry;
    entry.requirements(tx, visit);
    if (!going) return;
  }
}
