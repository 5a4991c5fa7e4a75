/**
 * The rawtransactions category (zcashd v6.12.2 src/rpc/rawtransaction.cpp `commands[]`):
 * decoderawtransaction (stateless) and getrawtransaction (over the chain store's tx index).
 */
import type { ChainStoreReader } from '../../../store/types.js';
import type { RpcMethod } from '../../method.js';
import { decodeRawTransaction } from './decoderawtransaction.js';
import { getRawTransactionMethod } from './getrawtransaction.js';

export function rawTransactionMethods(store: ChainStoreReader): RpcMethod[] {
  return [decodeRawTransaction, getRawTransactionMethod(store)];
}
