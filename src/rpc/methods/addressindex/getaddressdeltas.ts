/** `getaddressdeltas` (zcashd v6.12.2 src/rpc/misc.cpp, insight explorer). */
import { encodeTransparentAddress } from '../../../codec/script/address.js';
import { toHexReversed } from '../../../codec/hex.js';
import { JsonWriter } from '../../../json/writer.js';
import { SCRIPT_P2PKH } from '../../../store/indexes/address-index.js';
import { helpExampleCli as exampleCli, helpExampleRpc as exampleRpc } from '../../help-examples.js';
import { replyOf, RPC, RpcError, type RpcMethod } from '../../method.js';
import type { ExperimentalFeatures } from '../control/experimental-features.js';
import { tipHeight } from '../blockchain/context.js';
import { EntryAllowance, EXAMPLE_ADDRESS, insightMethod, REPLY_START_BYTES, type InsightContext } from './insight-method.js';
import { addressesFromParam, chainInfoFlag, heightRange } from './params.js';

const HEAD =
  'getaddressdeltas {"addresses": ["taddr", ...], ("start": n), ("end": n), ("chainInfo": true|false)}\n' +
  '\nReturns all changes for an address.\n' +
  '\nReturns information about all changes to the given transparent addresses within the given (inclusive)\n' +
  '\nblock height range, default is the full blockchain.' +
  '\nIf start or end are not specified, they default to zero.' +
  "\nIf start is greater than the latest block height, it's interpreted as that height.\n" +
  "\nIf end is zero, it's interpreted as the latest block height.\n";

const TAIL =
  '\nArguments:\n' +
  '{\n' +
  '  "addresses":\n' +
  '    [\n' +
  '      "address" (string) The base58check encoded address\n' +
  '      ,...\n' +
  '    ]\n' +
  '  "start"       (number, optional) The start block height\n' +
  '  "end"         (number, optional) The end block height\n' +
  '  "chainInfo"   (boolean, optional, default=false) Include chain info in results, only applies if start and end specified\n' +
  '}\n' +
  '(or)\n' +
  '"address"       (string) The base58check encoded address\n' +
  '\nResult:\n' +
  '[\n' +
  '  {\n' +
  '    "satoshis"  (number) The difference of zatoshis\n' +
  '    "txid"      (string) The related txid\n' +
  '    "index"     (number) The related input or output index\n' +
  '    "height"    (number) The block height\n' +
  '    "address"   (string) The base58check encoded address\n' +
  '  }, ...\n' +
  ']\n\n' +
  '(or, if chainInfo is true):\n\n' +
  '{\n' +
  '  "deltas":\n' +
  '    [\n' +
  '      {\n' +
  '        "satoshis"    (number) The difference of zatoshis\n' +
  '        "txid"        (string) The related txid\n' +
  '        "index"       (number) The related input or output index\n' +
  '        "height"      (number) The block height\n' +
  '        "address"     (string)  The address base58check encoded\n' +
  '      }, ...\n' +
  '    ],\n' +
  '  "start":\n' +
  '    {\n' +
  '      "hash"          (string)  The start block hash\n' +
  '      "height"        (numeric) The height of the start block\n' +
  '    }\n' +
  '  "end":\n' +
  '    {\n' +
  '      "hash"          (string)  The end block hash\n' +
  '      "height"        (numeric) The height of the end block\n' +
  '    }\n' +
  '}\n' +
  '\nExamples:\n' +
  exampleCli('getaddressdeltas', `'{"addresses": ["${EXAMPLE_ADDRESS}"], "start": 1000, "end": 2000, "chainInfo": true}'`) +
  exampleRpc('getaddressdeltas', `{"addresses": ["${EXAMPLE_ADDRESS}"], "start": 1000, "end": 2000, "chainInfo": true}`);

export function getAddressDeltasMethod(c: InsightContext, features: ExperimentalFeatures): RpcMethod {
  return insightMethod(
    {
      name: 'getaddressdeltas',
      category: 'addressindex',
      required: 1,
      optional: 0,
      gate: 'insight-or-lightwalletd',
      helpHead: HEAD,
      helpTail: TAIL,
      async call(params, ctx) {
        const param = params[0]!;
        const { start, end } = heightRange(param, await tipHeight(c.store));
        const addresses = addressesFromParam(param, ctx);
        const w = new JsonWriter(REPLY_START_BYTES);
        const chainInfo = chainInfoFlag(param);
        const withInfo = chainInfo && start > 0 && end > 0;
        const allowance = new EntryAllowance(ctx, 'getaddressdeltas', addresses.length);
        if (withInfo) w.beginObject().key('deltas');
        w.beginArray();
        const reads = c.index.ranges(addresses.length);
        try {
          for (const a of addresses) {
            const address = encodeTransparentAddress(a.type === SCRIPT_P2PKH ? 'p2pkh' : 'p2sh', a.hash, ctx.network);
            for await (const batch of allowance.batches((limit) => reads.deltaBatches(a.type, a.hash, start, end, limit))) {
              for (const d of batch) {
                w.beginObject();
                w.key('address').plainStr(address);
                w.key('blockindex').int(d.txIndex);
                w.key('height').int(d.height);
                w.key('index').int(d.index);
                w.key('satoshis').int(d.value);
                w.key('txid').hexStrReversed(d.txid);
                w.endObject();
              }
            }
          }
        } finally {
          await reads.close();
        }
        w.endArray();
        if (!withInfo) return replyOf(w);
        const tip = await tipHeight(c.store);
        if (start > tip || end > tip) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Start or end is outside chain range');
        const startHash = await c.store.hashAtHeight(start);
        const endHash = await c.store.hashAtHeight(end);
        if (!startHash || !endHash) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Start or end is outside chain range');
        w.key('start').beginObject().key('hash').plainStr(toHexReversed(startHash)).key('height').int(start).endObject();
        w.key('end').beginObject().key('hash').plainStr(toHexReversed(endHash)).key('height').int(end).endObject();
        return replyOf(w.endObject());
      },
    },
    features,
  );
}
