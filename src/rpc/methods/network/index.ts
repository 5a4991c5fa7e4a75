/**
 * The network category (zcashd v6.12.2 src/rpc/net.cpp `commands[]`), answered as zcashd answers
 * with no connections: zecrpc has no peer-to-peer network of its own. The addnode and ban lists
 * are kept (in memory) so their methods behave as zcashd's do.
 */
import type { ChainStoreReader } from '../../../store/types.js';
import type { RpcMethod } from '../../method.js';
import type { UpstreamRelay } from '../mempool/upstream-relay.js';
import { addNodeMethod } from './addnode.js';
import { clearBannedMethod } from './clearbanned.js';
import { disconnectNodeMethod } from './disconnectnode.js';
import { getAddedNodeInfoMethod, type HostResolver } from './getaddednodeinfo.js';
import { getConnectionCountMethod } from './getconnectioncount.js';
import { getDeprecationInfoMethod } from './getdeprecationinfo.js';
import { getNetTotalsMethod } from './getnettotals.js';
import { getNetworkInfoMethod } from './getnetworkinfo.js';
import { getPeerInfoMethod } from './getpeerinfo.js';
import { listBannedMethod } from './listbanned.js';
import { PeerLists } from './peer-lists.js';
import { pingMethod } from './ping.js';
import { setBanMethod } from './setban.js';

export interface NetworkMethodOptions {
  /** Wall clock in seconds. */
  clock?: () => number;
  /** Wall clock in milliseconds (getnettotals' timemillis). */
  clockMillis?: () => number;
  uaComments?: readonly string[];
  /** -minrelaytxfee's rate (getnetworkinfo's relayfee). */
  minRelayTxFee?: bigint;
  upstream?: UpstreamRelay | null;
  /** `-allowdeprecated=deprecationinfo_deprecationheight`: getdeprecationinfo's deprecationheight. */
  deprecationHeightField?: boolean;
  /** Name resolution for getaddednodeinfo (default: the system resolver). */
  resolver?: HostResolver;
}

export function networkMethods(store: ChainStoreReader, options: NetworkMethodOptions = {}): RpcMethod[] {
  const clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
  const lists = new PeerLists(clock);
  return [
    getConnectionCountMethod(),
    getDeprecationInfoMethod(store, clock, options.deprecationHeightField ?? false),
    pingMethod(),
    getPeerInfoMethod(),
    addNodeMethod(lists),
    disconnectNodeMethod(),
    getAddedNodeInfoMethod(lists, options.resolver),
    getNetTotalsMethod(options.clockMillis),
    getNetworkInfoMethod({ clock, uaComments: options.uaComments, minRelayTxFee: options.minRelayTxFee, upstream: options.upstream }),
    setBanMethod(lists),
    listBannedMethod(lists),
    clearBannedMethod(lists),
  ];
}
