/** `getaddressbalance` (zcashd v6.12.2 src/rpc/misc.cpp, insight explorer). */
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcMethod } from '../../method.js';
import type { ExperimentalFeatures } from '../control/experimental-features.js';
import { ADDRESS_LIST_HELP, EXAMPLE_ADDRESS, SINGLE_ADDRESS_HELP, insightMethod, type InsightContext } from './insight-method.js';
import { addressesFromParam } from './params.js';

const HEAD = 'getaddressbalance {"addresses": ["taddr", ...]}\n' + '\nReturns the balance for addresses.\n';

const TAIL =
  '\nArguments:\n' +
  '{\n' +
  ADDRESS_LIST_HELP +
  '}\n' +
  '(or)\n' +
  SINGLE_ADDRESS_HELP +
  '\nResult:\n' +
  '{\n' +
  '  "balance"  (string) The current balance in zatoshis\n' +
  '  "received"  (string) The total number of zatoshis received (including change)\n' +
  '}\n' +
  '\nExamples:\n' +
  exampleCli('getaddressbalance', `'{"addresses": ["${EXAMPLE_ADDRESS}"]}'`) +
  exampleRpc('getaddressbalance', `{"addresses": ["${EXAMPLE_ADDRESS}"]}`);

export function getAddressBalanceMethod(c: InsightContext, features: ExperimentalFeatures): RpcMethod {
  return insightMethod(
    {
      name: 'getaddressbalance',
      category: 'addressindex',
      required: 1,
      optional: 0,
      gate: 'insight-or-lightwalletd',
      helpHead: HEAD,
      helpTail: TAIL,
      async call(params, ctx) {
        let balance = 0;
        let received = 0;
        // Every delta of the whole chain (start = end = 0), each address as often as it is listed.
        // Summed a batch at a time, so an address's history costs no memory however long it is.
        for (const a of addressesFromParam(params[0]!, ctx.network)) {
          for await (const batch of c.index.deltaBatches(a.type, a.hash, 0, 0)) {
            for (const d of batch) {
              if (d.value > 0) received += d.value;
              balance += d.value;
            }
          }
        }
        return `{"balance":${balance},"received":${received}}`;
      },
    },
    features,
  );
}
