/**
 * The rawtransactions category (zcashd v6.12.2 src/rpc/rawtransaction.cpp `commands[]`):
 * decoderawtransaction (stateless), getrawtransaction (over the chain store's tx index),
 * decodescript and createrawtransaction; signrawtransaction joins them where the store keeps a
 * coins view (methods/index.ts).
 */
import type { TxCreationDefaults } from '../../../config.js';
import type { ChainStoreReader } from '../../../store/types.js';
import type { RpcMethod } from '../../method.js';
import type { SpentIndexLookup } from '../spent-index-lookup.js';
import { createDecodeRawTransaction, decodeRawTransaction } from './decoderawtransaction.js';
import { createRawTransactionMethod } from './createrawtransaction.js';
import { decodeScriptMethod } from './decodescript.js';
import { getRawTransactionMethod } from './getrawtransaction.js';
import { getTxOutProofMethod } from './gettxoutproof.js';
import { verifyTxOutProofMethod } from './verifytxoutproof.js';

/**
 * With `spentIndexLookup` (-insightexplorer), transaction objects carry the spent index's members;
 * `cacheReplies` off, getrawtransaction builds every reply afresh (to measure that path).
 */
export function rawTransactionMethods(
  store: ChainStoreReader,
  spentIndexLookup: SpentIndexLookup | null = null,
  txCreation?: TxCreationDefaults,
  cacheReplies = true,
): RpcMethod[] {
  const decode = spentIndexLookup ? createDecodeRawTransaction({ spentIndexLookup }) : decodeRawTransaction;
  return [
    decode,
    getRawTransactionMethod(store, { spentIndexLookup, cacheReplies }),
    decodeScriptMethod,
    createRawTransactionMethod(store, txCreation),
  ];
}

/** gettxoutproof and verifytxoutproof: zcashd registers them here, in its blockchain category. */
export function txOutProofMethods(store: ChainStoreReader): RpcMethod[] {
  return [getTxOutProofMethod(store), verifyTxOutProofMethod(store)];
}
