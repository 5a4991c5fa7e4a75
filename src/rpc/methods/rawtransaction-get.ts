/**
 * `getrawtransaction "txid" ( verbose "blockhash" )` (src/rpc/rawtransaction.cpp, v6.12.2) over
 * the chain store. zecrpc has no mempool, and its store keeps a txid index of the best chain,
 * so lookups behave like zcashd running with `-txindex`: the not-found message is the txindex
 * one, and the genesis coinbase is not found without a block hash (zcashd never connects the
 * genesis block's transactions, so its txindex has no entry for them).
 */
import { blockHeaderHash, readBlockHeader } from '../../codec/block.js';
import { ByteReader } from '../../codec/bytes.js';
import { bytesEqual, toHex } from '../../codec/hex.js';
import { readTransaction, type Transaction } from '../../codec/tx/transaction.js';
import { getInt, JsonWriter } from '../../json/index.js';
import { writeTxJson, type TxJsonExtras } from '../../json/tx.js';
import type { BlockIndexEntry, ChainStoreReader } from '../../store/types.js';
import { RPC, RpcError, type RpcMethod } from '../method.js';
import { isZeroHash, parseHashV } from '../params.js';
import { GETRAWTRANSACTION_HELP } from './blockchain-help.js';

const WALLET_HINT = '. Use gettransaction for wallet transactions.';

/** A transaction found in a stored block, with the block it came from. */
interface FoundTx {
  tx: Transaction;
  blockHash: Uint8Array;
  /** nTime of the containing block's header. */
  blockTime: number;
}

/**
 * Reads the block's transactions in order until `match` accepts one. Stops early, so looking
 * up an early transaction of a 2 MB block parses only what precedes it. A block that does not
 * decode yields nothing (GetTransaction's ReadBlockFromDisk failure).
 */
function scanBlock(bytes: Uint8Array, match: (tx: Transaction, index: number) => boolean): FoundTx | null {
  try {
    const r = new ByteReader(bytes);
    const header = readBlockHeader(r);
    const count = r.compactSize();
    for (let i = 0; i < count; i++) {
      const tx = readTransaction(r);
      if (match(tx, i)) return { tx, blockHash: blockHeaderHash(header), blockTime: header.time };
    }
  } catch {
    return null;
  }
  return null;
}

/** GetTransaction with an explicit block: only that block is searched. */
async function findInBlock(store: ChainStoreReader, entry: BlockIndexEntry, txid: Uint8Array): Promise<FoundTx> {
  const bytes = entry.haveData ? await store.blockBytes(entry.hash) : null;
  if (!bytes) throw new RpcError(RPC.MISC_ERROR, 'Block not available');
  const found = scanBlock(bytes, (tx) => bytesEqual(tx.txid, txid));
  if (!found) {
    throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, `No such transaction found in the provided block${WALLET_HINT}`);
  }
  return found;
}

/** GetTransaction through the txid index (zcashd with -txindex and an empty mempool). */
async function findInIndex(store: ChainStoreReader, txid: Uint8Array): Promise<FoundTx> {
  const notFound = new RpcError(RPC.INVALID_ADDRESS_OR_KEY, `No such mempool or blockchain transaction${WALLET_HINT}`);
  const location = await store.txLocation(txid);
  if (!location || location.height === 0) throw notFound;
  const bytes = await store.blockBytes(location.blockHash);
  if (!bytes) throw notFound;
  // zcashd re-checks the txid of what it read ("txid mismatch" → not found).
  const found = scanBlock(bytes, (tx, i) => i === location.index && bytesEqual(tx.txid, txid));
  if (!found) throw notFound;
  return found;
}

/** TxToJSON's block members: height/confirmations/time on the active chain, else -1/0. */
async function blockExtras(store: ChainStoreReader, found: FoundTx): Promise<TxJsonExtras['block']> {
  const entry = await store.blockIndex(found.blockHash);
  const tip = await store.tip();
  if (!entry) return undefined;
  if (entry.onBestChain && tip && entry.height <= tip.height) {
    return {
      hash: found.blockHash,
      height: entry.height,
      confirmations: 1 + tip.height - entry.height,
      time: found.blockTime,
    };
  }
  return { hash: found.blockHash, notIndexed: true };
}

export function getRawTransactionMethod(store: ChainStoreReader): RpcMethod {
  return {
    name: 'getrawtransaction',
    category: 'rawtransactions',
    required: 1,
    optional: 2,
    help: GETRAWTRANSACTION_HELP,
    async call(params) {
      const txid = parseHashV(params[0], 'parameter 1');
      // An int getter, unlike getblock: true/false are type errors, any non-zero is verbose.
      const verbose = params.length > 1 ? getInt(params[1]!) !== 0 : false;

      let blockEntry: BlockIndexEntry | null = null;
      if (params.length > 2) {
        const blockHash = parseHashV(params[2], 'parameter 3');
        // The all-zero hash means "no block given".
        if (!isZeroHash(blockHash)) {
          blockEntry = await store.blockIndex(blockHash);
          if (!blockEntry) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Block hash not found');
        }
      }

      const found = blockEntry ? await findInBlock(store, blockEntry, txid) : await findInIndex(store, txid);
      const hex = toHex(found.tx.bytes);
      if (!verbose) return `"${hex}"`;

      const w = new JsonWriter();
      const extras: TxJsonExtras = { leadingHex: true, block: await blockExtras(store, found) };
      if (blockEntry) {
        const tip = await store.tip();
        extras.inActiveChain = blockEntry.onBestChain && tip !== null && blockEntry.height <= tip.height;
      }
      writeTxJson(w, found.tx, store.network, extras);
      return w.toString();
    },
  };
}
