/**
 * getrawtransaction with -upstream: a transaction the store does not have (a mempool
 * transaction, to zcashd) is asked of the upstream node, whose answer is relayed verbatim.
 * Only the store's "No such mempool or blockchain transaction" falls through; lookups in an
 * explicit block and every other error stay the store's.
 */
import { RpcError, type RpcMethod } from '../../method.js';
import type { UpstreamRelay } from './upstream-relay.js';

const NOT_IN_STORE = 'No such mempool or blockchain transaction. Use gettransaction for wallet transactions.';

export function withUpstreamFallback(method: RpcMethod, upstream: UpstreamRelay): RpcMethod {
  return {
    ...method,
    async call(params, ctx) {
      try {
        return await method.call(params, ctx);
      } catch (e) {
        if (e instanceof RpcError && e.message === NOT_IN_STORE) return upstream.call(method.name, params, ctx);
        throw e;
      }
    },
  };
}
