/**
 * `getblockheader "hash" ( verbose )` (zcashd v6.12.2 src/rpc/blockchain.cpp). No height form:
 * the argument is always a leniently parsed hash, as in zcashd.
 */
import { decodeBlockHeader } from '../../../codec/block.js';
import { toHex } from '../../../codec/hex.js';
import { getBool, getStr } from '../../../json/index.js';
import { blockHeaderToJson } from '../../../render/block.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc, helpLines as lines } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { uint256FromHexLenient } from '../../params.js';
import { finalSaplingRootOf } from './block-state.js';
import { chainContext, jsonHexString, requireBlockIndex } from './context.js';

export const GETBLOCKHEADER_HELP: string =
  lines(
    'getblockheader "hash" ( verbose )',
    '',
    "If verbose is false, returns a string that is serialized, hex-encoded data for blockheader 'hash'.",
    'If verbose is true, returns an Object with information about blockheader <hash>.',
    '',
    'Arguments:',
    '1. "hash"          (string, required) The block hash',
    '2. verbose           (boolean, optional, default=true) true for a json object, false for the hex encoded data',
    '',
    'Result (for verbose = true):',
    '{',
    '  "hash" : "hash",     (string) the block hash (same as provided)',
    '  "confirmations" : n,   (numeric) The number of confirmations, or -1 if the block is not on the main chain',
    '  "height" : n,          (numeric) The block height or index',
    '  "version" : n,         (numeric) The block version',
    '  "merkleroot" : "xxxx", (string) The merkle root',
    '  "finalsaplingroot" : "xxxx", (string) The root of the Sapling commitment tree after applying this block',
    '  "time" : ttt,          (numeric) The block time in seconds since epoch (Jan 1 1970 GMT)',
    '  "nonce" : n,           (numeric) The nonce',
    '  "bits" : "1d00ffff", (string) The bits',
    '  "difficulty" : x.xxx,  (numeric) The difficulty',
    '  "previousblockhash" : "hash",  (string) The hash of the previous block',
    '  "nextblockhash" : "hash"       (string) The hash of the next block',
    '}',
    '',
    'Result (for verbose=false):',
    '"data"             (string) A string that is serialized, hex-encoded data for block \'hash\'.',
    '',
    'Examples:',
  ) +
  exampleCli('getblockheader', '"00000000c937983704a73af28acdec37b049d214adbda81d7e2a3dd146f6ed09"') +
  exampleRpc('getblockheader', '"00000000c937983704a73af28acdec37b049d214adbda81d7e2a3dd146f6ed09"');

export function getBlockHeaderMethod(store: ChainStoreReader): RpcMethod {
  return {
    name: 'getblockheader',
    category: 'blockchain',
    required: 1,
    optional: 1,
    help: GETBLOCKHEADER_HELP,
    async call(params) {
      // No height form here: the argument is always a leniently parsed hash.
      const hash = uint256FromHexLenient(getStr(params[0]!));
      const verbose = params.length > 1 ? getBool(params[1]!) : true;
      const entry = await requireBlockIndex(store, hash);
      if (!verbose) return jsonHexString(toHex(entry.header));
      let header;
      try {
        header = decodeBlockHeader(entry.header);
      } catch {
        throw new RpcError(RPC.DATABASE_ERROR, 'Failed to read index entry');
      }
      const ctx = await chainContext(store, entry, await store.tip());
      return blockHeaderToJson(header, ctx, store.network, await finalSaplingRootOf(store, entry));
    },
  };
}
