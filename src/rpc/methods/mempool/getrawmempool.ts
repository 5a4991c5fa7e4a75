/**
 * `getrawmempool ( verbose )` (zcashd v6.12.2 src/rpc/blockchain.cpp): the upstream node's
 * mempool with -upstream, else the empty mempool of a node with no peers.
 */
import { getBool } from '../../../json/getters.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import type { UpstreamRelay } from './upstream-relay.js';

export const GETRAWMEMPOOL_HELP: string =
  'getrawmempool ( verbose )\n' +
  '\nReturns all transaction ids in memory pool as a json array of string transaction ids.\n' +
  '\nArguments:\n' +
  '1. verbose           (boolean, optional, default=false) true for a json object, false for array of transaction ids\n' +
  '\nResult: (for verbose = false):\n' +
  '[                     (json array of string)\n' +
  '  "transactionid"     (string) The transaction id\n' +
  '  ,...\n' +
  ']\n' +
  '\nResult: (for verbose = true):\n' +
  '{                           (json object)\n' +
  '  "transactionid" : {       (json object)\n' +
  '    "size" : n,             (numeric) transaction size in bytes\n' +
  '    "fee" : n,              (numeric) transaction fee in ZEC\n' +
  '    "modifiedfee" : n,      (numeric) transaction fee with fee deltas used for mining priority\n' +
  '    "time" : n,             (numeric) local time transaction entered pool in seconds since 1 Jan 1970 GMT\n' +
  '    "height" : n,           (numeric) block height when transaction entered pool\n' +
  '    "descendantcount" : n,  (numeric) number of in-mempool descendant transactions (including this one)\n' +
  '    "descendantsize" : n,   (numeric) size of in-mempool descendants (including this one)\n' +
  '    "descendantfees" : n,   (numeric) modified fees (see "modifiedfee" above) of in-mempool descendants (including this one)\n' +
  '    "depends" : [           (array) unconfirmed transactions used as inputs for this transaction\n' +
  '        "transactionid",    (string) parent transaction id\n' +
  '       ... ]\n' +
  '  }, ...\n' +
  '}\n' +
  '\nExamples\n' +
  exampleCli('getrawmempool', 'true') +
  exampleRpc('getrawmempool', 'true');

export function getRawMempoolMethod(upstream: UpstreamRelay | null): RpcMethod {
  return {
    name: 'getrawmempool',
    surface: 'upstream',
    category: 'blockchain',
    required: 0,
    optional: 1,
    help: GETRAWMEMPOOL_HELP,
    call(params, ctx) {
      if (upstream) return upstream.call('getrawmempool', params, ctx);
      const verbose = params.length > 0 ? getBool(params[0]!) : false;
      return verbose ? '{}' : '[]';
    },
  };
}
