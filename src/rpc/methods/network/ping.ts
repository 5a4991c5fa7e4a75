/**
 * `ping` (zcashd v6.12.2 src/rpc/net.cpp): queues a ping to every connected peer and returns
 * null; with no peers there is nothing to queue.
 */
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';

export const PING_HELP: string =
  'ping\n' +
  '\nRequests that a ping be sent to all other nodes, to measure ping time.\n' +
  'Results provided in getpeerinfo, pingtime and pingwait fields are decimal seconds.\n' +
  'Ping command is handled in queue with all other commands, so it measures processing backlog, not just network ping.\n' +
  '\nExamples:\n' +
  exampleCli('ping', '') +
  exampleRpc('ping', '');

export function pingMethod(): RpcMethod {
  return { name: 'ping', surface: 'peerless', category: 'network', required: 0, optional: 0, help: PING_HELP, call: () => 'null' };
}
