/**
 * The blockchain category (zcashd v6.12.2 src/rpc/blockchain.cpp `commands[]`): the block read
 * methods zecrpc serves from its chain store.
 */
import type { ChainStoreReader } from '../../../store/types.js';
import type { RpcMethod } from '../../method.js';
import type { SpentIndexLookup } from '../spent-index-lookup.js';
import { getBestBlockHashMethod } from './getbestblockhash.js';
import { getBlockMethod } from './getblock.js';
import { getBlockchainInfoMethod, systemClock, type Clock } from './getblockchaininfo.js';
import { getBlockCountMethod } from './getblockcount.js';
import { getBlockHashMethod } from './getblockhash.js';
import { getBlockHeaderMethod } from './getblockheader.js';
import { getDifficultyMethod } from './getdifficulty.js';
import { zGetSubtreesByIndexMethod } from './z_getsubtreesbyindex.js';
import { zGetTreeStateMethod } from './z_gettreestate.js';

export interface BlockchainMethodOptions {
  /** Wall clock for getblockchaininfo's verificationprogress (seconds). */
  clock?: Clock;
  /** Keep finished getblock replies for the current tip (default true; off to measure the uncached path). */
  cacheReplies?: boolean;
  /**
   * Answer getblock verbosity 1 of connected blocks from the index (header, txids, chain state)
   * without reading the block (default true; off to measure the decode path it replaces).
   */
  summaryReplies?: boolean;
  /** `-legacyorchardroot`: finalorchardroot (and z_gettreestate's orchard finalRoot) byte-reversed. */
  legacyOrchardRoot?: boolean;
  /** `-lightwalletd` (with -experimentalfeatures): enables z_getsubtreesbyindex. */
  lightwalletd?: boolean;
  /** The spent index's members for getblock verbosity 2 (-insightexplorer); none by default. */
  spentIndexLookup?: SpentIndexLookup | null;
  /**
   * The height of a chain the node knows is there but has not stored yet (-upstream's tip, as
   * last polled): getblockchaininfo's `headers` is at least this, as zcashd's best header runs
   * ahead of its blocks while it downloads. -1 or absent: the store's own best block.
   */
  knownChainHeight?: () => number;
}

export function blockchainMethods(store: ChainStoreReader, options: BlockchainMethodOptions = {}): RpcMethod[] {
  return [
    getBestBlockHashMethod(store),
    getBlockMethod(store, {
      cacheReplies: options.cacheReplies ?? true,
      summaryReplies: options.summaryReplies ?? true,
      legacyOrchardRoot: options.legacyOrchardRoot ?? false,
      spentIndexLookup: options.spentIndexLookup ?? null,
    }),
    getBlockchainInfoMethod(store, options.clock ?? systemClock, options.knownChainHeight),
    getBlockCountMethod(store),
    getBlockHashMethod(store),
    getBlockHeaderMethod(store),
    getDifficultyMethod(store),
    zGetSubtreesByIndexMethod(store, options.lightwalletd ?? false),
    zGetTreeStateMethod(store, { legacyOrchardRoot: options.legacyOrchardRoot ?? false }),
  ];
}
