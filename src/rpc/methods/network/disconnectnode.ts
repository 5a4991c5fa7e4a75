/**
 * `disconnectnode "node"` (zcashd v6.12.2 src/rpc/net.cpp): FindNode over the connected peers;
 * with none, every node is -29 "Node not found in connected nodes".
 */
import { getStr } from '../../../json/getters.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RpcError, type RpcMethod } from '../../method.js';

/** RPC_CLIENT_NODE_NOT_CONNECTED (src/rpc/protocol.h). */
export const RPC_CLIENT_NODE_NOT_CONNECTED = -29;

export const DISCONNECTNODE_HELP: string =
  'disconnectnode "node" \n' +
  '\nImmediately disconnects from the specified node.\n' +
  '\nArguments:\n' +
  '1. "node"     (string, required) The node (see getpeerinfo for nodes)\n' +
  '\nExamples:\n' +
  exampleCli('disconnectnode', '"192.168.0.6:8233"') +
  exampleRpc('disconnectnode', '"192.168.0.6:8233"');

export function disconnectNodeMethod(): RpcMethod {
  return {
    name: 'disconnectnode',
    surface: 'peerless',
    category: 'network',
    required: 1,
    optional: 0,
    help: DISCONNECTNODE_HELP,
    call(params) {
      getStr(params[0]!);
      throw new RpcError(RPC_CLIENT_NODE_NOT_CONNECTED, 'Node not found in connected nodes');
    },
  };
}
