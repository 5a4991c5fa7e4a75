/**
 * `submitblock "hexdata" ( "jsonparametersobject" )` (zcashd v6.12.2 src/rpc/mining.cpp). The
 * block is decoded first (-22 "Block decode failed", as zcashd's DecodeHexBlk). A block the
 * store already holds is "duplicate", or "duplicate-invalid" when it was found invalid.
 *
 * With a store that takes blocks (`BlockAcceptor`: the serving node's own), the block goes
 * through the store's normal acceptance and zcashd's BIP22 result follows from it: null when it
 * joins the active chain (zcashd's BlockChecked with a valid state), "inconclusive" when it is
 * stored on a side branch, and zcashd's reject reason when a rule refuses it (`bip22.ts`). A
 * block accepted here is then handed to the -upstream node when one is set, whose result is the
 * reply (the network's view of the block); one refused here is not sent.
 *
 * Without such a store (a read-only one, or a library serving a reader) a new block goes to the
 * -upstream node, whose result is relayed; without -upstream either zecrpc has nowhere to put
 * it and says so with -9 (RPC_CLIENT_NOT_CONNECTED).
 */
import { checkBlockHeader } from '../../../chain/header-rules.js';
import { decodeBlock } from '../../../codec/block.js';
import { hexToBytesStrict } from '../../../codec/hex.js';
import { getStr } from '../../../json/getters.js';
import { quoteJsonString } from '../../../json/writer.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { RPC, RpcError, type RpcMethod } from '../../method.js';
import { UPSTREAM_UNAVAILABLE, type UpstreamRelay } from '../mempool/upstream-relay.js';
import { bip22Result, type BlockAcceptor } from './bip22.js';

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

const asJson = (result: string | null): string => (result === null ? 'null' : quoteJsonString(result));

export function submitBlockMethod(
  store: ChainStoreReader,
  upstream: UpstreamRelay | null,
  acceptor: BlockAcceptor | null = null,
): RpcMethod {
  return {
    name: 'submitblock',
    surface: 'upstream',
    category: 'mining',
    required: 1,
    optional: 1,
    help: SUBMITBLOCK_HELP,
    async call(params, ctx) {
      const bytes = hexToBytesStrict(getStr(params[0]!));
      let block: ReturnType<typeof decodeBlock>;
      try {
        if (!bytes || bytes.length === 0) throw new Error('not hex');
        block = decodeBlock(bytes);
      } catch {
        throw new RpcError(RPC.DESERIALIZATION_ERROR, 'Block decode failed');
      }
      const known = await store.blockIndex(block.hash);
      if (known?.haveData) return acceptor?.isMarkedInvalid(block.hash) ? '"duplicate-invalid"' : '"duplicate"';
      if (acceptor) {
        // zcashd's CheckBlock checks the header (version, Equihash, proof of work) before the
        // block's size and merkle root, which the store checks first.
        const headerProblem = checkBlockHeader(block.header, ctx.network);
        if (headerProblem) return asJson(headerProblem.rule);
        // DecodeHexBlk reads one block and ignores what follows it: so does the store here.
        const result = await bip22Result(acceptor, block.bytes);
        if (!upstream || (result !== null && result !== 'inconclusive')) return asJson(result);
        return upstream.call('submitblock', [Buffer.from(block.bytes).toString('hex'), ...params.slice(1)], ctx);
      }
      if (!upstream) {
        throw new RpcError(UPSTREAM_UNAVAILABLE, 'submitblock needs -upstream: zecrpc has no peer-to-peer network to send the block to');
      }
      return upstream.call('submitblock', params, ctx);
    },
  };
}
