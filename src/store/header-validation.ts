/**
 * Everything about a block that can be checked before it is connected, in zcashd's order:
 * CheckBlockHeader, ContextualCheckBlockHeader (with the ancestors' timings read from the block
 * index), CheckBlock's and ContextualCheckBlock's transaction rules, the coinbase height and the
 * founders' reward. The chain state checks the rest (the 32-byte commitment field, inputs,
 * signature ops of P2SH spends, fees, the coinbase amount) when the block is connected.
 */
import type { NetworkParams } from '../chain/network.js';
import { NEXT_WORK_WINDOW, type HeaderTiming } from '../chain/difficulty.js';
import { checkBlockHeader, checkCoinbaseHeight, contextualCheckBlockHeader, type HeaderRuleError } from '../chain/header-rules.js';
import {
  checkBlockTransactions,
  checkFoundersReward,
  contextualCheckBlockTransactions,
  type BlockTxRuleError,
} from '../chain/block-rules.js';
import type { Block } from '../codec/block.js';
import { int32LE } from '../codec/bytes.js';
import type { EquihashResult } from '../crypto/equihash.js';

export interface HeaderValidationOptions {
  /** Check Equihash solutions (default true; off only for a trusted local source). */
  verifySolutions: boolean;
  /** The local clock in Unix seconds (blocks more than 2 h ahead of it are refused). */
  now: () => number;
  /** Hears the checks that could not run (a store started from a checkpoint lacks older headers). */
  unverified?: (line: string) => void;
  /** The highest checkpoint the store holds: zcashd refuses any header below it (a fork older than it). */
  lastCheckpoint?: number;
  /** The Equihash verdict on this header, computed ahead of time (import prefetch). */
  solutionResult?: EquihashResult;
}

/** A stored header and where it sits, as the walk back through ancestors needs it. */
export interface StoredHeader {
  height: number;
  header: Uint8Array;
}

const timing = (h: StoredHeader): HeaderTiming => ({
  height: h.height,
  time: int32LE(h.header, 100) >>> 0,
  bits: int32LE(h.header, 104) >>> 0,
});

/**
 * Checks `block` at `height`; `ancestors(n)` gives up to n stored headers from the parent
 * backwards (fewer near genesis).
 */
export async function validateBlockHeader(
  block: Block,
  height: number,
  network: NetworkParams,
  ancestors: (count: number) => Promise<StoredHeader[]>,
  options: HeaderValidationOptions,
): Promise<HeaderRuleError | BlockTxRuleError | null> {
  const context = checkBlockHeader(block.header, network, height, {
    verifySolution: options.verifySolutions,
    ...(options.solutionResult ? { solutionResult: options.solutionResult } : {}),
  });
  if (context) return context;
  if (height > 0) {
    const chain: HeaderTiming[] = (await ancestors(NEXT_WORK_WINDOW)).map(timing).reverse();
    if (chain.length < NEXT_WORK_WINDOW && chain[0]!.height !== 0) {
      // Only a store started from a checkpoint lacks headers back to genesis: difficulty and
      // median-time rules need the 28 before the block, which it does not have yet.
      options.unverified?.(
        `difficulty and median-time-past of block ${block.hashHex} at ${height}: only ${chain.length} earlier headers are stored (a checkpoint start)`,
      );
    } else {
      const contextual = contextualCheckBlockHeader(block.header, {
        network,
        chain,
        now: options.now(),
        ...(options.lastCheckpoint !== undefined ? { lastCheckpointInIndex: options.lastCheckpoint } : {}),
      });
      if (contextual) return contextual;
    }
  }
  return (
    checkBlockTransactions(block, height) ??
    contextualCheckBlockTransactions(block, height, network) ??
    checkCoinbaseHeight(block, height, network) ??
    checkFoundersReward(block, height, network)
  );
}
