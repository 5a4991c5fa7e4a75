/**
 * `addnode "node" "add|remove|onetry"` (zcashd v6.12.2 src/rpc/net.cpp): edits the addnode list,
 * which zecrpc keeps as zcashd does (getaddednodeinfo lists it) without ever connecting to it;
 * "onetry" would open one connection, which a node without a peer network does not make.
 */
import { getStr } from '../../../json/getters.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RpcError, type RpcMethod } from '../../method.js';
import type { PeerLists } from './peer-lists.js';
import { RPC_CLIENT_NODE_ALREADY_ADDED } from './setban.js';

/** RPC_CLIENT_NODE_NOT_ADDED (src/rpc/protocol.h). */
export const RPC_CLIENT_NODE_NOT_ADDED = -24;

export const ADDNODE_HELP: string =
  'addnode "node" "add|remove|onetry"\n' +
  '\nAttempts to add or remove a node from the addnode list.\n' +
  'Or try a connection to a node once.\n' +
  '\nArguments:\n' +
  '1. "node"     (string, required) The node (see getpeerinfo for nodes)\n' +
  "2. \"command\"  (string, required) 'add' to add a node to the list, 'remove' to remove a node from the list, 'onetry' to try a connection to the node once\n" +
  '\nExamples:\n' +
  exampleCli('addnode', '"192.168.0.6:8233" "onetry"') +
  exampleRpc('addnode', '"192.168.0.6:8233", "onetry"');

export function addNodeMethod(lists: PeerLists): RpcMethod {
  return {
    name: 'addnode',
    surface: 'peerless',
    category: 'network',
    required: 2,
    optional: 0,
    help: ADDNODE_HELP,
    call(params) {
      const command = getStr(params[1]!);
      if (command !== 'onetry' && command !== 'add' && command !== 'remove') throw new Error(ADDNODE_HELP);
      const node = getStr(params[0]!);
      if (command === 'onetry') return 'null';
      const at = lists.addedNodes.indexOf(node);
      if (command === 'add') {
        if (at >= 0) throw new RpcError(RPC_CLIENT_NODE_ALREADY_ADDED, 'Error: Node already added');
        lists.addedNodes.push(node);
      } else {
        if (at < 0) throw new RpcError(RPC_CLIENT_NODE_NOT_ADDED, 'Error: Node has not been added.');
        lists.addedNodes.splice(at, 1);
      }
      return 'null';
    },
  };
}
