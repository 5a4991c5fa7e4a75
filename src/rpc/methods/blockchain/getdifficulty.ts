/**
 * `getdifficulty` (zcashd v6.12.2 src/rpc/blockchain.cpp): GetNetworkDifficulty, the difficulty
 * of the target required of the block after the tip.
 */
import { formatDouble } from '../../../json/index.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc, helpLines as lines } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import { networkDifficulty } from './network-difficulty.js';

export const GETDIFFICULTY_HELP: string =
  lines(
    'getdifficulty',
    '',
    'Returns the proof-of-work difficulty as a multiple of the minimum difficulty.',
    '',
    'Result:',
    'n.nnn       (numeric) the proof-of-work difficulty as a multiple of the minimum difficulty.',
    '',
    'Examples:',
  ) +
  exampleCli('getdifficulty', '') +
  exampleRpc('getdifficulty', '');

export function getDifficultyMethod(store: ChainStoreReader): RpcMethod {
  return {
    name: 'getdifficulty',
    category: 'blockchain',
    required: 0,
    optional: 0,
    help: GETDIFFICULTY_HELP,
    async call() {
      const tip = await store.tip();
      return formatDouble(await networkDifficulty(store, tip ? await store.blockIndex(tip.hash) : null));
    },
  };
}
