/** `getgenerate` (zcashd v6.12.2 src/rpc/mining.cpp): -gen as last set (false by default). */
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import type { GenerateSetting } from './generate-setting.js';

export const GETGENERATE_HELP: string =
  'getgenerate\n' +
  '\nReturn if the server is set to generate coins or not. The default is false.\n' +
  'It is set with the command line argument -gen (or zcash.conf setting gen)\n' +
  'It can also be set with the setgenerate call.\n' +
  '\nResult\n' +
  'true|false      (boolean) If the server is set to generate coins or not\n' +
  '\nExamples:\n' +
  exampleCli('getgenerate', '') +
  exampleRpc('getgenerate', '');

export function getGenerateMethod(setting: GenerateSetting): RpcMethod {
  return {
    name: 'getgenerate',
    surface: 'peerless',
    category: 'generating',
    required: 0,
    optional: 0,
    help: GETGENERATE_HELP,
    call: () => String(setting.generate),
  };
}
