/**
 * zcashd's BIP22 result for a submitted block (src/rpc/mining.cpp `submitblock` and
 * `BIP22ValidationResult`), from what the chain store's acceptance says of it.
 */
import type { AddResult } from '../../../store/chain.js';
import { BlockRejectedError, type RejectReason } from '../../../store/errors.js';
import { RpcError } from '../../method.js';

/** The part of a writable chain store submitblock uses. */
export interface BlockAcceptor {
  addBlock(bytes: Uint8Array): Promise<AddResult>;
  isMarkedInvalid(hash: Uint8Array): boolean;
}

/** RPC_VERIFY_ERROR: zcashd's answer when validation itself failed (`state.IsError()`). */
const RPC_VERIFY_ERROR = -25;

/**
 * zcashd's reject reason for a refusal the store names by category: what CheckBlock,
 * AcceptBlockHeader and CheckBlockHeader say for the same block. Categories whose rule the error
 * carries (header, transaction and connect rules) use it instead.
 */
const REASON_BY_CATEGORY: Partial<Record<RejectReason, string>> = {
  'too-large': 'bad-blk-length',
  // A block without a parent that is not the genesis block, or whose parent is unknown or invalid.
  genesis: 'bad-prevblk',
  'unknown-parent': 'bad-prevblk',
  'invalid-parent': 'bad-prevblk',
  // A solution of another network's size fails CheckEquihashSolution.
  network: 'invalid-solution',
  decode: 'rejected',
};

/** Header rules zecrpc names that have no zcashd reject reason: zcashd's state then has none. */
const RULES_WITHOUT_ZCASHD_REASON = new Set(['fork-before-last-checkpoint', 'checkpoint-mismatch', 'activation-block-mismatch']);

/** zcashd's reject reason for a block the store refused, or null for a failure that is not a rule's. */
function rejectReason(e: BlockRejectedError): string | null {
  if (e.rule !== undefined) return RULES_WITHOUT_ZCASHD_REASON.has(e.rule) ? 'rejected' : e.rule;
  return REASON_BY_CATEGORY[e.reason] ?? null;
}

/**
 * Adds the block through the store's acceptance: null when it joined the active chain,
 * "inconclusive" when it was stored off it, "duplicate" for a block already held, a reject reason
 * when a rule refused it, and -25 with the store's message when switching to it failed for
 * another reason (as zcashd's `state.IsError()`).
 */
export async function bip22Result(acceptor: BlockAcceptor, bytes: Uint8Array): Promise<string | null> {
  let added: AddResult;
  try {
    added = await acceptor.addBlock(bytes);
  } catch (e) {
    if (!(e instanceof BlockRejectedError)) throw e;
    const reason = rejectReason(e);
    if (reason === null) throw new RpcError(RPC_VERIFY_ERROR, e.message, { cause: e });
    return reason;
  }
  if (added.status === 'duplicate') return 'duplicate';
  return added.status === 'side-chain' ? 'inconclusive' : null;
}
