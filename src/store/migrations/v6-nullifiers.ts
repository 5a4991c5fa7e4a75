/**
 * Version 6: the nullifier sets (`N` ‖ pool ‖ nullifier, indexes/chain-state-index.ts) for the
 * blocks a version-5 store already holds, built by replaying its active chain (replay.ts). The
 * chain state checks every new block's nullifiers against them (zcashd's CheckShieldedRequirements);
 * a store without them would take a block that spends a note a second time.
 */
import { nullifierOps } from '../indexes/chain-state-index.js';
import type { ChainBlock, Indexer, IndexerConnect } from '../indexes/indexer.js';
import { blockNullifiers } from '../../state/nullifiers.js';
import { replayMigration } from './replay.js';

/** The nullifier records of each replayed block, and nothing else (the chain state has the rest). */
class NullifierReplay implements Indexer {
  readonly name = 'nullifier sets';
  /** Never stored: connect returns no undo blob. */
  readonly undoTag = 0;

  async connect(chainBlock: ChainBlock): Promise<IndexerConnect> {
    if (chainBlock.height === 0) return { ops: [] };
    return { ops: nullifierOps(blockNullifiers(await chainBlock.block()), 'put') };
  }

  disconnect(): never {
    throw new Error('the nullifier migration only replays the active chain forwards');
  }
}

export const nullifierMigration = replayMigration({
  version: 6,
  description: "record the nullifiers the active chain has revealed (zcashd's nullifier sets)",
  label: 'nullifier sets',
  indexer: () => new NullifierReplay(),
});
