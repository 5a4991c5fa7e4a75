/** `clearbanned` (zcashd v6.12.2 src/rpc/net.cpp): empties the ban list. */
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import type { PeerLists } from './peer-lists.js';

export const CLEARBANNED_HELP: string =
  'clearbanned\n' + '\nClear all banned IPs.\n' + '\nExamples:\n' + exampleCli('clearbanned', '') + exampleRpc('clearbanned', '');

export function clearBannedMethod(lists: PeerLists): RpcMethod {
  return {
    name: 'clearbanned',
    surface: 'peerless',
    category: 'network',
    required: 0,
    optional: 0,
    help: CLEARBANNED_HELP,
    call() {
      lists.clearBanned();
      return 'null';
    },
  };
}
