/**
 * `generate numblocks` (zcashd v6.12.2 src/rpc/mining.cpp): regtest only; a node without a
 * wallet or -mineraddress has no address to pay the coinbase to, and says so.
 */
import { getInt } from '../../../json/getters.js';
import { helpExampleCli as exampleCli } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';

export const GENERATE_HELP: string =
  'generate numblocks\n' +
  '\nMine blocks immediately (before the RPC call returns)\n' +
  '\nNote: this function can only be used on the regtest network\n' +
  '\nArguments:\n' +
  '1. numblocks    (numeric, required) How many blocks are generated immediately.\n' +
  '\nResult\n' +
  '[ blockhashes ]     (array) hashes of blocks generated\n' +
  '\nExamples:\n' +
  '\nGenerate 11 blocks\n' +
  exampleCli('generate', '11');

export function generateMethod(): RpcMethod {
  return {
    name: 'generate',
    surface: 'peerless',
    category: 'generating',
    required: 1,
    optional: 0,
    help: GENERATE_HELP,
    call(params, ctx) {
      if (ctx.network.name !== 'regtest') throw new RpcError(RPC.METHOD_NOT_FOUND, 'This method can only be used on regtest');
      getInt(params[0]!);
      throw new RpcError(RPC.INTERNAL_ERROR, 'No miner address available (mining requires a wallet or -mineraddress)');
    },
  };
}
