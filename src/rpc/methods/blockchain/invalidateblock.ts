/**
 * `invalidateblock "hash"` and `reconsiderblock "hash"` (zcashd v6.12.2 src/rpc/blockchain.cpp,
 * hidden from `help` as there): the operator's reorganizations, through the store's writer queue
 * and fork choice (store/block-tree.ts), so they never interleave with a follower's or an
 * importer's blocks. The marks are the store's invalid records, kept across restarts.
 *
 * zcashd answers -5 "Block not found" for an unknown hash (parsed leniently, as uint256S) and -20
 * with the reject reason when the switch fails; zecrpc also answers -20 when it cannot disconnect
 * that deep (the store keeps undo data for MAX_REORG_DEPTH blocks) or is not writable.
 */
import { getStr } from '../../../json/getters.js';
import { InvalidationRefusedError } from '../../../store/block-tree.js';
import { DiskSpaceLowError, StoreNotWritableError } from '../../../store/errors.js';
import type { ChainOperator } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { uint256FromHexLenient } from '../../params.js';

export const INVALIDATEBLOCK_HELP: string =
  'invalidateblock "hash"\n' +
  '\nPermanently marks a block as invalid, as if it violated a consensus rule.\n' +
  '\nArguments:\n' +
  '1. hash   (string, required) the hash of the block to mark as invalid\n' +
  '\nResult:\n' +
  '\nExamples:\n' +
  exampleCli('invalidateblock', '"blockhash"') +
  exampleRpc('invalidateblock', '"blockhash"');

export const RECONSIDERBLOCK_HELP: string =
  'reconsiderblock "hash"\n' +
  '\nRemoves invalidity status of a block and its descendants, reconsider them for activation.\n' +
  'This can be used to undo the effects of invalidateblock.\n' +
  '\nArguments:\n' +
  '1. hash   (string, required) the hash of the block to reconsider\n' +
  '\nResult:\n' +
  '\nExamples:\n' +
  exampleCli('reconsiderblock', '"blockhash"') +
  exampleRpc('reconsiderblock', '"blockhash"');

async function operate(run: () => Promise<boolean>): Promise<string> {
  let found: boolean;
  try {
    found = await run();
  } catch (e) {
    if (e instanceof InvalidationRefusedError || e instanceof StoreNotWritableError || e instanceof DiskSpaceLowError) {
      throw new RpcError(RPC.DATABASE_ERROR, e.message, { cause: e });
    }
    throw e;
  }
  if (!found) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Block not found');
  return 'null';
}

export function invalidateBlockMethod(operator: ChainOperator): RpcMethod {
  return {
    name: 'invalidateblock',
    category: 'hidden',
    required: 1,
    optional: 0,
    help: INVALIDATEBLOCK_HELP,
    call: (params) => operate(() => operator.invalidateBlock(uint256FromHexLenient(getStr(params[0]!)))),
  };
}

export function reconsiderBlockMethod(operator: ChainOperator): RpcMethod {
  return {
    name: 'reconsiderblock',
    category: 'hidden',
    required: 1,
    optional: 0,
    help: RECONSIDERBLOCK_HELP,
    call: (params) => operate(() => operator.reconsiderBlock(uint256FromHexLenient(getStr(params[0]!)))),
  };
}
