/**
 * `getbestblockhash` (zcashd v6.12.2 src/rpc/blockchain.cpp).
 */
import { toHexReversed } from '../../../codec/hex.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc, helpLines as lines } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import { jsonHexString, requireTip } from './context.js';

export const GETBESTBLOCKHASH_HELP: string =
  lines(
    'getbestblockhash',
    '',
    'Returns the hash of the best (tip) block in the longest block chain.',
    '',
    'Result',
    '"hex"      (string) the block hash hex encoded',
    '',
    'Examples',
  ) +
  exampleCli('getbestblockhash', '') +
  exampleRpc('getbestblockhash', '');

export function getBestBlockHashMethod(store: ChainStoreReader): RpcMethod {
  return {
    name: 'getbestblockhash',
    category: 'blockchain',
    required: 0,
    optional: 0,
    help: GETBESTBLOCKHASH_HELP,
    async call() {
      return jsonHexString(toHexReversed((await requireTip(store)).hash));
    },
  };
}
