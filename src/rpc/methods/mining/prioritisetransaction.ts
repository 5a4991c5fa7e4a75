/**
 * `prioritisetransaction <txid> <priority delta> <fee delta>` (zcashd v6.12.2 src/rpc/mining.cpp):
 * a fee delta for block assembly. With -upstream the upstream node assembles the block templates
 * zecrpc relays, so the call is forwarded to it; without, zecrpc checks the arguments as zcashd
 * does and answers true, as zcashd records a delta even for a transaction it does not hold.
 */
import { getInt64, getReal, getStr } from '../../../json/getters.js';
import { isHex } from '../../../codec/hex.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import type { UpstreamRelay } from '../mempool/upstream-relay.js';

export const PRIORITISETRANSACTION_HELP: string =
  'prioritisetransaction <txid> <priority delta> <fee delta>\n' +
  'Accepts the transaction into mined blocks at a higher (or lower) priority\n' +
  '\nArguments:\n' +
  '1. "txid"       (string, required) The transaction id.\n' +
  '2. priority_delta (numeric, optional) Fee-independent priority adjustment. Not supported, so must be zero or null.\n' +
  '3. fee_delta      (numeric, required) The fee value (in zatoshis) to add (or subtract, if negative).\n' +
  '                  The modified fee is not actually paid, only the algorithm for selecting transactions into a block\n' +
  '                  considers the transaction as it would have paid a higher (or lower) fee.\n' +
  '\nResult\n' +
  'true              (boolean) Returns true\n' +
  '\nExamples:\n' +
  exampleCli('prioritisetransaction', '"txid" 0.0 10000') +
  exampleRpc('prioritisetransaction', '"txid", 0.0, 10000');

export function prioritiseTransactionMethod(upstream: UpstreamRelay | null): RpcMethod {
  return {
    name: 'prioritisetransaction',
    surface: 'upstream',
    category: 'mining',
    required: 3,
    optional: 0,
    help: PRIORITISETRANSACTION_HELP,
    call(params, ctx) {
      if (upstream) return upstream.call('prioritisetransaction', params, ctx);
      // ParseHashStr: a runtime_error, hence -1.
      const txid = getStr(params[0]!);
      if (!isHex(txid)) throw new Error(`txid must be hexadecimal string (not '${txid}')`);
      getInt64(params[2]!);
      if (!(params[1] === null || getReal(params[1]!) === 0)) {
        throw new RpcError(RPC.INVALID_PARAMETER, 'Priority is not supported, and adjustment thereof must be zero.');
      }
      return 'true';
    },
  };
}
