/**
 * `getblockhashes high low ( options )` (zcashd v6.12.2 src/rpc/blockchain.cpp): best-chain
 * blocks by logical timestamp, low ≤ t < high. zcashd keeps the timestamp index only with
 * -insightexplorer; with -lightwalletd alone the method is enabled but finds no index.
 * zecrpc's timestamp index holds only best-chain blocks (a disconnected block leaves it), so
 * `noOrphans` changes nothing here; in zcashd, without it, blocks of abandoned branches it once
 * connected are listed too.
 */
import { getBool, getInt, getObj } from '../../../json/getters.js';
import { JsonWriter } from '../../../json/writer.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { replyOf, RPC, RpcError, type RpcMethod } from '../../method.js';
import type { ExperimentalFeatures } from '../control/experimental-features.js';
import { EntryAllowance, insightMethod, REPLY_START_BYTES, type InsightContext } from './insight-method.js';

const HEAD =
  'getblockhashes high low ( {"noOrphans": true|false, "logicalTimes": true|false} )\n' +
  '\nReturns array of hashes of blocks within the timestamp range provided,\n' +
  '\ngreater or equal to low, less than high.\n';

const TAIL =
  '\nArguments:\n' +
  '1. high                            (numeric, required) The newer block timestamp\n' +
  '2. low                             (numeric, required) The older block timestamp\n' +
  '3. options                         (string, optional) A json object\n' +
  '    {\n' +
  '      "noOrphans": true|false      (boolean) will only include blocks on the main chain\n' +
  '      "logicalTimes": true|false   (boolean) will include logical timestamps with hashes\n' +
  '    }\n' +
  '\nResult:\n' +
  '[\n' +
  '  "xxxx"                   (hex string) The block hash\n' +
  ']\n' +
  'or\n' +
  '[\n' +
  '  {\n' +
  '    "blockhash": "xxxx"    (hex string) The block hash\n' +
  '    "logicalts": n         (numeric) The logical timestamp\n' +
  '  }\n' +
  ']\n' +
  '\nExamples:\n' +
  exampleCli('getblockhashes', '1558141697 1558141576') +
  exampleRpc('getblockhashes', '1558141697, 1558141576') +
  exampleCli('getblockhashes', `1558141697 1558141576 '{"noOrphans":false, "logicalTimes":true}'`);

export function getBlockHashesMethod(c: InsightContext, features: ExperimentalFeatures): RpcMethod {
  return insightMethod(
    {
      name: 'getblockhashes',
      category: 'blockchain',
      required: 2,
      optional: 1,
      gate: 'insight-or-lightwalletd',
      helpHead: HEAD,
      helpTail: TAIL,
      async call(params, ctx) {
        // get_int into an unsigned int: negative values wrap.
        const high = getInt(params[0]!) >>> 0;
        const low = getInt(params[1]!) >>> 0;
        let logical = false;
        if (params.length > 2) {
          const options = getObj(params[2]!);
          const noOrphans = options.get('noOrphans');
          if (noOrphans !== undefined && noOrphans !== null) getBool(noOrphans);
          const logicalTimes = options.get('logicalTimes');
          if (logicalTimes !== undefined && logicalTimes !== null) logical = getBool(logicalTimes);
        }
        if (!features.insightExplorer) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'No information available for block hashes');
        const allowance = new EntryAllowance(ctx, 'getblockhashes');
        const w = new JsonWriter(REPLY_START_BYTES).beginArray();
        for await (const batch of allowance.batches((limit) => c.index.timestampBatches(high, low, limit))) {
          for (const e of batch) {
            if (logical)
              w.beginObject()
                .key('blockhash')
                .hexStrReversed(e.hash)
                .key('logicalts')
                .int(e.logicalTime | 0)
                .endObject();
            else w.hexStrReversed(e.hash);
          }
        }
        return replyOf(w.endArray());
      },
    },
    features,
  );
}
