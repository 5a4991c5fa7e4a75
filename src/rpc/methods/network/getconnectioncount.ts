/**
 * `getconnectioncount` (zcashd v6.12.2 src/rpc/net.cpp): the number of peer connections, 0 for
 * zecrpc, which has no peer-to-peer network (a -upstream node is not a peer).
 */
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';

export const GETCONNECTIONCOUNT_HELP: string =
  'getconnectioncount\n' +
  '\nReturns the number of connections to other nodes.\n' +
  '\nbResult:\n' +
  'n          (numeric) The connection count\n' +
  '\nExamples:\n' +
  exampleCli('getconnectioncount', '') +
  exampleRpc('getconnectioncount', '');

export function getConnectionCountMethod(): RpcMethod {
  return {
    name: 'getconnectioncount',
    surface: 'peerless',
    category: 'network',
    required: 0,
    optional: 0,
    help: GETCONNECTIONCOUNT_HELP,
    call: () => '0',
  };
}
