/**
 * `getlocalsolps` (zcashd v6.12.2 src/rpc/mining.cpp): the average rate of Equihash solutions
 * this node has found while mining, 0 for a node that never mines.
 */
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';

export const GETLOCALSOLPS_HELP: string =
  'getlocalsolps\n' +
  '\nReturns the average local solutions per second since this node was started.\n' +
  'This is the same information shown on the metrics screen (if enabled).\n' +
  '\nResult:\n' +
  'xxx.xxxxx     (numeric) Solutions per second average\n' +
  '\nExamples:\n' +
  exampleCli('getlocalsolps', '') +
  exampleRpc('getlocalsolps', '');

export function getLocalSolPsMethod(): RpcMethod {
  return {
    name: 'getlocalsolps',
    surface: 'peerless',
    category: 'mining',
    required: 0,
    optional: 0,
    help: GETLOCALSOLPS_HELP,
    call: () => '0',
  };
}
