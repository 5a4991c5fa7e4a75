/**
 * `verifychain ( checklevel numblocks )` (zcashd v6.12.2 src/rpc/blockchain.cpp, CVerifyDB in
 * main.cpp): checks the last `numblocks` blocks of the active chain (default 288, 0 = all; never
 * the genesis block) at a level clamped to 0–4, true when all pass. zcashd's levels mapped onto
 * what zecrpc keeps:
 * - 0 (read from disk): the stored bytes are the indexed block (size and header hash);
 * - 1 (CheckBlock): they decode, match the header's merkle root, and pass CheckBlock's
 *   transaction rules;
 * - 2 (undo data): the stored txid list, which disconnecting a block relies on, is the block's;
 * - 3 and 4 (disconnect and reconnect the chain state): the block has its connected chain-state
 *   record (`B`), which a reconnect would rewrite. zcashd's in-memory disconnect and reconnect
 *   of the tip's blocks is not replayed.
 * Each block is one read of its bytes and a decode, so `numblocks` 0 reads the whole chain.
 */
import { checkBlockTransactions } from '../../../chain/block-rules.js';
import { getInt } from '../../../json/getters.js';
import type { BlockIndexEntry, ChainStoreReader } from '../../../store/types.js';
import {
  BlockReadError,
  blockContentProblem,
  decodeVerifiedBlock,
  IndexCorruptionError,
  storedBlockProblem,
  storedTxidsProblem,
} from '../../../store/verify.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';

/** DEFAULT_CHECKLEVEL and DEFAULT_CHECKBLOCKS (src/main.h): -checklevel's and -checkblocks' defaults. */
export const DEFAULT_CHECK_LEVEL = 3;
export const DEFAULT_CHECK_BLOCKS = 288;

export const VERIFYCHAIN_HELP: string =
  'verifychain ( checklevel numblocks )\n' +
  '\nVerifies blockchain database.\n' +
  '\nArguments:\n' +
  `1. checklevel   (numeric, optional, 0-4, default=${DEFAULT_CHECK_LEVEL}) How thorough the block verification is.\n` +
  `2. numblocks    (numeric, optional, default=${DEFAULT_CHECK_BLOCKS}, 0=all) The number of blocks to check.\n` +
  '\nResult:\n' +
  'true|false       (boolean) Verified or not\n' +
  '\nExamples:\n' +
  exampleCli('verifychain', '') +
  exampleRpc('verifychain', '');

/**
 * Whether one block passes the checks up to `level`. A block or record the store cannot read
 * (a truncated block file, a record whose checksum fails) fails the check, as a failed
 * ReadBlockFromDisk makes zcashd's VerifyDB answer false rather than raise an error.
 */
async function blockPasses(store: ChainStoreReader, entry: BlockIndexEntry, level: number): Promise<boolean> {
  try {
    return await blockChecksPass(store, entry, level);
  } catch (e) {
    if (isUnreadable(e)) return false;
    throw e;
  }
}

function isUnreadable(e: unknown): boolean {
  return e instanceof BlockReadError || e instanceof IndexCorruptionError;
}

async function blockChecksPass(store: ChainStoreReader, entry: BlockIndexEntry, level: number): Promise<boolean> {
  const bytes = entry.haveData ? await store.blockBytes(entry.hash) : null;
  if (!bytes || storedBlockProblem(entry.hash, bytes, entry.size) !== null) return false;
  if (level >= 1) {
    const block = decodeVerifiedBlock(bytes);
    if (typeof block === 'string' || blockContentProblem(block) !== null) return false;
    if (checkBlockTransactions(block, entry.height) !== null) return false;
    if (level >= 2) {
      const txids = await store.blockTxids(entry.hash);
      if (!txids || storedTxidsProblem(entry.hash, block.header, txids, entry.txCount) !== null) return false;
    }
  }
  if (level >= 3 && !(await store.blockState(entry.hash))) return false;
  return true;
}

export function verifyChainMethod(store: ChainStoreReader): RpcMethod {
  return {
    name: 'verifychain',
    category: 'blockchain',
    required: 0,
    optional: 2,
    help: VERIFYCHAIN_HELP,
    async call(params) {
      let level = params.length > 0 ? getInt(params[0]!) : DEFAULT_CHECK_LEVEL;
      let depth = params.length > 1 ? getInt(params[1]!) : DEFAULT_CHECK_BLOCKS;
      const tip = await store.tip();
      if (!tip || tip.height === 0) return 'true';
      if (depth <= 0 || depth > tip.height) depth = tip.height;
      level = Math.max(0, Math.min(4, level));
      for (let height = tip.height; height > 0 && height >= tip.height - depth; height--) {
        let entry: BlockIndexEntry | null;
        try {
          const hash = await store.hashAtHeight(height);
          entry = hash ? await store.blockIndex(hash) : null;
        } catch (e) {
          if (isUnreadable(e)) return 'false';
          throw e;
        }
        // A store started from a checkpoint holds nothing below it: the check ends there.
        if (!entry && (await store.chainStateTip())?.coinsComplete === false) break;
        if (!entry || !(await blockPasses(store, entry, level))) return 'false';
      }
      return 'true';
    },
  };
}
