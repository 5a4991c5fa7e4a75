/**
 * `submitblock "hexdata" ( "jsonparametersobject" )` (zcashd v6.12.2 src/rpc/mining.cpp). The
 * block is decoded first (-22 "Block decode failed", as zcashd's DecodeHexBlk), and a block the
 * store already holds is "duplicate", as zcashd answers for a block it has validated. Any other
 * block goes to the -upstream node, whose BIP22 result string (or null) is relayed; it reaches
 * zecrpc's store through the upstream follower once the upstream has accepted it.
 *
 * Without -upstream zecrpc has no network to hand the block to, and says so with -9
 * (RPC_CLIENT_NOT_CONNECTED) rather than accepting a block nobody else would see.
 */
import { decodeBlock } from '../../../codec/block.js';
import { hexToBytesStrict } from '../../../codec/hex.js';
import { getStr } from '../../../json/getters.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { UPSTREAM_UNAVAILABLE, type UpstreamRelay } from '../mempool/upstream-relay.js';

export const SUBMITBLOCK_HELP: string =
  'submitblock "hexdata" ( "jsonparametersobject" )\n' +
  '\nAttempts to submit new block to network.\n' +
  "The 'jsonparametersobject' parameter is currently ignored.\n" +
  'See https://en.bitcoin.it/wiki/BIP_0022 for full specification.\n' +
  '\nArguments\n' +
  '1. "hexdata"    (string, required) the hex-encoded block data to submit\n' +
  '2. "jsonparametersobject"     (string, optional) object of optional parameters\n' +
  '    {\n' +
  '      "workid" : "id"    (string, optional) if the server provided a workid, it MUST be included with submissions\n' +
  '    }\n' +
  '\nResult:\n' +
  '"duplicate" - node already has valid copy of block\n' +
  '"duplicate-invalid" - node already has block, but it is invalid\n' +
  '"duplicate-inconclusive" - node already has block but has not validated it\n' +
  '"inconclusive" - node has not validated the block, it may not be on the node\'s current best chain\n' +
  '"rejected" - block was rejected as invalid\n' +
  'For more information on submitblock parameters and results, see: https://github.com/bitcoin/bips/blob/master/bip-0022.mediawiki#block-submission\n' +
  '\nExamples:\n' +
  exampleCli('submitblock', '"mydata"') +
  exampleRpc('submitblock', '"mydata"');

export function submitBlockMethod(store: ChainStoreReader, upstream: UpstreamRelay | null): RpcMethod {
  return {
    name: 'submitblock',
    surface: 'upstream',
    category: 'mining',
    required: 1,
    optional: 1,
    help: SUBMITBLOCK_HELP,
    async call(params, ctx) {
      const bytes = hexToBytesStrict(getStr(params[0]!));
      let hash: Uint8Array;
      try {
        if (!bytes || bytes.length === 0) throw new Error('not hex');
        hash = decodeBlock(bytes).hash;
      } catch {
        throw new RpcError(RPC.DESERIALIZATION_ERROR, 'Block decode failed');
      }
      const known = await store.blockIndex(hash);
      if (known?.haveData) return '"duplicate"';
      if (!upstream) {
        throw new RpcError(UPSTREAM_UNAVAILABLE, 'submitblock needs -upstream: zecrpc has no peer-to-peer network to send the block to');
      }
      return upstream.call('submitblock', params, ctx);
    },
  };
}
