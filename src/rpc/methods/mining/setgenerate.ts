/**
 * `setgenerate generate ( genproclimit )` (zcashd v6.12.2 src/rpc/mining.cpp): refused on regtest
 * (which mines with `generate`); elsewhere it records -gen and -genproclimit (a limit of 0 turns
 * generation off) and, with no miner address, mines nothing.
 */
import { getBool, getInt } from '../../../json/getters.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import type { GenerateSetting } from './generate-setting.js';

export const SETGENERATE_HELP: string =
  'setgenerate generate ( genproclimit )\n' +
  "\nSet 'generate' true or false to turn generation on or off.\n" +
  "Generation is limited to 'genproclimit' processors, -1 is unlimited.\n" +
  'See the getgenerate call for the current setting.\n' +
  '\nArguments:\n' +
  '1. generate         (boolean, required) Set to true to turn on generation, off to turn off.\n' +
  '2. genproclimit     (numeric, optional) Set the processor limit for when generation is on. Can be -1 for unlimited.\n' +
  '\nExamples:\n' +
  '\nSet the generation on with a limit of one processor\n' +
  exampleCli('setgenerate', 'true 1') +
  '\nCheck the setting\n' +
  exampleCli('getgenerate', '') +
  '\nTurn off generation\n' +
  exampleCli('setgenerate', 'false') +
  '\nUsing json rpc\n' +
  exampleRpc('setgenerate', 'true, 1');

export function setGenerateMethod(setting: GenerateSetting): RpcMethod {
  return {
    name: 'setgenerate',
    surface: 'peerless',
    category: 'generating',
    required: 1,
    optional: 1,
    help: SETGENERATE_HELP,
    call(params, ctx) {
      if (ctx.network.name === 'regtest') {
        throw new RpcError(RPC.METHOD_NOT_FOUND, 'Use the generate method instead of setgenerate on this network');
      }
      let generate = getBool(params[0]!);
      let procLimit = setting.procLimit;
      if (params.length > 1) {
        procLimit = getInt(params[1]!);
        if (procLimit === 0) generate = false;
      }
      setting.generate = generate;
      setting.procLimit = procLimit;
      return 'null';
    },
  };
}
