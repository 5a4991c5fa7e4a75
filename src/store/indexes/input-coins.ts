/**
 * What the inputs of a decoded block spend, as the chain-state indexer resolved them when it
 * connected the block (state/apply-block.ts `inputCoins`), kept for the address index, which
 * needs the same coins and would otherwise read and decode each one from the coins view again.
 *
 * Keyed by the decoded block object, which the chain decodes once per connect and hands to every
 * indexer; a block's ancestry is fixed, so what its inputs spend is too. The chain connects the
 * chain state before the address index (chain.ts checks the order).
 */
import type { Block } from '../../codec/block.js';
import type { Coin } from '../../state/apply-block.js';

const resolved = new WeakMap<Block, readonly (readonly (Coin | null)[])[]>();

export function rememberInputCoins(block: Block, coins: readonly (readonly (Coin | null)[])[]): void {
  resolved.set(block, coins);
}

/** Per transaction, per input; undefined when the chain state has not connected this block object. */
export function inputCoinsOf(block: Block): readonly (readonly (Coin | null)[])[] | undefined {
  return resolved.get(block);
}
