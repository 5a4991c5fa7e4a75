/**
 * `getblockcount` (zcashd v6.12.2 src/rpc/blockchain.cpp).
 */
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc, helpLines as lines } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import { tipHeight } from './context.js';

export const GETBLOCKCOUNT_HELP: string =
  lines(
    'getblockcount',
    '',
    'Returns the height of the most recent block in the best valid block chain (equivalently,',
    'the number of blocks in this chain excluding the genesis block).',
    '',
    'Result:',
    'n    (numeric) The height of the most recent block.',
    '',
    'Examples:',
  ) +
  exampleCli('getblockcount', '') +
  exampleRpc('getblockcount', '');

export function getBlockCountMethod(store: ChainStoreReader): RpcMethod {
  return {
    name: 'getblockcount',
    category: 'blockchain',
    required: 0,
    optional: 0,
    help: GETBLOCKCOUNT_HELP,
    async call() {
      return String(await tipHeight(store));
    },
  };
}
