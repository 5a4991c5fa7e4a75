/**
 * The nullifiers a block reveals, per pool, in zcashd's order: each JoinSplit's two, each Sapling
 * spend's, each Orchard action's. The chain state records them (zcashd's nullifier sets) so a
 * note spent once cannot be spent again.
 */
import type { Block } from '../codec/block.js';
import type { ShieldedPool } from './chain-state.js';

export interface RevealedNullifier {
  pool: ShieldedPool;
  nullifier: Uint8Array;
}

export function blockNullifiers(block: Block): RevealedNullifier[] {
  const out: RevealedNullifier[] = [];
  for (const tx of block.transactions) {
    for (const js of tx.data.joinSplits) for (const nullifier of js.nullifiers) out.push({ pool: 'sprout', nullifier });
    for (const spend of tx.data.sapling?.spends ?? []) out.push({ pool: 'sapling', nullifier: spend.nullifier });
    for (const action of tx.data.orchard?.actions ?? []) out.push({ pool: 'orchard', nullifier: action.nullifier });
  }
  return out;
}
