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
  const entries = SHIELDED_POOL_ENTRIES;
  const found: Uint8Array[] = [];
  for (const tx of block.transactions) {
    const d = tx.data;
    for (const js of d.joinSplits) for (const nullifier of js.nullifiers) out.push({ pool: 'sprout', nullifier });
    for (let p = 0; p < entries.length; p++) {
      entries[p]!.nullifiers(d, found);
      if (found.length === 0) continue;
      const pool = entries[p]!.id as ShieldedPoolId;
      for (const nullifier of found) out.push({ pool, nullifier });
      found.length = 0;
    }
  }
  return out;
}
