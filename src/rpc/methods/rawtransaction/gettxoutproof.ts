/**
 * `gettxoutproof ["txid",...] ( blockhash )` (zcashd v6.12.2 src/rpc/rawtransaction.cpp): the
 * CMerkleBlock (codec/partial-merkle-tree.ts) proving the txids are in one block: the named
 * block, else the block of the last txid given, which zecrpc finds through its transaction index
 * (as zcashd does with -txindex when the coins view no longer holds the transaction).
 */
import { toHex } from '../../../codec/hex.js';
import { buildPartialMerkleTree, encodeMerkleBlock } from '../../../codec/partial-merkle-tree.js';
import { isHex } from '../../../codec/hex.js';
import { getArray, getStr } from '../../../json/getters.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { uint256FromHexLenient } from '../../params.js';

export const GETTXOUTPROOF_HELP: string =
  'gettxoutproof ["txid",...] ( blockhash )\n' +
  '\nReturns a hex-encoded proof that "txid" was included in a block.\n' +
  '\nNOTE: By default this function only works sometimes. This is when there is an\n' +
  'unspent output in the utxo for this transaction. To make it always work,\n' +
  'you need to maintain a transaction index, using the -txindex command line option or\n' +
  'specify the block in which the transaction is included in manually (by blockhash).\n' +
  '\nReturn the raw transaction data.\n' +
  '\nArguments:\n' +
  '1. "txids"       (string) A json array of txids to filter\n' +
  '    [\n' +
  '      "txid"     (string) A transaction hash\n' +
  '      ,...\n' +
  '    ]\n' +
  '2. "block hash"  (string, optional) If specified, looks for txid in the block with this hash\n' +
  '\nResult:\n' +
  '"data"           (string) A string that is a serialized, hex-encoded data for the proof.\n';

export function getTxOutProofMethod(store: ChainStoreReader): RpcMethod {
  return {
    name: 'gettxoutproof',
    category: 'blockchain',
    required: 1,
    optional: 1,
    help: GETTXOUTPROOF_HELP,
    asciiResults: true,
    async call(params) {
      const wanted = new Set<string>();
      let oneTxid: Uint8Array = new Uint8Array(32);
      for (const item of getArray(params[0]!)) {
        const text = getStr(item);
        if (text.length !== 64 || !isHex(text)) throw new RpcError(RPC.INVALID_PARAMETER, `Invalid txid ${text}`);
        const hash = uint256FromHexLenient(text);
        if (wanted.has(toHex(hash))) throw new RpcError(RPC.INVALID_PARAMETER, `Invalid parameter, duplicated txid: ${text}`);
        wanted.add(toHex(hash));
        oneTxid = hash;
      }
      let blockHash: Uint8Array;
      if (params.length > 1) {
        blockHash = uint256FromHexLenient(getStr(params[1]!));
        if (!(await store.blockIndex(blockHash))) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Block not found');
      } else {
        const where = await store.txLocation(oneTxid);
        if (!where) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Transaction not yet in block');
        blockHash = where.blockHash;
      }
      const entry = await store.blockIndex(blockHash);
      const txids = entry?.haveData ? await store.blockTxids(blockHash) : null;
      if (!entry || !txids) throw new RpcError(RPC.INTERNAL_ERROR, "Can't read block from disk");
      const matched = txids.map((t) => wanted.has(toHex(t)));
      if (matched.filter((m) => m).length !== wanted.size) {
        throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, '(Not all) transactions not found in specified block');
      }
      return `"${toHex(encodeMerkleBlock(entry.header, buildPartialMerkleTree(txids, matched)))}"`;
    },
  };
}
