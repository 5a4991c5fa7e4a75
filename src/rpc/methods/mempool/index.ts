/**
 * Mempool and relay methods (zcashd's blockchain and rawtransactions categories): zecrpc has no
 * mempool or peers, so they are answered by the -upstream node, or as by a node with an empty
 * mempool and no peers.
 */
import type { ChainStoreReader } from '../../../store/types.js';
import type { RelayPolicy } from '../../../chain/tx-policy.js';
import type { RpcMethod } from '../../method.js';
import { getMempoolInfoMethod } from './getmempoolinfo.js';
import { getRawMempoolMethod } from './getrawmempool.js';
import { sendRawTransactionMethod } from './sendrawtransaction.js';
import type { UpstreamRelay } from './upstream-relay.js';

export { withUpstreamFallback } from './getrawtransaction-upstream.js';
export { UpstreamRelay, type UpstreamRelayOptions } from './upstream-relay.js';

export function mempoolMethods(store: ChainStoreReader, upstream: UpstreamRelay | null, policy?: RelayPolicy): RpcMethod[] {
  return [getMempoolInfoMethod(upstream), getRawMempoolMethod(upstream), sendRawTransactionMethod(store, upstream, policy)];
}
