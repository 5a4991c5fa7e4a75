/**
 * `getmempoolinfo` (zcashd v6.12.2 src/rpc/blockchain.cpp): the upstream node's with -upstream,
 * else an empty mempool's (regtest adds fullyNotified, true when nothing awaits notification).
 */
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import type { UpstreamRelay } from './upstream-relay.js';

export const GETMEMPOOLINFO_HELP: string =
  'getmempoolinfo\n' +
  '\nReturns details on the active state of the TX memory pool.\n' +
  '\nResult:\n' +
  '{\n' +
  '  "size": xxxxx                (numeric) Current tx count\n' +
  '  "bytes": xxxxx               (numeric) Sum of all tx sizes\n' +
  '  "usage": xxxxx               (numeric) Total memory usage for the mempool\n' +
  '  "fullyNotified": true|false  (boolean, regtest only)\n' +
  '                               Whether the node has finished notifying all\n' +
  '                               listeners/tests about every transaction currently\n' +
  '                               in the mempool. This key is returned only when the\n' +
  '                               node is running in regtest.\n' +
  '}\n' +
  '\nExamples:\n' +
  exampleCli('getmempoolinfo', '') +
  exampleRpc('getmempoolinfo', '');

export function getMempoolInfoMethod(upstream: UpstreamRelay | null): RpcMethod {
  return {
    name: 'getmempoolinfo',
    surface: 'upstream',
    category: 'blockchain',
    required: 0,
    optional: 0,
    help: GETMEMPOOLINFO_HELP,
    call(params, ctx) {
      if (upstream) return upstream.call('getmempoolinfo', params, ctx);
      return ctx.network.name === 'regtest' ? '{"size":0,"bytes":0,"usage":0,"fullyNotified":true}' : '{"size":0,"bytes":0,"usage":0}';
    },
  };
}
