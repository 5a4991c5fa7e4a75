/**
 * The one method of zcashd's wallet category (v6.12.2 src/wallet/rpcwallet.cpp) that reads no
 * wallet and so is served without one.
 */
import type { RpcMethod } from '../../method.js';
import { zListUnifiedReceiversMethod } from './z_listunifiedreceivers.js';

export function walletlessMethods(): RpcMethod[] {
  return [zListUnifiedReceiversMethod];
}
