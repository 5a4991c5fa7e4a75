/**
 * Every method zecrpc serves over a chain store, by zcashd category. The control category
 * (`help`, `stop`) belongs to the server itself (rpc/http/server.ts), since `help` reads the
 * finished registry.
 */
import type { ChainStoreReader } from '../../store/types.js';
import type { RpcMethod } from '../method.js';
import { blockchainMethods, type BlockchainMethodOptions } from './blockchain/index.js';
import { rawTransactionMethods } from './rawtransaction/index.js';

export type StoreMethodOptions = BlockchainMethodOptions;

export function storeMethods(store: ChainStoreReader, options: StoreMethodOptions = {}): RpcMethod[] {
  return [...blockchainMethods(store, options), ...rawTransactionMethods(store)];
}
