/**
 * `getblockhash index` (zcashd v6.12.2 src/rpc/blockchain.cpp).
 */
import { toHexReversed } from '../../../codec/hex.js';
import { getInt } from '../../../json/index.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc, helpLines as lines } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import { interpretHeight } from '../../params.js';
import { activeHashAt, jsonHexString, tipHeight } from './context.js';

export const GETBLOCKHASH_HELP: string =
  lines(
    'getblockhash index',
    '',
    'Returns hash of block in best-block-chain at index provided.',
    '',
    'Arguments:',
    '1. index         (numeric, required) The block index. If negative then -1 is the last known valid block',
    '',
    'Result:',
    '"hash"         (string) The block hash',
    '',
    'Examples:',
  ) +
  exampleCli('getblockhash', '1000') +
  exampleRpc('getblockhash', '1000');

export function getBlockHashMethod(store: ChainStoreReader): RpcMethod {
  return {
    name: 'getblockhash',
    category: 'blockchain',
    required: 1,
    optional: 0,
    help: GETBLOCKHASH_HELP,
    async call(params) {
      const height = interpretHeight(getInt(params[0]!), await tipHeight(store));
      return jsonHexString(toHexReversed(await activeHashAt(store, height)));
    },
  };
}
