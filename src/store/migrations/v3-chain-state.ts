/**
 * Version 3: chain state (indexes/chain-state-index.ts: value pools, the coins view, the three
 * note-commitment trees, the history tree and every root a header commits to, verified) for the
 * blocks a version-2 store already holds, by replaying its active chain (replay.ts). A block
 * that fails verification stops the upgrade with its height, field and both values; the store
 * stays at version 2 and nothing past the last complete chunk is written.
 */
import { defaultPoolHashers } from '../../state/hashers.js';
import { ChainStateIndex } from '../indexes/chain-state-index.js';
import { replayMigration } from './replay.js';

export const CHAIN_STATE_VERSION = 3;

export const chainStateMigration = replayMigration({
  version: CHAIN_STATE_VERSION,
  description: 'compute and verify the chain state (value pools, coins, note-commitment and history trees) of the active chain',
  label: 'chain state',
  indexer: (network) => new ChainStateIndex({ network, hashers: defaultPoolHashers() }),
});
