/**
 * `getaddressmempool` (zcashd v6.12.2 src/rpc/misc.cpp, insight explorer). zecrpc keeps no
 * mempool: with -upstream the (validated) call is answered by the upstream node, else with the
 * empty list of an empty mempool.
 */
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import type { ExperimentalFeatures } from '../control/experimental-features.js';
import type { UpstreamRelay } from '../mempool/upstream-relay.js';
import { ADDRESS_LIST_HELP, EXAMPLE_ADDRESS, SINGLE_ADDRESS_HELP, insightMethod } from './insight-method.js';
import { addressesFromParam } from './params.js';

const HEAD = 'getaddressmempool {"addresses": ["taddr", ...]}\n' + '\nReturns all mempool deltas for an address.\n';

const TAIL =
  '\nArguments:\n' +
  '{\n' +
  ADDRESS_LIST_HELP +
  '}\n' +
  '(or)\n' +
  SINGLE_ADDRESS_HELP +
  '\nResult:\n' +
  '[\n' +
  '  {\n' +
  '    "address"  (string) The base58check encoded address\n' +
  '    "txid"  (string) The related txid\n' +
  '    "index"  (number) The related input or output index\n' +
  '    "satoshis"  (number) The difference of zatoshis\n' +
  '    "timestamp"  (number) The time the transaction entered the mempool (seconds)\n' +
  '    "prevtxid"  (string) The previous txid (if spending)\n' +
  '    "prevout"  (string) The previous transaction output index (if spending)\n' +
  '  }\n' +
  ']\n' +
  '\nExamples:\n' +
  exampleCli('getaddressmempool', `'{"addresses": ["${EXAMPLE_ADDRESS}"]}'`) +
  exampleRpc('getaddressmempool', `{"addresses": ["${EXAMPLE_ADDRESS}"]}`);

export function getAddressMempoolMethod(features: ExperimentalFeatures, upstream: UpstreamRelay | null): RpcMethod {
  const method = insightMethod(
    {
      name: 'getaddressmempool',
      category: 'addressindex',
      required: 1,
      optional: 0,
      gate: 'insight-or-lightwalletd',
      helpHead: HEAD,
      helpTail: TAIL,
      call(params, ctx) {
        addressesFromParam(params[0]!, ctx);
        return upstream ? upstream.call('getaddressmempool', params, ctx) : '[]';
      },
    },
    features,
  );
  return { ...method, surface: 'upstream' };
}
