/**
 * The insight explorer methods (zcashd v6.12.2 src/rpc/misc.cpp and blockchain.cpp, "START
 * insightexplorer"): the addressindex category, and getspentinfo, getblockdeltas and
 * getblockhashes, which zcashd files under blockchain. All are always registered, as in zcashd;
 * without -insightexplorer / -lightwalletd they answer zcashd's "is disabled" error.
 */
import type { RpcMethod } from '../../method.js';
import type { ExperimentalFeatures } from '../control/experimental-features.js';
import type { UpstreamRelay } from '../mempool/upstream-relay.js';
import { getAddressBalanceMethod } from './getaddressbalance.js';
import { getAddressDeltasMethod } from './getaddressdeltas.js';
import { getAddressMempoolMethod } from './getaddressmempool.js';
import { getAddressTxidsMethod } from './getaddresstxids.js';
import { getAddressUtxosMethod } from './getaddressutxos.js';
import { getBlockDeltasMethod } from './getblockdeltas.js';
import { getBlockHashesMethod } from './getblockhashes.js';
import { getSpentInfoMethod } from './getspentinfo.js';
import type { InsightContext } from './insight-method.js';

export type { InsightContext } from './insight-method.js';

export function insightMethods(c: InsightContext, features: ExperimentalFeatures, upstream: UpstreamRelay | null): RpcMethod[] {
  return [
    getAddressBalanceMethod(c, features),
    getAddressDeltasMethod(c, features),
    getAddressMempoolMethod(features, upstream),
    getAddressTxidsMethod(c, features),
    getAddressUtxosMethod(c, features),
    getBlockDeltasMethod(c, features),
    getBlockHashesMethod(c, features),
    getSpentInfoMethod(c, features),
  ];
}
