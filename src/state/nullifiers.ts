/**
 * The nullifiers a block reveals, per pool, in zcashd's order: each JoinSplit's two, then each
 * registered pool's (state/pools.ts: each Sapling spend's, each Orchard action's). The chain
 * state records them (zcashd's nullifier sets) so a note spent once cannot be spent again.
 */
import type { Block } from '../codec/block.js';
import type { ShieldedPool } from './chain-state.js';
import { SHIELDED_POOL_ENTRIES, type ShieldedPoolId } from './pools.js';

export interface RevealedNullifier {
  pool: ShieldedPool;
  nullifier: Uint8Array;
}

export function blockNullifiers(block: Block): RevealedNullifier[] {
  const out: RevealedNullifier[] = [];
  for (const tx of block.transactions) {
    for (const js of tx.data.joinSplits) for (const nullifier of js.nullifiers) out.push({ pool: 'sprout', nullifier });
    for (const entry of SHIELDED_POOL_ENTRIES) {
      const pool = entry.id as ShieldedPoolId;
      entry.nullifiers(tx.data, (nullifier) => out.push({ pool, nullifier }));
    }
  }
  return out;
}
