/**
 * `getmininginfo` (zcashd v6.12.2 src/rpc/mining.cpp) for a node that has never assembled a block
 * (so no currentblocksize/currentblocktx): the tip height, GetNetworkDifficulty, no warnings,
 * -genproclimit and -gen as setgenerate left them, 0 local solutions per second, the network rate
 * over the last 120 blocks (twice: networksolps and networkhashps), and the mempool's size: the
 * -upstream node's when there is one (zecrpc's mempool methods are its), else 0.
 */
import { parseJson } from '../../../json/reader.js';
import { JsonNumber, JsonObject } from '../../../json/value.js';
import { JsonWriter } from '../../../json/writer.js';
import type { ChainStoreReader } from '../../../store/types.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import type { RpcContext, RpcMethod } from '../../method.js';
import { networkDifficulty } from '../blockchain/network-difficulty.js';
import type { UpstreamRelay } from '../mempool/upstream-relay.js';
import type { GenerateSetting } from './generate-setting.js';
import { networkHashPs } from './network-solps.js';

export const GETMININGINFO_HELP: string =
  'getmininginfo\n' +
  '\nReturns a json object containing mining-related information.' +
  '\nResult:\n' +
  '{\n' +
  '  "blocks": nnn,             (numeric) The current block\n' +
  '  "currentblocksize": nnn,   (numeric, optional) The block size of the last assembled block (only present if a block was ever assembled)\n' +
  '  "currentblocktx": nnn,     (numeric, optional) The number of block non-coinbase transactions of the last assembled block (only present if a block was ever assembled)\n' +
  '  "difficulty": xxx.xxxxx    (numeric) The current difficulty\n' +
  '  "errors": "..."          (string) Current errors\n' +
  '  "generate": true|false     (boolean) If the generation is on or off (see getgenerate or setgenerate calls)\n' +
  '  "genproclimit": n          (numeric) The processor limit for generation. -1 if no generation. (see getgenerate or setgenerate calls)\n' +
  '  "localsolps": xxx.xxxxx    (numeric) The average local solution rate in Sol/s since this node was started\n' +
  '  "networksolps": x          (numeric) The estimated network solution rate in Sol/s\n' +
  '  "pooledtx": n              (numeric) The size of the mem pool\n' +
  '  "testnet": true|false      (boolean) If using testnet or not\n' +
  '  "chain": "xxxx",         (string) current network name as defined in BIP70 (main, test, regtest)\n' +
  '}\n' +
  '\nExamples:\n' +
  exampleCli('getmininginfo', '') +
  exampleRpc('getmininginfo', '');

/** The upstream mempool's transaction count (getmempoolinfo's `size`). */
async function upstreamPoolSize(upstream: UpstreamRelay, ctx: RpcContext): Promise<string> {
  const raw = await upstream.call('getmempoolinfo', [], ctx);
  const info = parseJson(typeof raw === 'string' ? Buffer.from(raw) : raw);
  const size = info instanceof JsonObject ? info.get('size') : undefined;
  if (!(size instanceof JsonNumber) || !/^[0-9]+$/.test(size.text))
    throw new Error(`upstream node ${upstream.displayUrl}: its getmempoolinfo has no size`);
  return size.text;
}

export interface GetMiningInfoOptions {
  setting: GenerateSetting;
  upstream: UpstreamRelay | null;
  /** Wall clock in seconds (errorstimestamp). */
  clock: () => number;
}

export function getMiningInfoMethod(store: ChainStoreReader, options: GetMiningInfoOptions): RpcMethod {
  const { setting, upstream, clock } = options;
  return {
    name: 'getmininginfo',
    surface: 'peerless',
    category: 'mining',
    required: 0,
    optional: 0,
    help: GETMININGINFO_HELP,
    async call(_params, ctx) {
      const tip = await store.tip();
      const tipEntry = tip ? await store.blockIndex(tip.hash) : null;
      const difficulty = await networkDifficulty(store, tipEntry);
      const solPs = await networkHashPs(store, 120, -1);
      const pooled = upstream ? await upstreamPoolSize(upstream, ctx) : '0';
      const w = new JsonWriter().beginObject();
      w.key('blocks').int(tip ? tip.height : -1);
      w.key('difficulty').double(difficulty);
      w.key('errors').plainStr('');
      w.key('errorstimestamp').int(clock());
      w.key('genproclimit').int(setting.procLimit);
      w.key('localsolps').int(0);
      w.key('networksolps').int(solPs);
      w.key('networkhashps').int(solPs);
      w.key('pooledtx').raw(pooled);
      w.key('testnet').bool(ctx.network.name === 'testnet');
      w.key('chain').plainStr(ctx.network.chain);
      w.key('generate').bool(setting.generate);
      return w.endObject().toString();
    },
  };
}
